//go:build !cgo

package state

// The SQLite driver is C. Without cgo it compiles to a stub that cannot open
// a database, so a build without cgo is refused here, with the reason in the
// one name the compiler reports as undefined.
var _ = SQLite_is_C_build_with_CGO_ENABLED_1_and_a_C_compiler
