package agent

import (
	"context"
	"fmt"

	"github.com/resync-dest/resync-dest/baseline"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// A set's baseline split into parts, for the worker command: each part is
// a job of its own, which any worker may run, and the set's own job then
// finishes the baseline (every resource is held by then: it fetches
// nothing, applies deletions and records the baseline point).

// Part is one part of a split baseline: a Resource List of the set's
// Resource List Index, or one package of its Resource Dump.
type Part struct {
	List    string // the Resource List; "" for a package
	Dump    string // the Resource Dump (or Resource Dump Index) that lists Package
	Package string
}

// PlanParts returns the parts the baseline of the set o.CapabilityList
// splits into: the lists of its Resource List Index, or the packages of
// its Resource Dump - whichever planBaseline would copy it from (o.Via).
// It returns nil when the set is not split: it has a baseline already, it
// is copied from a single list, --checksum is on, or a package of its dump
// has no manifest copy (rel="contents"), without which the set's job would
// download that package again to finish the baseline.
func PlanParts(ctx context.Context, disc *Discovery, d Deps, o BaselineOptions) ([]Part, error) {
	s, ok := disc.Set(o.CapabilityList)
	if !ok || s.Err != nil || o.Worker.Checksum {
		return nil, nil // the set's own job says why
	}
	st, known, err := d.Store.Set(ctx, s.CapabilityList)
	if err != nil || (known && st.Baselined()) {
		return nil, err
	}
	set, err := planBaseline(ctx, s, d.Store, st.ID, o.Via)
	if err != nil {
		return nil, nil // the set's own job says why
	}
	limits := o.Worker.Limits
	if set.ResourceDump != "" {
		var parts []Part
		whole := false
		_, err := resourcesync.Walk(ctx, d.open, set.ResourceDump, resourcesync.CapResourceDump, resourcesync.WalkOptions{Limits: limits},
			func(_ *resourcesync.Part, e *resourcesync.Entry) error {
				if _, ok := e.Link(resourcesync.RelContents); !ok {
					whole = true
				}
				parts = append(parts, Part{Dump: set.ResourceDump, Package: e.Loc})
				return nil
			})
		if err != nil || whole {
			return nil, err
		}
		return parts, nil
	}
	_, body, err := d.open(ctx, set.ResourceList)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	rd := resourcesync.NewReader(body, set.ResourceList, limits)
	h, err := rd.Header()
	if err != nil || !h.IsIndex() {
		return nil, err
	}
	var parts []Part
	for e, err := range rd.All() {
		if err != nil {
			return nil, err
		}
		parts = append(parts, Part{List: e.Loc})
	}
	return parts, nil
}

// BaselinePart copies one part of the baseline of the set o.CapabilityList
// (PlanParts) through the baseline planner: it records what the part
// holds, but neither deletes nor records the baseline point
// (baseline.Options.Part).
func BaselinePart(ctx context.Context, disc *Discovery, d Deps, o BaselineOptions, p Part) (*baseline.Summary, error) {
	s, ok := disc.Set(o.CapabilityList)
	if !ok {
		return nil, fmt.Errorf("the part %s%s of set %s: the set is %w", p.List, p.Package, o.CapabilityList, ErrUnknownSet)
	}
	if s.Err != nil {
		return nil, s.Err
	}
	st, err := setState(ctx, d.Store, s.CapabilityList, disc.SourceDescription, o.Worker.DryRun)
	if err != nil {
		return nil, err
	}
	wo := o.Worker
	wo.Scope = scope(disc, o.AllowHosts)
	wo.Part = true
	set := baseline.Set{ID: st.ID, CapabilityList: s.CapabilityList, ResourceList: p.List}
	log := d.Log.With().Str("capability_list", s.CapabilityList).Str("resource_list", p.List).Logger()
	if p.Package != "" {
		set = baseline.Set{ID: st.ID, CapabilityList: s.CapabilityList, ResourceDump: p.Dump}
		wo.Package = p.Package
		log = d.Log.With().Str("capability_list", s.CapabilityList).Str("package", p.Package).Logger()
	}
	return baseline.Run(ctx, set, d.baseline(log), wo)
}
