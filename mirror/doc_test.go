package mirror

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestMappingDoc checks every example of MAPPING.md, the page the README
// points to, so that the documentation cannot drift from the code. The
// --map lines of a code block apply to the tables after it, up to the
// next block of --map lines. Every example that maps is also mapped back
// (Mapper.URI) to a URI that gives the same path.
func TestMappingDoc(t *testing.T) {
	b, err := os.ReadFile("MAPPING.md")
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ uri, want string }
	type group struct {
		maps []Map
		rows []row
	}
	groups := []*group{{}}
	fresh := false // a code block opened: its --map lines start a group
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			fresh = true
			continue
		}
		if s, ok := strings.CutPrefix(line, "--map "); ok {
			mp, err := ParseMap(s, "/dest")
			if err != nil {
				t.Fatalf("MAPPING.md: %v", err)
			}
			if fresh {
				groups = append(groups, &group{})
				fresh = false
			}
			g := groups[len(groups)-1]
			g.maps = append(g.maps, mp)
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
		g := groups[len(groups)-1]
		g.rows = append(g.rows, row{uri, want})
	}
	if len(groups) != 3 || len(groups[0].rows) < 30 || len(groups[1].maps) != 2 || len(groups[2].maps) != 1 {
		t.Fatalf("MAPPING.md: found %d groups of examples; the parser lost them", len(groups))
	}
	for _, g := range groups {
		if len(g.rows) < 5 {
			t.Fatalf("MAPPING.md: a table with %d examples; the parser lost them", len(g.rows))
		}
		m, err := NewMapper(g.maps)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range g.rows {
			got, err := m.Path(r.uri)
			if r.want == "unmappable" {
				if !errors.Is(err, ErrUnmappable) {
					t.Errorf("MAPPING.md says %s is unmappable; Path = %q, %v", r.uri, got, err)
				}
				continue
			}
			if err != nil || got != r.want {
				t.Errorf("MAPPING.md says %s → %s; Path = %q, %v", r.uri, r.want, got, err)
				continue
			}
			scheme, _, _ := strings.Cut(r.uri, ":")
			back, err := m.URI(got, strings.ToLower(scheme))
			if err != nil {
				t.Errorf("URI(%q): %v", got, err)
				continue
			}
			if again, err := m.Path(back); err != nil || again != got {
				t.Errorf("%s → %s → %s → %q, %v: not the same path", r.uri, got, back, again, err)
			}
		}
	}
}
