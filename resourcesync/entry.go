package resourcesync

import (
	"fmt"
	"time"
)

// internCache keeps the last value of attributes that repeat from entry to
// entry (type, change, ...), so that a list of a million entries shares one
// string per distinct value instead of allocating a million copies.
type internCache struct {
	capability, change, typ, encoding, rel, changeFreq string
}

// intern returns b as a string, reusing *last when it is equal.
func intern(last *string, b []byte) string {
	if *last != string(b) {
		*last = string(b)
	}
	return *last
}

// entry reads the entry whose start tag was the last event.
func (r *Reader) entry() (*Entry, error) {
	s := r.s
	e := &Entry{Line: r.line}
	d := s.depth()
	var hasLoc, hasLastMod, hasFreq bool
	for {
		ev, err := s.next()
		if err != nil {
			return nil, r.wrap(err, r.n)
		}
		if ev == evEnd && s.depth() < d {
			break
		}
		if ev != evStart {
			continue
		}
		line := s.tokLine
		switch r.kind() {
		case elLoc:
			if hasLoc {
				return nil, r.errorf(line, r.n, ErrNoLoc, "entry with more than one <loc>")
			}
			hasLoc = true
			v, err := r.elementText("<loc>")
			if err != nil {
				return nil, err
			}
			e.Loc = string(v)
		case elLastMod:
			if hasLastMod {
				return nil, r.errorf(line, r.n, ErrDatetime, "entry with more than one <lastmod>")
			}
			hasLastMod = true
			v, err := r.elementText("<lastmod>")
			if err != nil {
				return nil, err
			}
			if e.LastMod, err = parseDatetimeOf(v); err != nil {
				// One bad lastmod is the entry's problem, not the
				// document's: the entry is used without it.
				e.BadLastMod = string(v)
			}
		case elChangeFreq:
			if hasFreq {
				return nil, r.errorf(line, r.n, ErrAttribute, "entry with more than one <changefreq>")
			}
			hasFreq = true
			v, err := r.elementText("<changefreq>")
			if err != nil {
				return nil, err
			}
			e.ChangeFreq = intern(&r.cache.changeFreq, v)
		case elMD:
			if e.HasMD {
				return nil, r.errorf(line, r.n, ErrAttribute, "more than one rs:md in an entry (it is not repeatable)")
			}
			e.HasMD = true
			if err := r.metadata(&e.MD, true); err != nil {
				return nil, r.wrapAt(err, line, r.n)
			}
			if err := s.skip(); err != nil {
				return nil, r.wrap(err, r.n)
			}
		case elLN:
			if len(e.Links) >= r.lim.MaxLinks {
				return nil, r.errorf(line, r.n, ErrLimit, "more than MaxLinks (%d) rs:ln in an entry", r.lim.MaxLinks)
			}
			l, err := r.link()
			if err != nil {
				return nil, r.wrapAt(err, line, r.n)
			}
			e.Links = append(e.Links, l)
			if err := s.skip(); err != nil {
				return nil, r.wrap(err, r.n)
			}
		default:
			if err := s.skip(); err != nil {
				return nil, r.wrap(err, r.n)
			}
		}
	}
	switch {
	case !hasLoc:
		return nil, r.errorf(e.Line, r.n, ErrNoLoc, "entry without <loc>")
	case e.Loc == "":
		return nil, r.errorf(e.Line, r.n, ErrNoLoc, "entry with an empty <loc>")
	}
	return e, nil
}

// elementText reads the text of the element whose start tag was the last
// event, up to its end tag, trimmed of white space. Comments may split it;
// child elements are skipped. The result is valid until the next call.
func (r *Reader) elementText(what string) ([]byte, error) {
	s := r.s
	d := s.depth()
	// Fast path: one text node and the end tag; the text is still in the
	// scanner's buffer then.
	ev, err := s.next()
	if err != nil {
		return nil, r.wrap(err, r.n)
	}
	if ev == evEnd {
		return nil, nil
	}
	if ev == evText {
		if ev, err = s.next(); err != nil {
			return nil, r.wrap(err, r.n)
		}
		if ev == evEnd {
			return trimSpace(s.text), nil
		}
		r.val = append(r.val[:0], s.text...)
	} else {
		r.val = r.val[:0]
	}
	for {
		switch ev {
		case evText:
			if len(r.val)+len(s.text) > r.lim.MaxTokenBytes {
				return nil, r.errorf(s.line, r.n, ErrLimit, "text of %s longer than MaxTokenBytes (%d bytes)", what, r.lim.MaxTokenBytes)
			}
			r.val = append(r.val, s.text...)
		case evStart:
			if err := s.skip(); err != nil {
				return nil, r.wrap(err, r.n)
			}
		case evEnd:
			if s.depth() < d {
				return trimSpace(r.val), nil
			}
		}
		if ev, err = s.next(); err != nil {
			return nil, r.wrap(err, r.n)
		}
	}
}

