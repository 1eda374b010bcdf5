package main

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The floor fetches every URI of its list into dir, by host and path, and
// checks each against its md5; with -floor-sync it then syncs the file
// system, and a file it cannot sync is an error naming it.
func TestFloor(t *testing.T) {
	bodies := map[string]string{"/a/1": "one", "/a/2": "two", "/b/3": strings.Repeat("x", 4096)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(b))) // the floor checks it
		fmt.Fprint(w, b)
	}))
	defer srv.Close()
	host, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		sync    bool
		badSum  string // a path whose listed md5 is wrong
		wantErr string
	}{
		{name: "never syncs"},
		{name: "syncs at its end", sync: true},
		{name: "a body not as listed", badSum: "/a/2", wantErr: "/a/2: length or md5 mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := t.TempDir()
			var list strings.Builder
			for p, b := range bodies {
				sum := md5.Sum([]byte(b))
				s := hex.EncodeToString(sum[:])
				if p == tt.badSum {
					s = strings.Repeat("0", 32)
				}
				fmt.Fprintf(&list, "%s%s %s\n", srv.URL, p, s)
			}
			listFile := filepath.Join(work, "list.txt")
			if err := os.WriteFile(listFile, []byte(list.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(work, "floor")
			err := runFloor(listFile, dir, tt.sync)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("runFloor = %v, want an error saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for p, b := range bodies {
				got, err := os.ReadFile(filepath.Join(dir, host.Host, filepath.FromSlash(p)))
				if err != nil || string(got) != b {
					t.Errorf("%s: %q, %v; want %q", p, got, err, b)
				}
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "gone")
	if err := syncFS(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("syncFS of a missing directory = %v, want an error naming it", err)
	}
}
