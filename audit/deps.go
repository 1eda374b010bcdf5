package audit

import (
	"context"
	"io/fs"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Mirror is the local tree, read only.
type Mirror interface {
	Path(uri string) (string, error)
	Stat(rel string) (fs.FileInfo, error)
	HashFile(rel string, algs []string) (resourcesync.Fixity, int64, error)
	// Walk visits the files under dir in byte order of their paths.
	Walk(dir string, fn func(rel string, info fs.FileInfo) error) error
}

// Unmapper is what a Mirror may also offer: the URI whose resource the
// mapping stores at a path (the inverse of Path), scheme standing where
// the path does not say. An extra file the state has no record of is then
// reported with that URI; without it, with its path alone. It is optional
// so that the callers' own Mirror interfaces need not carry it.
type Unmapper interface {
	URI(rel, scheme string) (string, error)
}

// Store is the state, read only.
type Store interface {
	// EachHeld visits what the set holds in path byte order.
	EachHeld(ctx context.Context, setID int64, fn func(resourcesync.Held) error) error
	PathHolders(ctx context.Context, path string) ([]int64, error)
}

// Listing is a disk-backed sorted set of paths: the Source's current
// state of a set, brought forward with its changes.
type Listing interface {
	// Add records (or replaces) what the Source says of e.Path.
	Add(e resourcesync.Listed) error
	// Remove forgets a path; an absent one is no error.
	Remove(path string) error
	// Each visits the paths in byte order.
	Each(fn func(resourcesync.Listed) error) error
	Close() error
}

// Deps are the adapters an audit uses.
type Deps struct {
	// Open reads the Source's documents.
	Open   resourcesync.Opener
	Mirror Mirror
	Store  Store
	// NewListing makes an empty Listing for one set's audit.
	NewListing func() (Listing, error)
	Log        zerolog.Logger
}
