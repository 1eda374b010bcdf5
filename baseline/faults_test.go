package baseline_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestWrongBytesKeepTheOldCopy(t *testing.T) {
	h := newHarness(t, nil)
	h.mustRun(nil)
	r := h.Src.Resources(0)[4]
	old, _ := h.Src.Content(r.URI)
	h.Src.Apply(h.Src.At().Add(time.Hour), fixtures.Mutation{Kind: fixtures.Update, Path: r.Path})
	h.Src.SetFault(r.Path, fixtures.Fault{Body: fixtures.FlipByte, At: 100})
	h.Src.ResetCounts()
	sum := h.mustRun(nil)
	if sum.Failed != 1 || sum.Updated != 0 {
		t.Fatalf("%+v", sum.Counts)
	}
	if n := h.Src.Requests(r.Path); n != 2 {
		t.Errorf("%d requests for the damaged resource, want 2 (one re-fetch)", n)
	}
	if !strings.Contains(sum.Failures[0].Cause, "does not match") {
		t.Errorf("cause %q", sum.Failures[0].Cause)
	}
	got, _ := os.ReadFile(h.PathOf(r.URI))
	if !bytes.Equal(got, old) {
		t.Errorf("the previous version was not kept")
	}
	fails, _ := h.DB.Failures(context.Background(), h.set.ID)
	if len(fails) != 1 || fails[0].URI != r.URI {
		t.Fatalf("state failures %+v", fails)
	}
	h.Src.ClearFaults()
	if sum := h.mustRun(nil); sum.Updated != 1 {
		t.Fatalf("after the fault: %+v", sum.Counts)
	}
	h.AssertIdentical()
	if fails, _ := h.DB.Failures(context.Background(), h.set.ID); len(fails) != 0 {
		t.Errorf("a fixed resource keeps its failure: %+v", fails)
	}
}

func TestTransientFaultsAreRetried(t *testing.T) {
	for _, f := range []fixtures.Fault{
		{Status: []int{503}, Times: 1},
		{Body: fixtures.Truncate, At: 10, Times: 1},
		{Body: fixtures.Reset, At: 10, Times: 1},
		{Body: fixtures.CloseDelimited, At: 10, Times: 1},
	} {
		t.Run(fmt.Sprintf("status %v body %v", f.Status, f.Body), func(t *testing.T) {
			h := newHarness(t, nil)
			r := h.Src.Resources(0)[9]
			h.Src.SetFault(r.Path, f)
			sum := h.mustRun(nil)
			if sum.Created != 60 || sum.Failed != 0 {
				t.Fatalf("%+v", sum.Counts)
			}
			if n := h.Src.Requests(r.Path); n != 2 {
				t.Errorf("%d requests, want 2", n)
			}
			h.AssertIdentical()
		})
	}
}

func TestNotFoundResourceFailsAlone(t *testing.T) {
	h := newHarness(t, nil)
	r := h.Src.Resources(0)[11]
	h.Src.SetNotFound(r.Path)
	sum := h.mustRun(nil)
	if sum.Failed != 1 || sum.Created != 59 {
		t.Fatalf("%+v", sum.Counts)
	}
	if !strings.Contains(sum.Failures[0].Cause, "404") {
		t.Errorf("cause %q does not say 404", sum.Failures[0].Cause)
	}
}

func TestSourceDownStopsTheRun(t *testing.T) {
	h := newHarness(t, nil)
	h.Src.SetFault("/dataset1/res/*", fixtures.Fault{Status: []int{503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503, 503}})
	_, err := h.run(func(o *baseline.Options) { o.MaxUnavailable = 5; o.Workers = 1 })
	if !errors.Is(err, resourcesync.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if got := h.Files(); len(got) != 0 {
		t.Errorf("%d files written", len(got))
	}
}

func TestResourceListUnavailable(t *testing.T) {
	h := newHarness(t, nil)
	h.Src.SetFault("/dataset1/resourcelist.xml", fixtures.Fault{Status: []int{503, 503, 503, 503, 503}})
	sum, err := h.run(nil)
	if !errors.Is(err, resourcesync.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if sum.Created != 0 || len(h.Files()) != 0 {
		t.Errorf("something was written: %+v", sum.Counts)
	}
}

func TestMalformedListNamesTheDocument(t *testing.T) {
	h := newHarness(t, nil)
	h.Src.SetRaw("/dataset1/resourcelist.xml", "application/xml", []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/>
<url><loc>`+h.Src.Resources(0)[0].URI+`</loc></url>
<url><lastmod>2024-01-01</lastmod></url>
</urlset>`))
	sum, err := h.run(nil)
	var pe *resourcesync.ParseError
	if !errors.As(err, &pe) || pe.Entry != 2 || !strings.Contains(err.Error(), h.Src.ResourceListURL(0)) {
		t.Fatalf("err = %v, want a parse error at entry 2 naming the list", err)
	}
	if sum.Created != 1 {
		t.Errorf("what came before the bad entry was not kept: %+v", sum.Counts)
	}
}
