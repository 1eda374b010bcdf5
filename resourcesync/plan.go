package resourcesync

// Plan is what a dry run found that the real run would do: one action for
// each entry it considered - each resource its lists name, and each local
// file of the set a baseline finds its list no longer names - so that the
// actions add up to Considered. Bytes are what the resources to download
// weigh as their lists give it; an entry without a length is counted in
// UnknownLength instead.
type Plan struct {
	Considered int64 `json:"considered"`
	Fetch      int64 `json:"fetch"`  // no local copy: downloaded
	Update     int64 `json:"update"` // a local copy not known to be in step: downloaded again
	// Conditional counts, of Update, the copies the list cannot tell from
	// the one held (no digest to compare, another lastmod): a real run
	// asks the Source with a conditional GET (ETag / Last-Modified) and
	// downloads only those it says changed; the others are in step.
	Conditional int64 `json:"conditional"`
	InStep      int64 `json:"in_step"` // in step already, or gone already: nothing to do
	Delete      int64 `json:"delete"`  // local copies removed (--delete)
	// Keep counts local copies of resources the Source no longer has that
	// stay (no --delete).
	Keep       int64 `json:"keep"`
	OutOfScope int64 `json:"out_of_scope"` // not fetched: another host, or not http(s)
	// Fail counts entries that cannot be done whatever the Source
	// answers: a path another resource of the run takes, a URI that maps
	// to no file.
	Fail          int64 `json:"fail"`
	Bytes         int64 `json:"bytes"`          // listed lengths of Fetch and Update
	UnknownLength int64 `json:"unknown_length"` // of Fetch and Update, entries without a length
	// LeftOut counts entries the user's filters (--include, --exclude)
	// leave out: nothing done.
	LeftOut int64 `json:"left_out,omitempty"`
}

// Add adds o to p.
func (p *Plan) Add(o Plan) {
	p.Considered += o.Considered
	p.Fetch += o.Fetch
	p.Update += o.Update
	p.Conditional += o.Conditional
	p.InStep += o.InStep
	p.Delete += o.Delete
	p.Keep += o.Keep
	p.OutOfScope += o.OutOfScope
	p.Fail += o.Fail
	p.Bytes += o.Bytes
	p.UnknownLength += o.UnknownLength
	p.LeftOut += o.LeftOut
}

// Actions is the sum of the actions, which is Considered when the plan adds
// up.
func (p Plan) Actions() int64 {
	return p.Fetch + p.Update + p.InStep + p.Delete + p.Keep + p.OutOfScope + p.Fail + p.LeftOut
}
