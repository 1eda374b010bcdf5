package mirror

import (
	"io"
	"sync"
)

// freeing is how many replaced files are let go at once: the discards of
// files freed together overlap on the device. Measured here (ext4 without
// a journal, mounted with discard; 20,000 renames of a 4 KiB file over
// another): 186-214 µs a rename one after another, 86-94 µs with the old
// file kept (FS.Keep) and let go by four goroutines.
const freeing = 4

// freer lets go, off the caller's path, of the files the mirror kept
// while it renamed new versions over them (see Mirror.rename): closing
// the last hold is what frees a replaced file, and on some file systems
// that waits for the device. At most freeing closes run at once; a
// caller beyond that waits for one to end, which bounds the descriptors
// held.
type freer struct {
	slots chan struct{}
	wg    sync.WaitGroup
}

func newFreer() *freer { return &freer{slots: make(chan struct{}, freeing)} }

// free closes c in the background; a nil c is nothing to free.
func (f *freer) free(c io.Closer) {
	if c == nil {
		return
	}
	f.slots <- struct{}{}
	f.wg.Go(func() {
		_ = c.Close() // a descriptor of O_PATH: its close has nothing to report
		<-f.slots
	})
}

// wait returns once every file given to free is let go.
func (f *freer) wait() { f.wg.Wait() }
