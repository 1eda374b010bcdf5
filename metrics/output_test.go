package metrics

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteTextfileReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "resync-dest.prom")
	old := []byte("# the previous run's metrics\nresync_dest_scrape_error 0\n")
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	// A reader that opened the old file keeps reading the old file whole:
	// the new one is renamed over it, not written into it.
	reader, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}

	s := series(t, textfile(t, path, newTestCollector(mirrors(nil, twoMirrors()...), nil)))
	if d := diff(s, wantTwoMirrors()); d != "" {
		t.Error(d)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(reader); err != nil || !bytes.Equal(buf.Bytes(), old) {
		t.Errorf("the old file read through an open handle = %q, %v; want it untouched", buf.Bytes(), err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Error("the file was rewritten in place, not replaced")
	}
	if mode := after.Mode().Perm(); mode != 0o644 {
		t.Errorf("mode %v, want 0644 (node_exporter may run as another user)", mode)
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != "resync-dest.prom" {
		t.Errorf("directory holds %q, want only the metrics file", got)
	}
}

// Readers racing with writers only ever see a whole file.
func TestWriteTextfileReadersSeeWholeFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "resync-dest.prom")
	c := newTestCollector(mirrors(nil, twoMirrors()...), nil)
	if err := WriteTextfile(path, c); err != nil {
		t.Fatal(err)
	}
	want := len(wantTwoMirrors())
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 30 {
				if err := WriteTextfile(path, c); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	reads := 0
	for {
		select {
		case <-done:
			if reads == 0 {
				t.Error("no read raced with the writes")
			}
			if got := entries(t, dir); len(got) != 1 {
				t.Errorf("directory holds %q, want only the metrics file", got)
			}
			return
		default:
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(series(t, parse(t, string(b)))); got != want {
			t.Fatalf("read %d series, want %d:\n%s", got, want, b)
		}
		reads++
		time.Sleep(time.Millisecond)
	}
}

func TestWriteTextfileErrors(t *testing.T) {
	c := newTestCollector(mirrors(nil, twoMirrors()...), nil)
	dir := t.TempDir()
	tests := map[string]string{
		"missing directory": filepath.Join(dir, "no", "such", "dir", "x.prom"),
		"path is a directory": func() string {
			p := filepath.Join(dir, "taken.prom")
			if err := os.MkdirAll(filepath.Join(p, "child"), 0o755); err != nil {
				t.Fatal(err)
			}
			return p
		}(),
	}
	for name, path := range tests {
		t.Run(name, func(t *testing.T) {
			err := WriteTextfile(path, c)
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("WriteTextfile(%s) = %v, want an error naming the path", path, err)
			}
		})
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != "taken.prom" {
		t.Errorf("a failed write left %q behind", got)
	}
}
