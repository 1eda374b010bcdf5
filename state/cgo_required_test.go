package state

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A build without cgo must stop with the reason, not with the SQLite
// stub's "c.Exec undefined" alone, nor link a binary that cannot open its
// state.
func TestBuildWithoutCgoSaysWhy(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package and its imports once more")
	}
	t.Parallel()
	cmd := exec.Command("go", "vet", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the package compiled without cgo:\n%s", out)
	}
	if !strings.Contains(string(out), "SQLite_is_C_build_with_CGO_ENABLED_1_and_a_C_compiler") {
		t.Fatalf("the error does not say cgo is needed:\n%s", out)
	}
}
