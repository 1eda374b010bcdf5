package mirror

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// Map stores the resources whose URI starts with Prefix under Dir instead of
// the default <host>[:port]/<path> (the --map URI_PREFIX=LOCAL_DIR option).
// Prefix is a directory prefix (a trailing "/" is implied); Dir is relative
// to the mirror root and slash-separated, "" (or ".") for the root itself:
// a map onto the root takes the whole mirror.
type Map struct {
	Prefix string
	Dir    string
}

// String is the map as --map takes it, "." standing for the root.
func (m Map) String() string {
	d := m.Dir
	if d == "" {
		d = "."
	}
	return m.Prefix + "=" + d
}

// ParseMap parses a --map value "URI_PREFIX=LOCAL_DIR" for the mirror at
// dest (an absolute path; "" when unknown). The value is split at the
// first "=": a prefix whose path holds "=" writes it as %3D (which the
// mapping treats as the same character), while LOCAL_DIR may contain "=".
// LOCAL_DIR is relative to dest, or an absolute path at or below dest
// (stored relative); "." or dest itself maps onto the mirror's root. It
// returns the Map in normalised form (lower-case scheme and host, default
// port dropped, trailing "/", cleaned relative Dir, "" for the root) or an
// error saying what is wrong. It is safe for concurrent use.
func ParseMap(s, dest string) (Map, error) {
	prefix, dir, ok := strings.Cut(s, "=")
	if !ok {
		return Map{}, fmt.Errorf("map %q: want URI_PREFIX=LOCAL_DIR", s)
	}
	if dir == "" {
		return Map{}, fmt.Errorf("map %q: local directory is empty; give . for the mirror's root", s)
	}
	if strings.HasPrefix(dir, "/") {
		rel, err := relativeDir(dir, dest)
		if err != nil {
			return Map{}, fmt.Errorf("map %q: %w", s, err)
		}
		dir = rel
	}
	cm, err := compileMap(Map{Prefix: prefix, Dir: dir})
	if err != nil {
		return Map{}, err
	}
	return Map{Prefix: cm.display, Dir: cm.dir}, nil
}

// relativeDir turns an absolute LOCAL_DIR into one relative to dest.
func relativeDir(dir, dest string) (string, error) {
	if dest == "" || !filepath.IsAbs(dest) {
		return "", fmt.Errorf("local directory %q is absolute; it must be relative to the mirror root", dir)
	}
	rel, err := filepath.Rel(filepath.Clean(dest), filepath.Clean(dir))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("local directory %s is outside the mirror %s (--dest): give a directory at or below it, or one relative to it", dir, dest)
	}
	return filepath.ToSlash(rel), nil
}

// compiledMap is a Map ready for matching: the prefix as the names the
// default mapping gives its authority and path segments.
type compiledMap struct {
	prefix  []string
	dir     string // "" for the root
	dirElem []string
	display string
}

// String is the map as --map takes it, normalised.
func (cm compiledMap) String() string { return Map{Prefix: cm.display, Dir: cm.dir}.String() }

func compileMap(m Map) (compiledMap, error) {
	p, err := parseURI(m.Prefix)
	if err != nil {
		return compiledMap{}, fmt.Errorf("map prefix %q: %w", m.Prefix, err)
	}
	if p.hasQuery || strings.Contains(m.Prefix, "#") {
		return compiledMap{}, fmt.Errorf("map prefix %q: a prefix has no query or fragment", m.Prefix)
	}
	dir, elems, err := cleanMapDir(m.Dir)
	if err != nil {
		return compiledMap{}, fmt.Errorf("map %q: %w", m.Prefix, err)
	}
	segs := p.segs
	if n := len(segs); n > 0 && segs[n-1] == "" {
		segs = segs[:n-1] // a directory prefix: "/a" and "/a/" are the same
	}
	names := []string{p.authorityName(MappingVersion)}
	for _, s := range segs {
		names = append(names, segmentName(s, false, MappingVersion))
	}
	display := p.scheme + "://" + p.hostPort() + p.rawPath
	if !strings.HasSuffix(display, "/") {
		display += "/"
	}
	return compiledMap{prefix: names, dir: dir, dirElem: elems, display: display}, nil
}

// cleanMapDir checks a --map LOCAL_DIR (relative to the mirror root) and
// returns it cleaned and split; "" and no elements for the root itself
// ("", ".", "./").
func cleanMapDir(d string) (string, []string, error) {
	switch {
	case d == "":
		return "", nil, nil
	case strings.IndexByte(d, 0) >= 0:
		return "", nil, fmt.Errorf("local directory %q contains NUL", d)
	case strings.HasPrefix(d, "/"):
		return "", nil, fmt.Errorf("local directory %q is absolute; it must be relative to the mirror root", d)
	}
	for _, e := range strings.Split(d, "/") {
		if e == ".." {
			return "", nil, fmt.Errorf("local directory %q contains \"..\"", d)
		}
	}
	clean := path.Clean(d)
	if clean == "." {
		return "", nil, nil
	}
	if clean == stateDir || strings.HasPrefix(clean, stateDir+"/") {
		return "", nil, fmt.Errorf("local directory %q is inside %s, which holds the state", d, stateDir)
	}
	elems := strings.Split(clean, "/")
	for _, e := range elems {
		if len(e) > maxElemLen {
			return "", nil, fmt.Errorf("local directory %q has an element longer than %d bytes", d, maxElemLen)
		}
		if isTempName(e) {
			return "", nil, fmt.Errorf("local directory %q has an element named like a temp file", d)
		}
	}
	return clean, elems, nil
}
