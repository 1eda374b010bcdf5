package websub

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestUnsubscribe(t *testing.T) {
	h := newTestHub(t, time.Now)
	s, _ := newTestSubscriber(t, nil)
	x := mustSubscribe(t, s, h, "http://example.com/framework/")
	secret := h.secret(x.Callback())
	if err := s.Unsubscribe(t.Context(), x); err != nil {
		t.Fatal(err)
	}
	if v := h.waitVerified(t); !v.ok || v.mode != modeUnsubscribe {
		t.Errorf("unsubscribe verification %+v", v)
	}
	if f := h.requests()[1].form; f.Get("hub.mode") != "unsubscribe" || f.Get("hub.callback") != x.Callback() {
		t.Errorf("unsubscribe request %v", f)
	}
	body := readTestdata(t, "example1.xml")
	if st := h.publish(t, x.Callback(), body, sign("sha1", secret, body)); st != 404 {
		t.Errorf("delivery after unsubscribe answered %d, want 404", st)
	}
	<-x.Done()
	if x.Err() != nil || len(s.Subscriptions()) != 0 {
		t.Errorf("after Unsubscribe: Err %v, %d subscriptions", x.Err(), len(s.Subscriptions()))
	}
	if err := s.Unsubscribe(t.Context(), x); err != nil {
		t.Errorf("second Unsubscribe: %v", err)
	}
}

func TestCloseUnsubscribes(t *testing.T) {
	h := newTestHub(t, time.Now)
	s, _ := newTestSubscriber(t, nil)
	a := mustSubscribe(t, s, h, "http://example.com/set1/framework/")
	b := mustSubscribe(t, s, h, "http://example.com/set2/framework/")
	ran := make(chan error, 1)
	go func() { ran <- s.Run(t.Context()) }()

	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for range 2 {
		v := h.waitVerified(t)
		if !v.ok || v.mode != modeUnsubscribe {
			t.Errorf("verification %+v", v)
		}
		got[v.callback] = true
	}
	if !got[a.Callback()] || !got[b.Callback()] {
		t.Errorf("unsubscribed %v, want both callbacks", got)
	}
	for _, x := range []*Subscription{a, b} {
		<-x.Done()
	}
	if _, ok := <-s.Notifications(); ok {
		t.Error("Notifications not closed")
	}
	if _, err := s.Subscribe(t.Context(), h.srv.URL, "http://example.com/x/"); !errors.Is(err, ErrClosed) {
		t.Errorf("Subscribe after Close: %v, want ErrClosed", err)
	}
	select {
	case err := <-ran:
		if err != nil {
			t.Errorf("Run after Close: %v", err)
		}
	case <-time.After(guard):
		t.Fatal("Run did not return after Close")
	}
	if err := s.Close(t.Context()); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestCloseJoinsErrors(t *testing.T) {
	h := newTestHub(t, time.Now)
	h.status = func(_ int, f url.Values) int {
		if f.Get("hub.mode") == "unsubscribe" {
			return http.StatusInternalServerError
		}
		return http.StatusAccepted
	}
	s, _ := newTestSubscriber(t, func(o *Options) { o.MaxAttempts = 1 })
	mustSubscribe(t, s, h, "http://example.com/set1/framework/")
	mustSubscribe(t, s, h, "http://example.com/set2/framework/")
	err := s.Close(t.Context())
	if err == nil || !strings.Contains(err.Error(), "set1") || !strings.Contains(err.Error(), "set2") {
		t.Fatalf("Close: %v, want both failures", err)
	}
	if _, ok := <-s.Notifications(); ok || len(s.Subscriptions()) != 0 {
		t.Error("Close left the subscriber open")
	}
}
