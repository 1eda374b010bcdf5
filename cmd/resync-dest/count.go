package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/resourcesync"
	"github.com/resync-dest/resync-dest/source"
)

// setCount is the size of one set as its Resource List gives it
// (discover --count).
type setCount struct {
	CapabilityList string `json:"capability_list"`
	ResourceList   string `json:"resource_list,omitempty"`
	Resources      int64  `json:"resources"`          // entries listed (a URI listed twice counts twice)
	Bytes          int64  `json:"bytes"`              // the sum of the listed lengths
	UnknownLength  int64  `json:"unknown_length"`     // entries without a length, not in Bytes
	LeftOut        int64  `json:"left_out,omitempty"` // entries the filters leave out, in no other count
	Error          string `json:"error,omitempty"`
}

// errNoResourceList is the count of a set that has no Resource List to
// count: said, but not an error of the Source's.
const errNoResourceList = "the Capability List names no Resource List"

// discoverReport is discover's --json document: the discovery, and with
// --count the size of each set.
type discoverReport struct {
	*agent.Discovery
	Counts []setCount `json:"counts,omitempty"`
}

// countSets reads each set's Resource List (an index's parts too, one
// document at a time, with the limits of the other commands) and counts
// its entries and their listed lengths. A set whose list cannot be read
// has its error; the others are counted.
func countSets(ctx context.Context, client *source.Client, disc *agent.Discovery, filter resourcesync.Filter, lim resourcesync.Limits) []setCount {
	open := func(ctx context.Context, u string) (string, io.ReadCloser, error) {
		final, _, body, err := client.OpenDocument(ctx, u)
		return final, body, err
	}
	out := []setCount{}
	for _, s := range disc.Sets {
		if disc.Selected != "" && s.CapabilityList != disc.Selected {
			continue // not a set a run would take
		}
		c := setCount{CapabilityList: s.CapabilityList}
		for _, doc := range s.Capabilities {
			if doc.Capability == resourcesync.CapResourceList {
				c.ResourceList = doc.URL
				break
			}
		}
		switch {
		case s.Err != nil:
			c.Error = s.Err.Error()
		case c.ResourceList == "":
			c.Error = errNoResourceList
		default:
			_, err := resourcesync.Walk(ctx, open, c.ResourceList, resourcesync.CapResourceList, resourcesync.WalkOptions{Limits: lim},
				func(_ *resourcesync.Part, e *resourcesync.Entry) error {
					if filter.CheckEntry(e.Loc, e.Links) != nil {
						c.LeftOut++
						return nil
					}
					c.Resources++
					if e.MD.HasLength {
						c.Bytes += e.MD.Length
					} else {
						c.UnknownLength++
					}
					return nil
				})
			if err != nil {
				c.Resources, c.Bytes, c.UnknownLength, c.LeftOut = 0, 0, 0, 0
				c.Error = err.Error()
			}
		}
		out = append(out, c)
	}
	return out
}

// printCounts writes the sizes of the sets, and their total.
func printCounts(w io.Writer, counts []setCount) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintf(tw, "Size, as the Resource Lists give it\n")
	var total setCount
	for _, c := range counts {
		if c.Error != "" {
			fmt.Fprintf(tw, "  %s\tcannot count: %s\n", c.CapabilityList, oneLine(c.Error))
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\n", c.CapabilityList, sizeText(c))
		total.Resources += c.Resources
		total.Bytes += c.Bytes
		total.UnknownLength += c.UnknownLength
		total.LeftOut += c.LeftOut
	}
	if len(counts) > 1 {
		fmt.Fprintf(tw, "  total\t%s\n", sizeText(total))
	}
}

func sizeText(c setCount) string {
	s := fmt.Sprintf("%s, %s listed", plural(c.Resources, "resource", "resources"), humanBytes(c.Bytes))
	if c.UnknownLength > 0 {
		s += fmt.Sprintf(" (and %d of unknown length)", c.UnknownLength)
	}
	if c.LeftOut > 0 {
		s += fmt.Sprintf("; %d left out by the filters", c.LeftOut)
	}
	return s
}
