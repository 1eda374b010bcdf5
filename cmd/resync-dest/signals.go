package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"
)

// gracePeriod is how long in-flight transfers may run after the first
// SIGINT/SIGTERM before they are cancelled too.
const gracePeriod = 10 * time.Second

// signals implements the two-step shutdown: the first SIGINT or SIGTERM
// cancels drain (stop starting new work; in-flight transfers finish and
// state is saved), and hard after gracePeriod; a second signal exits at
// once - everything recorded so far is already durable and consistent.
type signals struct {
	drain context.Context // cancelled at the first signal, with the signal as cause (signalOf)
	hard  context.Context // cancelled gracePeriod after the first signal

	cancelDrain context.CancelCauseFunc
	cancelHard  context.CancelFunc
	ch          chan os.Signal
	done        chan struct{}
	out         io.Writer // where the first signal is acknowledged

	mu       sync.Mutex
	first    os.Signal
	log      zerolog.Logger // the run's, set by setLog
	jsonLogs bool           // --log-format json: the notice is a JSON record
}

// setLog makes the notice of the first signal a record of log when json
// is set (--log-format json), a line on out otherwise.
func (s *signals) setLog(log zerolog.Logger, json bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log, s.jsonLogs = log, json
}

// newSignals starts handling SIGINT and SIGTERM; out is told when the
// first one arrives.
func newSignals(out io.Writer) *signals {
	s := &signals{ch: make(chan os.Signal, 2), done: make(chan struct{}), out: out}
	s.drain, s.cancelDrain = context.WithCancelCause(context.Background())
	s.hard, s.cancelHard = context.WithCancel(context.Background())
	signal.Notify(s.ch, syscall.SIGINT, syscall.SIGTERM)
	go s.loop()
	return s
}

func (s *signals) loop() {
	var grace <-chan time.Time
	for {
		select {
		case sig := <-s.ch:
			s.mu.Lock()
			again := s.first != nil
			if !again {
				s.first = sig
			}
			log, jsonLogs := s.log, s.jsonLogs
			s.mu.Unlock()
			if again {
				os.Exit(signalExitCode(sig))
			}
			// Say what happens now: the run may take up to the grace
			// period to stop, and the user should know a second signal
			// is the way out.
			if jsonLogs {
				log.Warn().Str("signal", sig.String()).Dur("grace_period", gracePeriod).
					Msg("finishing the transfers in flight and saving the state; send the signal again to exit at once")
			} else {
				fmt.Fprintf(s.out, "resync-dest: %v: finishing the transfers in flight (at most %s) and saving the state; send it again to exit at once\n", sig, gracePeriod)
			}
			s.cancelDrain(&signalled{sig: sig})
			grace = time.After(gracePeriod)
		case <-grace:
			s.cancelHard()
		case <-s.done:
			return
		}
	}
}

// received returns the first signal, or nil.
func (s *signals) received() os.Signal {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first
}

func (s *signals) stop() {
	signal.Stop(s.ch)
	close(s.done)
	s.cancelDrain(nil)
	s.cancelHard()
}

// signalled is the cause of the drain context's cancellation.
type signalled struct{ sig os.Signal }

func (s *signalled) Error() string { return "interrupted by " + s.sig.String() }

// signalOf returns the signal that cancelled drain (the first SIGINT or
// SIGTERM), or nil: so that a run records and reports the exit status the
// process will have, 130 or 143, even when the interruption surfaced as
// another error (a transfer cancelled at the end of the grace period).
func signalOf(drain context.Context) os.Signal {
	var s *signalled
	if drain != nil && errors.As(context.Cause(drain), &s) {
		return s.sig
	}
	return nil
}

func signalExitCode(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitSIGTERM
	}
	return exitSIGINT
}
