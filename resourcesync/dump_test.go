package resourcesync

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The dump is a stable, readable JSON form of a parsed document (or of the
// error parsing it), used for golden files and to compare documents.

type docDump struct {
	Root    string      `json:"root,omitempty"`
	MD      *mdDump     `json:"md,omitempty"`
	Links   []linkDump  `json:"links,omitempty"`
	Entries []entryDump `json:"entries,omitempty"`
	Error   *errDump    `json:"error,omitempty"`
}

type errDump struct {
	Kind    string `json:"kind"`
	Line    int    `json:"line"`
	Entry   int    `json:"entry,omitempty"`
	Message string `json:"message"`
}

type entryDump struct {
	Line       int        `json:"line,omitempty"`
	Loc        string     `json:"loc"`
	LastMod    string     `json:"lastmod,omitempty"`
	BadLastMod string     `json:"bad_lastmod,omitempty"`
	ChangeFreq string     `json:"changefreq,omitempty"`
	MD         *mdDump    `json:"md,omitempty"`
	Links      []linkDump `json:"links,omitempty"`
}

type mdDump struct {
	Capability string     `json:"capability,omitempty"`
	Change     string     `json:"change,omitempty"`
	At         string     `json:"at,omitempty"`
	Completed  string     `json:"completed,omitempty"`
	From       string     `json:"from,omitempty"`
	Until      string     `json:"until,omitempty"`
	Datetime   string     `json:"datetime,omitempty"`
	Hash       []string   `json:"hash,omitempty"`
	Length     *int64     `json:"length,omitempty"`
	Type       string     `json:"type,omitempty"`
	Encoding   string     `json:"encoding,omitempty"`
	Path       string     `json:"path,omitempty"`
	Extra      []attrDump `json:"extra,omitempty"`
}

type linkDump struct {
	Rel      string     `json:"rel"`
	Href     string     `json:"href"`
	Pri      int        `json:"pri,omitempty"`
	Modified string     `json:"modified,omitempty"`
	Hash     []string   `json:"hash,omitempty"`
	BadHash  string     `json:"bad_hash,omitempty"`
	Length   *int64     `json:"length,omitempty"`
	Type     string     `json:"type,omitempty"`
	Path     string     `json:"path,omitempty"`
	Encoding string     `json:"encoding,omitempty"`
	Extra    []attrDump `json:"extra,omitempty"`
}

type attrDump struct {
	Space string `json:"space,omitempty"`
	Local string `json:"local"`
	Value string `json:"value"`
}

// sentinels names every sentinel a ParseError may wrap, for errDump.Kind.
var sentinels = []struct {
	name string
	err  error
}{
	{"ErrSyntax", ErrSyntax}, {"ErrRoot", ErrRoot}, {"ErrNoCapability", ErrNoCapability},
	{"ErrNoLoc", ErrNoLoc}, {"ErrLength", ErrLength}, {"ErrLimit", ErrLimit},
	{"ErrAttribute", ErrAttribute}, {"ErrDatetime", ErrDatetime}, {"ErrHash", ErrHash},
}

func sentinelName(err error) string {
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return s.name
		}
	}
	return "none"
}

// dump renders d, or err when it is not nil. withLines keeps entry lines,
// which differ between a document and its rewritten form.
func dump(t testing.TB, d *Document, err error, withLines bool) []byte {
	t.Helper()
	var out docDump
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error is %T, not *ParseError: %v", err, err)
		}
		out.Error = &errDump{Kind: sentinelName(err), Line: pe.Line, Entry: pe.Entry, Message: err.Error()}
	} else {
		out.Root = d.Root.String()
		out.MD = dumpMD(&d.MD)
		out.Links = dumpLinks(d.Links)
		for i := range d.Entries {
			e := &d.Entries[i]
			ed := entryDump{Loc: e.Loc, LastMod: dumpTime(e.LastMod), BadLastMod: e.BadLastMod, ChangeFreq: e.ChangeFreq, Links: dumpLinks(e.Links)}
			if withLines {
				ed.Line = e.Line
			}
			if e.HasMD {
				ed.MD = dumpMD(&e.MD)
			}
			out.Entries = append(out.Entries, ed)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func dumpMD(m *Metadata) *mdDump {
	d := &mdDump{
		Capability: string(m.Capability), Change: string(m.Change),
		At: dumpTime(m.At), Completed: dumpTime(m.Completed), From: dumpTime(m.From),
		Until: dumpTime(m.Until), Datetime: dumpTime(m.Datetime), Hash: dumpHash(m.Hash),
		Type: m.Type, Encoding: m.Encoding, Path: m.Path, Extra: dumpAttrs(m.Extra),
	}
	if m.HasLength {
		d.Length = &m.Length
	}
	return d
}

func dumpLinks(ls []Link) []linkDump {
	var out []linkDump
	for _, l := range ls {
		d := linkDump{Rel: l.Rel, Href: l.Href, Pri: l.Pri, Modified: dumpTime(l.Modified),
			Hash: dumpHash(l.Hash), BadHash: l.BadHash, Type: l.Type, Path: l.Path, Encoding: l.Encoding, Extra: dumpAttrs(l.Extra)}
		if l.HasLength {
			d.Length = &l.Length
		}
		out = append(out, d)
	}
	return out
}

func dumpAttrs(as []Attr) []attrDump {
	var out []attrDump
	for _, a := range as {
		out = append(out, attrDump(a))
	}
	return out
}

func dumpHash(f Fixity) []string {
	var out []string
	for _, d := range f {
		out = append(out, d.Alg+":"+d.Hex)
	}
	return out
}

func dumpTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return FormatDatetime(t)
}

// golden compares got with the golden file path, or rewrites it with
// -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./resourcesync -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
