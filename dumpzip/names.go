package dumpzip

import (
	"fmt"
	"strings"
)

// manifestName is where the standard puts the manifest in a package.
const manifestName = "manifest.xml"

// entryName turns a manifest path into the ZIP entry name it must match:
// the standard writes paths with a leading "/" relative to the package's
// root; one without is accepted as the same name. It refuses names that
// would be unsafe if anything ever used them as file names, so that a
// hostile package is reported as such rather than silently matched.
func entryName(path string) (string, error) {
	name := strings.TrimPrefix(path, "/")
	if err := checkName(name); err != nil {
		return "", err
	}
	return name, nil
}

// checkName refuses a ZIP entry name that is empty, absolute (a leading
// slash, or a drive letter), holds a backslash or a NUL, or has a ".."
// segment.
func checkName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty name", ErrUnsafeName)
	case strings.HasPrefix(name, "/"):
		return fmt.Errorf("%w: absolute name %q", ErrUnsafeName, name)
	case strings.ContainsRune(name, '\\'):
		return fmt.Errorf("%w: backslash in %q", ErrUnsafeName, name)
	case strings.ContainsRune(name, 0):
		return fmt.Errorf("%w: NUL in %q", ErrUnsafeName, name)
	case len(name) >= 2 && name[1] == ':' && isLetter(name[0]):
		return fmt.Errorf("%w: drive-letter name %q", ErrUnsafeName, name)
	}
	for seg := range strings.SplitSeq(name, "/") {
		if seg == ".." {
			return fmt.Errorf("%w: %q climbs out with ..", ErrUnsafeName, name)
		}
	}
	return nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
