package transfer

import (
	"errors"
	"fmt"
	"sync"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// ErrSamePath fails a unit whose URI maps to the file another URI of the
// set holds (percent-encoding twins such as /r/~x and /r/%7Ex, or http
// and https): one file cannot be two resources, and recording both would
// make the state claim bytes the disk does not hold.
var ErrSamePath = errors.New("maps to the file another URI of the set holds")

// claims is what this run made of each path with units in flight. The
// state says who holds a path only once a result is committed; between a
// worker's result and its commit (one writer batch) the claim says it,
// so that a twin or a copy of a URI listed again within one commit window
// is judged against what the run already did. A claim lives while units
// of its path are between their state lookup and their record: memory is
// bounded by the engine's window and the writer's batch.
type claims struct {
	mu    sync.Mutex
	paths map[string]*claim
}

type claim struct {
	touched bool                  // a unit of this run decided the path's owner
	owner   string                // its URI, or "" when it was removed
	held    *resourcesync.Held    // the record made for owner, when known
	want    *resourcesync.Version // the version owner's unit asked for, if any
	live    int                   // units of the path looked up and not yet recorded
}

func newClaims() *claims { return &claims{paths: map[string]*claim{}} }

// open registers units about to be looked up in the state: a claim made
// before its lookup outlives it, so no result falls between the two.
func (c *claims) open(units []*Unit) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, u := range units {
		if u.Path == "" {
			continue
		}
		cl := c.paths[u.Path]
		if cl == nil {
			cl = &claim{}
			c.paths[u.Path] = cl
		}
		cl.live++
		u.claimed = true
	}
}

// check judges a unit that must be present against the path's owner as
// this run knows it: ErrSamePath for a twin of the URI a unit of this run
// already applied there (the first listed keeps the file), and whether a
// copy of the same URI asking for the version this run already brought
// makes it in step without a fetch (the record made then; nil otherwise).
// A twin of a URI only an earlier run applied is not refused: the Source
// now names the file so (moved from http to https, say), and the unit
// takes the file over (Worker.adopt).
func (c *claims) check(u *Unit) (*resourcesync.Held, error) {
	var (
		owner string
		held  *resourcesync.Held
		want  *resourcesync.Version
	)
	c.mu.Lock()
	if cl := c.paths[u.Path]; cl != nil && cl.touched {
		owner, held, want = cl.owner, cl.held, cl.want
	}
	c.mu.Unlock()
	if owner != "" && owner != u.URI {
		return nil, fmt.Errorf("%s maps to %s, the file of %s: %w", u.URI, u.Path, owner, ErrSamePath)
	}
	if held == nil || held.URI != u.URI || !u.Wanted {
		return nil, nil
	}
	// An entry listed again as it was (even one saying nothing of its
	// version) asks for the bytes this run just brought; one naming
	// another version (a later lastmod) is applied as any other.
	if want != nil && sameVersion(*want, u.Want) {
		return held, nil
	}
	return nil, nil
}

// touched reports whether a unit of this run decided path's owner (its
// result is not yet recorded).
func (c *claims) touched(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	cl := c.paths[path]
	return cl != nil && cl.touched
}

func sameVersion(a, b resourcesync.Version) bool {
	return a.HasLength == b.HasLength && a.Length == b.Length && a.LastMod.Equal(b.LastMod) &&
		a.Fixity.String() == b.Fixity.String()
}

// settle notes what a worker's result makes of its path; freed says that
// a unit gone at the Source left the set holding nothing there.
func (c *claims) settle(res result, freed bool) {
	u := res.u
	if u.Path == "" || u.Settled {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cl := c.paths[u.Path]
	if cl == nil {
		return
	}
	switch {
	case u.Gone && freed:
		cl.touched, cl.owner, cl.held, cl.want = true, "", nil, nil
	case u.Gone, res.outcome == Failed, res.outcome == Skipped:
	case res.held == nil && cl.touched && cl.owner == u.URI:
		// Found in step (a copy listed again): the claim already says so.
	default:
		held := res.held
		if held == nil {
			held = u.Held
		}
		cl.touched, cl.owner, cl.held, cl.want = true, u.URI, held, nil
		if u.Wanted {
			w := u.Want
			cl.want = &w
		}
	}
}

// recorded ends a unit's part in its path's claim once its result is in
// the state; a write that could not be published gives the path back to
// what the state says.
func (c *claims) recorded(res result, publishErr error) {
	u := res.u
	if !u.claimed {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cl := c.paths[u.Path]
	if cl == nil {
		return
	}
	if publishErr != nil && res.held != nil && cl.held == res.held {
		cl.touched, cl.owner, cl.held, cl.want = false, "", nil, nil
	}
	if cl.live--; cl.live <= 0 {
		delete(c.paths, u.Path)
	}
}
