package resourcesync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// docs is an Opener over documents in memory that records what was opened.
type docs struct {
	m      map[string]string
	opened []string
}

func (d *docs) open(_ context.Context, u string) (string, io.ReadCloser, error) {
	d.opened = append(d.opened, u)
	s, ok := d.m[u]
	if !ok {
		return "", nil, fmt.Errorf("get %s: %w", u, ErrNotFound)
	}
	return u, io.NopCloser(strings.NewReader(s)), nil
}

const rsHead = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
`

func changeList(md string, urls ...string) string {
	return rsHead + `<rs:md capability="changelist" ` + md + `/>` + strings.Join(urls, "\n") + "</urlset>"
}

func change(loc, lastmod, ch string, extra ...string) string {
	return `<url><loc>` + loc + `</loc><lastmod>` + lastmod + `</lastmod><rs:md change="` + ch + `" ` + strings.Join(extra, " ") + `/></url>`
}

func index(md string, parts ...string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="changelist" ` + md + `/>` + strings.Join(parts, "\n") + "</sitemapindex>"
}

func part(loc, md string) string {
	return `<sitemap><loc>` + loc + `</loc><rs:md ` + md + `/></sitemap>`
}

func readAllHistory(t *testing.T, d *docs, start string, o HistoryOptions) (*History, []*ChangeListPart, error) {
	t.Helper()
	var parts []*ChangeListPart
	h, err := ReadHistory(context.Background(), d.open, start, o, func(p *ChangeListPart) error {
		parts = append(parts, p)
		return nil
	})
	return h, parts, err
}

func order(parts []*ChangeListPart) string {
	var s []string
	for _, p := range parts {
		for _, c := range p.Changes {
			s = append(s, fmt.Sprintf("%s@%d", strings.TrimPrefix(c.Loc, "http://e/"), c.Position))
		}
	}
	return strings.Join(s, " ")
}

