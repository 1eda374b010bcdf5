package audit

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// Counts are an audit's totals.
type Counts struct {
	// Listed is the number of resources in the Source's current state
	// (its Resource List brought forward with its Change Lists).
	Listed  int64 `json:"listed"`
	InSync  int64 `json:"in_sync"`
	Missing int64 `json:"missing"`
	Extra   int64 `json:"extra"`
	Changed int64 `json:"changed"`
	Errors  int64 `json:"errors"`
	// Unverifiable counts resources compared by length and lastmod only:
	// the Source gives no hash this program computes.
	Unverifiable int64 `json:"unverifiable"`
	// Skipped counts listed resources out of scope (on another host):
	// not compared, as a baseline does not fetch them.
	Skipped int64 `json:"skipped"`
	// LeftOut counts listed resources the filters (--include, --exclude)
	// left out: not compared.
	LeftOut int64 `json:"left_out,omitempty"`
	// Unlisted counts differences and errors left out of the lists of the
	// report (Options.MaxListed); they are in the other counts.
	Unlisted int64 `json:"unlisted"`
}

// Add adds o to c. Not safe for concurrent use.
func (c *Counts) Add(o Counts) {
	c.Listed += o.Listed
	c.InSync += o.InSync
	c.Missing += o.Missing
	c.Extra += o.Extra
	c.Changed += o.Changed
	c.Errors += o.Errors
	c.Unverifiable += o.Unverifiable
	c.Skipped += o.Skipped
	c.LeftOut += o.LeftOut
	c.Unlisted += o.Unlisted
}

// Differences is the number of resources and files that differ.
func (c Counts) Differences() int64 { return c.Missing + c.Extra + c.Changed }

// Difference is one resource or local file where the mirror and the
// Source differ. For an extra file the state has no record of (one
// resync-dest never wrote), URI is the one the mapping would store at its
// path (Unmapper), empty only when there is none (a file outside every
// host's directory of the default layout). Reason, Expected and Actual
// say how a changed resource differs: Reason is "length", a hash algorithm
// ("md5", "sha-256", ...), "lastmod" (for resources without a hash) or
// "type" (not a regular file); Expected is the Source's value.
type Difference struct {
	URI      string `json:"uri"`
	Path     string `json:"path"`
	Reason   string `json:"reason,omitempty"`
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Links are the links of section 14 the state recorded with the
	// resource (describedby, collection, via ...), when it holds a record
	// of it with links.
	Links []resourcesync.LinkRecord `json:"links,omitempty"`
}

// Problem is something the audit could not check: a resource (a URI that
// maps to no path, a file that cannot be read) or a whole set (its lists
// could not be read).
type Problem struct {
	CapabilityList string `json:"capability_list,omitempty"` // for a problem of a whole set
	URI            string `json:"uri,omitempty"`
	Path           string `json:"path,omitempty"`
	Message        string `json:"error"`
}

// SetReport is the audit of one set of resources. Its differences and
// problems are moved into the Report by Report.Add.
type SetReport struct {
	CapabilityList string    `json:"capability_list"`
	ResourceList   string    `json:"resource_list,omitempty"`
	At             time.Time `json:"list_at,omitzero"` // the Resource List's at
	ChangeList     string    `json:"change_list,omitempty"`
	// ChangesApplied counts the changes after At that brought the list
	// forward; Through is the time of the last of them.
	ChangesApplied int64     `json:"changes_applied"`
	Through        time.Time `json:"through,omitzero"`
	// Method is "hash" (local files re-hashed) or "fast" (the state's
	// digests trusted for files whose size and mtime are the recorded ones).
	Method   string   `json:"method,omitempty"`
	Counts   Counts   `json:"counts"`
	Warnings []string `json:"warnings,omitempty"`
	Error    string   `json:"error,omitempty"`
	Err      error    `json:"-"`

	missing, extra, changed []Difference
	problems                []Problem
}

// Report is the outcome of an audit of every set of a Source. Its JSON
// form is the document `resync-dest audit --json` prints. Build it with
// NewReport and Add from one goroutine; its renderers only read it.
type Report struct {
	InSync  bool         `json:"in_sync"`
	Source  string       `json:"source"`
	Sets    []*SetReport `json:"sets"`
	Counts  Counts       `json:"counts"`
	Missing []Difference `json:"missing"`
	Extra   []Difference `json:"extra"`
	Changed []Difference `json:"changed"`
	Errors  []Problem    `json:"errors"`
}

// NewReport returns an empty report of the Source source (its Source
// Description, or the URL the audit started from).
func NewReport(source string) *Report {
	return &Report{Source: source, Sets: []*SetReport{}, Missing: []Difference{}, Extra: []Difference{},
		Changed: []Difference{}, Errors: []Problem{}}
}

// Add adds a set's audit (s, not nil) to the report; err, when not nil, is
// why the set's audit did not complete, and becomes one of the report's
// errors.
// The report is in sync when no set has a difference or an error. Not
// safe for concurrent use.
func (r *Report) Add(s *SetReport, err error) {
	if err != nil {
		s.Err, s.Error = err, err.Error()
		s.problems = append(s.problems, Problem{CapabilityList: s.CapabilityList, Message: err.Error()})
		s.Counts.Errors++
	}
	r.Sets = append(r.Sets, s)
	r.Missing = append(r.Missing, s.missing...)
	r.Extra = append(r.Extra, s.extra...)
	r.Changed = append(r.Changed, s.changed...)
	r.Errors = append(r.Errors, s.problems...)
	s.missing, s.extra, s.changed, s.problems = nil, nil, nil, nil
	r.Counts.Add(s.Counts)
	r.InSync = r.Counts.Differences() == 0 && r.Counts.Errors == 0 && len(r.Sets) > 0
}

// WriteJSON writes the report as one indented JSON document (every list
// an array, empty ones included). It returns the write error. It only
// reads the report: concurrent renderings are safe, not with Add.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write audit report: %w", err)
	}
	return nil
}

// sortFindings puts a set's findings in path order (URI order among equal
// paths), whatever order the workers produced them in.
func (s *SetReport) sortFindings() {
	byPath := func(a, b Difference) int { return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.URI, b.URI)) }
	slices.SortFunc(s.missing, byPath)
	slices.SortFunc(s.extra, byPath)
	slices.SortFunc(s.changed, byPath)
	slices.SortStableFunc(s.problems, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.URI, b.URI))
	})
}
