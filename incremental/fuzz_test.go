package incremental

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
	"github.com/resync-dest/resync-dest/transfer"
)

// The fakes below stand in for the adapters so that a fuzz target can run
// whole incremental runs over hostile Change Lists in memory.

// fakeSource serves one document; every resource answers 404, except
// those in bodies.
type fakeSource struct {
	url    string
	doc    []byte
	bodies map[string][]byte
}

func (s *fakeSource) OpenDocument(_ context.Context, u string) (string, http.Header, io.ReadCloser, error) {
	if u != s.url {
		return "", nil, nil, fmt.Errorf("get %s: %w", u, resourcesync.ErrNotFound)
	}
	return u, nil, io.NopCloser(bytes.NewReader(s.doc)), nil
}

func (s *fakeSource) Download(_ context.Context, f resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error) {
	b, ok := s.bodies[f.URL]
	if !ok {
		return resourcesync.Fetched{}, fmt.Errorf("get %s: %w", f.URL, resourcesync.ErrNotFound)
	}
	v := resourcesync.NewVerifier(f.Hash, f.Length, f.HasLength, f.ExtraAlgs...)
	v.Write(b)
	if err := v.Verify(); err != nil {
		return resourcesync.Fetched{}, err
	}
	dst.Write(b)
	return resourcesync.Fetched{Bytes: int64(len(b)), Sums: v.Sums()}, nil
}

// fakeMirror maps http://host/path to host/path and keeps files in memory.
type fakeMirror struct {
	mu     sync.Mutex
	files  map[string][]byte
	staged map[string]stagedFile
	n      int
}

type stagedFile struct {
	rel string
	b   []byte
}

type memSink struct{ b []byte }

func (s *memSink) Write(p []byte) (int, error) { s.b = append(s.b, p...); return len(p), nil }
func (s *memSink) Reset() error                { s.b = s.b[:0]; return nil }

func newFakeMirror() *fakeMirror {
	return &fakeMirror{files: map[string][]byte{}, staged: map[string]stagedFile{}}
}

func (m *fakeMirror) Path(uri string) (string, error) {
	rel, ok := strings.CutPrefix(uri, "http://")
	if !ok || rel == "" || strings.Contains(rel, "..") || strings.HasSuffix(rel, "/") {
		return "", fmt.Errorf("%q: unmappable", uri)
	}
	return rel, nil
}

func (m *fakeMirror) HashFile(rel string, algs []string) (resourcesync.Fixity, int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[rel]
	if !ok {
		return nil, 0, fs.ErrNotExist
	}
	v := resourcesync.NewVerifier(nil, 0, false, algs...)
	v.Write(b)
	return v.Sums(), int64(len(b)), nil
}

// Mark and MadeSince: the fake has no directories to make.
func (m *fakeMirror) Mark() uint64                  { return 0 }
func (m *fakeMirror) MadeSince(string, uint64) bool { return false }

func (m *fakeMirror) Stat(rel string) (fs.FileInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[rel]; !ok {
		return nil, fs.ErrNotExist
	}
	return fakeInfo{size: int64(len(m.files[rel]))}, nil
}

func (m *fakeMirror) Put(rel string, _ time.Time, fill func(resourcesync.Sink) (bool, error)) (string, error) {
	s := &memSink{}
	keep, err := fill(s)
	if err != nil || !keep {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	t := fmt.Sprint("t", m.n)
	m.staged[t] = stagedFile{rel, s.b}
	return t, nil
}

func (m *fakeMirror) DropPartial(string) error { return nil }

// Sync has nothing to make durable in memory.
func (m *fakeMirror) Sync() error { return nil }

func (m *fakeMirror) Place(tickets []string) []error {
	m.mu.Lock()
	defer m.mu.Unlock()
	errs := make([]error, len(tickets))
	for i, t := range tickets {
		sf, ok := m.staged[t]
		if !ok {
			errs[i] = resourcesync.ErrSuperseded
			continue
		}
		m.files[sf.rel] = sf.b
		delete(m.staged, t)
	}
	return errs
}

func (m *fakeMirror) Remove(rel string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for t, sf := range m.staged {
		if sf.rel == rel {
			delete(m.staged, t)
		}
	}
	if _, ok := m.files[rel]; !ok {
		return fs.ErrNotExist
	}
	delete(m.files, rel)
	return nil
}

type fakeInfo struct{ size int64 }

func (i fakeInfo) Name() string       { return "f" }
func (i fakeInfo) Size() int64        { return i.size }
func (i fakeInfo) Mode() fs.FileMode  { return 0o644 }
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return false }
func (i fakeInfo) Sys() any           { return nil }

