package s3mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/resync-dest/resync-dest/mirror"
)

// stateDir is the part of a mirror no mapped path may reach (the lock).
const stateDir = ".resync-dest"

// Mirror is a mirror in a bucket. All its methods are safe for concurrent
// use, except Close, which must not run concurrently with writes.
type Mirror struct {
	cl       *minio.Client
	loc      Location
	mapper   *mirror.Mapper
	tmp      string // this Mirror's own staging directory
	readOnly bool
	uploads  int
	lease    time.Duration
	timeout  time.Duration
	now      func() time.Time

	// ctx ends when the Mirror is closed or its fence ends: requests in
	// flight stop.
	ctx    context.Context
	cancel context.CancelFunc
	fence  context.Context // Options.Fence; nil when none

	stageMu sync.Mutex
	staged  map[string]*stagedObject   // by ticket
	byRel   map[string][]*stagedObject // the uncancelled ones, by target

	lockMu sync.Mutex
	lock   *bucketLock // the lock this Mirror holds; nil when none
}

// Open opens the mirror at loc. It checks the maps and that the bucket
// exists (an error names the endpoint and the bucket), and makes a local
// staging directory unless opts.ReadOnly. It writes nothing to the
// bucket: Lock does.
func Open(ctx context.Context, loc Location, opts Options) (*Mirror, error) {
	mapper, err := mirror.NewMapper(opts.Maps)
	if err != nil {
		return nil, fmt.Errorf("open mirror %s: %w", loc, err)
	}
	cl, err := newClient(opts)
	if err != nil {
		return nil, fmt.Errorf("open mirror %s: %w", loc, err)
	}
	d := DefaultOptions()
	m := &Mirror{
		cl: cl, loc: loc, mapper: mapper, readOnly: opts.ReadOnly,
		uploads: opts.Uploads, lease: opts.Lease, timeout: opts.RequestTimeout, now: opts.Now,
		staged: make(map[string]*stagedObject),
		byRel:  make(map[string][]*stagedObject),
	}
	if m.uploads <= 0 {
		m.uploads = d.Uploads
	}
	if m.lease <= 0 {
		m.lease = d.Lease
	}
	if m.timeout <= 0 {
		m.timeout = d.RequestTimeout
	}
	if m.now == nil {
		m.now = time.Now
	}
	rctx, cancel := context.WithTimeout(ctx, m.timeout)
	ok, err := cl.BucketExists(rctx, loc.Bucket)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("open mirror %s at %s: %w", loc, endpointName(opts.Endpoint), err)
	}
	if !ok {
		return nil, fmt.Errorf("open mirror %s at %s: the bucket %s does not exist", loc, endpointName(opts.Endpoint), loc.Bucket)
	}
	if !opts.ReadOnly {
		if m.tmp, err = os.MkdirTemp(opts.TempDir, "resync-dest-s3-"); err != nil {
			return nil, fmt.Errorf("open mirror %s: make a staging directory: %w", loc, err)
		}
	}
	parent := context.Background()
	if opts.Fence != nil {
		m.fence, parent = opts.Fence, opts.Fence
	}
	m.ctx, m.cancel = context.WithCancel(parent)
	return m, nil
}

func endpointName(e string) string {
	if e == "" {
		return "AWS S3"
	}
	return e
}

// newClient makes the S3 client: path-style requests to an endpoint given
// (what S3-compatible servers expect), the AWS defaults otherwise.
func newClient(o Options) (*minio.Client, error) {
	host, secure, lookup := "s3.amazonaws.com", true, minio.BucketLookupAuto
	if o.Endpoint != "" {
		u, err := url.Parse(o.Endpoint)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || (u.Path != "" && u.Path != "/") {
			return nil, fmt.Errorf("endpoint %q: want http://HOST[:PORT] or https://HOST[:PORT]", o.Endpoint)
		}
		host, secure, lookup = u.Host, u.Scheme == "https", minio.BucketLookupPath
	}
	creds := credentials.NewStaticV4(o.AccessKey, o.SecretKey, o.SessionToken)
	if o.AccessKey == "" {
		creds = credentials.NewChainCredentials([]credentials.Provider{
			&credentials.EnvAWS{}, &credentials.FileAWSCredentials{}, &credentials.IAM{},
		})
	}
	tr := o.Transport
	if tr == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		t.ResponseHeaderTimeout = 2 * time.Minute
		tr = t
	}
	return minio.New(host, &minio.Options{Creds: creds, Secure: secure, Region: o.Region, BucketLookup: lookup, Transport: tr})
}

