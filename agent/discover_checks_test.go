package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// withEntry returns the Capability List at clURL with entry added last.
func withEntry(t *testing.T, clURL, entry string) []byte {
	t.Helper()
	cl := string(mustGet(t, clURL))
	if !strings.Contains(cl, "</urlset>") {
		t.Fatalf("no </urlset> in %s", clURL)
	}
	return []byte(strings.Replace(cl, "</urlset>", entry+"</urlset>", 1))
}

// A framework notification channel (Framework Notification §5) is
// reported with its topic and its rel="hub", resolved like every other URL;
// the topic is not fetched, as it is no document.
func TestDiscoverNotificationChannels(t *testing.T) {
	const hub = "http://hub.example.org/websub/"
	src, srv := served(t, func(s *fixtures.Spec) { s.Sets = 2; s.Hub = hub })
	// Set 2 advertises a change notification channel with a relative hub.
	src.SetRaw(fixtures.PathOf(t, src.CapabilityListURL(1)), "application/xml", withEntry(t, src.CapabilityListURL(1),
		`<url><loc>changes/</loc><rs:ln rel="hub" href="/websub"/><rs:md capability="change-notification"/></url>`))
	d, err := discover(t, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	checkSource(t, d, src)
	if len(d.Warnings) != 0 {
		t.Errorf("warnings: %q", d.Warnings)
	}
	for k := range src.Sets() {
		s, _ := d.Set(src.CapabilityListURL(k))
		topic := strings.TrimSuffix(src.CapabilityListURL(k), "capabilitylist.xml") + "framework/"
		got, ok := doc(s, resourcesync.CapFrameworkNotification)
		if !ok || got.URL != topic || got.Hub != hub {
			t.Errorf("set %d framework notification channel %+v, want topic %s hub %s", k, got, topic, hub)
		}
		if n := src.Requests(fixtures.PathOf(t, topic)); n != 0 {
			t.Errorf("the topic %s was fetched %d times", topic, n)
		}
	}
	s, _ := d.Set(src.CapabilityListURL(1))
	got, ok := doc(s, resourcesync.CapChangeNotification)
	wantTopic := strings.TrimSuffix(src.CapabilityListURL(1), "capabilitylist.xml") + "changes/"
	if !ok || got.URL != wantTopic || got.Hub != srv.URL+"websub" {
		t.Errorf("change notification channel %+v, want topic %s hub %swebsub", got, wantTopic, srv.URL)
	}
	s, _ = d.Set(src.CapabilityListURL(0))
	if got, ok := doc(s, resourcesync.CapChangeNotification); ok {
		t.Errorf("set 1 has a change notification channel %+v", got)
	}
}

func doc(s *agent.SetInfo, c resourcesync.Capability) (agent.CapabilityDoc, bool) {
	for _, d := range s.Capabilities {
		if d.Capability == c {
			return d, true
		}
	}
	return agent.CapabilityDoc{}, false
}

// Dumps and archives are checked to be what the Capability List names them
// (§9): a mismatch is the set's error naming the Capability List and the
// document; the other set is untouched.
func TestDiscoverCapabilityMismatch(t *testing.T) {
	spec := func(s *fixtures.Spec) {
		s.Sets, s.DumpPackages, s.ChangeDump = 2, 2, true
		s.Resources, s.ListMax = 20, 4 // set 1's Resource List is an index
	}
	archive := `<url><loc>archive.xml</loc><rs:md capability="resourcelist-archive"/></url>`
	tests := []struct {
		name string
		// serve returns what the Source serves at path instead of its
		// document, and the capability discovery should find there.
		serve     func(t *testing.T, src *fixtures.Source) (path string, body []byte, got resourcesync.Capability)
		want      resourcesync.Capability
		wantIndex bool
	}{
		{"Resource Dump that is a Change Dump", func(t *testing.T, src *fixtures.Source) (string, []byte, resourcesync.Capability) {
			return fixtures.PathOf(t, src.ResourceDumpURL(0)), mustGet(t, src.ChangeDumpURL(0)), resourcesync.CapChangeDump
		}, resourcesync.CapResourceDump, false},
		{"Change Dump that is a Resource Dump", func(t *testing.T, src *fixtures.Source) (string, []byte, resourcesync.Capability) {
			return fixtures.PathOf(t, src.ChangeDumpURL(0)), mustGet(t, src.ResourceDumpURL(0)), resourcesync.CapResourceDump
		}, resourcesync.CapChangeDump, false},
		{"Resource Dump that is a Resource List Index", func(t *testing.T, src *fixtures.Source) (string, []byte, resourcesync.Capability) {
			return fixtures.PathOf(t, src.ResourceDumpURL(0)), mustGet(t, src.ResourceListURL(0)), resourcesync.CapResourceList
		}, resourcesync.CapResourceDump, true},
		{"Change Dump that is an HTML page", func(t *testing.T, src *fixtures.Source) (string, []byte, resourcesync.Capability) {
			return fixtures.PathOf(t, src.ChangeDumpURL(0)), []byte("<html><body>moved</body></html>"), ""
		}, resourcesync.CapChangeDump, false},
		{"Resource List Archive that is a Resource List", func(t *testing.T, src *fixtures.Source) (string, []byte, resourcesync.Capability) {
			src.SetRaw(fixtures.PathOf(t, src.CapabilityListURL(0)), "application/xml", withEntry(t, src.CapabilityListURL(0), archive))
			return "/dataset1/archive.xml", mustGet(t, src.ResourceListURL(0)), resourcesync.CapResourceList
		}, resourcesync.CapResourceListArchive, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, srv := served(t, spec)
			path, body, got := tt.serve(t, src)
			if tt.wantIndex != strings.Contains(string(body), "<sitemapindex") {
				t.Fatalf("the document served is not the kind the case is about:\n%s", body)
			}
			src.SetRaw(path, "application/xml", body)
			d, err := discover(t, srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			bad, _ := d.Set(src.CapabilityListURL(0))
			good, _ := d.Set(src.CapabilityListURL(1))
			if good.Err != nil {
				t.Errorf("the other set: %v", good.Err)
			}
			var me *resourcesync.CapabilityMismatchError
			if !errors.As(bad.Err, &me) || me.Got != got || me.Want != tt.want || me.URL != srv.URL+strings.TrimPrefix(path, "/") {
				t.Fatalf("set error %v, want a mismatch at %s: %q for %q", bad.Err, path, got, tt.want)
			}
			for _, want := range []string{src.CapabilityListURL(0), me.URL, tt.want.Name()} {
				if !strings.Contains(bad.Err.Error(), want) || !strings.Contains(bad.Error, want) {
					t.Errorf("set error does not say %q: %v", want, bad.Err)
				}
			}
		})
	}
}

// Checking a dump reads its index, never the index's parts or packages.
func TestDiscoverChecksDumpsCheaply(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.DumpPackages, s.DumpMax, s.ChangeDump = 2, 1, true })
	d, err := discover(t, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	checkSource(t, d, src)
	if len(d.Warnings) != 0 {
		t.Errorf("warnings: %q", d.Warnings)
	}
	for _, p := range []string{"/dataset1/resourcedump.xml", "/dataset1/changedump.xml"} {
		if n := src.Requests(p); n != 1 {
			t.Errorf("%s fetched %d times, want 1", p, n)
		}
	}
	for _, p := range []string{"/dataset1/resourcedump-part1.xml", "/dataset1/resourcedump-1.zip", "/dataset1/changedump-1.zip"} {
		if n := src.Requests(p); n != 0 {
			t.Errorf("%s fetched %d times, want 0", p, n)
		}
	}
}