// fakeStore is the state in memory.
type fakeStore struct {
	mu       sync.Mutex
	held     map[string]resourcesync.Held
	failures map[string]resourcesync.Failure
	changes  map[changeRec]bool // -> failed
	lists    map[string]bool
	cursor   time.Time
}

func newFakeStore() *fakeStore {
	return &fakeStore{held: map[string]resourcesync.Held{}, failures: map[string]resourcesync.Failure{},
		changes: map[changeRec]bool{}, lists: map[string]bool{}}
}

// changeRec is a change record's key, as the state keys it.
type changeRec struct {
	uri    string
	change resourcesync.Change
	at     time.Time
}

func changeKeyOf(uri string, ch resourcesync.Change, t time.Time) changeRec {
	return changeRec{uri, ch, t.UTC()}
}

func (s *fakeStore) Held(_ context.Context, _ int64, uri string) (resourcesync.Held, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.held[uri]
	return h, ok, nil
}

func (s *fakeStore) HeldMany(_ context.Context, _ int64, uris []string) (map[string]resourcesync.Held, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]resourcesync.Held{}
	for _, u := range uris {
		if h, ok := s.held[u]; ok {
			out[u] = h
		}
	}
	return out, nil
}

func (s *fakeStore) HeldCount(context.Context, int64) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.held)), nil
}

func (s *fakeStore) OtherSetsHold(context.Context, int64) (bool, error) { return false, nil }

func (s *fakeStore) PathHolders(_ context.Context, p string) ([]int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.held {
		if h.Path == p {
			return []int64{1}, nil
		}
	}
	return nil, nil
}

func (s *fakeStore) PathOwners(_ context.Context, _ int64, paths []string) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for _, p := range paths {
		for _, h := range s.held {
			if h.Path == p && (out[p] == "" || h.URI < out[p]) {
				out[p] = h.URI
			}
		}
	}
	return out, nil
}

