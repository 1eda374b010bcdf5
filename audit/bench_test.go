package audit_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/resync-dest/resync-dest/audit"
	"github.com/resync-dest/resync-dest/fixtures"
)

// BenchmarkAudit10k audits a 10,000-resource mirror of about 4 KiB files
// in sync with its Source: reading the Resource List over loopback,
// building the listing, walking the mirror and re-hashing every file with
// md5 and sha-256 (or, Fast, trusting the state). One op is one audit.
//
//	go test -run '^$' -bench Audit10k -benchtime 5x ./audit/
func BenchmarkAudit10k(b *testing.B) {
	h := newHarness(b, func(s *fixtures.Spec) { s.Resources = 10_000 })
	h.baseline(0, nil)
	for _, fast := range []bool{false, true} {
		name := "hash"
		if fast {
			name = "fast"
		}
		b.Run(name, func(b *testing.B) {
			cpu0 := cpuTime(b)
			for b.Loop() {
				_, rep, err := h.audit(0, func(_ *audit.Set, o *audit.Options) {
					o.Fast = fast
					o.Workers = audit.DefaultOptions().Workers
				})
				if err != nil || !rep.InSync || rep.Counts.InSync != 10_000 {
					b.Fatalf("%v %+v", err, rep.Counts)
				}
			}
			// CPU time (this process: the audit and the fixture Source)
			// is steadier than wall time on a shared machine.
			b.ReportMetric(float64((cpuTime(b)-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
