// Command bench-scale measures scale-out: one set of N resources (default
// 200,000) published as a Resource List Index, mirrored into a bucket by
// one worker, then by three, alternated round by round (1 3 1 3 ...), each
// run into a fresh database and a fresh prefix of the bucket, against a
// fixture Source served in this process on loopback (see
// ../shared/BENCHMARKING.md). Every worker runs one job at a time (--jobs
// 1), as a machine of its own would, with -fetchers concurrent fetches per
// job; -delay adds a per-resource latency at the Source, as a Source
// across a network has. Each run is checked complete (the state holds N
// resources). It prints each run, the medians and their ratio.
//
// It needs the servers of scripts/scale-lib.sh: run it through
// scripts/bench-scale.sh, which starts them (and builds resync-dest).
//
//	scripts/bench-scale.sh -n 200000 -rounds 2
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/resync-dest/resync-dest/fixtures"
	"github.com/resync-dest/resync-dest/scripts/internal/benchmark"
)

func main() {
	bin := flag.String("bin", "", "the resync-dest binary (required)")
	n := flag.Int("n", 200000, "resources in the set")
	listMax := flag.Int("list-max", 25000, "entries per Resource List of the index")
	rounds := flag.Int("rounds", 2, "rounds of (1 worker, 3 workers)")
	fetchers := flag.Int("fetchers", 8, "concurrent fetches per job (the Source's workers option)")
	delay := flag.Duration("delay", 0, "latency the Source adds to each resource")
	work := flag.String("work", "", "where to make the directory for temporary files, removed at the end (default: $TMPDIR)")
	flag.Parse()
	benchmark.NeedBin("bench-scale", *bin)
	benchmark.ExitOn("bench-scale", run(*bin, *n, *listMax, *rounds, *fetchers, *delay, *work))
}

type env struct {
	admin, endpoint, access, secret string
	s3                              *minio.Client
	bucket                          string
}

func run(bin string, n, listMax, rounds, fetchers int, delay time.Duration, work string) error {
	e := env{admin: os.Getenv("SCALETEST_POSTGRES"), endpoint: os.Getenv("SCALETEST_S3_ENDPOINT"),
		access: os.Getenv("SCALETEST_S3_ACCESS_KEY"), secret: os.Getenv("SCALETEST_S3_SECRET_KEY")}
	if e.admin == "" || e.endpoint == "" {
		return fmt.Errorf("no servers: run scripts/bench-scale.sh")
	}
	work, removeWork, err := benchmark.WorkDir(work, "bench-scale-")
	if err != nil {
		return err
	}
	defer removeWork()
	u, _ := url.Parse(e.endpoint)
	if e.s3, err = minio.New(u.Host, &minio.Options{Creds: credentials.NewStaticV4(e.access, e.secret, ""), BucketLookup: minio.BucketLookupPath, Region: "us-east-1"}); err != nil {
		return err
	}
	e.bucket = fmt.Sprintf("bench-%d", time.Now().UnixNano()%1e9)
	if err := e.s3.MakeBucket(context.Background(), e.bucket, minio.MakeBucketOptions{}); err != nil {
		return err
	}

	spec := fixtures.DefaultSpec()
	spec.Resources, spec.ListMax, spec.SizeMin, spec.SizeMax = n, listMax, 4096, 4096
	src, err := fixtures.New(spec)
	if err != nil {
		return err
	}
	if delay > 0 {
		src.SetFault("/dataset1/res/*", fixtures.Fault{Delay: delay})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String() + "/"
	if err := src.SetBaseURL(base); err != nil {
		return err
	}
	srv := &http.Server{Handler: src.Handler()}
	go srv.Serve(ln)
	defer srv.Close()
	fmt.Printf("bench-scale: %d resources (%d lists of %d), %d fetches per job, Source delay %s, %d rounds\n",
		n, (n+listMax-1)/listMax, listMax, fetchers, delay, rounds)

	times := map[int][]time.Duration{}
	for r := 1; r <= rounds; r++ {
		for _, w := range []int{1, 3} {
			d, err := e.once(bin, base, work, fmt.Sprintf("r%d-w%d", r, w), w, fetchers, n)
			if err != nil {
				return err
			}
			times[w] = append(times[w], d)
			fmt.Printf("round %d, %d worker(s): %.1f s (%.0f resources/s)\n", r, w, d.Seconds(), float64(n)/d.Seconds())
		}
	}
	m1, m3 := benchmark.Median(times[1]), benchmark.Median(times[3])
	fmt.Printf("median: 1 worker %.1f s, 3 workers %.1f s: 3 workers take %.2f of the time of 1\n", m1.Seconds(), m3.Seconds(), m3.Seconds()/m1.Seconds())
	return nil
}

// once mirrors the Source with w workers into a fresh database and prefix.
func (e env) once(bin, base, work, name string, w, fetchers, n int) (time.Duration, error) {
	ctx := context.Background()
	db, err := e.database(ctx, "bench_"+strings.ReplaceAll(name, "-", "_"))
	if err != nil {
		return 0, err
	}
	cfg := filepath.Join(work, name+".yaml")
	body := fmt.Sprintf("defaults:\n  workers: %d\n  progress: never\nsources:\n  - url: %s\n    dest: s3://%s/%s\n", fetchers, base, e.bucket, name)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		return 0, err
	}
	reg := exec.Command(bin, "worker", "--state", db, "--config", cfg, "--until-idle", "--jobs", "1", "--log-level", "warn")
	start := time.Now()
	procs := []*exec.Cmd{reg}
	for range w - 1 {
		procs = append(procs, exec.Command(bin, "worker", "--state", db, "--until-idle", "--jobs", "1", "--log-level", "warn"))
	}
	for i, p := range procs {
		p.Env = append(os.Environ(), "AWS_ENDPOINT_URL="+e.endpoint, "AWS_ACCESS_KEY_ID="+e.access, "AWS_SECRET_ACCESS_KEY="+e.secret, "AWS_REGION=us-east-1")
		p.Stderr = os.Stderr
		if err := p.Start(); err != nil {
			return 0, err
		}
		if i == 0 {
			// The others start once the Source is registered, or they
			// would find nothing to do and leave.
			if err := waitRegistered(ctx, db); err != nil {
				return 0, err
			}
		}
	}
	for _, p := range procs {
		if err := p.Wait(); err != nil {
			return 0, fmt.Errorf("%s: a worker: %w", name, err)
		}
	}
	d := time.Since(start)
	held, err := count(ctx, db, `SELECT count(*) FROM resync_dest.resources`)
	if err != nil {
		return 0, err
	}
	if held != n {
		return 0, fmt.Errorf("%s: the state holds %d resources, not %d", name, held, n)
	}
	return d, nil
}

func (e env) database(ctx context.Context, name string) (string, error) {
	conn, err := pgx.Connect(ctx, e.admin)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name); err != nil {
		return "", err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	u, _ := url.Parse(e.admin)
	u.Path = "/" + name
	return u.String(), nil
}

func waitRegistered(ctx context.Context, db string) error {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if n, err := count(ctx, db, `SELECT count(*) FROM resync_dest.river_job`); err == nil && n > 0 {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the Source was not registered")
}

func count(ctx context.Context, db, q string) (int, error) {
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	var n int
	err = conn.QueryRow(ctx, q).Scan(&n)
	return n, err
}
