package mirror

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A published file has the mtime Put was given, whether it was set through
// the descriptor (the default FS) or by name (any other FS). By name, os
// goes through UnixNano, which ends in 2262; through the descriptor even a
// lastmod past that is kept.
func TestPutSetsMtime(t *testing.T) {
	mtimes := []time.Time{
		time.Date(2024, 2, 29, 23, 59, 59, 0, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 500_000_000, time.UTC),
		time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC), // before the epoch
		time.Date(2200, 6, 1, 12, 0, 0, 0, time.FixedZone("", 5*3600)),
	}
	past2262 := time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)
	mirrors := map[string]func(t *testing.T) (*Mirror, string){
		"default FS": func(t *testing.T) (*Mirror, string) { return openLocked(t, Options{}) },
		"fault FS": func(t *testing.T) (*Mirror, string) {
			m, dir, _ := faultMirror(t, nil)
			return m, dir
		},
	}
	for name, open := range mirrors {
		t.Run(name, func(t *testing.T) {
			m, dir := open(t)
			mtimes := mtimes
			if name == "default FS" {
				mtimes = append(mtimes, past2262)
			}
			for i, mt := range mtimes {
				rel := "h/f" + string(rune('a'+i))
				put(t, m, rel, "x", mt)
				fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
				if err != nil {
					t.Fatal(err)
				}
				if !fi.ModTime().Equal(mt) {
					t.Errorf("%s: mtime %v, want %v", rel, fi.ModTime().UTC(), mt.UTC())
				}
			}
		})
	}
}
