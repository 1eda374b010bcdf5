package websub

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/resourcesync"
)

var _ Doer = (*http.Client)(nil)

func TestSubscribeVerifyDeliver(t *testing.T) {
	h := newTestHub(t, time.Now)
	h.lease = 2400 // not what was asked for
	s, _ := newTestSubscriber(t, nil)
	topic := "http://example.com/dataset1/framework/"
	x := mustSubscribe(t, s, h, topic)

	reqs := h.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d hub requests, want 1", len(reqs))
	}
	f := reqs[0].form
	if f.Get("hub.mode") != "subscribe" || f.Get("hub.topic") != topic ||
		f.Get("hub.callback") != x.Callback() || f.Get("hub.lease_seconds") != "86400" {
		t.Errorf("subscription request %v", f)
	}
	if !strings.HasPrefix(x.Callback(), s.opts.CallbackURL) || len(x.ID()) != 32 {
		t.Errorf("callback %s (id %s) is not CallbackURL plus a 128-bit id", x.Callback(), x.ID())
	}
	if x.Lease() != 2400*time.Second {
		t.Errorf("lease %s, want the granted 40m0s", x.Lease())
	}
	if got := s.Subscriptions(); len(got) != 1 || got[0] != x {
		t.Errorf("Subscriptions() = %v", got)
	}

	body := readTestdata(t, "example1.xml")
	secret := h.secret(x.Callback())
	for _, alg := range []string{"sha1", "sha256", "sha384", "sha512"} {
		if st := h.publish(t, x.Callback(), body, sign(alg, secret, body)); st/100 != 2 {
			t.Fatalf("%s: delivery answered %d", alg, st)
		}
		n := oneNotification(t, s)
		if n.Hub != x.Hub() || n.Topic != topic || n.Subscription != x.ID() || n.Received.IsZero() {
			t.Errorf("%s: notification %+v", alg, n)
		}
		if n.Capability != resourcesync.CapFrameworkNotification || len(n.Changes) != 1 ||
			n.Changes[0].URL != "http://example.com/resourceset1/resourcelist.xml" ||
			n.Changes[0].Capability != resourcesync.CapResourceList || n.Changes[0].Change != resourcesync.ChangeCreated {
			t.Errorf("%s: payload %+v", alg, n.Payload)
		}
	}
}

func TestDeliveryRefused(t *testing.T) {
	h := newTestHub(t, time.Now)
	s, logs := newTestSubscriber(t, func(o *Options) { o.MaxPayload = 4096 })
	x := mustSubscribe(t, s, h, "http://example.com/framework/")
	body := readTestdata(t, "example2.xml")
	secret := h.secret(x.Callback())
	good := sign("sha256", secret, body)
	junk := []byte("<html><body>not a notification</body></html>")
	big := []byte(strings.Repeat("<!-- padding -->", 300) + string(body))

	for _, c := range []struct {
		name   string
		path   string
		body   []byte
		sig    string
		status int
	}{
		{"wrong secret", x.Callback(), body, sign("sha256", "not the secret", body), 202},
		{"no signature", x.Callback(), body, "", 202},
		{"unknown algorithm", x.Callback(), body, "md5=" + strings.Repeat("0", 32), 202},
		{"digest of another algorithm", x.Callback(), body, "sha1=" + strings.TrimPrefix(good, "sha256=")[:40], 202},
		{"not hex", x.Callback(), body, "sha256=" + strings.Repeat("zz", 32), 202},
		{"no equals sign", x.Callback(), body, "sha256", 202},
		{"signature of another body", x.Callback(), append([]byte(" "), body...), good, 202},
		{"signed, not a notification", x.Callback(), junk, sign("sha1", secret, junk), 202},
		{"too large", x.Callback(), big, sign("sha256", secret, big), 413},
		{"unknown callback", s.base + "0123456789abcdef0123456789abcdef", body, good, 404},
	} {
		t.Run(c.name, func(t *testing.T) {
			if st := h.publish(t, c.path, c.body, c.sig); st != c.status {
				t.Errorf("answered %d, want %d", st, c.status)
			}
			noNotification(t, s)
		})
	}
	if n := logs.count(`"level":"warn"`); n < 9 {
		t.Errorf("%d warnings logged, want one per refused delivery", n)
	}
	// The subscription still works.
	if st := h.publish(t, x.Callback(), body, good); st != 202 {
		t.Fatalf("good delivery answered %d", st)
	}
	if n := oneNotification(t, s); len(n.Changes) != 3 || n.Changes[0].Index != "http://example.com/dataset1/resourcelist-index.xml" {
		t.Errorf("notification %+v", n)
	}
	req, _ := http.NewRequest(http.MethodPut, x.Callback(), nil)
	if resp, err := h.client.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %v %v, want 405", resp, err)
	}
}

