package resourcesync

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// ErrLeftOut is wrapped by Filter.Check: a resource the user's filters
// (--include, --exclude) leave out. It is neither fetched, nor deleted,
// nor compared: the mirror keeps whatever it holds of it.
var ErrLeftOut = errors.New("left out by the filters")

// Filter decides which resources a Destination takes, by their URI, as
// the user's --include and --exclude regular expressions say. A pattern
// is Go's regular expression syntax (RE2), matched anywhere in the URI
// (anchor it with ^ and $). As rclone does, excludes are applied first,
// whatever the order of the flags: a URI that matches any exclude is left
// out; then, when there are includes, a URI that matches none of them is
// left out. The zero Filter takes everything. Filter is immutable and
// safe for concurrent use.
type Filter struct {
	include, exclude []*regexp.Regexp
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

// Empty reports whether f takes every resource.
func (f Filter) Empty() bool { return len(f.include) == 0 && len(f.exclude) == 0 }

// Check returns nil when f takes uri, else an error wrapping ErrLeftOut
// that names the pattern deciding it.
func (f Filter) Check(uri string) error {
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

// Takes reports whether f takes uri.
func (f Filter) Takes(uri string) bool { return f.Check(uri) == nil }

// String gives the filters as flags, excludes first ("" for none).
func (f Filter) String() string {
	var parts []string
	for _, re := range f.exclude {
		parts = append(parts, "--exclude "+re.String())
	}
	for _, re := range f.include {
		parts = append(parts, "--include "+re.String())
	}
	return strings.Join(parts, " ")
}
