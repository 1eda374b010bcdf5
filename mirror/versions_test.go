package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestVersionsKeep(t *testing.T) {
	v := Versions{Dir: t.TempDir()}
	at := time.Date(2013, 1, 3, 18, 0, 0, 0, time.FixedZone("", 3600))
	if v.Kept("h/d/f.txt", at) {
		t.Fatal("Kept before Keep")
	}
	name, err := v.Keep("h/d/f.txt", at, strings.NewReader("one"))
	if err != nil {
		t.Fatal(err)
	}
	if !v.Kept("h/d/f.txt", at) || v.Kept("h/d/f.txt", at.Add(time.Second)) || v.Kept("../h/d/f.txt", at) {
		t.Errorf("Kept does not say what Keep kept, and only that")
	}
	if want := filepath.Join(v.Dir, "h", "d", "f.txt@20130103T170000Z"); name != want {
		t.Errorf("kept at %s, want %s", name, want)
	}
	// The same version again is left as it is.
	if _, err := v.Keep("h/d/f.txt", at, strings.NewReader("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "one" {
		t.Errorf("kept %q", b)
	}
	for _, rel := range []string{"../x", "/etc/x", ""} {
		if _, err := v.Keep(rel, at, strings.NewReader("x")); err == nil {
			t.Errorf("Keep(%q) succeeded", rel)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(v.Dir, "h", "d"))
	if len(entries) != 1 {
		t.Errorf("%d files beside the version (temp files left?)", len(entries))
	}
}
