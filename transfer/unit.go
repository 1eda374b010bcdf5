package transfer

import (
	"context"
	"errors"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Unit is the engine's unit of work: one resource to bring in step with
// what the Source says of it now. A planner (baseline, incremental) fills
// in what it knows - the URI, the version wanted or that the resource is
// gone, where its bytes may come from, the changes its effect settles -
// and the engine adds what the mirror and the state say (Path, Held)
// before a worker takes it.
type Unit struct {
	URI string
	// Gone: the resource must end absent (deleted at the Source); else
	// present, as Want describes it.
	Gone bool
	// Want is the version the Source describes; Wanted is false when the
	// Source said nothing of it (a failure retried without a change naming
	// it): the copy held, if any, is then asked after with its validators.
	Want   resourcesync.Version
	Wanted bool
	// Rehash compares the local file's bytes, not the state's record,
	// with Want (--checksum).
	Rehash bool
	// Revalidate makes the fetch of a copy held but not known to be in
	// step conditional on its validators (ETag, Last-Modified).
	Revalidate bool
	// Origins are where the bytes may come from before the Source, in
	// order of preference (a member of a dump package); the Source is
	// always the last resort. The engine releases them once the unit is
	// done or dropped.
	Origins []Origin
	// Mirrors are the resource's mirrors the Source names (§14.2,
	// resourcesync.Mirrors: http(s), in pri order). The engine tries them
	// as RunOptions.Mirrors says, only when Want has a hash to verify
	// their copies against, and only those the host policy allows.
	Mirrors []resourcesync.Link
	// Patches are the patches the Source names for an update (§14.4,
	// resourcesync.Patches), tried first when the copy held is the
	// version the state recorded.
	Patches []resourcesync.Link
	// PatchPackage is the Change Dump package the unit's patches are
	// members of (§14.4: in a Change Dump a patch link's path names its
	// member): a patch is read from it, never fetched from its href, and
	// a patch link without a path is ignored. The unit holds a reference
	// on it, released with its origins.
	PatchPackage *Package
	// Collections are the resource's rel="collection" links (§14.7) as
	// the entry or the changes naming it give them: what --collection
	// (RunOptions.Filter) decides by, for a deletion too.
	Collections []resourcesync.Link
	// ByRecord: nothing the planner read says which collections the
	// resource is a member of (a bare deletion no other change explains,
	// a failure retried that no change names): the collection links
	// recorded with the copy held decide (Filter.CheckHeld: Held's, else
	// TwinHeld's, the record of the file at Path), not Collections.
	ByRecord bool
	// Companion: a resource fetched along with an entry's own (an
	// alternate, a metadata record). It follows its resource: the filters
	// do not judge it by its own URI; its planner sets LeftOut to what
	// they said of its resource (or emits it only with a resource they
	// take).
	Companion bool
	LeftOut   error
	// Mementos are the versions the unit's changes announce with a
	// memento link (§14.6), in the order they apply: kept with
	// --keep-versions, and the last one, when it is Want, an origin of
	// Want after <loc>.
	Mementos []Memento
	// Links are the links to record with the copy (§14,
	// resourcesync.Recorded) when RecordLinks: the entry's, which replace
	// those recorded before - a copy in step whose entry's links changed
	// has its record rewritten. Without RecordLinks (a companion, a
	// failure retried that no entry names) the record keeps its links.
	Links       []resourcesync.Link
	RecordLinks bool
	// Changes are the change records the unit's effect settles: recorded
	// with it, failed when it fails.
	Changes []resourcesync.ChangeRecord
	// Settled: the unit's changes were superseded by a later one an
	// earlier run applied; they are recorded and nothing else is done.
	Settled bool
	// Retry: an earlier run recorded a failure of this resource.
	Retry bool
	// Tag is the planner's, handed back with the unit's Result.
	Tag any

	// Set by the engine before a worker takes the unit: where the URI
	// maps in the mirror (or why it maps nowhere), and what the state
	// holds of it (nil: nothing).
	Path    string
	PathErr error
	Held    *resourcesync.Held
	// Twin is another URI the set holds at Path when it holds nothing
	// under URI: the two map to one file. TwinHeld is its record.
	Twin     string
	TwinHeld *resourcesync.Held

	claimed bool // counted in the run's claims (claims.open)
}

// links are the links the unit's record is to carry.
func (u *Unit) links() []resourcesync.Link {
	switch {
	case u.RecordLinks:
		return u.Links
	case u.Held != nil:
		return u.Held.Links
	}
	return nil
}

// withLinks returns h (a record to store for u) carrying u's links: h
// itself when it does already, else a copy (h may be the state's record,
// shared with the unit).
func (u *Unit) withLinks(h *resourcesync.Held) *resourcesync.Held {
	links := u.links()
	if h == nil || resourcesync.SameLinks(h.Links, links) {
		return h
	}
	c := *h
	c.Links = links
	return &c
}

// release lets go of the unit's origins.
func (u *Unit) release() {
	for _, o := range u.Origins {
		o.Release()
	}
	u.Origins = nil
	if u.PatchPackage != nil {
		u.PatchPackage.Release()
		u.PatchPackage = nil
	}
}

// Origin is a place a unit's bytes may come from other than the Source:
// a member of a dump package now; a mirror of the Source or a patch are
// the same kind of thing. Open and Release are called by the unit's
// worker, Release exactly once.
type Origin interface {
	// Open returns what reads the unit's bytes. An error wrapping
	// ErrUnusable says the origin cannot serve them (its package cannot
	// be used): the next origin is tried, the Source last. Any other error
	// fails the unit, or the run when Fatal.
	Open(ctx context.Context) (Fetcher, error)
	Release()
}

// ErrUnusable is wrapped by an Origin that cannot serve a unit's bytes.
var ErrUnusable = errors.New("origin unusable")

// Result is what became of one unit, handed to its planner once it is
// recorded.
type Result struct {
	Unit    *Unit
	Outcome Outcome
	Bytes   int64
	Cause   error // for Failed and Skipped
}

// Companions returns the links of an entry naming the resources the run
// fetches along with it (RunOptions.Alternates, WithMetadata).
func (o RunOptions) Companions(links []resourcesync.Link) []resourcesync.Link {
	if len(o.Alternates) == 0 && !o.WithMetadata {
		return nil
	}
	return resourcesync.Companions(links, o.Alternates, o.WithMetadata)
}

// leftOut returns the error wrapping resourcesync.ErrLeftOut when the
// filters leave u out, nil when they take it (a companion as its
// resource). A unit ByRecord is judged once the engine looked up what
// the state holds (prepare).
func (o RunOptions) leftOut(u *Unit) error {
	switch {
	case u.Companion:
		return u.LeftOut
	case u.ByRecord && u.Held == nil && u.TwinHeld != nil:
		return o.Filter.CheckHeld(u.URI, u.TwinHeld)
	case u.ByRecord:
		return o.Filter.CheckHeld(u.URI, u.Held)
	}
	return o.Filter.CheckEntry(u.URI, u.Collections)
}

// CompanionUnit is the unit of a resource fetched along with an entry's
// own, as its link describes it (its hash, length and modified, when
// given); a copy held is revalidated when the link gives no hash.
func CompanionUnit(l resourcesync.Link) *Unit {
	return &Unit{URI: l.Href, Wanted: true, Revalidate: true, Companion: true,
		Want: resourcesync.Version{Fixity: l.Hash, Length: l.Length, HasLength: l.HasLength, LastMod: l.Modified}}
}
