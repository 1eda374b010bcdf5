package s3mirror

import (
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
)

func TestPutIsInvisibleUntilPublished(t *testing.T) {
	m, s := open(t, "mirrors/one", nil)
	lastmod := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	rel, err := m.Path("http://example.org/dir/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	ticket := put(t, m, rel, "hello", lastmod)
	if _, err := m.Stat(rel); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("staged object visible before Publish: %v", err)
	}
	if _, _, ok := object(t, s, "mirrors/one/"+rel); ok {
		t.Fatal("staged object in the bucket before Publish")
	}
	publish(t, m, ticket)
	body, oi, ok := object(t, s, "mirrors/one/"+rel)
	if !ok || body != "hello" {
		t.Fatalf("object %q, %v", body, ok)
	}
	want := map[string]string{
		metaLength:  "5",
		metaMD5:     "5d41402abc4b2a76b9719d911017c592",
		metaSHA256:  "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
		metaLastMod: "2024-05-06T07:08:09Z",
	}
	for k, v := range want {
		if got := meta(oi, k); got != v {
			t.Errorf("metadata %s = %q, want %q", k, got, v)
		}
	}
	fi, err := m.Stat(rel)
	if err != nil || fi.Size() != 5 || !fi.ModTime().Equal(lastmod) || !fi.Mode().IsRegular() {
		t.Fatalf("stat: %v %v", fi, err)
	}
	sums, n, err := m.HashFile(rel, []string{"md5", "sha-256"})
	if err != nil || n != 5 {
		t.Fatal(n, err)
	}
	if v, _ := sums.Get("md5"); v != want[metaMD5] {
		t.Errorf("md5 %s", v)
	}
}

