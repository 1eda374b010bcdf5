package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// gracePeriod is how long in-flight transfers may run after the first
// SIGINT/SIGTERM before they are cancelled too.
const gracePeriod = 10 * time.Second

// signals implements the two-step shutdown: the first SIGINT or SIGTERM
// cancels drain (stop starting new work; in-flight transfers finish and
// state is saved), and hard after gracePeriod; a second signal exits at
// once - everything recorded so far is already durable and consistent.
type signals struct {
	drain context.Context // cancelled at the first signal
	hard  context.Context // cancelled gracePeriod after the first signal

	cancelDrain, cancelHard context.CancelFunc
	ch                      chan os.Signal
	done                    chan struct{}

	mu    sync.Mutex
	first os.Signal
}

func newSignals() *signals {
	s := &signals{ch: make(chan os.Signal, 2), done: make(chan struct{})}
	s.drain, s.cancelDrain = context.WithCancel(context.Background())
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
			s.mu.Unlock()
			if again {
				os.Exit(signalExitCode(sig))
			}
			s.cancelDrain()
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
	s.cancelDrain()
	s.cancelHard()
}

func signalExitCode(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitSIGTERM
	}
	return exitSIGINT
}
