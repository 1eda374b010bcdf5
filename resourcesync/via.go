package resourcesync

// Via is what a set of resources is copied or kept in step from: its
// list (the Resource List for a baseline, the Change List for incremental
// sync) or its dump (the Resource Dump, the Change Dump). As an option,
// ViaAuto lets the Destination choose per set; a run reports, and the
// state records, the one it used.
type Via string

const (
	ViaList Via = "list"
	ViaDump Via = "dump"
	ViaAuto Via = "auto"
)
