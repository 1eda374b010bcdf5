package websub

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/resync-dest/resync-dest/fixtures"
)

// guard bounds every wait of a test for something that must happen, so
// that a bug fails the test instead of hanging it.
const guard = 5 * time.Second

// fakeClock is a clock the test moves. Each After call is handed to the
// test on calls, in order; Run calls After only right before it blocks, so
// receiving a call means Run is idle until the test fires it.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	calls chan afterCall
}

type afterCall struct {
	d  time.Duration
	ch chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{
		now:   time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC),
		calls: make(chan afterCall, 100),
	}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.calls <- afterCall{d, ch}
	return ch
}

// next waits for the next After call, moves the clock by its duration,
// fires it, and returns the duration.
func (c *fakeClock) next(t *testing.T) time.Duration {
	t.Helper()
	call := c.pending(t)
	c.fire(call)
	return call.d
}

// pending waits for the next After call without firing it. While the call
// is pending, Run is parked, so what it did before waiting can be checked
// without racing what it does next.
func (c *fakeClock) pending(t *testing.T) afterCall {
	t.Helper()
	select {
	case call := <-c.calls:
		return call
	case <-time.After(guard):
		t.Fatal("no After call: Run is not waiting")
		return afterCall{}
	}
}

// fire moves the clock by the call's duration and fires it.
func (c *fakeClock) fire(call afterCall) {
	c.mu.Lock()
	c.now = c.now.Add(call.d)
	now := c.now
	c.mu.Unlock()
	call.ch <- now
}

// hubRequest is a subscription request as the test hub received it.
type hubRequest struct {
	form url.Values
	at   time.Time // the subscriber's clock
}

// verification is the result of a verification GET the hub made.
type verification struct {
	mode     string
	callback string
	status   int
	ok       bool // 200 with the challenge echoed
}

// testHub is a WebSub hub: it answers subscription requests with status
// (202 by default), then verifies them at the callback with a random
// challenge and a lease of lease seconds, or denies them when deny is set.
type testHub struct {
	t      *testing.T
	srv    *httptest.Server
	client *http.Client
	now    func() time.Time

	mu       sync.Mutex
	lease    int
	status   func(n int, form url.Values) int // n counts requests from 1
	deny     string
	noVerify bool
	reqs     []hubRequest
	secrets  map[string]string // callback → secret
	topics   map[string]string // callback → topic
	verified chan verification
	wg       sync.WaitGroup
}

func newTestHub(t *testing.T, now func() time.Time) *testHub {
	h := &testHub{
		t: t, now: now, lease: 3600,
		client:   &http.Client{Timeout: guard},
		secrets:  map[string]string{},
		topics:   map[string]string{},
		verified: make(chan verification, 100),
	}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(func() { h.srv.Close(); h.wg.Wait() })
	return h
}

func (h *testHub) serve(w http.ResponseWriter, r *http.Request) {
	t := h.t
	if r.Method != http.MethodPost {
		t.Errorf("hub: %s request, want POST", r.Method)
		http.Error(w, "method", http.StatusMethodNotAllowed)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		t.Errorf("hub: Content-Type %q", ct)
	}
	if err := r.ParseForm(); err != nil {
		t.Errorf("hub: %v", err)
	}
	form := r.PostForm
	mode, topic, callback := form.Get("hub.mode"), form.Get("hub.topic"), form.Get("hub.callback")
	if mode != modeSubscribe && mode != modeUnsubscribe || topic == "" || callback == "" {
		t.Errorf("hub: bad form %v", form)
	}
	if mode == modeSubscribe {
		if s := form.Get("hub.secret"); len(s) < 64 {
			t.Errorf("hub: hub.secret %q is shorter than 32 bytes in hex", s)
		}
	} else if form.Has("hub.secret") || form.Has("hub.lease_seconds") {
		t.Errorf("hub: unsubscribe with a secret or lease: %v", form)
	}
	h.mu.Lock()
	h.reqs = append(h.reqs, hubRequest{form, h.now()})
	n, status, lease, deny, noVerify := len(h.reqs), 202, h.lease, h.deny, h.noVerify
	if h.status != nil {
		status = h.status(n, form)
	}
	h.mu.Unlock()
	if status/100 != 2 {
		http.Error(w, "no thanks", status)
		return
	}
	w.WriteHeader(status)
	if noVerify {
		return
	}
	h.wg.Go(func() { h.verify(mode, topic, callback, form.Get("hub.secret"), lease, deny) })
}

