package agent

import (
	"context"
	"errors"
	"testing"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// heldCounter is a Store that only says how much a set holds.
type heldCounter struct {
	Store
	n   int64
	err error
}

func (h heldCounter) HeldCount(context.Context, int64) (int64, error) { return h.n, h.err }

func TestBaselineSource(t *testing.T) {
	const rl, rd = "http://s/resourcelist.xml", "http://s/resourcedump.xml"
	both := &SetInfo{CapabilityList: "http://s/cl.xml", Capabilities: []CapabilityDoc{
		{Capability: resourcesync.CapResourceList, URL: rl}, {Capability: resourcesync.CapResourceDump, URL: rd}}}
	listOnly := &SetInfo{CapabilityList: "http://s/cl.xml", Capabilities: []CapabilityDoc{{Capability: resourcesync.CapResourceList, URL: rl}}}
	dumpOnly := &SetInfo{CapabilityList: "http://s/cl.xml", Capabilities: []CapabilityDoc{{Capability: resourcesync.CapResourceDump, URL: rd}}}
	for _, tc := range []struct {
		name     string
		set      *SetInfo
		via      resourcesync.Via
		held     int64
		wantList string
		wantDump string
		wantErr  bool
	}{
		{"auto, empty mirror", both, resourcesync.ViaAuto, 0, "", rd, false},
		{"auto by default", both, "", 0, "", rd, false},
		{"auto, something held", both, resourcesync.ViaAuto, 3, rl, "", false},
		{"auto, no dump", listOnly, resourcesync.ViaAuto, 0, rl, "", false},
		{"auto, only a dump", dumpOnly, resourcesync.ViaAuto, 3, "", rd, false},
		{"list", both, resourcesync.ViaList, 0, rl, "", false},
		{"list without one", dumpOnly, resourcesync.ViaList, 0, "", "", true},
		{"dump", both, resourcesync.ViaDump, 3, "", rd, false},
		{"dump without one", listOnly, resourcesync.ViaDump, 0, "", "", true},
		{"unknown", both, "zip", 0, "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, err := planBaseline(context.Background(), tc.set, heldCounter{n: tc.held}, 7, tc.via)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v", err)
			}
			if err == nil && (set.ResourceList != tc.wantList || set.ResourceDump != tc.wantDump || set.ID != 7) {
				t.Errorf("got list %q dump %q", set.ResourceList, set.ResourceDump)
			}
		})
	}
	_, err := planBaseline(context.Background(), both, heldCounter{err: errors.New("disk")}, 7, resourcesync.ViaAuto)
	if !errors.Is(err, resourcesync.ErrLocal) {
		t.Errorf("a state error: %v", err)
	}
}

func TestChangeSource(t *testing.T) {
	const cl, cd = "http://s/changelist.xml", "http://s/changedump.xml"
	set := func(docs ...CapabilityDoc) *SetInfo {
		return &SetInfo{CapabilityList: "http://s/cl.xml", Capabilities: docs}
	}
	list := CapabilityDoc{Capability: resourcesync.CapChangeList, URL: cl}
	dump := CapabilityDoc{Capability: resourcesync.CapChangeDump, URL: cd}
	for _, tc := range []struct {
		name     string
		set      *SetInfo
		via      resourcesync.Via
		wantList string
		wantDump string
		wantErr  bool
	}{
		{"auto prefers the list", set(list, dump), resourcesync.ViaAuto, cl, "", false},
		{"auto by default", set(list, dump), "", cl, "", false},
		{"auto, only a dump", set(dump), resourcesync.ViaAuto, "", cd, false},
		{"auto, neither", set(), resourcesync.ViaAuto, "", "", true},
		{"list", set(list, dump), resourcesync.ViaList, cl, "", false},
		{"list without one", set(dump), resourcesync.ViaList, "", "", true},
		{"dump", set(list, dump), resourcesync.ViaDump, "", cd, false},
		{"dump without one", set(list), resourcesync.ViaDump, "", "", true},
		{"unknown", set(list, dump), "zip", "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := planChanges(tc.set, tc.via)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v", err)
			}
			if err == nil && (got.ChangeList != tc.wantList || got.ChangeDump != tc.wantDump) {
				t.Errorf("got list %q dump %q", got.ChangeList, got.ChangeDump)
			}
			if hasChanges(tc.set, tc.via) == tc.wantErr {
				t.Errorf("hasChanges = %v", !tc.wantErr)
			}
		})
	}
}
