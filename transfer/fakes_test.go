package transfer

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// fakeMirror stages files in memory. Sync can be made to block (gate) or
// fail; Place can fail per ticket.
type fakeMirror struct {
	mu        sync.Mutex
	n         int
	staged    map[string]string // ticket -> rel
	published []string          // rels, in the order placed
	calls     [][]string        // tickets of each Place call
	syncs     int               // Sync calls
	ticketErr map[string]error  // by rel
	fatal     error
	putErr    error
	gate      chan struct{} // when set, each Sync waits for a value
	entered   chan struct{} // when set, each Sync sends on it first
}

func newFakeMirror() *fakeMirror {
	return &fakeMirror{staged: map[string]string{}, ticketErr: map[string]error{}}
}

func (m *fakeMirror) Put(rel string, _ time.Time, fill func(resourcesync.Sink) (bool, error)) (string, error) {
	if m.putErr != nil {
		return "", m.putErr
	}
	keep, err := fill(&memSink{})
	if err != nil || !keep {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	t := "%tmp-" + rel
	m.staged[t] = rel
	return t, nil
}

func (m *fakeMirror) DropPartial(string) error { return nil }

func (m *fakeMirror) Sync() error {
	if m.entered != nil {
		m.entered <- struct{}{}
	}
	if m.gate != nil {
		<-m.gate
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.syncs++
	return m.fatal
}

func (m *fakeMirror) Place(tickets []string) []error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, append([]string(nil), tickets...))
	errs := make([]error, len(tickets))
	for i, t := range tickets {
		rel := m.staged[t]
		if err := m.ticketErr[rel]; err != nil {
			errs[i] = err
			continue
		}
		m.published = append(m.published, rel)
	}
	return errs
}

// memSink is a Sink in memory.
type memSink struct{ b []byte }

func (s *memSink) Write(p []byte) (int, error) { s.b = append(s.b, p...); return len(p), nil }
func (s *memSink) Reset() error                { s.b = s.b[:0]; return nil }

// fakeStore records committed batches.
type fakeStore struct {
	mu      sync.Mutex
	batches []resourcesync.Batch
	err     error
}

func (s *fakeStore) Commit(_ context.Context, _ int64, b *resourcesync.Batch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.batches = append(s.batches, *b)
	return nil
}

func (s *fakeStore) all() resourcesync.Batch {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out resourcesync.Batch
	for _, b := range s.batches {
		out.Held = append(out.Held, b.Held...)
		out.Removed = append(out.Removed, b.Removed...)
		out.Failed = append(out.Failed, b.Failed...)
		out.Changes = append(out.Changes, b.Changes...)
		if b.Cursor != nil {
			out.Cursor = b.Cursor
		}
	}
	return out
}

// fakeFetcher answers Download from a script.
type fakeFetcher struct {
	body        string
	notModified bool
	err         error
	got         resourcesync.Fetch
}

func (f *fakeFetcher) Download(_ context.Context, fe resourcesync.Fetch, dst resourcesync.Sink) (resourcesync.Fetched, error) {
	f.got = fe
	if f.err != nil {
		return resourcesync.Fetched{}, f.err
	}
	if f.notModified {
		return resourcesync.Fetched{NotModified: true}, nil
	}
	dst.Write([]byte(f.body))
	return resourcesync.Fetched{Bytes: int64(len(f.body)), Sums: resourcesync.Fixity{{Alg: "md5", Hex: "x"}}, ETag: `"e"`}, nil
}

var errBoom = errors.New("boom")