// metadata decodes the attributes of the rs:md whose start tag was the last
// event into md. The error says which attribute is wrong and how. In an
// entry (inEntry), a hash attribute that does not parse is kept as a
// MalformedFixity rather than failing the document: it fails its own
// entry only, when the entry's bytes are to be verified.
func (r *Reader) metadata(md *Metadata, inEntry bool) error {
	for i := range r.s.attrs {
		a := &r.s.attrs[i]
		if a.space != "" {
			md.Extra = append(md.Extra, Attr{Space: a.space, Local: string(a.local), Value: string(a.value)})
			continue
		}
		v := trimSpace(a.value)
		var err error
		switch string(a.local) {
		case "capability":
			if len(v) == 0 {
				return &reason{kind: ErrAttribute, msg: "empty capability attribute"}
			}
			md.Capability = Capability(intern(&r.cache.capability, v))
		case "change":
			if len(v) == 0 {
				return &reason{kind: ErrAttribute, msg: "empty change attribute"}
			}
			md.Change = Change(intern(&r.cache.change, v))
		case "hash":
			md.Hash, err = ParseHash(string(v))
			if err != nil && inEntry {
				md.Hash, err = MalformedFixity(string(v)), nil
			}
		case "length":
			md.Length, err = parseLength(v)
			md.HasLength = true
		case "type":
			md.Type = intern(&r.cache.typ, v)
		case "encoding":
			md.Encoding = intern(&r.cache.encoding, v)
		case "path":
			md.Path = string(v)
		case "at":
			md.At, err = attrTime("at", v)
		case "completed":
			md.Completed, err = attrTime("completed", v)
		case "from":
			md.From, err = attrTime("from", v)
		case "until":
			md.Until, err = attrTime("until", v)
		case "datetime":
			md.Datetime, err = attrTime("datetime", v)
		default:
			md.Extra = append(md.Extra, Attr{Local: string(a.local), Value: string(a.value)})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// link decodes the attributes of the rs:ln whose start tag was the last
// event.
func (r *Reader) link() (Link, error) {
	var l Link
	var hasRel, hasHref bool
	for i := range r.s.attrs {
		a := &r.s.attrs[i]
		if a.space != "" {
			l.Extra = append(l.Extra, Attr{Space: a.space, Local: string(a.local), Value: string(a.value)})
			continue
		}
		v := trimSpace(a.value)
		var err error
		switch string(a.local) {
		case "rel":
			l.Rel, hasRel = intern(&r.cache.rel, v), len(v) > 0
		case "href":
			l.Href, hasHref = string(v), len(v) > 0
		case "pri":
			l.Pri, err = parsePri(v)
		case "modified":
			l.Modified, err = attrTime("modified", v)
		case "hash":
			// Never fatal on a link: resync-dest does not fetch related
			// resources by their hash, and one malformed link must not make
			// a whole Change List unreadable. Kept as given.
			if h, herr := ParseHash(string(v)); herr == nil {
				l.Hash = h
			} else {
				l.BadHash = string(v)
			}
		case "length":
			l.Length, err = parseLength(v)
			l.HasLength = true
		case "type":
			l.Type = intern(&r.cache.typ, v)
		case "path":
			l.Path = string(v)
		case "encoding":
			l.Encoding = intern(&r.cache.encoding, v)
		default:
			l.Extra = append(l.Extra, Attr{Local: string(a.local), Value: string(a.value)})
		}
		if err != nil {
			return Link{}, err
		}
	}
	switch {
	case !hasRel:
		return Link{}, &reason{kind: ErrAttribute, msg: "rs:ln without rel"}
	case !hasHref:
		return Link{}, &reason{kind: ErrAttribute, msg: "rs:ln without href"}
	}
	return l, nil
}

func attrTime(name string, v []byte) (time.Time, error) {
	t, err := parseDatetimeOf(v)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s attribute: %w", name, err)
	}
	return t, nil
}

// parseLength parses a length attribute: a non-negative decimal integer.
func parseLength(v []byte) (int64, error) {
	n, ok := parseDecimal(v, 1<<63-1)
	if !ok {
		return 0, &reason{kind: ErrLength, msg: fmt.Sprintf("bad length %q: not a non-negative decimal integer", v)}
	}
	return n, nil
}

// parsePri parses a pri attribute: an integer from 1 to 999999.
func parsePri(v []byte) (int, error) {
	n, ok := parseDecimal(v, 999999)
	if !ok || n < 1 {
		return 0, &reason{kind: ErrAttribute, msg: fmt.Sprintf("bad pri %q: not an integer from 1 to 999999", v)}
	}
	return int(n), nil
}

// parseDecimal parses ASCII digits (no sign) up to max.
func parseDecimal(v []byte, max int64) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (max-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// trimSpace trims XML white space (not Unicode's) from both ends of b.
func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}
