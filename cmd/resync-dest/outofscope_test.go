package main

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/state"
)

// A Source listing many entries out of scope (on hosts that are not
// allowed, or not http) gets one line per host with a count, never one
// per entry; with --quiet the condition is warned about once, on the run
// that first sees it, and then only counted (summary, status); status
// lists the hosts and, with --out-of-scope, the entries kept (bounded).
func TestOutOfScopeIsReportedPerHostAndOnce(t *testing.T) {
	src, srv := served(t, func(s *fixtures.Spec) { s.Resources = 3 })
	const perHost = 4000
	locs := []string{src.Resources(0)[0].URI}
	for i := range perHost {
		locs = append(locs, fmt.Sprintf("http://elsewhere.example/r/%d.txt", i),
			fmt.Sprintf("https://other.example:8443/%d", i), fmt.Sprintf("ftp://127.0.0.1/%d", i))
	}
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", hostileList(locs))
	const skipped = 3 * perHost

	// Without --quiet: a line per host, whatever the number of entries.
	dest := t.TempDir()
	r := runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	contains(t, r.stdout, "1 created", fmt.Sprintf("%d skipped", skipped))
	lines := scopeLines(r.stderr)
	if len(lines) != 3 {
		t.Fatalf("%d lines about out-of-scope entries, want 3 (one per host):\n%s", len(lines), r.stderr)
	}
	for _, want := range []string{"host=elsewhere.example", "host=other.example:8443", "host=127.0.0.1"} {
		if !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("no line for %s:\n%s", want, r.stderr)
		}
	}
	contains(t, r.stderr, "entries=4000", "WRN", "--allow-host elsewhere.example", "only http and https")
	if n := len(r.stderr); n > 8<<10 {
		t.Errorf("%d bytes on stderr for %d entries out of scope", n, skipped)
	}

	// Known now: a --quiet run says nothing, and the run counts them.
	r = runCLI(t, args([]string{"baseline", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("a --quiet run of a known condition said something:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	// Without --quiet, a known host is an INFO line, still one per host.
	r = runCLI(t, args([]string{"baseline", "--dest", dest}, srv.URL)...).want(t, 0)
	if lines := scopeLines(r.stderr); len(lines) != 3 || strings.Contains(r.stderr, "WRN") {
		t.Errorf("known hosts:\n%s", r.stderr)
	}

	// A new host is news: warned about once, even with --quiet.
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", hostileList(append(locs, "http://new.example/x")))
	r = runCLI(t, args([]string{"baseline", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if lines := scopeLines(r.stderr); len(lines) != 1 || !strings.Contains(lines[0], "host=new.example") || r.stdout != "" {
		t.Errorf("a new host with --quiet:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	r = runCLI(t, args([]string{"baseline", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("the new host warned about twice:\n%s%s", r.stdout, r.stderr)
	}

	// status: the hosts with their counts, bounded; the entries kept
	// with --out-of-scope.
	r = runCLI(t, "status", "--dest", dest).want(t, 0)
	contains(t, r.stdout, "out of scope  12001 entries on 4 hosts", "elsewhere.example  4000 entries", "new.example  1 entry")
	if strings.Contains(r.stdout, "http://elsewhere.example/r/1.txt") {
		t.Errorf("status lists entries without --out-of-scope")
	}
	r = runCLI(t, "status", "--dest", dest, "--out-of-scope").want(t, 0)
	contains(t, r.stdout, "http://elsewhere.example/r/1.txt", "http://new.example/x", "... and 3000 more (the state keeps 1000 per host)")
	if n := strings.Count(r.stdout, "\n    http://elsewhere.example/r/"); n != maxScopeSample {
		t.Errorf("%d entries of a host listed, want the %d kept", n, maxScopeSample)
	}
	var st statusReport
	r = runCLI(t, "status", "--dest", dest, "--json").want(t, 0)
	if err := resultOf(r.stdout, &st); err != nil || len(st.OutOfScope) != 4 || st.OutOfScope[0].Entries != perHost {
		t.Errorf("status --json out_of_scope: %+v (%v)", st.OutOfScope, err)
	}

	// A run of the Change Lists does not read the Resource List: it
	// cannot tell that the hosts are gone, and forgets none of them.
	runCLI(t, args([]string{"incremental", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if r := runCLI(t, "status", "--dest", dest).want(t, 0); !strings.Contains(r.stdout, "on 4 hosts") {
		t.Errorf("status after an incremental run:\n%s", r.stdout)
	}

	// Once the Source lists none, a baseline of every set forgets them: a host that
	// comes back is news again.
	src.SetRaw("/dataset1/resourcelist.xml", "application/xml", hostileList(locs[:1]))
	runCLI(t, args([]string{"baseline", "--quiet", "--dest", dest}, srv.URL)...).want(t, 0)
	if r := runCLI(t, "status", "--dest", dest).want(t, 0); strings.Contains(r.stdout, "out of scope") {
		t.Errorf("status after the condition ended:\n%s", r.stdout)
	}
}

// scopeLines are the log lines about entries out of scope.
func scopeLines(stderr string) []string {
	var out []string
	for l := range strings.SplitSeq(stderr, "\n") {
		if strings.Contains(l, "out of scope") {
			out = append(out, l)
		}
	}
	return out
}

// The workers finish entries in no fixed order: what a run keeps of a
// host - the example, the sample - must not depend on it, or status would
// show another entry from run to run (and, with the example's URI on the
// host's line, list one without --out-of-scope that the sample drops).
func TestScopeReportIsTheSameInAnyOrder(t *testing.T) {
	var uris []string
	for i := range maxScopeSample + 500 {
		uris = append(uris, fmt.Sprintf("http://elsewhere.example/r/%d.txt", i), fmt.Sprintf("ftp://127.0.0.1/%d", i))
	}
	reversed := slices.Clone(uris)
	slices.Reverse(reversed)
	shuffled := slices.Clone(uris)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	// The second entry first: how a loaded machine failed the status test.
	swapped := slices.Clone(uris)
	swapped[0], swapped[2] = swapped[2], swapped[0]

	scope := resourcesync.NewScope([]string{"http://127.0.0.1:1/"}, nil)
	report := func(order []string) []state.OutOfScope {
		r := newScopeReport()
		for _, u := range order {
			r.add(u, scope.Check(u))
		}
		seen := r.seen()
		slices.SortFunc(seen, func(a, b state.OutOfScope) int { return strings.Compare(a.Host, b.Host) })
		return seen
	}
	want := report(uris)
	if len(want) != 2 {
		t.Fatalf("%d hosts, want 2: %+v", len(want), want)
	}
	for _, h := range want {
		least := slices.Sorted(slices.Values(uris))
		least = slices.DeleteFunc(least, func(u string) bool { return !strings.Contains(u, "://"+h.Host+"/") })[:maxScopeSample]
		if h.Entries != maxScopeSample+500 || !slices.Equal(h.URIs, least) {
			t.Errorf("%s: %d entries, sample %d..., want %d and the %d least in URI order", h.Host, h.Entries, len(h.URIs), maxScopeSample+500, maxScopeSample)
		}
		if !strings.Contains(h.Reason, least[0]+" ") && !strings.Contains(h.Reason, least[0]+":") {
			t.Errorf("%s: example %q, want the cause of %s", h.Host, h.Reason, least[0])
		}
	}
	for _, tc := range []struct {
		name  string
		order []string
	}{{"reversed", reversed}, {"shuffled", shuffled}, {"second first", swapped}} {
		if got := report(tc.order); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the report differs from the one in document order", tc.name)
		}
	}
}

// A report counts a URI under the server the scope check sees: the default
// port, written or not, is one row; another port is another.
func TestReportHost(t *testing.T) {
	for _, tc := range []struct{ uri, want string }{
		{"https://Other.example/a", "other.example"},
		{"https://other.example:443/a", "other.example"},
		{"https://other.example:0443/a", "other.example"},
		{"http://other.example:80/a", "other.example"},
		{"http://other.example:443/a", "other.example:443"},
		{"https://other.example:8443/a", "other.example:8443"},
		{"http://[::1]/a", "[::1]"},
		{"http://[::1]:8080/a", "[::1]:8080"},
		{"ftp://other.example/a", "other.example"},
		{"%zz", ""},
	} {
		if got := reportHost(tc.uri); got != tc.want {
			t.Errorf("reportHost(%q) = %q, want %q", tc.uri, got, tc.want)
		}
	}
}
