package resourcesync

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"
)

// The checks below keep the Writer from writing what the Reader would
// reject or read back differently.

// mdAttr and linkAttr report the attributes the standard defines, which an
// Extra attribute without a namespace must not shadow.
func mdAttr(name string) bool {
	switch name {
	case "capability", "change", "hash", "length", "type", "encoding", "path", "at", "completed", "from", "until", "datetime":
		return true
	}
	return false
}

func linkAttr(name string) bool {
	switch name {
	case "rel", "href", "pri", "modified", "hash", "length", "type", "path", "encoding":
		return true
	}
	return false
}

func checkEntry(e *Entry) error {
	if e.Loc == "" {
		return errors.New("no loc")
	}
	if err := checkValue("loc", e.Loc); err != nil {
		return err
	}
	if err := checkValue("changefreq", e.ChangeFreq); err != nil {
		return err
	}
	if err := checkTime("lastmod", e.LastMod); err != nil {
		return err
	}
	if e.BadLastMod != "" {
		if err := checkValue("lastmod", e.BadLastMod); err != nil {
			return err
		}
		if _, err := ParseDatetime(e.BadLastMod); err == nil || !e.LastMod.IsZero() {
			return fmt.Errorf("bad lastmod %q would read back otherwise", e.BadLastMod)
		}
	}
	if err := checkMD(&e.MD); err != nil {
		return fmt.Errorf("rs:md: %w", err)
	}
	for i := range e.Links {
		if err := checkLink(&e.Links[i]); err != nil {
			return fmt.Errorf("rs:ln: %w", err)
		}
	}
	return nil
}

func checkMD(m *Metadata) error {
	for _, v := range []struct{ name, value string }{
		{"capability", string(m.Capability)}, {"change", string(m.Change)}, {"type", m.Type},
		{"encoding", m.Encoding}, {"path", m.Path},
	} {
		if err := checkValue(v.name, v.value); err != nil {
			return err
		}
	}
	for _, v := range []struct {
		name string
		t    time.Time
	}{{"at", m.At}, {"completed", m.Completed}, {"from", m.From}, {"until", m.Until}, {"datetime", m.Datetime}} {
		if err := checkTime(v.name, v.t); err != nil {
			return err
		}
	}
	if err := checkHash(m.Hash); err != nil {
		return err
	}
	if m.HasLength && m.Length < 0 {
		return fmt.Errorf("negative length %d", m.Length)
	}
	return checkExtra(m.Extra, mdAttr)
}

func checkLink(l *Link) error {
	switch {
	case l.Rel == "":
		return errors.New("no rel")
	case l.Href == "":
		return errors.New("no href")
	case l.Pri < 0 || l.Pri > 999999:
		return fmt.Errorf("pri %d outside 1-999999", l.Pri)
	case l.HasLength && l.Length < 0:
		return fmt.Errorf("negative length %d", l.Length)
	}
	for _, v := range []struct{ name, value string }{
		{"rel", l.Rel}, {"href", l.Href}, {"type", l.Type}, {"path", l.Path}, {"encoding", l.Encoding}, {"hash", l.BadHash},
	} {
		if err := checkValue(v.name, v.value); err != nil {
			return err
		}
	}
	if err := checkTime("modified", l.Modified); err != nil {
		return err
	}
	if err := checkHash(l.Hash); err != nil {
		return err
	}
	return checkExtra(l.Extra, linkAttr)
}

// checkValue checks a text or attribute value the Reader trims.
func checkValue(name, v string) error {
	if err := checkChars(v); err != nil {
		return fmt.Errorf("%s %q: %w", name, v, err)
	}
	if v != "" && (isSpace(v[0]) || isSpace(v[len(v)-1])) {
		return fmt.Errorf("%s %q has white space around it, which a reader drops", name, v)
	}
	return nil
}

// checkChars reports a string XML cannot carry: invalid UTF-8 or a
// character outside XML's Char.
func checkChars(v string) error {
	for i, r := range v {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(v[i:]); n <= 1 {
				return errors.New("invalid UTF-8")
			}
		}
		if !isXMLChar(r) {
			return fmt.Errorf("character %U cannot be written in XML", r)
		}
	}
	return nil
}

func checkTime(name string, t time.Time) error {
	if y := t.UTC().Year(); !t.IsZero() && (y < 0 || y > 9999) {
		return fmt.Errorf("%s %v: a W3C datetime has a four-digit year", name, t)
	}
	return nil
}

// checkHash makes sure the hash attribute reads back as f: a
// MalformedFixity as itself, which an entry's rs:md does.
func checkHash(f Fixity) error {
	if len(f) == 0 {
		return nil
	}
	if f.Err() != nil {
		raw := f[0].Hex
		if err := checkValue("hash", raw); err != nil {
			return err
		}
		if raw == "" {
			return errors.New("an empty malformed hash would read back as no hash")
		}
		return nil
	}
	back, err := ParseHash(f.String())
	if err != nil {
		return err
	}
	for i := range f {
		if i >= len(back) || back[i] != f[i] {
			return fmt.Errorf("hash %q would read back as %q", f.String(), back.String())
		}
	}
	if len(back) != len(f) {
		return fmt.Errorf("hash %q would read back as %q", f.String(), back.String())
	}
	return nil
}

func checkExtra(as []Attr, defined func(string) bool) error {
	for i, a := range as {
		if !isNCName(a.Local) {
			return fmt.Errorf("extra attribute name %q is not an XML name without a colon", a.Local)
		}
		switch a.Space {
		case "":
			if a.Local == "xmlns" {
				return errors.New("extra attribute xmlns: namespace declarations are not attributes")
			}
			if defined(a.Local) {
				return fmt.Errorf("extra attribute %s without a namespace is an attribute the standard defines", a.Local)
			}
		case xmlnsNamespace:
			return errors.New("extra attribute in the xmlns namespace: namespace declarations are not attributes")
		default:
			if err := checkChars(a.Space); err != nil {
				return fmt.Errorf("extra attribute namespace %q: %w", a.Space, err)
			}
		}
		if err := checkChars(a.Value); err != nil {
			return fmt.Errorf("extra attribute %s=%q: %w", a.Local, a.Value, err)
		}
		for _, b := range as[:i] {
			if b.Space == a.Space && b.Local == a.Local {
				return fmt.Errorf("extra attribute {%s}%s given twice", a.Space, a.Local)
			}
		}
	}
	return nil
}

// isNCName reports whether s is an XML name without a colon.
func isNCName(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for i, r := range s {
		switch {
		case r == ':':
			return false
		case r < utf8.RuneSelf && i == 0:
			if charClass[r]&clNameStart == 0 {
				return false
			}
		case r < utf8.RuneSelf:
			if charClass[r]&clName == 0 {
				return false
			}
		case i == 0 && !isNameStartRune(r), !isNameRune(r):
			return false
		}
	}
	return true
}
