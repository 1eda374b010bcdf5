package agent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/fixtures"
)

// Issue 22, item 10: discovery's bound on documents is per kind, so that a
// Source naming 1,000 sets is read whole (it stopped after 199 when one
// bound of 200 documents covered everything), while loops and hostile
// lists of documents stay bounded.
func TestDiscoverThousandSets(t *testing.T) {
	src, _ := served(t, func(s *fixtures.Spec) { s.Sets = 1000; s.Resources = 1000; s.DumpPackages = 1 })
	src.ResetCounts()
	d, err := discover(t, src.URL())
	if err != nil {
		t.Fatal(err)
	}
	checkSource(t, d, src)
	for _, s := range d.Sets {
		if s.Err != nil {
			t.Fatalf("set %s: %v", s.CapabilityList, s.Err)
		}
	}
	// Each set's Capability List once and its Resource Dump's header
	// once, plus a few documents to find the Source: nothing twice.
	if n := src.TotalRequests(); n > 2*1000+10 {
		t.Errorf("%d requests for 1,000 sets", n)
	}
}

// A Source Description naming more sets than the bound fails discovery
// with an error naming the bound - after fetching no more Capability Lists
// than it allows - rather than running on or silently dropping sets.
func TestDiscoverBoundsEachKind(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 30; s.Resources = 30 })
	o := agent.DefaultDiscoverOptions()
	o.MaxCapabilityLists = 10
	src.ResetCounts()
	_, err := agent.Discover(context.Background(), testClient(t), srv.URL, o)
	if !errors.Is(err, agent.ErrTooManyDocuments) || !strings.Contains(err.Error(), "10 Capability List documents") {
		t.Fatalf("err = %v, want the bound on Capability Lists named", err)
	}
	cls := 0
	for k := range src.Sets() {
		cls += src.Requests(strings.TrimPrefix(src.CapabilityListURL(k), strings.TrimSuffix(src.URL(), "/")))
	}
	if cls != 10 {
		t.Errorf("%d Capability Lists fetched, want the 10 allowed", cls)
	}

	// A robots.txt with a thousand Sitemap lines: the probes stop at their
	// bound, the rest are not fetched.
	var robots strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&robots, "Sitemap: %snot-here/%d.xml\n", src.URL(), i)
	}
	src.SetRaw("/robots.txt", "text/plain", []byte(robots.String()))
	src.SetNotFound("/.well-known/resourcesync")
	src.SetRaw("/start.html", "text/html", []byte("<html>nothing here</html>"))
	src.ResetCounts()
	_, err = discover(t, src.URL()+"start.html")
	if !errors.Is(err, agent.ErrNotResourceSync) {
		t.Fatalf("err = %v, want no Source found", err)
	}
	if n := src.TotalRequests(); n > agent.DefaultDiscoverOptions().MaxProbes {
		t.Errorf("%d requests, want at most the %d probes", n, agent.DefaultDiscoverOptions().MaxProbes)
	}
}
