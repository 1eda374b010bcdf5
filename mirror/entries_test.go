package mirror

import "testing"

// A bound shrinks with each removal counted, keeps the smaller of two
// looks, and is dropped by forget - along with every look begun before it.
func TestDirEntries(t *testing.T) {
	var d dirEntries
	if d.took("a") {
		t.Fatal("took with no bound reports an entry")
	}
	d.saw("a", 3, d.look())
	if !d.took("a") || !d.took("a") {
		t.Fatal("a bound of 3 does not cover two removals")
	}
	if d.took("a") {
		t.Fatal("the third removal of a bound of 3 is told there is an entry left")
	}
	if _, ok := d.bound["a"]; ok {
		t.Fatal("a bound used up is kept")
	}

	d.saw("b", 10, d.look())
	d.saw("b", 4, d.look()) // a later look, after removals the first did not see
	d.saw("b", 8, d.look())
	if d.bound["b"] != 4 {
		t.Fatalf("bound %d, want the smallest look, 4", d.bound["b"])
	}

	began := d.look()
	d.forget("c") // anywhere: a look begun before is not kept
	d.saw("b", 2, began)
	if d.bound["b"] != 4 {
		t.Fatalf("a look begun before a forget was kept: bound %d", d.bound["b"])
	}
	d.forget("b")
	if d.took("b") {
		t.Fatal("a forgotten bound still counts")
	}
	d.saw("e", 0, d.look())
	if _, ok := d.bound["e"]; ok {
		t.Fatal("an empty look is kept as a bound")
	}
	d.saw("f", 5, d.look())
	d.reset()
	if d.took("f") {
		t.Fatal("a bound survives reset")
	}
}
