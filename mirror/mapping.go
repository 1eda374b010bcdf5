package mirror

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ErrUnmappable is wrapped by every error of Mapper.Path: the URI has no
// place in the mirror (not http/https, userinfo, a bad escape, a NUL, a path
// too long, a default path that would fall into a --map directory, a URI
// outside the prefix of a map onto the mirror's root, or one that would
// land in .resync-dest). It is a per-resource error: record it and carry
// on.
var ErrUnmappable = errors.New("unmappable")

const (
	maxPathLen  = 3800 // longer paths are unmappable (Linux PATH_MAX is 4096)
	maxElemLen  = 255  // NAME_MAX: the limit for --map directory elements
	stateDir    = ".resync-dest"
	defaultHTTP = 80
	defaultTLS  = 443
)

// Mapper turns resource URIs into mirror paths by the rules of MAPPING.md.
// It is immutable and safe for concurrent use.
type Mapper struct {
	maps []compiledMap // longest prefix first
	// root is set when the only map is onto the mirror's root: every
	// path is then that map's, and URIs outside its prefix map nowhere.
	root bool
}

// NewMapper checks maps and returns a Mapper. It fails when a map is
// invalid, when two maps have the same prefix, when two maps' directories
// are equal or nested (either would break injectivity), or when a map
// onto the mirror's root comes with any other map (it takes the whole
// mirror). The errors name the maps.
func NewMapper(maps []Map) (*Mapper, error) {
	m := &Mapper{}
	for _, mp := range maps {
		cm, err := compileMap(mp)
		if err != nil {
			return nil, err
		}
		for _, o := range m.maps {
			switch {
			case o.dir == "" || cm.dir == "":
				root, other := o, cm
				if cm.dir == "" {
					root, other = cm, o
				}
				return nil, fmt.Errorf("map %s maps onto the mirror's root, which leaves no room for map %s (nor for the default <host>/ layout): give one or the other", root, other)
			case slices.Equal(o.prefix, cm.prefix):
				return nil, fmt.Errorf("maps %s and %s have the same prefix", o.display, cm.display)
			case within(o.dir, cm.dir) || within(cm.dir, o.dir):
				return nil, fmt.Errorf("map directories %s and %s are equal or nested", o.dir, cm.dir)
			}
		}
		m.maps = append(m.maps, cm)
	}
	m.root = len(m.maps) == 1 && m.maps[0].dir == ""
	sort.SliceStable(m.maps, func(i, j int) bool { return len(m.maps[i].prefix) > len(m.maps[j].prefix) })
	return m, nil
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// Path returns the mirror-relative, slash-separated path of uri. The result
// is relative, clean, has no "." or ".." element and never is or lies in
// .resync-dest. On failure the error wraps ErrUnmappable and names the URI
// and the reason. It is safe for concurrent use.
func (m *Mapper) Path(uri string) (string, error) { return m.path(uri, MappingVersion) }

// PathIn returns the path the naming rules of MappingVersion v (1 to the
// current one) gave uri under the same maps: where a mirror made by an
// earlier version keeps the resource. It is safe for concurrent use.
func (m *Mapper) PathIn(v int, uri string) (string, error) {
	if v < 1 || v > MappingVersion {
		return "", fmt.Errorf("map %s: no mapping version %d", uri, v)
	}
	return m.path(uri, v)
}

func (m *Mapper) path(uri string, v int) (string, error) {
	p, err := parseURI(uri)
	if err != nil {
		return "", fmt.Errorf("map %s: %w", uri, err)
	}
	// Maps match on the current names; every version's names decode to
	// the same segments, so they match alike.
	names := p.names(MappingVersion)
	var via *compiledMap
	for i := range m.maps {
		cm := &m.maps[i]
		if len(names) > len(cm.prefix) && slices.Equal(names[:len(cm.prefix)], cm.prefix) {
			via = cm
			break
		}
	}
	if via == nil && m.root {
		return "", fmt.Errorf("map %s: %w: outside %s, the prefix mapped onto the mirror's root (which takes the whole mirror)", uri, ErrUnmappable, m.maps[0].display)
	}
	if v != MappingVersion {
		names = p.names(v)
	}
	var elems []string
	if via != nil {
		names = names[len(via.prefix):]
		elems = make([]string, 0, len(via.dirElem)+len(names))
		elems = append(elems, via.dirElem...)
	}
	for _, n := range names {
		elems = append(elems, shortenName(n, v))
	}
	if elems[0] == stateDir {
		return "", fmt.Errorf("map %s: %w: it would land in %s, which holds the state", uri, ErrUnmappable, stateDir)
	}
	rel := strings.Join(elems, "/")
	if len(rel) > maxPathLen {
		return "", fmt.Errorf("map %s: %w: path of %d bytes is longer than %d", uri, ErrUnmappable, len(rel), maxPathLen)
	}
	if via == nil {
		for _, cm := range m.maps {
			if within(rel, cm.dir) {
				return "", fmt.Errorf("map %s: %w: %s would map into --map directory %s", uri, ErrUnmappable, rel, cm.dir)
			}
		}
	}
	return rel, nil
}