func TestHistorySortsByInstant(t *testing.T) {
	d := &docs{m: map[string]string{"http://e/cl.xml": changeList(`from="2013-01-03T00:00:00Z"`,
		change("a", "2013-01-03T01:30:00Z", "created"),
		change("b", "2013-01-03T02:00:00+02:00", "updated"),                               // 00:00Z: before a
		change("c", "2013-01-03T01:30:00Z", "updated"),                                    // equal to a: after it
		change("d", "2013-01-03T01:00:00Z", "deleted", `datetime="2013-01-03T03:00:00Z"`), // datetime wins
		change("e", "2013-01-03T02:00:00Z", "created"),
	)}}
	h, parts, err := readAllHistory(t, d, "http://e/cl.xml", HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := order(parts), "b@2 a@1 c@3 e@5 d@4"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	if want := time.Date(2013, 1, 3, 0, 0, 0, 0, time.UTC); !h.Earliest.Equal(want) {
		t.Errorf("earliest %v", h.Earliest)
	}
	if !parts[0].Until.IsZero() {
		t.Errorf("an open list reads as closed")
	}
}

func TestHistorySince(t *testing.T) {
	d := &docs{m: map[string]string{"http://e/cl.xml": changeList(`from="2013-01-03T00:00:00Z"`,
		change("a", "2013-01-03T01:00:00Z", "created"),
		change("b", "2013-01-03T02:00:00Z", "created"),
		change("c", "2013-01-03T03:00:00Z", "created"),
	)}}
	since := time.Date(2013, 1, 3, 2, 0, 0, 0, time.UTC)
	_, parts, err := readAllHistory(t, d, "http://e/cl.xml", HistoryOptions{Since: since})
	if err != nil {
		t.Fatal(err)
	}
	if got := order(parts); got != "b@2 c@3" {
		t.Errorf("changes at or after the cursor: %q", got)
	}
	if parts[0].Skipped != 1 {
		t.Errorf("skipped %d", parts[0].Skipped)
	}
	// KeepEarly: the change before the cursor is handed over too, for the
	// caller to tell one listed out of order from one processed.
	_, parts, err = readAllHistory(t, d, "http://e/cl.xml", HistoryOptions{Since: since, KeepEarly: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := order(parts); got != "a@1 b@2 c@3" || parts[0].Skipped != 0 {
		t.Errorf("KeepEarly: changes %q, skipped %d", got, parts[0].Skipped)
	}
}

func indexDocs() *docs {
	return &docs{m: map[string]string{
		"http://e/cl.xml": index(`from="2013-01-01T00:00:00Z"`,
			part("http://e/cl1.xml", `from="2013-01-01T00:00:00Z" until="2013-01-02T00:00:00Z"`),
			part("http://e/cl2.xml", `from="2013-01-02T00:00:00Z" until="2013-01-03T00:00:00Z"`),
			part("http://e/cl3.xml", `from="2013-01-03T00:00:00Z"`)),
		"http://e/cl1.xml": changeList(`from="2013-01-01T00:00:00Z" until="2013-01-02T00:00:00Z"`,
			change("a", "2013-01-01T12:00:00Z", "created")),
		"http://e/cl2.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:ln rel="index" href="http://e/cl.xml"/><rs:md capability="changelist" from="2013-01-02T00:00:00Z" until="2013-01-03T00:00:00Z"/>` +
			change("b", "2013-01-02T12:00:00Z", "created") + `</urlset>`,
		"http://e/cl3.xml": changeList(`from="2013-01-03T00:00:00Z"`, change("c", "2013-01-03T12:00:00Z", "updated")),
	}}
}

func TestHistoryIndex(t *testing.T) {
	d := indexDocs()
	h, parts, err := readAllHistory(t, d, "http://e/cl.xml", HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := order(parts); got != "a@1 b@1 c@1" {
		t.Errorf("order %q", got)
	}
	if len(h.Lists) != 3 || parts[0].Until.IsZero() || !parts[2].Until.IsZero() {
		t.Errorf("lists %v", h.Lists)
	}

	// Closed lists ending before the cursor, and those the state says are
	// done, are not even fetched; the open one always is.
	d.opened = nil
	since := time.Date(2013, 1, 2, 6, 0, 0, 0, time.UTC)
	_, parts, err = readAllHistory(t, d, "http://e/cl.xml", HistoryOptions{Since: since})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.opened, " "); got != "http://e/cl.xml http://e/cl2.xml http://e/cl3.xml" {
		t.Errorf("opened %s", got)
	}
	if got := order(parts); got != "b@1 c@1" {
		t.Errorf("order %q", got)
	}
	d.opened = nil
	_, _, err = readAllHistory(t, d, "http://e/cl.xml", HistoryOptions{SkipList: func(u string, _, _ time.Time) bool {
		return u == "http://e/cl2.xml" || u == "http://e/cl3.xml"
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.opened, " "); got != "http://e/cl.xml http://e/cl1.xml http://e/cl3.xml" {
		t.Errorf("SkipList must not skip the open list: opened %s", got)
	}
}

func TestHistoryClosedListContinuesInItsIndex(t *testing.T) {
	d := indexDocs()
	_, parts, err := readAllHistory(t, d, "http://e/cl2.xml", HistoryOptions{Since: time.Date(2013, 1, 2, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if got := order(parts); got != "b@1 c@1" {
		t.Errorf("order %q", got)
	}
}

func TestHistoryErrors(t *testing.T) {
	tests := []struct {
		name string
		m    map[string]string
		want func(error) bool
	}{
		{"not a change list", map[string]string{"http://e/cl.xml": rsHead + `<rs:md capability="resourcelist" at="2013-01-01T00:00:00Z"/></urlset>`},
			func(err error) bool { var me *CapabilityMismatchError; return errors.As(err, &me) }},
		{"change without lastmod", map[string]string{"http://e/cl.xml": changeList(`from="2013-01-01T00:00:00Z"`, `<url><loc>a</loc><rs:md change="created"/></url>`)},
			func(err error) bool { var pe *ParseError; return errors.As(err, &pe) && pe.Entry == 1 }},
		{"missing part", map[string]string{"http://e/cl.xml": index(`from="2013-01-01T00:00:00Z"`, part("http://e/gone.xml", `from="2013-01-01T00:00:00Z"`))},
			func(err error) bool {
				return errors.Is(err, ErrNotFound) && strings.Contains(err.Error(), "http://e/gone.xml")
			}},
		{"nested index", map[string]string{
			"http://e/cl.xml":  index(`from="2013-01-01T00:00:00Z"`, part("http://e/ix2.xml", `from="2013-01-01T00:00:00Z"`)),
			"http://e/ix2.xml": index(`from="2013-01-01T00:00:00Z"`)},
			func(err error) bool { return err != nil && strings.Contains(err.Error(), "nested") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readAllHistory(t, &docs{m: tt.m}, "http://e/cl.xml", HistoryOptions{})
			if !tt.want(err) {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// WalkHistory streams: each list is announced, then its changes in
// document order (not sorted), then its end with the changes skipped.
func TestWalkHistoryStreams(t *testing.T) {
	d := &docs{m: map[string]string{
		"http://e/ix.xml": index(`from="2013-01-01T00:00:00Z"`,
			part("http://e/cl-1.xml", `from="2013-01-01T00:00:00Z" until="2013-01-02T00:00:00Z"`),
			part("http://e/cl-2.xml", `from="2013-01-02T00:00:00Z"`)),
		"http://e/cl-1.xml": changeList(`from="2013-01-01T00:00:00Z" until="2013-01-02T00:00:00Z"`,
			change("a", "2013-01-01T05:00:00Z", "created"),
			change("b", "2013-01-01T01:00:00Z", "updated"),
			change("old", "2012-12-31T00:00:00Z", "updated")),
		"http://e/cl-2.xml": changeList(`from="2013-01-02T00:00:00Z"`,
			change("c", "2013-01-02T01:00:00Z", "deleted")),
	}}
	var got []string
	v := HistoryVisitor{
		StartList: func(p *ChangeListPart) error {
			got = append(got, "start "+strings.TrimPrefix(p.URL, "http://e/"))
			return nil
		},
		Change: func(p *ChangeListPart, c ChangeEntry) error {
			got = append(got, fmt.Sprintf("%s@%d", strings.TrimPrefix(c.Loc, "http://e/"), c.Position))
			return nil
		},
		EndList: func(p *ChangeListPart) error {
			got = append(got, fmt.Sprintf("end skipped %d", p.Skipped))
			return nil
		},
	}
	since := time.Date(2013, 1, 1, 0, 0, 0, 0, time.UTC)
	h, err := WalkHistory(context.Background(), d.open, "http://e/ix.xml", HistoryOptions{Since: since}, v)
	if err != nil {
		t.Fatal(err)
	}
	want := "start cl-1.xml a@1 b@2 end skipped 1 start cl-2.xml c@1 end skipped 0"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("visits\n got %s\nwant %s", s, want)
	}
	if len(h.Lists) != 2 || !h.Earliest.Equal(since) {
		t.Errorf("history %+v", h)
	}
	stop := errors.New("stop")
	v.Change = func(*ChangeListPart, ChangeEntry) error { return stop }
	if _, err := WalkHistory(context.Background(), d.open, "http://e/ix.xml", HistoryOptions{}, v); !errors.Is(err, stop) {
		t.Errorf("the visitor's error: %v", err)
	}
}

// TestWalkList: a list named by a Change List Archive is read alone,
// though it points at its index (rel="index"); an index is refused.
func TestWalkList(t *testing.T) {
	d := indexDocs()
	var got []string
	v := HistoryVisitor{Change: func(_ *ChangeListPart, c ChangeEntry) error {
		got = append(got, c.Loc)
		return nil
	}}
	if err := WalkList(context.Background(), d.open, "http://e/cl2.xml", HistoryOptions{}, v); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "http://e/b" || strings.Join(d.opened, " ") != "http://e/cl2.xml" {
		t.Errorf("changes %v, opened %v; want cl2's one change, cl2 alone", got, d.opened)
	}
	if err := WalkList(context.Background(), d.open, "http://e/cl.xml", HistoryOptions{}, v); err == nil || !strings.Contains(err.Error(), "http://e/cl.xml") {
		t.Errorf("an index read as a list: %v", err)
	}
}