// A dump that cannot be fetched is warned about, not a set error: the sync
// may not need it.
func TestDiscoverUnreadableDumpWarns(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.DumpPackages = 2 })
	src.SetNotFound(fixtures.PathOf(t, src.ResourceDumpURL(0)))
	d, err := discover(t, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	checkSource(t, d, src)
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], src.ResourceDumpURL(0)) || !strings.Contains(d.Warnings[0], src.CapabilityListURL(0)) {
		t.Errorf("warnings: %q", d.Warnings)
	}
}

// A Capability List names each capability once (§9); a second entry is
// warned about, the first kept, and discovery goes on with the rest.
func TestDiscoverDuplicateCapabilityWarns(t *testing.T) {
	src, srv := served(t, nil)
	cl := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="` + src.SourceDescriptionURL() + `"/>
  <rs:ln rel="describedby" href="about.html"/>
  <rs:md capability="capabilitylist"/>
  <url><loc>resourcelist.xml</loc><rs:md capability="resourcelist"/></url>
  <url><loc>other-resourcelist.xml</loc><rs:md capability="resourcelist"/></url>
  <url><loc>changelist.xml</loc><rs:md capability="changelist"/></url>
</urlset>`
	src.SetRaw(fixtures.PathOf(t, src.CapabilityListURL(0)), "application/xml", []byte(cl))
	d, err := discover(t, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	checkSource(t, d, src) // the first Resource List, and the Change List after the duplicate
	s, _ := d.Set(src.CapabilityListURL(0))
	if len(s.Capabilities) != 2 {
		t.Errorf("capabilities %+v, want the Resource List and the Change List", s.Capabilities)
	}
	if len(d.Warnings) != 1 {
		t.Fatalf("warnings: %q, want one", d.Warnings)
	}
	other := strings.Replace(src.ResourceListURL(0), "resourcelist.xml", "other-resourcelist.xml", 1)
	for _, want := range []string{src.CapabilityListURL(0), "Resource List", "twice", src.ResourceListURL(0), other} {
		if !strings.Contains(d.Warnings[0], want) {
			t.Errorf("warning does not say %q: %s", want, d.Warnings[0])
		}
	}
}

// A --capability-list naming no set of the Source is the user's mistake:
// every job fails at once with ErrUnknownSet, naming the value and the sets
// there are.
func TestUnknownSet(t *testing.T) {
	const known, unknown = "http://example.com/dataset1/capabilitylist.xml", "http://example.com/dataset9/capabilitylist.xml"
	disc := &agent.Discovery{Start: "http://example.com/", Sets: []*agent.SetInfo{{CapabilityList: known}}}
	ctx := context.Background()
	jobs := map[string]func() error{
		"audit": func() error {
			_, err := agent.Audit(ctx, disc, agent.Deps{}, agent.AuditOptions{CapabilityList: unknown})
			return err
		},
		"baseline": func() error {
			_, err := agent.Baseline(ctx, disc, agent.Deps{}, agent.BaselineOptions{CapabilityList: unknown})
			return err
		},
		"incremental": func() error {
			_, err := agent.Incremental(ctx, disc, agent.Deps{}, agent.IncrementalOptions{CapabilityList: unknown})
			return err
		},
		"sync": func() error {
			_, err := agent.Sync(ctx, disc, agent.Deps{}, agent.SyncOptions{CapabilityList: unknown})
			return err
		},
	}
	for name, run := range jobs {
		t.Run(name, func(t *testing.T) {
			err := run()
			if !errors.Is(err, agent.ErrUnknownSet) {
				t.Fatalf("err = %v, want ErrUnknownSet", err)
			}
			for _, want := range []string{unknown, known} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not name %s: %v", want, err)
				}
			}
		})
	}
}
