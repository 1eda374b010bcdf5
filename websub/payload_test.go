package websub

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestPayloadGolden parses every testdata/*.xml (the specification's
// Examples 1 and 2 among them) and compares the result with its .golden.
func TestPayloadGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.xml"))
	if err != nil || len(files) < 3 {
		t.Fatalf("testdata: %v %v", files, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".xml")
		t.Run(name, func(t *testing.T) {
			p, err := ParsePayload(readTestdata(t, name+".xml"), name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want := readTestdata(t, name+".golden"); !bytes.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

const (
	head = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">`
	fnMD = `<rs:md capability="framework-notification"/>`
)

func TestPayload(t *testing.T) {
	for _, c := range []struct {
		name    string
		doc     string
		changes int
		err     error // nil: valid; else what errors.Is must find
	}{
		{"framework", head + fnMD + `<url><loc>http://e/rl.xml</loc><rs:md change="updated" capability="resourcelist"/></url></urlset>`, 1, nil},
		{"unknown capability kept", head + fnMD + `<url><loc>http://e/x</loc><rs:md change="created" capability="futurelist"/></url></urlset>`, 1, nil},
		{"archive capability", head + fnMD + `<url><loc>http://e/a</loc><rs:md change="created" capability="resourcelist-archive"/></url></urlset>`, 1, nil},
		{"change notification without entry capability",
			head + `<rs:md capability="change-notification"/><url><loc>http://e/r</loc><rs:md change="deleted"/></url></urlset>`, 1, nil},
		{"not XML", "hello", 0, resourcesync.ErrSyntax},
		{"empty", "", 0, resourcesync.ErrSyntax},
		{"html", "<html><body/></html>", 0, resourcesync.ErrRoot},
		{"no rs:md", head + `<url><loc>http://e/</loc></url></urlset>`, 0, resourcesync.ErrNoCapability},
		{"resource list", head + `<rs:md capability="resourcelist"/><url><loc>http://e/</loc></url></urlset>`, 0, ErrNotNotification},
		{"sitemapindex", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">` +
			fnMD + `<sitemap><loc>http://e/</loc></sitemap></sitemapindex>`, 0, ErrNotNotification},
		{"no entries", head + fnMD + `</urlset>`, 0, ErrNotNotification},
		{"entry without rs:md", head + fnMD + `<url><loc>http://e/</loc></url></urlset>`, 0, ErrNotNotification},
		{"entry without change", head + fnMD + `<url><loc>http://e/</loc><rs:md capability="changelist"/></url></urlset>`, 0, ErrNotNotification},
		{"unknown change", head + fnMD + `<url><loc>http://e/</loc><rs:md change="moved" capability="changelist"/></url></urlset>`, 0, ErrNotNotification},
		{"framework entry without capability", head + fnMD + `<url><loc>http://e/</loc><rs:md change="created"/></url></urlset>`, 0, ErrNotNotification},
		{"entry without loc", head + fnMD + `<url><rs:md change="created" capability="changelist"/></url></urlset>`, 0, resourcesync.ErrNoLoc},
		{"bad datetime", head + fnMD + `<url><loc>http://e/</loc><rs:md change="created" capability="changelist" datetime="yesterday"/></url></urlset>`, 0, resourcesync.ErrDatetime},
		{"truncated", head + fnMD + `<url><loc>http://e/</loc>`, 0, resourcesync.ErrSyntax},
		{"DTD", `<!DOCTYPE urlset [<!ENTITY x "y">]>` + head + fnMD + `</urlset>`, 0, resourcesync.ErrSyntax},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParsePayload([]byte(c.doc), "http://e/topic")
			if c.err == nil {
				if err != nil || len(p.Changes) != c.changes {
					t.Fatalf("ParsePayload: %+v, %v; want %d changes", p, err, c.changes)
				}
				return
			}
			if !errors.Is(err, c.err) {
				t.Fatalf("ParsePayload: %v, want %v", err, c.err)
			}
		})
	}
}

func FuzzPayload(f *testing.F) {
	for _, name := range []string{"example1.xml", "example2.xml", "change-notification.xml"} {
		f.Add(readTestdata(f, name))
	}
	f.Add([]byte(head + fnMD + `<url><loc>http://e/</loc><rs:md change="created" capability="changelist"/><rs:ln rel="index" href="http://e/i"/></url></urlset>`))
	f.Add([]byte(head + `<rs:md capability="change-notification"/><url><loc>x</loc><lastmod>2013</lastmod><rs:md change="deleted"/></url></urlset>`))
	f.Add([]byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>`))
	f.Add([]byte("<urlset"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePayload(data, "fuzz")
		if err != nil {
			if p != nil {
				t.Fatal("payload with an error")
			}
			return
		}
		if p.Capability != resourcesync.CapFrameworkNotification && p.Capability != resourcesync.CapChangeNotification {
			t.Fatalf("capability %q accepted", p.Capability)
		}
		if len(p.Changes) == 0 {
			t.Fatal("no changes accepted")
		}
		for _, c := range p.Changes {
			if c.URL == "" || !c.Change.Known() ||
				p.Capability == resourcesync.CapFrameworkNotification && c.Capability == "" {
				t.Fatalf("change %+v accepted", c)
			}
		}
	})
}
