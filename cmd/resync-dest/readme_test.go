package main

import (
	"os"
	"strings"
	"testing"
)

// The README stands alone - neither it nor the documents a clone holds
// beside it point to a file the clone does not have - and each systemd unit
// in it takes exit 143 (systemctl stop) for a success.
func TestReadmeStandsAlone(t *testing.T) {
	var readme string
	for _, doc := range []string{"README.md", "ARCHITECTURE.md", "BENCHMARKS.md"} {
		b, err := os.ReadFile("../../" + doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "../") {
				t.Errorf("%s:%d points outside the repository: %s", doc, i+1, l)
			}
		}
		if doc == "README.md" {
			readme = string(b)
		}
	}
	units := strings.Split(readme, "[Service]")[1:]
	if len(units) == 0 {
		t.Fatal("no systemd unit in the README")
	}
	for i, u := range units {
		body, _, _ := strings.Cut(u, "```")
		if !strings.Contains(body, "SuccessExitStatus=143") {
			t.Errorf("systemd unit %d lacks SuccessExitStatus=143:\n%s", i+1, body)
		}
	}
}