func TestPathIsTheDiskMapping(t *testing.T) {
	m, _ := open(t, "", func(o *Options) { o.Maps = []mirror.Map{{Prefix: "http://example.org/data/", Dir: "d"}} })
	disk, err := mirror.NewMapper([]mirror.Map{{Prefix: "http://example.org/data/", Dir: "d"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://example.org/data/x y.txt", "http://example.org/other?q=1", "https://h:8443/a/", "ftp://x/y"} {
		got, gerr := m.Path(u)
		want, werr := disk.Path(u)
		if got != want || (gerr == nil) != (werr == nil) {
			t.Errorf("Path(%s) = %q, %v; on disk %q, %v", u, got, gerr, want, werr)
		}
		if gerr != nil && !errors.Is(gerr, mirror.ErrUnmappable) {
			t.Errorf("Path(%s): %v is not ErrUnmappable", u, gerr)
		}
	}
}

func TestRemoveCancelsStagedAndDeletes(t *testing.T) {
	m, s := open(t, "p", nil)
	publish(t, m, put(t, m, "h/gone", "old", time.Time{}))
	ticket := put(t, m, "h/gone", "new", time.Time{})
	if err := m.Remove("h/gone"); err != nil {
		t.Fatal(err)
	}
	errs, err := m.Publish([]string{ticket})
	if err != nil || !errors.Is(errs[0], resourcesync.ErrSuperseded) {
		t.Fatalf("publish after remove: %v, %v", errs, err)
	}
	if _, _, ok := object(t, s, "p/h/gone"); ok {
		t.Fatal("removed object still there")
	}
	if err := m.Remove("h/never"); err != nil {
		t.Fatalf("remove of an absent object: %v", err)
	}
}

func TestLastTicketForATargetWins(t *testing.T) {
	m, s := open(t, "", nil)
	a := put(t, m, "h/x", "first", time.Time{})
	b := put(t, m, "h/x", "second", time.Time{})
	publish(t, m, a, b)
	if body, _, _ := object(t, s, "h/x"); body != "second" {
		t.Fatalf("got %q", body)
	}
	if errs, _ := m.Publish([]string{a}); !errors.Is(errs[0], fs.ErrInvalid) {
		t.Fatalf("a published ticket again: %v", errs[0])
	}
}

func TestPutDeclinedOrFailedLeavesNothing(t *testing.T) {
	m, _ := open(t, "", nil)
	boom := errors.New("boom")
	for _, c := range []struct {
		keep bool
		err  error
	}{{false, nil}, {true, boom}, {false, boom}} {
		ticket, err := m.Put("h/x", time.Time{}, func(s resourcesync.Sink) (bool, error) {
			io.WriteString(s, "partial")
			return c.keep, c.err
		})
		if ticket != "" || !errors.Is(err, c.err) || (c.err == nil && err != nil) {
			t.Errorf("keep=%v err=%v: ticket %q, %v", c.keep, c.err, ticket, err)
		}
	}
	if _, err := m.Stat("h/x"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	ticket := put(t, m, "h/y", "y", time.Time{})
	if err := m.Discard(ticket); err != nil {
		t.Fatal(err)
	}
	if errs, _ := m.Publish([]string{ticket}); !errors.Is(errs[0], fs.ErrInvalid) {
		t.Fatalf("discarded ticket: %v", errs[0])
	}
}

func TestSinkResetStartsAgain(t *testing.T) {
	m, s := open(t, "", nil)
	ticket, err := m.Put("h/r", time.Time{}, func(s resourcesync.Sink) (bool, error) {
		io.WriteString(s, "garbage from a failed attempt")
		if err := s.Reset(); err != nil {
			return false, err
		}
		_, err := io.WriteString(s, "good")
		return true, err
	})
	if err != nil {
		t.Fatal(err)
	}
	publish(t, m, ticket)
	body, oi, _ := object(t, s, "h/r")
	if body != "good" || meta(oi, metaLength) != "4" || meta(oi, metaMD5) != "755f85c2723bb39381c7379a604160d8" {
		t.Fatalf("got %q %v", body, oi.UserMetadata)
	}
}

func TestWalkByteOrderSkipsStateDir(t *testing.T) {
	m, s := open(t, "pre", nil)
	rels := []string{"a/x", "a.txt", "a-b", "b/c/d", "b/c.e", "z"}
	var tickets []string
	for _, r := range rels {
		tickets = append(tickets, put(t, m, r, r, time.Time{}))
	}
	publish(t, m, tickets...)
	// Another mirror's objects beside the prefix, and the reserved
	// directory inside it, are not this mirror's content.
	for _, k := range []string{"pre/.resync-dest/lock", "prefix/other", "pre-other/x"} {
		if _, err := s.Client.PutObject(t.Context(), s.Bucket, k, strings.NewReader("x"), 1, putOpts()); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	if err := m.Walk("", func(rel string, fi fs.FileInfo) error {
		got = append(got, rel)
		if fi.Size() != int64(len(rel)) {
			t.Errorf("%s: size %d", rel, fi.Size())
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := "a-b a.txt a/x b/c.e b/c/d z"
	if strings.Join(got, " ") != want {
		t.Fatalf("walk: %v, want %s", got, want)
	}
	got = nil
	m.Walk("b", func(rel string, _ fs.FileInfo) error { got = append(got, rel); return nil })
	if strings.Join(got, " ") != "b/c.e b/c/d" {
		t.Fatalf("walk b: %v", got)
	}
	n := 0
	if err := m.Walk("", func(string, fs.FileInfo) error { n++; return fs.SkipAll }); err != nil || n != 1 {
		t.Fatalf("SkipAll: %d, %v", n, err)
	}
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	_, s := open(t, "", nil)
	m := openOn(t, s, "", func(o *Options) { o.ReadOnly = true })
	if _, err := m.Put("h/x", time.Time{}, func(resourcesync.Sink) (bool, error) { return true, nil }); !errors.Is(err, mirror.ErrReadOnly) {
		t.Errorf("put: %v", err)
	}
	if err := m.Remove("h/x"); !errors.Is(err, mirror.ErrReadOnly) {
		t.Errorf("remove: %v", err)
	}
	if _, err := m.Publish([]string{"x"}); !errors.Is(err, mirror.ErrReadOnly) {
		t.Errorf("publish: %v", err)
	}
	release, err := m.Lock()
	if err != nil {
		t.Fatal(err)
	}
	release()
}

func TestRelativePathsOnly(t *testing.T) {
	m, _ := open(t, "", nil)
	for _, rel := range []string{"", "/abs", "a/../b", "./a", "a//b", ".resync-dest/lock", ".resync-dest", "a\x00b"} {
		if _, err := m.Stat(rel); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("stat %q: %v", rel, err)
		}
		if err := m.Remove(rel); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("remove %q: %v", rel, err)
		}
	}
}
