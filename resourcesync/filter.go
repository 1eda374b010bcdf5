package resourcesync

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// ErrLeftOut is wrapped by Filter.Check: a resource the user's filters
// (--include, --exclude, --collection) leave out. It is neither fetched, nor deleted,
// nor compared: the mirror keeps whatever it holds of it.
var ErrLeftOut = errors.New("left out by the filters")

// Filter decides which resources a Destination takes, by their URI, as
// the user's --include and --exclude regular expressions say. A pattern
// is Go's regular expression syntax (RE2), matched anywhere in the URI
// (anchor it with ^ and $). As rclone does, excludes are applied first,
// whatever the order of the flags: a URI that matches any exclude is left
// out; then, when there are includes, a URI that matches none of them is
// left out. With collections (--collection, §14.7), a resource the URI
// patterns take is also left out unless one of its rel="collection" links
// names one of them: both must admit it. The zero Filter takes everything.
// Filter is immutable and safe for concurrent use.
type Filter struct {
	include, exclude []*regexp.Regexp
	collections      []string
}

// ParseFilter compiles the include and exclude patterns. An empty pattern
// or one that does not compile is an error naming it.
func ParseFilter(include, exclude []string) (Filter, error) {
	var f Filter
	for _, l := range []struct {
		flag string
		in   []string
		out  *[]*regexp.Regexp
	}{{"include", include, &f.include}, {"exclude", exclude, &f.exclude}} {
		for _, p := range l.in {
			if p == "" {
				return Filter{}, fmt.Errorf("--%s: empty pattern (to take everything, give none)", l.flag)
			}
			re, err := regexp.Compile(p)
			if err != nil {
				return Filter{}, fmt.Errorf("--%s %q: not a regular expression: %w", l.flag, p, unwrapSyntax(err))
			}
			*l.out = append(*l.out, re)
		}
	}
	return f, nil
}

// unwrapSyntax keeps regexp's own reason ("missing closing )") without
// its "error parsing regexp:" prefix.
func unwrapSyntax(err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		return fmt.Errorf("%s: `%s`", se.Code, se.Expr)
	}
	return err
}

// InCollections returns f taking, of what it takes, only the members of
// the collections named by uris (repeatable --collection: any of them). A
// collection is compared with a link's href as the exact string the
// Source writes (RFC 3986 simple string comparison: no case folding, no
// resolution), after trimming surrounding white space; a URI that is
// empty or not absolute is an error naming it.
func (f Filter) InCollections(uris []string) (Filter, error) {
	for _, c := range uris {
		c = strings.TrimSpace(c)
		u, err := url.Parse(c)
		if err != nil || !u.IsAbs() {
			return Filter{}, fmt.Errorf("--collection %q: not an absolute URI", c)
		}
		if !slices.Contains(f.collections, c) {
			f.collections = append(slices.Clone(f.collections), c)
		}
	}
	return f, nil
}

// Empty reports whether f takes every resource.
func (f Filter) Empty() bool {
	return len(f.include) == 0 && len(f.exclude) == 0 && len(f.collections) == 0
}

// Check returns nil when f takes the resource at uri of which nothing else
// is known, else an error wrapping ErrLeftOut that names the pattern
// deciding it. With collections, such a resource is left out: its
// membership is unknown (a file no set holds that the Source does not
// list), and what is not known to be admitted is not touched.
func (f Filter) Check(uri string) error { return f.CheckEntry(uri, nil) }

// CheckHeld is Check for a resource the Source says nothing of now but
// the state holds (h; nil when it holds nothing): a file held that the
// Source no longer lists, a bare deletion, a failure retried. The
// collection links recorded with it (h.Links, those of the entry that
// brought the copy) say which collections it is a member of; a record
// without any leaves its membership unknown, so it is left out as by
// Check.
func (f Filter) CheckHeld(uri string, h *Held) error {
	if h == nil {
		return f.Check(uri)
	}
	return f.CheckEntry(uri, h.Links)
}

// CheckEntry is Check for a resource whose entry or change carries links:
// their rel="collection" links say which collections it is a member of.
func (f Filter) CheckEntry(uri string, links []Link) error {
	if err := f.checkURI(uri); err != nil {
		return err
	}
	if len(f.collections) == 0 {
		return nil
	}
	for _, l := range links {
		if l.Rel == RelCollection && slices.Contains(f.collections, strings.TrimSpace(l.Href)) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s names no --collection", ErrLeftOut, uri)
}

// Collections returns the links of an entry that name a collection it is
// a member of (§14.7: rel="collection"): what --collection decides by.
func Collections(links []Link) []Link { return linksByRel(links, RelCollection) }

// checkURI applies the URI patterns.
func (f Filter) checkURI(uri string) error {
	for _, re := range f.exclude {
		if re.MatchString(uri) {
			return fmt.Errorf("%w: %s matches --exclude %s", ErrLeftOut, uri, re)
		}
	}
	if len(f.include) == 0 {
		return nil
	}
	for _, re := range f.include {
		if re.MatchString(uri) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s matches no --include", ErrLeftOut, uri)
}

// String gives the filters as flags, excludes first, collections last
// ("" for none).
func (f Filter) String() string {
	var parts []string
	for _, re := range f.exclude {
		parts = append(parts, "--exclude "+re.String())
	}
	for _, re := range f.include {
		parts = append(parts, "--include "+re.String())
	}
	for _, c := range f.collections {
		parts = append(parts, "--collection "+c)
	}
	return strings.Join(parts, " ")
}
