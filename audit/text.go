package audit

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// WriteText writes the report for a person: per set what was compared
// and the counts, then one line per difference in rclone's style
// ("- path" missing, "+ path" extra, "* path: reason" changed, "! path:
// error"), then the verdict. When there are differences it ends with the
// repair: repair is the command line to show (with the user's options),
// or "" for GenericRepair. Paths that hold control characters
// are quoted so that each finding stays one line. It returns the first
// write error; it only reads the report.
func (r *Report) WriteText(w io.Writer, repair string) error {
	tw := &textWriter{w: w}
	tw.printf("audit of %s\n", r.Source)
	for _, s := range r.Sets {
		r.writeSet(tw, s)
	}
	if len(r.Sets) > 1 {
		tw.printf("  total: %s\n", countsLine(r.Counts))
	}
	if r.Counts.Differences()+r.Counts.Errors > 0 {
		tw.printf("\n")
	}
	for _, d := range r.Missing {
		tw.printf("- %s\n", showPath(d.Path))
	}
	for _, d := range r.Extra {
		tw.printf("+ %s\n", showPath(d.Path))
	}
	for _, d := range r.Changed {
		tw.printf("* %s: %s\n", showPath(d.Path), oneLine(d.Describe()))
	}
	for _, p := range r.Errors {
		tw.printf("! %s: %s\n", showPath(p.Subject()), oneLine(p.Message))
	}
	if n := r.Counts.Unlisted; n > 0 {
		tw.printf("... and %d more not listed here (the counts are exact)\n", n)
	}
	tw.printf("\n%s\n", r.Verdict())
	if r.Counts.Differences() > 0 {
		if repair == "" {
			repair = GenericRepair
		}
		tw.printf("%s\n  %s\n", r.RepairAdvice(), repair)
	}
	return tw.err
}

func (r *Report) writeSet(tw *textWriter, s *SetReport) {
	tw.printf("  %s\n", s.CapabilityList)
	if s.ResourceList != "" {
		line := "Resource List " + s.ResourceList
		if !s.At.IsZero() {
			line += " (at " + resourcesync.FormatDatetime(s.At) + ")"
		}
		tw.printf("    %s\n", line)
	}
	if s.ChangeList != "" && s.Err == nil {
		line := fmt.Sprintf("brought forward with %s from %s", plural(s.ChangesApplied, "change"), s.ChangeList)
		if !s.Through.IsZero() {
			line += " (through " + resourcesync.FormatDatetime(s.Through) + ")"
		}
		tw.printf("    %s\n", line)
	}
	if s.Err == nil {
		tw.printf("    %s\n", countsLine(s.Counts))
		if s.Method == "fast" {
			tw.printf("    --fast: files whose size and modification time are the ones recorded in the state were not re-hashed; the digests recorded were trusted\n")
		}
	}
	for _, w := range s.Warnings {
		tw.printf("    warning: %s\n", w)
	}
	if s.Err != nil {
		tw.printf("    error: %s\n", oneLine(s.Error))
	}
}

func countsLine(c Counts) string {
	line := fmt.Sprintf("%d listed: %d in sync, %d missing, %d extra, %d changed, %d errors",
		c.Listed, c.InSync, c.Missing, c.Extra, c.Changed, c.Errors)
	var notes []string
	if c.Unverifiable > 0 {
		notes = append(notes, fmt.Sprintf("%d compared by length and lastmod only (no hash to verify)", c.Unverifiable))
	}
	if c.LeftOut > 0 {
		notes = append(notes, fmt.Sprintf("%d left out by the filters (--include, --exclude)", c.LeftOut))
	}
	if c.Skipped > 0 {
		notes = append(notes, fmt.Sprintf("%d skipped (out of scope; see --allow-host)", c.Skipped))
	}
	if len(notes) > 0 {
		line += "; " + strings.Join(notes, ", ")
	}
	return line
}

// Describe says how a changed resource differs: "md5 differs: expected
// X, actual Y".
func (d Difference) Describe() string {
	return fmt.Sprintf("%s differs: expected %s, actual %s", d.Reason, d.Expected, d.Actual)
}

// Subject is what a problem is about: the file, else the resource, else
// the set.
func (p Problem) Subject() string {
	switch {
	case p.Path != "":
		return p.Path
	case p.URI != "":
		return p.URI
	}
	return p.CapabilityList
}

// Verdict is the report's conclusion in one sentence, as the text and
// HTML reports give it.
func (r *Report) Verdict() string {
	c := r.Counts
	switch {
	case r.InSync:
		return "In sync: the mirror holds every resource the Source lists, as the Source describes it, and nothing else."
	case c.Differences() == 0:
		return fmt.Sprintf("%s: the audit is incomplete; see the errors.", plural(c.Errors, "error"))
	case c.Errors > 0:
		return fmt.Sprintf("%s (%d missing, %d extra, %d changed) and %s; see the errors.",
			plural(c.Differences(), "difference"), c.Missing, c.Extra, c.Changed, plural(c.Errors, "error"))
	}
	return fmt.Sprintf("%s: %d missing, %d extra, %d changed.", plural(c.Differences(), "difference"), c.Missing, c.Extra, c.Changed)
}

// GenericRepair is the repair command when the caller gives none.
const GenericRepair = "resync-dest baseline --checksum --delete --dest DIR URL"

// RepairAdvice says how to repair what the audit found (the command line
// itself is the caller's: it knows the options).
func (r *Report) RepairAdvice() string {
	return "To repair every difference listed (re-fetch what is missing or changed, delete what is extra), run the following; the audit is clean afterwards:"
}

func plural(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// showPath is a path as a line of the report shows it: quoted when it
// holds control characters or is not UTF-8 (a file someone else put in the
// mirror may be named anything), so that every line is one finding.
func showPath(p string) string {
	if !utf8.ValidString(p) || strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return strconv.Quote(p)
	}
	return p
}

// oneLine keeps a message on its line.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// textWriter keeps the first write error.
type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}
