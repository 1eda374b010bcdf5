package resourcesync

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exampleFiles are the XML examples of the core standard and the Framework
// Notification specification (testdata/examples/README.md lists them).
func exampleFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "examples", "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	// Examples 1-33 of the core standard but 9, 10 and 11 (HTML, HTTP,
	// robots.txt), and Examples 1, 2 and 8 of Framework Notification.
	if len(files) != 33 {
		t.Fatalf("found %d example files, want 33", len(files))
	}
	return files
}

// TestExamples parses every example to its golden dump, and checks that each
// one that parses reads back the same after WriteDocument.
func TestExamples(t *testing.T) {
	for _, path := range exampleFiles(t) {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".xml"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := ReadDocument(bytes.NewReader(data), name, Limits{})
			golden(t, strings.TrimSuffix(path, ".xml")+".golden", dump(t, doc, err, true))
			if err != nil {
				return
			}
			var out bytes.Buffer
			if err := WriteDocument(&out, doc); err != nil {
				t.Fatalf("write: %v", err)
			}
			again, err := ReadDocument(bytes.NewReader(out.Bytes()), name+" (written)", Limits{})
			if err != nil {
				t.Fatalf("reading the written document: %v\n%s", err, out.Bytes())
			}
			if got, want := dump(t, again, nil, false), dump(t, doc, nil, false); !bytes.Equal(got, want) {
				t.Errorf("round trip changed the document:\n--- after\n%s\n--- before\n%s", got, want)
			}
		})
	}
}
