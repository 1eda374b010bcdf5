package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/fixtures"
)

// envelopeKeys are the fields every --json document has, in this order.
var envelopeKeys = []string{"schema_version", "command", "exit_code", "error", "started", "finished", "dest", "result"}

// decodeEnvelope checks that stdout is one envelope and returns it as a
// map.
func decodeEnvelope(t *testing.T, stdout string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	var e map[string]any
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("stdout is not a JSON document: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one JSON document:\n%s", stdout)
	}
	checkEnvelope(t, e)
	return e
}

func checkEnvelope(t *testing.T, e map[string]any) {
	t.Helper()
	var keys []string
	for k := range e {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := slices.Sorted(slices.Values(envelopeKeys))
	if !slices.Equal(keys, want) {
		t.Errorf("envelope keys %v, want %v", keys, want)
	}
	if e["schema_version"] != float64(schemaVersion) {
		t.Errorf("schema_version %v", e["schema_version"])
	}
	for _, k := range []string{"started", "finished"} {
		s, _ := e[k].(string)
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil || !strings.HasSuffix(s, "Z") {
			t.Errorf("%s %q: not an RFC 3339 time in UTC", k, s)
		}
	}
	if code := e["exit_code"].(float64); (code == 0) != (e["error"] == nil) {
		t.Errorf("exit_code %v with error %v", code, e["error"])
	}
}

// shape lists every key path of a JSON value with its type, one a line
// and sorted: what a golden file holds of a document whose values change
// from run to run.
func shape(v any) string {
	paths := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			paths[prefix+": object"] = true
			for k, y := range x {
				walk(prefix+"."+k, y)
			}
		case []any:
			paths[prefix+": array"] = true
			for _, y := range x {
				walk(prefix+"[]", y)
			}
		case string:
			paths[prefix+": string"] = true
		case float64:
			paths[prefix+": number"] = true
		case bool:
			paths[prefix+": boolean"] = true
		case nil:
			paths[prefix+": null"] = true
		default:
			paths[prefix+": "+fmt.Sprintf("%T", x)] = true
		}
	}
	walk("", v)
	out := slices.Sorted(func(yield func(string) bool) {
		for p := range paths {
			if !yield(p) {
				return
			}
		}
	})
	return strings.Join(out, "\n") + "\n"
}

// Every command's --json is one envelope around its result; the shapes
// (golden files, every key and its type) are snake_case throughout.
func TestJSONEnvelope(t *testing.T) {
	src, srv := served(t, nil)
	u, _ := url.Parse(src.Resources(0)[3].URI)
	src.SetFault(u.Path, fixtures.Fault{Status: slices.Repeat([]int{404}, 100)})
	dest := t.TempDir()
	for _, tc := range []struct {
		name string
		argv []string
		code int
	}{
		{"discover", args([]string{"discover", "--json"}, srv.URL), 0},
		{"baseline", args([]string{"baseline", "--json", "--dest", dest}, srv.URL), exitPartial},
		{"incremental", args([]string{"incremental", "--json", "--dest", dest}, srv.URL), exitPartial},
		{"sync", args([]string{"sync", "--json", "--dest", dest}, srv.URL), exitPartial},
		{"audit", auditArgs([]string{"audit", "--json", "--dest", dest}, srv.URL), exitDifferences},
		{"status", []string{"status", "--json", "--dest", dest}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, tc.argv...).want(t, tc.code)
			e := decodeEnvelope(t, r.stdout)
			if e["command"] != tc.name || e["exit_code"] != float64(tc.code) {
				t.Errorf("command %v, exit_code %v", e["command"], e["exit_code"])
			}
			wantDest := any(dest)
			if tc.name == "discover" {
				wantDest = nil
			}
			if e["dest"] != wantDest {
				t.Errorf("dest %v, want %v", e["dest"], wantDest)
			}
			got := shape(e)
			golden(t, "json-"+tc.name+".golden", got)
			for _, l := range strings.Split(got, "\n") {
				path, _, _ := strings.Cut(l, ":")
				if path != strings.ToLower(path) || strings.Contains(path, "-") {
					t.Errorf("a key not in snake_case: %s", l)
				}
			}
		})
	}
}

// The envelope is printed when the run fails too: an unreachable Source
// exits 5 with its error in the document, and a usage error found after
// the flags were read exits 2 with its own.
func TestJSONWhenTheRunFails(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "mirror")
	for _, verb := range []string{"sync", "baseline", "incremental", "audit", "discover"} {
		t.Run(verb, func(t *testing.T) {
			argv := []string{verb, "--json", "--max-retry-wait", "1ms"}
			if verb != "discover" {
				argv = append(argv, "--dest", dest)
			}
			r := runCLI(t, append(argv, "http://127.0.0.1:1/")...).want(t, exitUnavailable)
			e := decodeEnvelope(t, r.stdout)
			msg, _ := e["error"].(string)
			if e["exit_code"] != float64(exitUnavailable) || !strings.Contains(msg, "127.0.0.1:1") || e["result"] != nil {
				t.Errorf("envelope of an unreachable Source: %v", e)
			}
			if verb != "discover" && e["dest"] != dest {
				t.Errorf("dest %v, want %s", e["dest"], dest)
			}
		})
	}
	t.Run("usage", func(t *testing.T) {
		r := runCLI(t, "sync", "--json", "http://127.0.0.1:1/").want(t, exitUsage)
		e := decodeEnvelope(t, r.stdout)
		if msg, _ := e["error"].(string); !strings.Contains(msg, "--dest") || e["exit_code"] != float64(exitUsage) {
			t.Errorf("envelope of a usage error: %v", e)
		}
	})
}

// sync --config --json prints one document: the command's envelope, whose
// result lists each Source's envelope with its own exit status.
func TestJSONConfig(t *testing.T) {
	_, srv := served(t, nil)
	good, bad := filepath.Join(t.TempDir(), "good"), filepath.Join(t.TempDir(), "bad")
	cfg := writeConfig(t, `
defaults:
  max-retry-wait: 1ms
  progress: never
sources:
  - url: `+srv.URL+`
    dest: `+good+`
  - url: http://127.0.0.1:1/
    dest: `+bad+`
`)
	r := runCLI(t, "sync", "--config", cfg, "--json").want(t, exitUnavailable)
	e := decodeEnvelope(t, r.stdout)
	if e["dest"] != nil || e["exit_code"] != float64(exitUnavailable) {
		t.Errorf("the command's envelope: %v", e)
	}
	res := e["result"].(map[string]any)
	srcs, _ := res["sources"].([]any)
	if res["config"] != cfg || len(srcs) != 2 {
		t.Fatalf("result: %v", res)
	}
	for i, want := range []struct {
		dest string
		code int
	}{{good, 0}, {bad, exitUnavailable}} {
		s := srcs[i].(map[string]any)
		checkEnvelope(t, s)
		if s["dest"] != want.dest || s["exit_code"] != float64(want.code) || s["command"] != "sync" {
			t.Errorf("source %d: %v", i+1, s)
		}
	}
	golden(t, "json-sync-config.golden", shape(e))
}
