package main

import (
	"os"
	"strings"
	"testing"
)

// The README stands alone - no link to a file a clone does not have - and
// each systemd unit in it takes exit 143 (systemctl stop) for a success.
func TestReadmeStandsAlone(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for i, l := range strings.Split(readme, "\n") {
		if strings.Contains(l, "../") {
			t.Errorf("README.md:%d points outside the repository: %s", i+1, l)
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