// Location is where the mirror lives.
func (m *Mirror) Location() Location { return m.loc }

// Close discards every staged file, releases the lock if held, stops the
// requests in flight and removes the staging directory. Calls after the
// first return nil.
func (m *Mirror) Close() error {
	if m.cancel == nil {
		return nil
	}
	err := m.discardAll()
	m.lockMu.Lock()
	l := m.lock
	m.lock = nil
	m.lockMu.Unlock()
	if l != nil {
		if rerr := l.release(); err == nil {
			err = rerr
		}
	}
	m.cancel()
	m.cancel = nil
	if m.tmp != "" {
		if rerr := os.RemoveAll(m.tmp); err == nil && rerr != nil {
			err = fmt.Errorf("close mirror %s: %w", m.loc, rerr)
		}
	}
	return err
}

// Path maps a resource URI to its mirror-relative path (MAPPING.md), the
// object PREFIX/path. Errors wrap mirror.ErrUnmappable.
func (m *Mirror) Path(uri string) (string, error) { return m.mapper.Path(uri) }

// URI returns the URI whose resource the mapping stores at rel (the
// inverse of Path).
func (m *Mirror) URI(rel, scheme string) (string, error) { return m.mapper.URI(rel, scheme) }

// Stat describes the object at rel: its length, and as modification time
// the Source's lastmod recorded with it (else the time it was stored). A
// missing object matches fs.ErrNotExist; errors name rel.
func (m *Mirror) Stat(rel string) (fs.FileInfo, error) {
	if err := checkRel("stat", rel); err != nil {
		return nil, err
	}
	ctx, cancel := m.request()
	defer cancel()
	oi, err := m.cl.StatObject(ctx, m.loc.Bucket, m.loc.key(rel), minio.StatObjectOptions{})
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: rel, Err: objectError(err)}
	}
	return newInfo(rel, oi), nil
}

// Mark is 0: a bucket has no directories (see MadeSince).
func (m *Mirror) Mark() uint64 { return 0 }

// MadeSince is always false: a bucket has no directories a run could have
// made, so no key is known to be free without asking the service.
func (m *Mirror) MadeSince(string, uint64) bool { return false }

// request is the context of one request: the Mirror's, with the timeout.
func (m *Mirror) request() (context.Context, context.CancelFunc) {
	return context.WithTimeout(m.ctx, m.timeout)
}

// objectError maps the service's answers for a missing object onto
// fs.ErrNotExist, so that callers need not know which mirror spoke.
func objectError(err error) error {
	switch minio.ToErrorResponse(err).Code {
	case minio.NoSuchKey, "NotFound":
		return fmt.Errorf("%w (%v)", fs.ErrNotExist, err)
	}
	return err
}

// checkRel refuses paths that are not clean mirror-relative paths, or that
// lie in .resync-dest: the disk mirror's rules, but for temp names.
func checkRel(op, rel string) error { return mirror.CheckKey(op, rel) }

// ErrLockLost: the lease of the lock ran out before it was renewed, and
// another run may hold it now; this Mirror writes nothing more.
var ErrLockLost = errors.New("lost the lock of the mirror")

// ErrFenced: the Mirror's fence (Options.Fence) ended - its writer lost
// the right to write - and it writes nothing more.
var ErrFenced = errors.New("the mirror's writer was fenced off")
