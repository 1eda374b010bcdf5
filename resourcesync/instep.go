package resourcesync

import "time"

// Version is what identifies one version of a resource's bytes, as a
// document describes it (the rs:md of a list entry, a change or a
// manifest entry) or as the Destination recorded the copy it holds: every
// digest known, the length (valid only when HasLength) and the lastmod
// (zero when unknown).
type Version struct {
	Fixity    Fixity
	Length    int64
	HasLength bool
	LastMod   time.Time
}

// Shares reports whether f and g both give a digest under some algorithm
// this package computes: then they can be compared (Agrees).
func (f Fixity) Shares(g Fixity) bool {
	for _, d := range f {
		if hexLen(d.Alg) == 0 {
			continue
		}
		if _, ok := g.Get(d.Alg); ok {
			return true
		}
	}
	return false
}

// InStep reports whether a copy held (its digests, length and lastmod as
// recorded when it was fetched) is the version want describes: the same
// length when want gives one and, by preference, the same digests; when no
// digest can be compared, the same lastmod (zero lastmods never match, so
// a version known by neither digest nor lastmod is never in step). It is
// the one rule every sync path applies. The audit, which must also name
// what differs, compares the same fields in the same order (length, then
// shared digests, else lastmod) and reports a version known by neither as
// unverifiable rather than deciding.
func InStep(held, want Version) bool {
	if want.HasLength && held.HasLength && want.Length != held.Length {
		return false
	}
	if want.Fixity.Shares(held.Fixity) {
		return want.Fixity.Agrees(held.Fixity)
	}
	return !want.LastMod.IsZero() && want.LastMod.Equal(held.LastMod)
}

// Version is the version of the bytes the copy held is.
func (h Held) Version() Version {
	return Version{Fixity: h.Fixity, Length: h.Length, HasLength: true, LastMod: h.LastMod}
}
