package dumpzip

import (
	"errors"
	"fmt"
)

// Errors about a whole package: it cannot be used, and none of its members
// is read. Test with errors.Is.
var (
	// ErrNotZip: the package is not a readable ZIP file.
	ErrNotZip = errors.New("not a ZIP package")
	// ErrNoManifest: the package has no single regular manifest.xml at its
	// top level.
	ErrNoManifest = errors.New("no manifest.xml at the top of the package")
	// ErrTooLarge: the package (or one bitstream in it) is larger than the
	// limits allow; reading stopped there.
	ErrTooLarge = errors.New("too large")
	// ErrClosed: the package was closed.
	ErrClosed = errors.New("package closed")
)

// Errors about one member: that bitstream cannot be used; the others can.
// Every one comes wrapped in a *MemberError.
var (
	// ErrNoPath: the manifest entry has no path attribute (mandatory except
	// for a deleted change).
	ErrNoPath = errors.New("manifest entry has no path")
	// ErrUnsafeName: the path has a ".." segment, is absolute, or holds a
	// backslash or a NUL.
	ErrUnsafeName = errors.New("unsafe name")
	// ErrMissing: no ZIP entry has the manifest's path.
	ErrMissing = errors.New("not in the package")
	// ErrDuplicate: more than one ZIP entry has the manifest's path.
	ErrDuplicate = errors.New("more than one ZIP entry has this name")
	// ErrNotRegular: the ZIP entry is a symlink, a directory or another
	// special file.
	ErrNotRegular = errors.New("not a regular file")
)

// MemberError says which member of which package cannot be used and why.
// Err wraps one of the member sentinels above.
type MemberError struct {
	Package string // the package's URL
	Path    string // the manifest's path attribute, as given
	Err     error
}

// Error reads "package URL: bitstream "PATH": reason".
func (e *MemberError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("package %s: %v", e.Package, e.Err)
	}
	return fmt.Sprintf("package %s: bitstream %q: %v", e.Package, e.Path, e.Err)
}

// Unwrap returns Err, so that errors.Is finds the sentinel.
func (e *MemberError) Unwrap() error { return e.Err }
