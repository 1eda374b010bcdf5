package resourcesync

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"slices"
	"time"
)

// ChangeEntry is one change of a set's history: an entry of a Change List
// with where it came from. Its Loc is absolute.
type ChangeEntry struct {
	*Entry
	List     string    // final URL of the Change List
	Position int       // 1-based position of the entry in that list
	Time     time.Time // Entry.Time(): datetime, else lastmod
}

// ChangeListPart is the changes of one Change List, in the order they are
// applied: forward chronological by instant, equal instants in document
// order (§12.1 requires the order; a Source that writes offsets or breaks
// the order is sorted here, not trusted).
type ChangeListPart struct {
	URL     string // final URL
	From    time.Time
	Until   time.Time // zero for an open list
	Changes []ChangeEntry
	Skipped int // changes before HistoryOptions.Since, left out
}

// HistoryOptions tune ReadHistory.
type HistoryOptions struct {
	Limits Limits
	// Since is the cursor: every change before it is processed. Changes
	// before it are left out, and closed lists that end before it are not
	// fetched at all.
	Since time.Time
	// KeepEarly hands the changes before Since of the lists read to the
	// visitor's Change too, instead of leaving them out: a Source that
	// breaks chronological order (a deletion dated with the deleted
	// file's old lastmod) may list an unprocessed change there, which only
	// the caller's records can tell from a processed one.
	KeepEarly bool
	// SkipList, when set, is asked about each closed list an index names
	// (its URL, from and until); true skips it without fetching it (a list
	// the state says is fully processed).
	SkipList func(url string, from, until time.Time) bool
}

// History is what ReadHistory learned about the history as a whole.
type History struct {
	// Earliest is the earliest time the Source's history covers: the from
	// of the Change List Index, else of the first Change List. A cursor
	// before it means changes may have been lost (a gap).
	Earliest time.Time
	// Lists are the Change Lists read, in order (without their changes).
	Lists []string
}

// HistoryVisitor receives a change history as WalkHistory streams it. Each
// function may be nil; an error from one stops the walk.
type HistoryVisitor struct {
	// StartList is called before a list's changes, with its URL, From and
	// Until (Changes empty, Skipped zero).
	StartList func(part *ChangeListPart) error
	// Change is called for each change at or after HistoryOptions.Since, in
	// document order: a Source that breaks chronological order is not
	// sorted here (ReadHistory sorts; a caller that cannot hold a list
	// sorts as it stores).
	Change func(part *ChangeListPart, c ChangeEntry) error
	// EndList is called after a list's last change, with Skipped final.
	EndList func(part *ChangeListPart) error
}

// ReadHistory reads a set's change history from the Change List (or
// Change List Index) at docURL and calls fn for each list, in forward
// chronological order (§12.2: by from, the index's order when a list's
// from is unknown), with its changes sorted. fn may stop the
// read with an error. Walking off a closed list that carries
// rel="index" continues in that index (§12.1). Each list is held in memory
// while fn runs; WalkHistory streams instead.
//
// It returns an error for a document that is not a Change List, an index
// nested in an index, a *HoleError for an index whose lists leave a hole
// after opts.Since (before any list is read), a change without a time (lastmod is mandatory in a
// Change List), and whatever open or the parser report, wrapped with the
// URL concerned. The History is returned in every case, as far as known.
func ReadHistory(ctx context.Context, open Opener, docURL string, opts HistoryOptions,
	fn func(part *ChangeListPart) error) (*History, error) {
	return WalkHistory(ctx, open, docURL, opts, HistoryVisitor{
		Change: func(p *ChangeListPart, c ChangeEntry) error {
			p.Changes = append(p.Changes, c)
			return nil
		},
		EndList: func(p *ChangeListPart) error {
			slices.SortStableFunc(p.Changes, func(a, b ChangeEntry) int { return a.Time.Compare(b.Time) })
			return fn(p)
		},
	})
}

// WalkHistory reads the change history as ReadHistory does, with the same
// errors, but streams it: v is told of each list and each of its changes
// in document order, and nothing of a list is held in memory.
func WalkHistory(ctx context.Context, open Opener, docURL string, opts HistoryOptions, v HistoryVisitor) (*History, error) {
	h := &History{}
	final, body, err := open(ctx, docURL)
	if err != nil {
		return h, fmt.Errorf("open Change List %s: %w", docURL, err)
	}
	defer body.Close()
	r := NewReader(body, final, opts.Limits)
	hdr, err := r.Header()
	if err != nil {
		return h, err
	}
	if hdr.Capability() != CapChangeList {
		return h, &CapabilityMismatchError{URL: final, Got: hdr.Capability(), Want: CapChangeList}
	}
	h.Earliest = hdr.MD.From
	if !hdr.IsIndex() {
		if ix, ok := hdr.Link(RelIndex); ok && hdr.Closed() {
			// A closed list under an index: the index says what follows.
			body.Close()
			return readIndexAt(ctx, open, Resolve(final, ix.Href), opts, h, v)
		}
		h.Lists = append(h.Lists, final)
		return h, readPart(ctx, r, final, hdr, opts, v)
	}
	return h, readIndex(ctx, open, r, final, opts, h, v)
}

