package benchmark

import (
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// Warm asks once for every document of the Source - the description, the
// capability list, the Resource List, the Change List Index and each of
// its lists - and for no resource.
func TestWarmFetchesEveryDocumentOnce(t *testing.T) {
	spec := fixtures.DefaultSpec()
	spec.Resources = 50
	src, srv, err := Serve(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := src.AdvanceRandom(2500, time.Second); err != nil {
		t.Fatal(err)
	}
	if err := Warm(src.SourceDescriptionURL()); err != nil {
		t.Fatal(err)
	}
	if n := src.ResourceBodies(); n != 0 {
		t.Errorf("Warm fetched %d resources, want none", n)
	}
	want := []string{"/.well-known/resourcesync", "/dataset1/capabilitylist.xml", "/dataset1/resourcelist.xml",
		"/dataset1/changelist.xml", "/dataset1/changelist-1.xml", "/dataset1/changelist-2.xml", "/dataset1/changelist-3.xml"}
	for _, p := range want {
		if n := src.Requests(p); n != 1 {
			t.Errorf("%s asked for %d times, want once", p, n)
		}
	}
}

// A document that is not XML, or missing, is an error that names it.
func TestWarmSaysWhichDocumentFailed(t *testing.T) {
	src, srv, err := Serve(fixtures.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	src.SetRaw("/dataset1/capabilitylist.xml", "application/xml", []byte("<urlset><url><loc>"))
	err = Warm(src.SourceDescriptionURL())
	if err == nil || !strings.Contains(err.Error(), "/dataset1/capabilitylist.xml") {
		t.Errorf("Warm of a Source with a broken capability list = %v, want an error naming it", err)
	}
	src.ClearRaw("/dataset1/capabilitylist.xml")
	src.SetNotFound("/dataset1/resourcelist.xml")
	err = Warm(src.SourceDescriptionURL())
	if err == nil || !strings.Contains(err.Error(), "/dataset1/resourcelist.xml") || !strings.Contains(err.Error(), "404") {
		t.Errorf("Warm of a Source without its Resource List = %v, want an error naming it and the status", err)
	}
}
