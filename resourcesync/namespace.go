package resourcesync

import (
	"bytes"
	"slices"
)

// Namespaces that Namespaces in XML reserves.
const (
	xmlNamespace   = "http://www.w3.org/XML/1998/namespace"
	xmlnsNamespace = "http://www.w3.org/2000/xmlns/"
)

// nsBinding is one namespace declaration in scope: prefix "" is the default
// namespace, and uri "" undeclares it.
type nsBinding struct {
	prefix string
	uri    string
	depth  int // depth of the element that declared it
}

// declare records the xmlns and xmlns:p attributes of the tag being read,
// which belong to the element about to be opened, and counts them in decls.
func (s *scanner) declare(tagEnd int) error {
	depth := len(s.open) + 1
	s.decls = 0
	for _, a := range s.raw {
		qname := s.arena[a.name:a.nameEnd]
		var prefix []byte
		switch {
		case string(qname) == "xmlns":
		case a.colon >= a.name && string(s.arena[a.name:a.colon]) == "xmlns":
			prefix = s.arena[a.colon+1 : a.nameEnd]
		default:
			continue
		}
		uri := s.arena[a.val:a.valEnd]
		switch {
		case string(prefix) == "xmlns":
			return s.fail(ErrSyntax, "the prefix xmlns cannot be declared")
		case string(prefix) == "xml" && string(uri) != xmlNamespace:
			return s.failf(ErrSyntax, "the prefix xml cannot be bound to %q", uri)
		case string(prefix) != "xml" && (string(uri) == xmlNamespace || string(uri) == xmlnsNamespace):
			return s.failf(ErrSyntax, "the namespace %q cannot be declared on <%s>", uri, s.arena[:tagEnd])
		case len(prefix) > 0 && len(uri) == 0:
			return s.failf(ErrSyntax, "the prefix %s cannot be undeclared", prefix)
		}
		// Every name is looked up among the declarations in scope: bound
		// them, or a document could make each lookup arbitrarily long.
		if len(s.ns)-1 >= s.lim.MaxAttrs { // ns[0] is the predefined xml prefix
			return s.failf(ErrLimit, "more than MaxAttrs (%d) namespace declarations in scope", s.lim.MaxAttrs)
		}
		s.ns = append(s.ns, nsBinding{prefix: string(prefix), uri: internNamespace(uri), depth: depth})
		s.decls++
	}
	return nil
}

// internNamespace returns the namespace as a string, without allocating for
// the two a ResourceSync document always uses.
func internNamespace(uri []byte) string {
	switch string(uri) {
	case NamespaceSitemap:
		return NamespaceSitemap
	case NamespaceRS:
		return NamespaceRS
	}
	return string(uri)
}

// lookup returns the namespace bound to prefix ("" for the default one).
func (s *scanner) lookup(prefix []byte) (string, bool) {
	for i := len(s.ns) - 1; i >= 0; i-- {
		if s.ns[i].prefix == string(prefix) {
			return s.ns[i].uri, true
		}
	}
	return "", len(prefix) == 0 // no default namespace: no namespace
}

func (s *scanner) resolveElement(colon, nameEnd int) (string, error) {
	var prefix []byte
	if colon >= 0 {
		prefix = s.arena[:colon]
	}
	space, ok := s.lookup(prefix)
	if !ok {
		return "", s.failf(ErrSyntax, "namespace prefix %s of <%s> is not declared", prefix, s.arena[:nameEnd])
	}
	return space, nil
}

// resolveAttrs fills attrs from raw, leaving out declarations, and checks
// that no two attributes have the same expanded name.
func (s *scanner) resolveAttrs(tagEnd int) error {
	s.attrs = s.attrs[:0]
	for _, a := range s.raw {
		qname := s.arena[a.name:a.nameEnd]
		at := attr{local: qname, value: s.arena[a.val:a.valEnd]}
		if a.colon >= a.name {
			prefix := s.arena[a.name:a.colon]
			at.local = s.arena[a.colon+1 : a.nameEnd]
			if string(prefix) == "xmlns" {
				at.space = xmlnsNamespace
			} else {
				space, ok := s.lookup(prefix)
				if !ok {
					return s.failf(ErrSyntax, "namespace prefix %s of attribute %s is not declared", prefix, qname)
				}
				at.space = space
			}
		} else if string(qname) == "xmlns" {
			at.space = xmlnsNamespace
		}
		s.attrs = append(s.attrs, at)
	}
	if i := s.duplicate(); i >= 0 {
		a := s.raw[i]
		return s.failf(ErrSyntax, "attribute %s given twice on <%s>", s.arena[a.name:a.nameEnd], s.arena[:tagEnd])
	}
	if s.decls > 0 { // declarations were only needed for the duplicate check
		s.attrs = slices.DeleteFunc(s.attrs, func(a attr) bool { return a.space == xmlnsNamespace })
	}
	return nil
}

// duplicate returns the index of an attribute whose expanded name an
// earlier one has, or -1. Tags have a handful of attributes, so pairs are
// compared; past a few dozen (up to MaxAttrs) a set keeps it linear.
func (s *scanner) duplicate() int {
	if len(s.attrs) <= 24 {
		for i := 1; i < len(s.attrs); i++ {
			for j := 0; j < i; j++ {
				if s.attrs[i].space == s.attrs[j].space && bytes.Equal(s.attrs[i].local, s.attrs[j].local) {
					return i
				}
			}
		}
		return -1
	}
	if s.dup == nil {
		s.dup = make(map[string]struct{}, len(s.attrs))
	}
	clear(s.dup)
	for i, a := range s.attrs {
		k := a.space + " " + string(a.local) // a space is in no name
		if _, ok := s.dup[k]; ok {
			return i
		}
		s.dup[k] = struct{}{}
	}
	return -1
}