// WalkList streams one Change List to v, as WalkHistory streams each list
// of a history, without following its rel="index": a list named by a
// Change List Archive is read alone, though it still points at the index
// that named it once. An index, or a document that is not a Change List,
// is an error naming it.
func WalkList(ctx context.Context, open Opener, docURL string, opts HistoryOptions, v HistoryVisitor) error {
	final, body, err := open(ctx, docURL)
	if err != nil {
		return fmt.Errorf("open Change List %s: %w", docURL, err)
	}
	defer body.Close()
	r := NewReader(body, final, opts.Limits)
	hdr, err := r.Header()
	if err != nil {
		return err
	}
	if hdr.Capability() != CapChangeList {
		return &CapabilityMismatchError{URL: final, Got: hdr.Capability(), Want: CapChangeList}
	}
	if hdr.IsIndex() {
		return fmt.Errorf("%s: a Change List Index where a Change List was named", final)
	}
	return readPart(ctx, r, final, hdr, opts, v)
}

func readIndexAt(ctx context.Context, open Opener, ixURL string, opts HistoryOptions, h *History,
	v HistoryVisitor) (*History, error) {
	final, body, err := open(ctx, ixURL)
	if err != nil {
		return h, fmt.Errorf("open Change List Index %s: %w", ixURL, err)
	}
	defer body.Close()
	r := NewReader(body, final, opts.Limits)
	hdr, err := r.Header()
	if err != nil {
		return h, err
	}
	if hdr.Capability() != CapChangeList || !hdr.IsIndex() {
		return h, fmt.Errorf("%s is named as a Change List Index (rel=\"index\") but is a %s %s", final, hdr.Capability().Name(), hdr.Root)
	}
	h.Earliest = hdr.MD.From
	return h, readIndex(ctx, open, r, final, opts, h, v)
}

// readIndex reads the index's entries, then each list it names that may
// hold unprocessed changes.
func readIndex(ctx context.Context, open Opener, r *Reader, final string, opts HistoryOptions, h *History,
	v HistoryVisitor) error {
	base, err := url.Parse(final)
	if err != nil {
		return fmt.Errorf("Change List Index URL %q: %w", final, err)
	}
	var refs []*Entry
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		e.Loc = resolve(base, e.Loc)
		refs = append(refs, e)
	}
	// A hole between two lists loses the changes in it as surely as a
	// history that starts after the cursor: stop before any list is read.
	span := func(e *Entry) Span { return Span{URL: e.Loc, From: e.MD.From, Until: e.MD.Until} }
	SortSpans(refs, span)
	spans := make([]Span, len(refs))
	for i, e := range refs {
		spans[i] = span(e)
	}
	if hole := FindHole(final, spans, opts.Since); hole != nil {
		return hole
	}
	seen := map[string]bool{}
	for i, ref := range refs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if seen[ref.Loc] {
			continue
		}
		seen[ref.Loc] = true
		if h.Earliest.IsZero() && i == 0 {
			h.Earliest = ref.MD.From
		}
		if until := ref.MD.Until; !until.IsZero() {
			// Every change of a closed list is at or before its until: a
			// list that ends before the cursor holds nothing unprocessed.
			if !opts.Since.IsZero() && until.Before(opts.Since) {
				continue
			}
			if opts.SkipList != nil && opts.SkipList(ref.Loc, ref.MD.From, until) {
				continue
			}
		}
		if err := openPart(ctx, open, ref.Loc, final, opts, h, v); err != nil {
			return err
		}
	}
	return nil
}

func openPart(ctx context.Context, open Opener, u, index string, opts HistoryOptions, h *History, v HistoryVisitor) error {
	final, body, err := open(ctx, u)
	if err != nil {
		return fmt.Errorf("open Change List %s (listed by %s): %w", u, index, err)
	}
	defer body.Close()
	r := NewReader(body, final, opts.Limits)
	hdr, err := r.Header()
	if err != nil {
		return err
	}
	if hdr.Capability() != CapChangeList {
		return &CapabilityMismatchError{URL: final, Got: hdr.Capability(), Want: CapChangeList}
	}
	if hdr.IsIndex() {
		return fmt.Errorf("%s: an index listed by the Change List Index %s; nested indexes are not part of the standard", final, index)
	}
	h.Lists = append(h.Lists, final)
	if h.Earliest.IsZero() {
		h.Earliest = hdr.MD.From
	}
	return readPart(ctx, r, final, hdr, opts, v)
}

// readPart streams one Change List's entries to v.
func readPart(ctx context.Context, r *Reader, final string, hdr *Header, opts HistoryOptions, v HistoryVisitor) error {
	base, err := url.Parse(final)
	if err != nil {
		return fmt.Errorf("Change List URL %q: %w", final, err)
	}
	part := &ChangeListPart{URL: final, From: hdr.MD.From, Until: hdr.MD.Until}
	if v.StartList != nil {
		if err := v.StartList(part); err != nil {
			return err
		}
	}
	for pos := 1; ; pos++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		t := e.Time()
		if t.IsZero() {
			// Without a time a change cannot be put in order or against
			// the cursor: unlike a Resource List's, a Change List's bad
			// lastmod is the document's problem.
			if e.BadLastMod != "" {
				_, derr := ParseDatetime(e.BadLastMod)
				return &ParseError{Doc: final, Line: e.Line, Entry: pos, Err: fmt.Errorf("a change needs a time: <lastmod>: %w", derr)}
			}
			return &ParseError{Doc: final, Line: e.Line, Entry: pos, Err: fmt.Errorf("%w: a change needs lastmod (or datetime)", ErrAttribute)}
		}
		if !opts.KeepEarly && !opts.Since.IsZero() && t.Before(opts.Since) {
			part.Skipped++
			continue
		}
		e.Loc = resolve(base, e.Loc)
		if v.Change != nil {
			if err := v.Change(part, ChangeEntry{Entry: e, List: final, Position: pos, Time: t}); err != nil {
				return err
			}
		}
	}
	if v.EndList != nil {
		return v.EndList(part)
	}
	return nil
}
