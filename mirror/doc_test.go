package mirror

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestMappingDoc checks every example of MAPPING.md, the page the README
// includes, so that the documentation cannot drift from the code. The
// --map lines of the page apply to every table row.
func TestMappingDoc(t *testing.T) {
	b, err := os.ReadFile("MAPPING.md")
	if err != nil {
		t.Fatal(err)
	}
	var maps []Map
	type row struct{ uri, want string }
	var rows []row
	for _, line := range strings.Split(string(b), "\n") {
		if s, ok := strings.CutPrefix(line, "--map "); ok {
			mp, err := ParseMap(s)
			if err != nil {
				t.Fatalf("MAPPING.md: %v", err)
			}
			maps = append(maps, mp)
			continue
		}
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			t.Fatalf("MAPPING.md: malformed row %q", line)
		}
		uri := strings.Trim(strings.TrimSpace(cells[1]), "`")
		want := strings.TrimSpace(cells[2])
		if want != "unmappable" {
			want = strings.Trim(want, "`")
		}
		rows = append(rows, row{uri, want})
	}
	if len(rows) < 30 || len(maps) != 2 {
		t.Fatalf("MAPPING.md: found %d examples and %d maps; the parser lost them", len(rows), len(maps))
	}
	m, err := NewMapper(maps)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		got, err := m.Path(r.uri)
		if r.want == "unmappable" {
			if !errors.Is(err, ErrUnmappable) {
				t.Errorf("MAPPING.md says %s is unmappable; Path = %q, %v", r.uri, got, err)
			}
			continue
		}
		if err != nil || got != r.want {
			t.Errorf("MAPPING.md says %s → %s; Path = %q, %v", r.uri, r.want, got, err)
		}
	}
}
