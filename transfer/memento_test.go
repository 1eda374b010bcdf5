package transfer_test

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/transfer"
)

// fakeKeeper is a VersionKeeper that remembers what it kept; seen makes
// Keep answer that the version is kept already (kept meanwhile: without
// reading), err that keeping fails once the version was read.
type fakeKeeper struct {
	seen bool
	err  error

	mu   sync.Mutex
	kept map[string][]byte
}

func (k *fakeKeeper) Kept(string, time.Time) bool { return false }

func (k *fakeKeeper) Keep(rel string, at time.Time, r io.Reader) (string, error) {
	name := rel + "@" + at.UTC().Format(time.RFC3339)
	if k.seen {
		return name, nil
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("keep the version of %s: %w", rel, err)
	}
	if k.err != nil {
		return "", fmt.Errorf("keep the version of %s: %w", rel, k.err)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.kept == nil {
		k.kept = map[string][]byte{}
	}
	k.kept[name] = b
	return name, nil
}

// A change's memento with --keep-versions: the version it names is
// fetched, verified and kept; a memento that fails is not kept and
// leaves the resource to be brought in step; a version that cannot be
// kept fails the resource, a disk fault the run.
func TestKeepMementos(t *testing.T) {
	badHash := resourcesync.Fixity{{Alg: resourcesync.AlgMD5, Hex: "00000000000000000000000000000000"}}
	tests := []struct {
		name     string
		link     func(l *resourcesync.Link)
		version  func(v *resourcesync.Version)
		seen     bool
		keepErr  error
		kept     bool
		failed   int64
		runErr   error
		requests int // of the memento (the resource's own URI here), the unit's fetch included
	}{
		{name: "verified by the link's hash", kept: true, requests: 2},
		{name: "verified by the change's hash", link: func(l *resourcesync.Link) { l.Hash = nil }, kept: true, requests: 2},
		{name: "kept already: not read", seen: true, requests: 2},
		{name: "wrong bytes: not kept, the resource in step", link: func(l *resourcesync.Link) { l.Hash = badHash }, requests: 2},
		{name: "nothing to verify against: not fetched", link: func(l *resourcesync.Link) { l.Hash = nil },
			version: func(v *resourcesync.Version) { v.Fixity = nil }, requests: 1},
		{name: "a host not allowed: not fetched", link: func(l *resourcesync.Link) { l.Href = "http://127.0.0.9:1/m" }, requests: 1},
		{name: "cannot be kept: the resource fails", keepErr: errors.New("read-only versions"), failed: 1, requests: 1},
		{name: "disk fault: the run stops", keepErr: syscall.ENOSPC, runErr: resourcesync.ErrLocal, requests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newEngineHarness(t)
			r := h.Src.Resources(0)[0]
			u := unit(r, r.LastMod)
			m := transfer.Memento{Link: resourcesync.Link{Rel: resourcesync.RelMemento, Href: r.URI, Hash: r.Fixity},
				Version: resourcesync.Version{Fixity: r.Fixity, Length: r.Size, HasLength: true, LastMod: r.LastMod.Add(-time.Hour)}}
			if tt.link != nil {
				tt.link(&m.Link)
			}
			if tt.version != nil {
				tt.version(&m.Version)
			}
			u.Mementos = []transfer.Memento{m}
			k := &fakeKeeper{seen: tt.seen, err: tt.keepErr}
			h.Src.ResetCounts()
			err := h.run(&planner{units: []*transfer.Unit{u}}, nil, func(o *transfer.RunOptions) { o.Versions = k })
			if !errors.Is(err, tt.runErr) || (err != nil && tt.runErr == nil) {
				t.Fatalf("run: %v, want %v", err, tt.runErr)
			}
			if tt.runErr != nil {
				return
			}
			want, _ := h.Src.Content(r.URI)
			got, ok := k.kept[u.Path+"@"+m.Version.LastMod.UTC().Format(time.RFC3339)]
			if ok != tt.kept || (ok && string(got) != string(want)) {
				t.Errorf("kept %v (the version's bytes %v), want kept %v", ok, string(got) == string(want), tt.kept)
			}
			if h.counts.Failed != tt.failed || h.counts.Created+h.counts.Failed != 1 {
				t.Errorf("counts %+v, want %d failed, else created", h.counts, tt.failed)
			}
			if n := h.Src.Requests(r.Path); n != tt.requests {
				t.Errorf("%d requests of %s, want %d", n, r.Path, tt.requests)
			}
		})
	}
}

// seenKeeper has every version kept already.
type seenKeeper struct{ fakeKeeper }

func (*seenKeeper) Kept(string, time.Time) bool { return true }

// A version kept by an earlier run is not fetched from its memento again.
func TestKeepMementosKeptAlready(t *testing.T) {
	h := newEngineHarness(t)
	r := h.Src.Resources(0)[0]
	u := unit(r, r.LastMod)
	u.Mementos = []transfer.Memento{{Link: resourcesync.Link{Rel: resourcesync.RelMemento, Href: r.URI + "?memento"},
		Version: resourcesync.Version{Fixity: r.Fixity, LastMod: r.LastMod}}}
	k := &seenKeeper{}
	h.Src.ResetCounts()
	if err := h.run(&planner{units: []*transfer.Unit{u}}, nil, func(o *transfer.RunOptions) { o.Versions = k }); err != nil {
		t.Fatal(err)
	}
	if n := h.Src.Requests(r.Path); n != 1 || len(k.kept) != 0 || h.counts.Created != 1 {
		t.Errorf("%d requests (want 1: the resource's own), %d kept, counts %+v", n, len(k.kept), h.counts)
	}
}