// verify calls the callback back, as a hub does after answering 202.
func (h *testHub) verify(mode, topic, callback, secret string, lease int, deny string) {
	q := url.Values{"hub.topic": {topic}}
	challenge := rand.Text()
	if deny != "" {
		q.Set("hub.mode", modeDenied)
		q.Set("hub.reason", deny)
	} else {
		q.Set("hub.mode", mode)
		q.Set("hub.challenge", challenge)
		if mode == modeSubscribe {
			q.Set("hub.lease_seconds", strconv.Itoa(lease))
		}
	}
	v := verification{mode: q.Get("hub.mode"), callback: callback}
	resp, err := h.client.Get(callback + "?" + q.Encode())
	if err != nil {
		h.t.Errorf("hub: verify: %v", err)
		h.verified <- v
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	v.status = resp.StatusCode
	v.ok = resp.StatusCode == http.StatusOK && string(body) == challenge && deny == ""
	if v.ok && !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		h.t.Errorf("hub: verification answered with Content-Type %q", resp.Header.Get("Content-Type"))
	}
	if v.ok {
		h.mu.Lock()
		if mode == modeSubscribe {
			h.secrets[callback], h.topics[callback] = secret, topic
		} else {
			delete(h.secrets, callback)
			delete(h.topics, callback)
		}
		h.mu.Unlock()
	}
	h.verified <- v
}

// waitVerified returns the next verification the hub made.
func (h *testHub) waitVerified(t *testing.T) verification {
	t.Helper()
	select {
	case v := <-h.verified:
		return v
	case <-time.After(guard):
		t.Fatal("hub made no verification")
		return verification{}
	}
}

func (h *testHub) requests() []hubRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hubRequest(nil), h.reqs...)
}

func (h *testHub) secret(callback string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.secrets[callback]
}

// publish delivers body to callback with the X-Hub-Signature header sig
// (none when empty) and returns the status.
func (h *testHub) publish(t *testing.T, callback string, body []byte, sig string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, callback, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/xml")
	if sig != "" {
		req.Header.Set("X-Hub-Signature", sig)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// sign is an X-Hub-Signature value for body.
func sign(alg, secret string, body []byte) string {
	hs := map[string]func() hash.Hash{"sha1": sha1.New, "sha256": sha256.New, "sha384": sha512.New384, "sha512": sha512.New}
	mac := hmac.New(hs[alg], []byte(secret))
	mac.Write(body)
	return alg + "=" + hex.EncodeToString(mac.Sum(nil))
}

// logBuffer collects log lines from several goroutines.
type logBuffer struct{ fixtures.LockedBuffer }

func (b *logBuffer) count(s string) int { return strings.Count(b.String(), s) }

// testOptions are options for a subscriber at srvURL, fast to fail.
func testOptions(srvURL string) Options {
	o := DefaultOptions()
	o.CallbackURL = srvURL + "/websub/"
	o.MinRetryWait = time.Millisecond
	o.MaxRetryWait = 10 * time.Millisecond
	o.VerifyTimeout = guard
	o.RequestTimeout = guard
	return o
}

// newTestSubscriber starts a Subscriber served by its own httptest server;
// edit changes its options first. It is closed at the end of the test.
func newTestSubscriber(t *testing.T, edit func(*Options)) (*Subscriber, *logBuffer) {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	opts := testOptions(srv.URL)
	if edit != nil {
		edit(&opts)
	}
	logs := &logBuffer{}
	s, err := New(&http.Client{Timeout: guard}, opts, zerolog.New(logs))
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/websub/", s)
	t.Cleanup(func() { _ = s.Close(t.Context()) })
	return s, logs
}

// mustSubscribe subscribes s to topic at h and checks the hub's verification.
func mustSubscribe(t *testing.T, s *Subscriber, h *testHub, topic string) *Subscription {
	t.Helper()
	x, err := s.Subscribe(t.Context(), h.srv.URL+"/hub", topic)
	if err != nil {
		t.Fatal(err)
	}
	if v := h.waitVerified(t); !v.ok || v.mode != modeSubscribe || v.callback != x.Callback() {
		t.Fatalf("verification %+v, want a good subscribe verification at %s", v, x.Callback())
	}
	return x
}

// noNotification fails when a notification is queued. Deliveries are
// queued before they are answered, so after an answer this is final.
func noNotification(t *testing.T, s *Subscriber) {
	t.Helper()
	select {
	case n := <-s.notes:
		t.Fatalf("unexpected notification %+v", n)
	default:
	}
}

// oneNotification returns the queued notification, failing when there is
// none.
func oneNotification(t *testing.T, s *Subscriber) Notification {
	t.Helper()
	select {
	case n := <-s.notes:
		return n
	default:
		t.Fatal("no notification queued")
		return Notification{}
	}
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
