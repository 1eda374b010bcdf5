package main

import (
	"io"
	"sync"
)

// logSink is where the log writes: stderr, or, while a live progress bar
// is drawn, the bar's container, which prints each line above the bar
// instead of into it. Safe for concurrent use.
type logSink struct {
	w io.Writer

	mu    sync.Mutex
	above io.Writer
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.above != nil {
		if n, err := s.above.Write(p); err == nil {
			return n, nil
		}
		// The bar has gone (its container refuses writes once done): the
		// line goes to stderr rather than nowhere.
	}
	return s.w.Write(p)
}

// logAbove sends the log to above until the returned restore is called.
// A deps without a sink (a test's) keeps its log where it was.
func (d *deps) logAbove(above io.Writer) (restore func()) {
	s := d.logOut
	if s == nil {
		return func() {}
	}
	s.mu.Lock()
	s.above = above
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.above = nil
		s.mu.Unlock()
	}
}