func TestSlowConsumerDrops(t *testing.T) {
	h := newTestHub(t, time.Now)
	s, _ := newTestSubscriber(t, func(o *Options) { o.QueueSize = 1 })
	x := mustSubscribe(t, s, h, "http://example.com/framework/")
	body := readTestdata(t, "example1.xml")
	sig := sign("sha512", h.secret(x.Callback()), body)
	for range 3 {
		if st := h.publish(t, x.Callback(), body, sig); st != 202 {
			t.Fatalf("answered %d, want 202 even when the queue is full", st)
		}
	}
	if n := oneNotification(t, s); n.Dropped != 0 {
		t.Errorf("first notification says %d dropped", n.Dropped)
	}
	h.publish(t, x.Callback(), body, sig)
	if n := oneNotification(t, s); n.Dropped != 2 {
		t.Errorf("notification after the drops says %d dropped, want 2", n.Dropped)
	}
}

// get makes a verification GET at callback with query q.
func get(t *testing.T, callback string, q url.Values) (int, string) {
	t.Helper()
	resp, err := http.Get(callback + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestVerificationRefused(t *testing.T) {
	h := newTestHub(t, time.Now)
	s, _ := newTestSubscriber(t, nil)
	topic := "http://example.com/framework/"
	x := mustSubscribe(t, s, h, topic)
	q := func(kv ...string) url.Values {
		v := url.Values{"hub.mode": {"subscribe"}, "hub.topic": {topic}, "hub.challenge": {"c1"}, "hub.lease_seconds": {"600"}}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				v.Del(kv[i])
			} else {
				v.Set(kv[i], kv[i+1])
			}
		}
		return v
	}
	for _, c := range []struct {
		name     string
		callback string
		q        url.Values
	}{
		{"unknown callback", s.base + "ffffffffffffffffffffffffffffffff", q()},
		{"callback base", s.base, q()},
		{"wrong topic", x.Callback(), q("hub.topic", "http://evil.example/framework/")},
		{"unsubscribe not asked for", x.Callback(), q("hub.mode", "unsubscribe")},
		{"unknown mode", x.Callback(), q("hub.mode", "publish")},
		{"no challenge", x.Callback(), q("hub.challenge", "")},
		{"bad lease", x.Callback(), q("hub.lease_seconds", "-5")},
		{"denied for another topic", x.Callback(), q("hub.mode", "denied", "hub.topic", "http://other.example/")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if st, _ := get(t, c.callback, c.q); st != http.StatusNotFound {
				t.Errorf("answered %d, want 404", st)
			}
		})
	}
	if x.Lease() != 3600*time.Second {
		t.Errorf("lease %s changed by refused verifications", x.Lease())
	}
	// A hub may verify an active subscription again: echoed, lease recorded.
	st, body := get(t, x.Callback(), q("hub.challenge", "again-42"))
	if st != 200 || body != "again-42" || x.Lease() != 600*time.Second {
		t.Errorf("re-verification answered %d %q (lease %s), want 200 again-42 (lease 10m0s)", st, body, x.Lease())
	}
}

func TestSubscribeDenied(t *testing.T) {
	h := newTestHub(t, time.Now)
	h.deny = "topic not served here"
	s, _ := newTestSubscriber(t, nil)
	_, err := s.Subscribe(t.Context(), h.srv.URL+"/hub", "http://example.com/framework/")
	var denied *DeniedError
	if !errors.As(err, &denied) || denied.Reason != "topic not served here" {
		t.Fatalf("Subscribe: %v, want a denial with the hub's reason", err)
	}
	if v := h.waitVerified(t); v.status != 200 {
		t.Errorf("denial answered %d, want 200", v.status)
	}
	if len(s.Subscriptions()) != 0 {
		t.Error("denied subscription kept")
	}
}

func TestSubscribeDeniedLater(t *testing.T) {
	h := newTestHub(t, time.Now)
	s, _ := newTestSubscriber(t, nil)
	x := mustSubscribe(t, s, h, "http://example.com/framework/")
	st, _ := get(t, x.Callback(), url.Values{"hub.mode": {"denied"}, "hub.topic": {x.Topic()}, "hub.reason": {"gone"}})
	if st != 200 {
		t.Fatalf("denial answered %d", st)
	}
	select {
	case <-x.Done():
	default:
		t.Fatal("denied subscription not ended")
	}
	var denied *DeniedError
	if !errors.As(x.Err(), &denied) || denied.Reason != "gone" {
		t.Errorf("Err() = %v", x.Err())
	}
}