func (s *fakeStore) EachHeld(_ context.Context, _ int64, fn func(resourcesync.Held) error) error {
	s.mu.Lock()
	all := make([]resourcesync.Held, 0, len(s.held))
	for _, h := range s.held {
		all = append(all, h)
	}
	s.mu.Unlock()
	for _, h := range all {
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}

func (s *fakeStore) Failures(context.Context, int64) ([]resourcesync.Failure, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []resourcesync.Failure
	for _, f := range s.failures {
		out = append(out, f)
	}
	return out, nil
}

func (s *fakeStore) EachApplied(_ context.Context, _ int64, since time.Time, fn func(string, resourcesync.Change, time.Time) error) error {
	s.mu.Lock()
	var recs []changeRec
	for k, failed := range s.changes {
		if !failed && !k.at.Before(since) {
			recs = append(recs, k)
		}
	}
	s.mu.Unlock()
	for _, k := range recs {
		if err := fn(k.uri, k.change, k.at); err != nil {
			return err
		}
	}
	return nil
}

func (s *fakeStore) ListDone(_ context.Context, _ int64, u string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists[u], nil
}

func (s *fakeStore) PruneChanges(context.Context, int64, time.Time) (int64, error) { return 0, nil }

func (s *fakeStore) Commit(_ context.Context, _ int64, b *resourcesync.Batch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range b.Held {
		s.held[h.URI] = h
		delete(s.failures, h.URI)
	}
	for _, u := range b.Removed {
		delete(s.held, u)
		delete(s.failures, u)
	}
	for _, f := range b.Failed {
		s.failures[f.URI] = f
	}
	for _, c := range b.Changes {
		s.changes[changeKeyOf(c.URI, c.Change, c.Time)] = c.Failed
	}
	for _, l := range b.ListsDone {
		s.lists[l.URL] = true
	}
	if b.Cursor != nil {
		s.cursor = *b.Cursor
	}
	return nil
}

var errNoRun = errors.New("no run")

// FuzzRunChangeList runs incremental syncs over an arbitrary Change List,
// twice: whatever the document says, a run either fails as a whole or
// records every change it read (applied or failed), never moves the cursor
// back, and a second run over the same document finds every change it
// applied recorded.
func FuzzRunChangeList(f *testing.F) {
	head := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="changelist" from="2024-01-01T00:00:00Z"/>`
	f.Add([]byte(head + `<url><loc>http://e/a</loc><lastmod>2024-01-02T00:00:00Z</lastmod><rs:md change="created"/></url>` +
		`<url><loc>http://e/a</loc><lastmod>2024-01-02T01:00:00+02:00</lastmod><rs:md change="deleted"/></url>` +
		`<url><loc>/b</loc><lastmod>2024-01-03T00:00:00Z</lastmod><rs:md change="updated" hash="md5:0cc175b9c0f1b6a831c399e269772661" length="1"/></url></urlset>`))
	f.Add([]byte(head + `<url><loc>http://e/b</loc><lastmod>2024-01-03T00:00:00Z</lastmod><rs:md change="moved" datetime="2023-01-01T00:00:00Z"/></url></urlset>`))
	f.Add([]byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="changelist" from="2024-01-01T00:00:00Z"/><sitemap><loc>http://e/cl-1.xml</loc></sitemap></sitemapindex>`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 1<<16 {
			return
		}
		src := &fakeSource{url: "http://e/cl.xml", doc: doc, bodies: map[string][]byte{"http://e/b": []byte("a")}}
		m, st := newFakeMirror(), newFakeStore()
		start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		o := DefaultOptions()
		o.Workers, o.Delete, o.MaxDelete = 2, true, transfer.DeleteLimit{Percent: 100, IsPercent: true}
		o.Scope = resourcesync.NewScope([]string{"http://e/"}, nil)
		open := func(ctx context.Context, u string) (string, io.ReadCloser, error) {
			final, _, body, err := src.OpenDocument(ctx, u)
			return final, body, err
		}
		d := Deps{Open: open, Fetcher: src, Mirror: m, Store: st, Log: zerolog.Nop(),
			NewBacklog: func() (Backlog, error) { return state.NewBacklog(t.TempDir()) }}
		set := Set{ID: 1, CapabilityList: "http://e/caps.xml", ChangeList: src.url, Cursor: start}
		sum, err := Run(context.Background(), set, d, o)
		if sum == nil {
			t.Fatal(errNoRun)
		}
		if err != nil {
			return // a document that cannot be read changes nothing worth checking
		}
		if sum.Applied+sum.ChangesFailed != sum.Changes-sum.AlreadyDone {
			t.Fatalf("%d changes read, %d done before, but %d applied and %d failed", sum.Changes, sum.AlreadyDone, sum.Applied, sum.ChangesFailed)
		}
		if sum.Cursor.Before(start) || st.cursor.After(sum.Cursor) {
			t.Fatalf("cursor %v (recorded %v), started at %v", sum.Cursor, st.cursor, start)
		}
		set.Cursor = sum.Cursor
		again, err := Run(context.Background(), set, d, o)
		if err != nil {
			t.Fatalf("second run: %v", err)
		}
		if again.Applied != 0 && sum.ChangesFailed == 0 {
			t.Fatalf("the second run applied %d changes again", again.Applied)
		}
	})
}
