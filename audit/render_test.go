package audit_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/fixtures"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, after replacing what changes
// from run to run (the Source's port), or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -run %s -update rewrites it):\n%s", p, t.Name(), got)
	}
}

// reportWithEverything audits a mirror with one difference of each kind
// and adds a second set that could not be read.
func reportWithEverything(t *testing.T) (*audit.Report, func([]byte) []byte) {
	h := newHarness(t, nil)
	h.baseline(0, nil)
	makeDifferences(t, h)
	rep := h.mustAudit(nil)
	rep.Add(&audit.SetReport{CapabilityList: h.Src.CapabilityListURL(0) + "?second"},
		errors.New("open Resource List "+h.Src.URL()+"second/resourcelist.xml: Source unavailable: 503 Service Unavailable"))
	hp := h.hostPort()
	return rep, func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(hp), []byte("127.0.0.1:PORT")) }
}

const goldenRepair = "resync-dest baseline --checksum --delete --dest /DEST --max-delete 2 http://127.0.0.1:PORT/"

func TestRenderGolden(t *testing.T) {
	rep, norm := reportWithEverything(t)
	var txt, js, page bytes.Buffer
	if err := rep.WriteText(&txt, goldenRepair); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteHTML(&page, audit.Page{Repair: goldenRepair, Mirror: "/DEST", Created: time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC), Tool: "resync-dest v1.2.3"}); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.txt", norm(txt.Bytes()))
	golden(t, "report.json", norm(js.Bytes()))
	golden(t, "report.html", norm(page.Bytes()))

	// The JSON document has exactly the keys the contract names.
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range doc {
		keys = append(keys, k)
	}
	for _, k := range []string{"in_sync", "source", "sets", "counts", "missing", "extra", "changed", "errors"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if len(keys) != 8 {
		t.Errorf("JSON keys %v", keys)
	}
}

func TestRenderInSync(t *testing.T) {
	h := newHarness(t, func(s *fixtures.Spec) { s.Resources = 5 })
	h.baseline(0, nil)
	rep := h.mustAudit(nil)
	var txt, js bytes.Buffer
	if err := rep.WriteText(&txt, goldenRepair); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	norm := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(h.hostPort()), []byte("127.0.0.1:PORT")) }
	golden(t, "insync.txt", norm(txt.Bytes()))
	golden(t, "insync.json", norm(js.Bytes()))
	if strings.Contains(txt.String(), "baseline --checksum") {
		t.Error("an audit in sync advises a repair")
	}
}

// Whatever the paths, URIs and messages (a file in the mirror may be named
// anything), each finding is one line of the text report, the HTML page
// gains no markup, and the JSON document reads back the same.
func FuzzRender(f *testing.F) {
	f.Add("h/a.txt", "http://h/a.txt", "boom")
	f.Add("h/a\nb", "http://h/<script>", "x\ny</td>")
	f.Add("h/\xff\x00", "\"'&", "<!--")
	f.Fuzz(func(t *testing.T, p, uri, msg string) {
		render := func(p, uri, msg string) (txt, page, js []byte, rep *audit.Report) {
			rep = audit.NewReport("http://h/")
			sr := &audit.SetReport{CapabilityList: "http://h/cl.xml"}
			rep.Add(sr, nil)
			d := audit.Difference{URI: uri, Path: p}
			rep.Missing = append(rep.Missing, d)
			rep.Extra = append(rep.Extra, d)
			d.Reason, d.Expected, d.Actual = "md5", msg, msg
			rep.Changed = append(rep.Changed, d)
			rep.Errors = append(rep.Errors, audit.Problem{URI: uri, Path: p, Message: msg})
			rep.Counts = audit.Counts{Missing: 1, Extra: 1, Changed: 1, Errors: 1}
			var a, b, c bytes.Buffer
			if err := rep.WriteText(&a, "repair"); err != nil {
				t.Fatal(err)
			}
			if err := rep.WriteHTML(&b, audit.Page{Repair: "repair", Mirror: msg}); err != nil {
				t.Fatal(err)
			}
			if err := rep.WriteJSON(&c); err != nil {
				t.Fatal(err)
			}
			return a.Bytes(), b.Bytes(), c.Bytes(), rep
		}
		// An extra file nobody wrote (no URI) is marked as such: compare
		// with a plain report of the same kind.
		plainURI := "u"
		if uri == "" {
			plainURI = ""
		}
		plainTxt, plainPage, _, _ := render("p", plainURI, "m")
		txt, page, js, rep := render(p, uri, msg)
		if got, want := bytes.Count(txt, []byte("\n")), bytes.Count(plainTxt, []byte("\n")); got != want {
			t.Errorf("text report has %d lines, want %d:\n%s", got, want, txt)
		}
		if got, want := bytes.Count(page, []byte("<")), bytes.Count(plainPage, []byte("<")); got != want {
			t.Errorf("HTML page has %d '<', want %d", got, want)
		}
		var back audit.Report
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(js) || (utf8Clean(p, uri, msg) && !reflect.DeepEqual(back.Changed, rep.Changed)) {
			t.Errorf("JSON does not read back: %s", js)
		}
	})
}

// utf8Clean reports whether every string survives JSON unchanged (is
// valid UTF-8).
func utf8Clean(ss ...string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}
