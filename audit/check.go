package audit

import (
	"io/fs"
	"strconv"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Reasons a resource is changed, besides the hash algorithms' names.
const (
	ReasonLength  = "length"
	ReasonLastMod = "lastmod"
	ReasonType    = "type"
)

// check compares one listed resource with the file at its path.
func (a *auditor) check(j job) {
	l, info := j.l, j.info
	d := Difference{URI: l.URI, Path: l.Path}
	if j.held != nil && j.held.URI == l.URI {
		d.Links = resourcesync.LinkRecords(j.held.Links)
	}
	if !info.Mode().IsRegular() {
		d.Reason, d.Expected, d.Actual = ReasonType, "regular file", fileType(info.Mode())
		a.col.changed(d, false)
		return
	}
	if l.HasLength && info.Size() != l.Length {
		a.col.changed(lengthDiff(d, l.Length, info.Size()), false)
		return
	}
	algs := knownAlgs(l.Fixity)
	if len(algs) == 0 {
		a.checkUnverifiable(j, d)
		return
	}
	if a.opts.Fast && a.quickCheck(j, d) {
		return
	}
	a.checkHashed(j, d, algs)
}

// checkHashed re-hashes the file with algs, streaming it, and compares the
// digests with the Source's.
func (a *auditor) checkHashed(j job, d Difference, algs []string) {
	l := j.l
	sums, n, err := a.d.Mirror.HashFile(l.Path, algs)
	a.opts.Progress.Hashed(n)
	switch {
	case err != nil && gone(err):
		a.col.missing(d) // removed since the walk saw it
		return
	case err != nil:
		a.col.problem(Problem{URI: l.URI, Path: l.Path, Message: err.Error()})
		return
	case l.HasLength && n != l.Length: // changed since the walk saw it
		a.col.changed(lengthDiff(d, l.Length, n), false)
		return
	}
	if alg, want, got, ok := firstMismatch(l.Fixity, sums); ok {
		d.Reason, d.Expected, d.Actual = alg, want, got
		a.col.changed(d, false)
		return
	}
	a.col.inSync(false)
}

// quickCheck is Fast, rsync's and rclone's quick check: when the file
// still has the size and the modification time it was written with, the
// digests the state recorded for it stand for its bytes. (A size other
// than the Source's length was found by check already.) A file is written
// with the Source's lastmod as its mtime, and the state records that
// lastmod (Held.LastMod); Held.Fetched is the clock when the fetch began,
// which no file carries.
//
// It reports whether it decided. It does not when there is no record with
// a digest to compare and a lastmod, or when the file's size or mtime is
// not the recorded one (an edit in place, a copy made by another tool, or
// a lastmod the Source changed without changing the bytes): the record
// does not describe the file, and the caller re-hashes it. A same-size
// edit whose mtime was set back goes unseen.
func (a *auditor) quickCheck(j job, d Difference) bool {
	h := j.held
	if h == nil || h.LastMod.IsZero() || !j.l.Fixity.Shares(h.Fixity) {
		return false
	}
	if j.info.Size() != h.Length || !sameInstant(j.info.ModTime(), h.LastMod) {
		return false
	}
	if alg, want, got, mismatch := firstMismatch(j.l.Fixity, h.Fixity); mismatch {
		d.Reason, d.Expected, d.Actual = alg, want, got
		a.col.changed(d, false)
		return true
	}
	a.col.inSync(false)
	return true
}

// checkUnverifiable compares a resource that has no hash to check (its
// length was compared already) by its lastmod. The local lastmod is the
// one the state recorded for the file when it holds it (a baseline that
// finds the content unchanged under a new lastmod records the new one
// without touching the file), else the file's modification time, which a
// sync sets to the lastmod.
func (a *auditor) checkUnverifiable(j job, d Difference) {
	l := j.l
	if l.LastMod.IsZero() {
		a.col.inSync(true)
		return
	}
	local, same := j.info.ModTime(), false
	if h := j.held; h != nil && !h.LastMod.IsZero() {
		local, same = h.LastMod, h.LastMod.Equal(l.LastMod)
	} else {
		same = sameInstant(local, l.LastMod)
	}
	if !same {
		d.Reason, d.Expected, d.Actual = ReasonLastMod, resourcesync.FormatDatetime(l.LastMod), resourcesync.FormatDatetime(local)
		a.col.changed(d, true)
		return
	}
	a.col.inSync(true)
}

func lengthDiff(d Difference, want, got int64) Difference {
	d.Reason, d.Expected, d.Actual = ReasonLength, strconv.FormatInt(want, 10), strconv.FormatInt(got, 10)
	return d
}

// knownAlgs are the algorithms of f this program computes.
func knownAlgs(f resourcesync.Fixity) []string {
	var algs []string
	for _, d := range f {
		if c, ok := resourcesync.KnownAlg(d.Alg); ok {
			algs = append(algs, c)
		}
	}
	return algs
}

// firstMismatch finds, in the Source's order, the first digest of want
// that got has under the same algorithm with another value.
func firstMismatch(want, got resourcesync.Fixity) (alg, wantHex, gotHex string, ok bool) {
	for _, d := range want {
		if g, has := got.Get(d.Alg); has && g != d.Hex {
			return d.Alg, d.Hex, g, true
		}
	}
	return "", "", "", false
}

// sameInstant compares a file's modification time with a lastmod,
// allowing for a file system (or a copy) that keeps whole seconds.
func sameInstant(mtime, lastmod time.Time) bool {
	if mtime.Equal(lastmod) {
		return true
	}
	return mtime.Nanosecond() == 0 && mtime.Equal(lastmod.Truncate(time.Second))
}

// fileType names what a non-regular file is.
func fileType(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeSymlink != 0:
		return "symlink"
	case t&fs.ModeNamedPipe != 0:
		return "named pipe"
	case t&fs.ModeSocket != 0:
		return "socket"
	case t&fs.ModeDevice != 0:
		return "device"
	case t.IsDir():
		return "directory"
	default:
		return t.String()
	}
}
