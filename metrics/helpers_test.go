package metrics

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// t0 is the fake clock's time in tests.
var t0 = time.Date(2024, time.March, 1, 12, 0, 0, 0, time.UTC)

func fixedNow() time.Time { return t0 }

// mirrors returns a Snapshot that returns ms and err.
func mirrors(err error, ms ...Mirror) Snapshot {
	return func(context.Context) ([]Mirror, error) { return ms, err }
}

func newTestCollector(s Snapshot, w *Watch) *Collector {
	return NewCollector(s, w, Options{Now: fixedNow})
}

// serve scrapes h once as Prometheus would, without asking for protobuf,
// and parses the text it answers.
func serve(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s\n%s", resp.Status, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("Content-Type = %q, want the text format", ct)
	}
	return parse(t, string(body))
}

// textfile writes c's metrics to path with WriteTextfile and parses them.
func textfile(t *testing.T, path string, c *Collector) map[string]*dto.MetricFamily {
	t.Helper()
	if err := WriteTextfile(path, c); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parse(t, string(b))
}

func parse(t *testing.T, text string) map[string]*dto.MetricFamily {
	t.Helper()
	// The legacy scheme: the names must also suit a Prometheus older than
	// 3.0, which knows no UTF-8 names.
	p := expfmt.NewTextParser(model.LegacyValidation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("parse metrics: %v\n%s", err, text)
	}
	return mfs
}

// series flattens metric families into `name{label="value",...}` → value,
// labels in name order, values quoted as Go does.
func series(t *testing.T, mfs map[string]*dto.MetricFamily) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for name, mf := range mfs {
		for _, m := range mf.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
			}
			sort.Strings(labels)
			key := name
			if len(labels) > 0 {
				key += "{" + strings.Join(labels, ",") + "}"
			}
			var v float64
			switch mf.GetType() {
			case dto.MetricType_COUNTER:
				v = m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				v = m.GetGauge().GetValue()
			default:
				t.Errorf("%s is a %v", name, mf.GetType())
			}
			out[key] = v
		}
	}
	return out
}

// diff lists how got differs from want, one line per series, sorted.
func diff(got, want map[string]float64) string {
	var lines []string
	for k, w := range want {
		if g, ok := got[k]; !ok {
			lines = append(lines, fmt.Sprintf("missing %s %v", k, w))
		} else if g != w {
			lines = append(lines, fmt.Sprintf("%s = %v, want %v", k, g, w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			lines = append(lines, fmt.Sprintf("unexpected %s %v", k, g))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// unix is t in Unix seconds.
func unix(t time.Time) float64 { return float64(t.Unix()) + float64(t.Nanosecond())/1e9 }
