package baseline_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/fixtures/desttest"
	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/source"
	"github.com/resync-dest/resync-dest/state"
)

// harness is a fixture Source on loopback and a Destination made of the
// real adapters: the HTTP client, a mirror in a temp directory and a
// SQLite state file.
type harness struct {
	t      *testing.T
	src    *fixtures.Source
	srv    *fixtures.Server
	client *source.Client
	dest   string
	local  *desttest.Local
	mirror *mirror.Mirror // local's
	db     *state.DB      // local's
	set    baseline.Set
}

func newHarness(t *testing.T, mod func(*fixtures.Spec)) *harness {
	t.Helper()
	spec := fixtures.DefaultSpec()
	spec.Resources = 60
	if mod != nil {
		mod(&spec)
	}
	src, srv := fixtures.NewServed(t, spec)
	h := &harness{t: t, src: src, srv: srv, client: desttest.Client(t), dest: filepath.Join(t.TempDir(), "mirror")}
	h.open(false)
	return h
}

// open opens the mirror and the state, read-only for a dry run.
func (h *harness) open(readOnly bool) {
	t := h.t
	t.Helper()
	h.local = desttest.Open(t, h.dest, readOnly)
	h.mirror, h.db = h.local.Mirror, h.local.DB
	set, err := h.db.EnsureSet(context.Background(), h.src.CapabilityListURL(0), h.src.SourceDescriptionURL())
	if err != nil {
		t.Fatal(err)
	}
	h.set = baseline.Set{ID: set.ID, CapabilityList: h.src.CapabilityListURL(0), ResourceList: h.src.ResourceListURL(0)}
}

func (h *harness) close() { h.local.Close() }

func (h *harness) reopen(readOnly bool) {
	h.close()
	h.open(readOnly)
}

func (h *harness) deps() baseline.Deps {
	return baseline.Deps{
		Fetcher: h.client, Mirror: h.mirror, Store: h.db, Log: zerolog.Nop(),
		NewListing: func() (baseline.Listing, error) { return state.NewListing(h.t.TempDir()) },
	}
}

// run runs a baseline of the set with default options changed by mod.
func (h *harness) run(mod func(*baseline.Options)) (*baseline.Summary, error) {
	h.t.Helper()
	o := baseline.DefaultOptions()
	o.Workers = 4
	o.Scope = resourcesync.NewScope([]string{h.src.URL()}, nil)
	if mod != nil {
		mod(&o)
	}
	return baseline.Run(context.Background(), h.set, h.deps(), o)
}

// mustRun runs a baseline that must succeed.
func (h *harness) mustRun(mod func(*baseline.Options)) *baseline.Summary {
	h.t.Helper()
	sum, err := h.run(mod)
	if err != nil {
		h.t.Fatalf("baseline: %v", err)
	}
	return sum
}

// pathOf is where the mirror keeps uri.
func (h *harness) pathOf(uri string) string {
	h.t.Helper()
	rel, err := h.mirror.Path(uri)
	if err != nil {
		h.t.Fatal(err)
	}
	return filepath.Join(h.dest, filepath.FromSlash(rel))
}

// assertIdentical checks that the mirror holds exactly the Source's live
// resources of set 0, byte for byte, and nothing else outside
// .resync-dest.
func (h *harness) assertIdentical() {
	t := h.t
	t.Helper()
	want := map[string][]byte{}
	for _, r := range h.src.Resources(0) {
		b, ok := h.src.Content(r.URI)
		if !ok {
			t.Fatalf("no content for %s", r.URI)
		}
		want[h.pathOf(r.URI)] = b
	}
	got := h.files()
	for p, b := range want {
		if !bytes.Equal(got[p], b) {
			t.Errorf("%s: mirror has %d bytes, Source %d (or different bytes)", p, len(got[p]), len(b))
		}
		delete(got, p)
	}
	for p := range got {
		t.Errorf("extra file in the mirror: %s", p)
	}
}

// files reads every regular file of the mirror outside .resync-dest,
// keyed by its path as pathOf gives it.
func (h *harness) files() map[string][]byte {
	h.t.Helper()
	out := map[string][]byte{}
	for rel, b := range fixtures.MirrorFiles(h.t, h.dest) {
		out[filepath.Join(h.dest, filepath.FromSlash(rel))] = b
	}
	return out
}