func TestSubscribeHubError(t *testing.T) {
	h := newTestHub(t, time.Now)
	h.status = func(int, url.Values) int { return http.StatusForbidden }
	s, _ := newTestSubscriber(t, nil)
	hub := h.srv.URL + "/hub"
	_, err := s.Subscribe(t.Context(), hub, "http://example.com/framework/")
	var herr *HubError
	if !errors.As(err, &herr) || herr.Status != 403 || herr.Body != "no thanks" {
		t.Fatalf("Subscribe: %v, want a *HubError 403", err)
	}
	if msg := err.Error(); !strings.Contains(msg, hub) || !strings.Contains(msg, "403 Forbidden") {
		t.Errorf("error %q does not name the hub and the status", msg)
	}
	if n := len(h.requests()); n != 1 {
		t.Errorf("%d requests, want 1: 403 is not retried", n)
	}
}

func TestSubscribeRetries(t *testing.T) {
	h := newTestHub(t, time.Now)
	h.status = func(n int, _ url.Values) int {
		if n < 3 {
			return http.StatusServiceUnavailable
		}
		return http.StatusAccepted
	}
	s, _ := newTestSubscriber(t, nil)
	mustSubscribe(t, s, h, "http://example.com/framework/")
	if n := len(h.requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}

	h2 := newTestHub(t, time.Now)
	h2.status = func(int, url.Values) int { return http.StatusBadGateway }
	_, err := s.Subscribe(t.Context(), h2.srv.URL, "http://example.com/framework/")
	if n := len(h2.requests()); n != s.opts.MaxAttempts || !strings.Contains(err.Error(), "after 4 attempts") {
		t.Errorf("%d requests and %v, want MaxAttempts (4)", n, err)
	}
}

func TestSubscribeVerifyTimeout(t *testing.T) {
	h := newTestHub(t, time.Now)
	h.noVerify = true
	s, _ := newTestSubscriber(t, func(o *Options) { o.VerifyTimeout = 50 * time.Millisecond })
	_, err := s.Subscribe(t.Context(), h.srv.URL, "http://example.com/framework/")
	if !errors.Is(err, ErrVerifyTimeout) {
		t.Fatalf("Subscribe: %v, want ErrVerifyTimeout", err)
	}
	// A verification after we gave up is refused.
	callback := h.requests()[0].form.Get("hub.callback")
	q := url.Values{"hub.mode": {"subscribe"}, "hub.topic": {"http://example.com/framework/"}, "hub.challenge": {"late"}, "hub.lease_seconds": {"600"}}
	if st, _ := get(t, callback, q); st != 404 {
		t.Errorf("late verification answered %d, want 404", st)
	}
}

func TestNewRejects(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Options)
	}{
		{"no callback", func(o *Options) { o.CallbackURL = "" }},
		{"relative callback", func(o *Options) { o.CallbackURL = "/websub/" }},
		{"callback with query", func(o *Options) { o.CallbackURL = "http://h/websub/?a=b" }},
		{"ftp callback", func(o *Options) { o.CallbackURL = "ftp://h/websub/" }},
		{"fraction 0", func(o *Options) { o.RenewFraction = 0 }},
		{"fraction above 1", func(o *Options) { o.RenewFraction = 1.5 }},
		{"no verify timeout", func(o *Options) { o.VerifyTimeout = 0 }},
		{"no attempts", func(o *Options) { o.MaxAttempts = 0 }},
		{"renew retry not a range", func(o *Options) { o.RenewRetryMaxWait = time.Second }},
		{"no payload", func(o *Options) { o.MaxPayload = 0 }},
		{"no queue", func(o *Options) { o.QueueSize = 0 }},
		{"no clock", func(o *Options) { o.Now = nil }},
		{"no timer", func(o *Options) { o.After = nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := testOptions("http://127.0.0.1:1")
			c.edit(&o)
			if _, err := New(&http.Client{}, o, zerolog.Nop()); err == nil {
				t.Error("New accepted it")
			}
		})
	}
	if _, err := New(nil, testOptions("http://127.0.0.1:1"), zerolog.Nop()); err == nil {
		t.Error("New accepted a nil Doer")
	}
	s, err := New(&http.Client{}, testOptions("http://127.0.0.1:1"), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	for _, hub := range []string{"", "hub.example.org/websub", "mailto:hub@example.org"} {
		if _, err := s.Subscribe(t.Context(), hub, "http://example.com/t/"); err == nil {
			t.Errorf("Subscribe accepted hub %q", hub)
		}
	}
}
