package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// testHub is a WebSub hub: it accepts subscriptions, verifies the
// subscriber's intent at its callback, and delivers what the test asks,
// signed with the subscriber's secret (or not).
type testHub struct {
	t   *testing.T
	srv *httptest.Server

	mu     sync.Mutex
	subs   map[string]hubSub // by topic
	events chan string       // "subscribed TOPIC", "unsubscribed TOPIC", once verified
}

type hubSub struct {
	callback, secret string
}

func newTestHub(t *testing.T) *testHub {
	h := &testHub{t: t, subs: map[string]hubSub{}, events: make(chan string, 16)}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *testHub) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.ParseForm() != nil {
		http.Error(w, "want a form POST", http.StatusBadRequest)
		return
	}
	mode, topic, callback := r.PostForm.Get("hub.mode"), r.PostForm.Get("hub.topic"), r.PostForm.Get("hub.callback")
	if (mode != "subscribe" && mode != "unsubscribe") || topic == "" || callback == "" {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if mode == "subscribe" && (len(r.PostForm.Get("hub.secret")) < 32 || r.PostForm.Get("hub.lease_seconds") == "") {
		http.Error(w, "want a secret and a lease", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusAccepted)
	secret := r.PostForm.Get("hub.secret")
	go func() { // verification of intent, after the 202
		challenge := fmt.Sprintf("challenge-%d", time.Now().UnixNano())
		q := url.Values{"hub.mode": {mode}, "hub.topic": {topic}, "hub.challenge": {challenge}, "hub.lease_seconds": {"600"}}
		resp, err := http.Get(callback + "?" + q.Encode())
		if err != nil {
			h.t.Errorf("hub: verify %s: %v", callback, err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 || string(body) != challenge {
			h.t.Errorf("hub: the subscriber did not confirm its %s of %s: %d %q", mode, topic, resp.StatusCode, body)
			return
		}
		h.mu.Lock()
		if mode == "subscribe" {
			h.subs[topic] = hubSub{callback: callback, secret: secret}
		} else {
			delete(h.subs, topic)
		}
		h.mu.Unlock()
		h.events <- mode + "d " + topic
	}()
}

// deliver POSTs a framework notification about the Change List to the
// topic's subscriber, signed with key (the subscriber's secret for a
// genuine delivery), and returns the status.
func (h *testHub) deliver(topic, changeList string, key string) int {
	h.t.Helper()
	h.mu.Lock()
	s, ok := h.subs[topic]
	h.mu.Unlock()
	if !ok {
		h.t.Fatalf("hub: nobody subscribed to %s", topic)
	}
	if key == "" {
		key = s.secret
	}
	body := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:md capability="framework-notification"/>
<url><loc>` + changeList + `</loc><rs:md change="updated" capability="changelist"/></url>
</urlset>`)
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write(body)
	req, _ := http.NewRequest(http.MethodPost, s.callback, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("Link", fmt.Sprintf("<%s>; rel=\"self\", <%s>; rel=\"hub\"", topic, h.srv.URL))
	req.Header.Set("X-Hub-Signature", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatalf("hub: deliver: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// metricValue reads one sample of the watch's /metrics (0 when absent).
func metricValue(t *testing.T, base, sample string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatalf("GET /metrics: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, sample+" "); ok {
			return v
		}
	}
	return "0"
}

// A watch syncs, subscribes to the Source's channel at its hub, syncs
// again on a genuine notification (and not on a forged one), serves its
// metrics, and on SIGTERM unsubscribes and exits 143.
func TestWatchCommand(t *testing.T) {
	hub := newTestHub(t)
	src, srv := served(t, func(s *fixtures.Spec) { s.Hub = hub.srv.URL + "/" })
	topic := src.URI("/dataset1/framework/")
	dest := filepath.Join(t.TempDir(), "mirror")
	textfile := filepath.Join(t.TempDir(), "resync.prom")

	drain, stop := context.WithCancel(context.Background())
	var stdout, stderr fixtures.LockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(context.Background(), []string{"resync-dest", "--log-format", "json", "watch", "--dest", dest,
			"--listen", "127.0.0.1:0", "--poll-interval", "1h", "--max-retry-wait", "5ms", "--delete", "--max-delete", "100%",
			"--metrics-textfile", textfile, srv.URL},
			stdio{out: &stdout, err: &stderr}, drain, func() os.Signal { return syscall.SIGTERM })
	}()
	if ev := waitEvent(t, hub.events, &stderr); ev != "subscribed "+topic {
		t.Fatalf("hub event %q", ev)
	}
	incAssertIsSource(t, src, dest) // the first sync came before the subscription
	hub.mu.Lock()
	cb, _ := url.Parse(hub.subs[topic].callback)
	hub.mu.Unlock()
	base := "http://" + cb.Host
	if v := metricValue(t, base, `resync_dest_syncs_total{dest="`+dest+`",trigger="initial"}`); v != "1" {
		t.Errorf("initial syncs %s", v)
	}
	if _, err := os.Stat(textfile); err != nil {
		t.Errorf("--metrics-textfile: %v", err)
	}

	// A forged notification is ignored: no sync.
	if st := hub.deliver(topic, src.ChangeListURL(0), "not the secret"); st/100 != 2 {
		t.Errorf("forged delivery answered %d", st)
	}
	// A genuine one brings the changes.
	if err := src.AdvanceRandom(6, time.Second); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	if st := hub.deliver(topic, src.ChangeListURL(0), ""); st/100 != 2 {
		t.Errorf("delivery answered %d", st)
	}
	notified := `resync_dest_syncs_total{dest="` + dest + `",trigger="notification"}`
	waitUntil(t, "the notified sync", func() bool { return metricValue(t, base, notified) == "1" })
	waitUntil(t, "the mirror in step", func() bool { return mirrorInStep(t, src, dest) })
	t.Logf("a notification brought the mirror in step within %s", time.Since(sent).Round(time.Millisecond))
	incAssertIsSource(t, src, dest)
	if v := metricValue(t, base, `resync_dest_notifications_total{dest="`+dest+`",result="trigger"}`); v != "1" {
		t.Errorf("notifications that triggered a sync: %s (the forged one must not count)", v)
	}
	if v := metricValue(t, base, `resync_dest_subscriptions{dest="`+dest+`"}`); v != "1" {
		t.Errorf("subscriptions %s", v)
	}

	stop() // SIGTERM
	select {
	case c := <-code:
		if c != exitSIGTERM {
			t.Errorf("exit %d, want %d\n%s", c, exitSIGTERM, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("watch did not stop\n%s", stderr.String())
	}
	// The unsubscription was verified before watch exited; the hub notes
	// it once it has read the answer.
	if ev := waitEvent(t, hub.events, &stderr); ev != "unsubscribed "+topic {
		t.Errorf("hub event at shutdown %q", ev)
	}
	if v := metricsOf(t, textfile); !strings.Contains(v, "resync_dest_runs_total") {
		t.Errorf("textfile:\n%s", v)
	}
}

// A watch without --listen, or with --dry-run, is a usage error.
func TestWatchUsage(t *testing.T) {
	t.Parallel()
	_, srv := served(t, nil)
	wantUsage(t, [][]string{
		{"watch", "--dest", t.TempDir(), srv.URL},
		{"watch", "--dest", t.TempDir(), "--listen", "127.0.0.1:0", "--dry-run", srv.URL},
		{"watch", "--dest", t.TempDir(), "--listen", "127.0.0.1:0", "--poll-interval", "1s", srv.URL},
		{"watch", "--dest", t.TempDir(), "--listen", "127.0.0.1:0", "--callback-url", "ftp://x/", srv.URL},
	})
}

func metricsOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mirrorInStep reports whether dest holds exactly the Source's resources.
func mirrorInStep(t *testing.T, src *fixtures.Source, dest string) bool {
	t.Helper()
	got := fixtures.MirrorFiles(t, dest)
	rs := src.Resources(0)
	if len(got) != len(rs) {
		return false
	}
	for _, r := range rs {
		want, _ := src.Content(r.URI)
		if !bytes.Equal(got[relPath(t, r.URI)], want) {
			return false
		}
	}
	return true
}

func waitEvent(t *testing.T, events <-chan string, stderr *fixtures.LockedBuffer) string {
	t.Helper()
	select {
	case ev := <-events:
		return ev
	case <-time.After(30 * time.Second):
		t.Fatalf("no event from the hub\n%s", stderr.String())
		return ""
	}
}

// watchFirstSync runs watch --json into dest, with more arguments (the
// URL last), until it printed its first sync's line, then stops it as a
// SIGTERM does; it fails the test unless watch exits 143, and returns what
// watch printed.
func watchFirstSync(t *testing.T, dest string, more ...string) string {
	t.Helper()
	drain, stop := context.WithCancel(context.Background())
	var stdout, stderr fixtures.LockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(context.Background(), append([]string{"resync-dest", "watch", "--json", "--dest", dest,
			"--listen", "127.0.0.1:0", "--poll-interval", "1h", "--max-retry-wait", "5ms"}, more...),
			stdio{out: &stdout, err: &stderr}, drain, func() os.Signal { return syscall.SIGTERM })
	}()
	waitUntil(t, "the first sync's line", func() bool { return strings.HasSuffix(stdout.String(), "}\n") })
	stop()
	select {
	case c := <-code:
		if c != exitSIGTERM {
			t.Errorf("exit %d, want %d\n%s", c, exitSIGTERM, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("watch did not stop")
	}
	return stdout.String()
}

// watch --json prints one envelope a sync, each on its own line (JSON
// Lines), naming the mirror.
func TestWatchJSONLines(t *testing.T) {
	_, srv := served(t, nil)
	dest := filepath.Join(t.TempDir(), "mirror")
	stdout := watchFirstSync(t, dest, srv.URL)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	for _, l := range lines {
		e := decodeEnvelope(t, l)
		if e["command"] != "watch" || e["dest"] != dest || e["exit_code"] != float64(0) || e["result"] == nil {
			t.Errorf("a sync's line: %v", e)
		}
	}
}
