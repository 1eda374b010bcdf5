package main

import (
	"fmt"
	"io"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// writePlan prints a dry run's plan for a person: what the real run would
// do with each entry considered, the actions adding up to their number,
// and what it would download as the lists give it - "unknown" for the
// resources whose list gives no length.
func writePlan(w io.Writer, indent string, p *resourcesync.Plan) {
	if p == nil {
		return
	}
	leftOut := ""
	if p.LeftOut > 0 {
		leftOut = fmt.Sprintf(", %d left out by the filters", p.LeftOut)
	}
	fmt.Fprintf(w, "%splan for %s: %d to fetch (new), %d to update, %d in step, %d to delete, %d to keep, %d out of scope, %d to fail%s\n",
		indent, plural(p.Considered, "entry", "entries"), p.Fetch, p.Update, p.InStep, p.Delete, p.Keep, p.OutOfScope, p.Fail, leftOut)
	if p.Conditional > 0 {
		fmt.Fprintf(w, "%s  %d of the updates only if the Source says the resource changed (conditional GET)\n", indent, p.Conditional)
	}
	if p.Keep > 0 {
		fmt.Fprintf(w, "%s  to keep: local copies of resources the Source no longer has (--delete removes them)\n", indent)
	}
	fmt.Fprintf(w, "%sto download: %s\n", indent, planBytes(p))
}

// planBytes is what a plan would download: the sum of the listed lengths,
// and "unknown" for the part whose length no list gives.
func planBytes(p *resourcesync.Plan) string {
	switch {
	case p.UnknownLength == 0:
		return humanBytes(p.Bytes) + " (as listed)"
	case p.UnknownLength == p.Fetch+p.Update:
		return fmt.Sprintf("unknown (%s without a length)", plural(p.UnknownLength, "resource", "resources"))
	}
	return fmt.Sprintf("%s as listed + unknown (%s without a length)", humanBytes(p.Bytes), plural(p.UnknownLength, "resource", "resources"))
}
