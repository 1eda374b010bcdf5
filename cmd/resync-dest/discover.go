package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/resync-dest/resync-dest/agent"
	"github.com/resync-dest/resync-dest/resourcesync"
)

type discoverOptions struct {
	url   string
	json  bool
	count bool // read the Resource Lists and give each set's size
	// filter leaves resources out of the count, as a run would.
	filter resourcesync.Filter
	http   httpOptions
}

func discoverCommand(d *deps) *cli.Command {
	return &cli.Command{
		Name:      "discover",
		Usage:     "find a Source's Source Description, sets of resources and capability documents",
		ArgsUsage: "URL",
		Description: `URL may be a Source's root (http://host/ -> /.well-known/resourcesync), a Source
Description, a Capability List, a Resource List or Change List (rel="up" is followed), or any
page carrying rel="resourcesync" in an HTML <link> or an HTTP Link header. When the URL
itself leads nowhere, the well-known URI and robots.txt of its host are tried. A Resource
List or Change List without rel="up" is the set the well-known Source Description names it
in, or else a one-set Source of its own.

A run given the same URL takes every set (the Source's root, its Source Description) or
one set (its Capability List, or a document within it); "a run takes" says which.
--count counts the sets a run takes, and with --include/--exclude only what they take.

Exits 0 when a Source was found, 1 when the URL does not lead to a ResourceSync Source or a
document is malformed (the message names the URL and the cause), 5 when the Source could
not be reached.`,
		Flags: slices.Concat([]cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print one JSON document on stdout, also when the command fails (an envelope with exit_code and error)"},
			&cli.BoolFlag{Name: "count", Usage: "also read each set's Resource List: its number of resources and the sum of their listed lengths"},
			&cli.StringSliceFlag{Name: "allow-host", Usage: "also follow redirects to `HOST` (repeatable; default: the host of URL only)", EnvVars: []string{"RESYNC_DEST_ALLOW_HOST"}},
		}, filterFlags(), httpFlags()),
		Action: withJSON(d, func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErrorf("discover takes one URL")
			}
			h, err := parseHTTPFlags(c)
			if err != nil {
				return err
			}
			h.allowHosts = c.StringSlice("allow-host")
			f, err := parseFilter(c)
			if err != nil {
				return err
			}
			if !f.Empty() && !c.Bool("count") {
				return usageErrorf("discover takes --include, --exclude and --collection with --count only (they leave resources out of the count)")
			}
			return runDiscover(c.Context, discoverOptions{url: c.Args().First(), json: c.Bool("json"), count: c.Bool("count"), filter: f, http: h}, d)
		}),
	}
}

func runDiscover(ctx context.Context, o discoverOptions, d *deps) error {
	client, err := newClient(o.url, o.http, d)
	if err != nil {
		return err
	}
	disc, err := agent.Discover(ctx, client, o.url, o.http.discoverOptions())
	if err != nil {
		return err
	}
	for _, w := range disc.Warnings {
		d.log.Warn().Msg(w)
	}
	rep := discoverReport{Discovery: disc}
	if o.count {
		rep.Counts = countSets(ctx, client, disc, o.filter, o.http.limits())
	}
	if o.json {
		d.jsonResult(rep)
	} else {
		printDiscovery(d.io.out, disc)
		if o.count {
			printCounts(d.io.out, rep.Counts)
		}
	}
	var broken []error
	for _, s := range disc.Sets {
		if s.Err != nil {
			broken = append(broken, s.Err)
		}
	}
	for _, c := range rep.Counts {
		if c.Error != "" && c.Error != errNoResourceList && !hasSetError(disc, c.CapabilityList) {
			broken = append(broken, fmt.Errorf("count %s: %s", c.CapabilityList, c.Error))
		}
	}
	if len(broken) > 0 {
		return &exitError{code: exitFatal, err: errors.Join(broken...), silent: o.json}
	}
	return nil
}

func printDiscovery(w io.Writer, disc *agent.Discovery) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	if disc.SourceDescription != "" {
		fmt.Fprintf(tw, "Source Description\t%s\n", disc.SourceDescription)
	} else {
		fmt.Fprintf(tw, "Source Description\t(none found)\n")
	}
	if disc.DescribedBy != "" {
		fmt.Fprintf(tw, "  described by\t%s\n", disc.DescribedBy)
	}
	fmt.Fprintf(tw, "  found via\t%s\n", disc.FoundBy)
	if disc.Selected != "" {
		fmt.Fprintf(tw, "  a run takes\tthe set of %s only (the URL given is one of its documents; give the Source's root for every set)\n", disc.Selected)
	} else {
		fmt.Fprintf(tw, "  a run takes\tevery set\n")
	}
	for _, s := range disc.Sets {
		fmt.Fprintf(tw, "  Capability List\t%s\n", s.CapabilityList)
		if s.DescribedBy != "" {
			fmt.Fprintf(tw, "    described by\t%s\n", s.DescribedBy)
		}
		if s.Err != nil {
			fmt.Fprintf(tw, "    ERROR\t%s\n", strings.ReplaceAll(s.Err.Error(), "\n", " "))
		}
		for _, c := range s.Capabilities {
			line := c.URL
			if c.Hub != "" {
				line += "  (hub " + c.Hub + ")"
			}
			fmt.Fprintf(tw, "    %s\t%s\n", c.Capability.Name(), line)
		}
	}
}

// hasSetError reports whether discovery already failed the set of
// capabilityList (its error is reported once).
func hasSetError(disc *agent.Discovery, capabilityList string) bool {
	for _, s := range disc.Sets {
		if s.CapabilityList == capabilityList {
			return s.Err != nil
		}
	}
	return false
}
