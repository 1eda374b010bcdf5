package s3mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strconv"
	"sync"

	"github.com/minio/minio-go/v7"
	"golang.org/x/sync/errgroup"

	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
)

var minioRemove = minio.RemoveObjectOptions{}

// Publish uploads the files staged under tickets to their objects,
// Options.Uploads at a time, each in one PUT (multipart past the part
// size) carrying Content-MD5 and the metadata of info.go. Of two tickets
// for one target, the last is uploaded and the first counts as published
// and overwritten, as on disk.
//
// It returns one error per ticket (nil: the object is in the bucket) and,
// separately, a fatal error when the bucket cannot be written at all (the
// service unreachable or failing after its retries, access denied, no
// such bucket, the lock lost); it wraps resourcesync.ErrLocal and the run
// must stop. A ticket Remove cancelled is resourcesync.ErrSuperseded; an
// unknown one fs.ErrInvalid; a ticket that fails is consumed, and the
// object keeps its previous version. A read-only Mirror fails with
// mirror.ErrReadOnly. It is safe for concurrent use with Put, Remove and
// Discard.
func (m *Mirror) Publish(tickets []string) ([]error, error) {
	errs := make([]error, len(tickets))
	if len(tickets) == 0 {
		return errs, nil
	}
	fail := func(err error) ([]error, error) {
		for i := range errs {
			errs[i] = err
		}
		return errs, err
	}
	if m.readOnly {
		return fail(fmt.Errorf("publish: %w", mirror.ErrReadOnly))
	}
	if err := m.usable(); err != nil {
		return fail(fmt.Errorf("publish: %w: %w", resourcesync.ErrLocal, err))
	}
	objs := m.claim(tickets, errs)
	defer m.settle(objs)
	var (
		mu    sync.Mutex
		fatal error
	)
	g := new(errgroup.Group)
	g.SetLimit(m.uploads)
	for i, so := range objs {
		if so == nil || so.cancelled {
			continue
		}
		g.Go(func() error {
			// Checked before each upload: a lock lost or a fence ended
			// while others were going stops the rest.
			err := m.usable()
			if err == nil {
				err = m.upload(so)
			}
			if err != nil && isFatal(err) {
				err = fmt.Errorf("publish %s: %w: %w", so.rel, resourcesync.ErrLocal, err)
				mu.Lock()
				if fatal == nil {
					fatal = err
				}
				mu.Unlock()
			} else if err != nil {
				err = fmt.Errorf("publish %s: %w", so.rel, err)
			}
			errs[i] = err
			return nil
		})
	}
	g.Wait()
	if fatal == nil {
		if err := m.usable(); err != nil { // the lease ran out during the uploads
			fatal = fmt.Errorf("publish: %w: %w", resourcesync.ErrLocal, err)
		}
	}
	return errs, fatal
}

// claim takes the staged files of tickets for Publish: unknown and
// cancelled tickets get their errors, and of two tickets for one target
// the earlier is marked cancelled (it counts as published and
// overwritten: no error). The files stay indexed by target, marked in
// flight, until settle.
func (m *Mirror) claim(tickets []string, errs []error) []*stagedObject {
	objs := make([]*stagedObject, len(tickets))
	last := map[string]*stagedObject{}
	m.stageMu.Lock()
	defer m.stageMu.Unlock()
	for i, t := range tickets {
		so := m.staged[t]
		switch {
		case so == nil:
			errs[i] = fmt.Errorf("publish ticket %q: %w: not staged (published or discarded already)", t, fs.ErrInvalid)
			continue
		case so.cancelled:
			delete(m.staged, t)
			errs[i] = fmt.Errorf("publish %s: %w", so.rel, resourcesync.ErrSuperseded)
			continue
		}
		delete(m.staged, t)
		so.inflight = make(chan struct{})
		if prev := last[so.rel]; prev != nil {
			prev.cancelled = true
		}
		last[so.rel] = so
		objs[i] = so
	}
	return objs
}

// settle ends Publish's hold on the files it claimed: their local files go
// and whoever waits for their uploads (Remove) goes on.
func (m *Mirror) settle(objs []*stagedObject) {
	m.stageMu.Lock()
	defer m.stageMu.Unlock()
	for _, so := range objs {
		if so == nil {
			continue
		}
		if m.byRel != nil {
			m.unindex(so)
		}
		os.Remove(so.file)
		close(so.inflight)
	}
}

// upload PUTs one staged file.
func (m *Mirror) upload(so *stagedObject) error {
	f, err := os.Open(so.file)
	if err != nil {
		return err
	}
	defer f.Close()
	md := map[string]string{metaLength: strconv.FormatInt(so.size, 10)}
	for _, d := range so.sums {
		switch d.Alg {
		case "md5":
			md[metaMD5] = d.Hex
		case "sha-256":
			md[metaSHA256] = d.Hex
		}
	}
	if !so.mtime.IsZero() {
		md[metaLastMod] = so.mtime.UTC().Format(timeFormat)
	}
	ctx, cancel := m.request()
	defer cancel()
	// Content-MD5: the server refuses bytes that are not the ones hashed.
	// The payload is not signed (DisableContentSha256): the MD5 already
	// covers it, and signing would hash every byte a second time.
	_, err = m.cl.PutObject(ctx, m.loc.Bucket, m.loc.key(so.rel), f, so.size, minio.PutObjectOptions{
		UserMetadata: md, SendContentMd5: true, DisableContentSha256: true,
		ContentType: "application/octet-stream",
	})
	return err
}

const timeFormat = "2006-01-02T15:04:05.999999999Z07:00"

// isFatal tells an error that says the bucket cannot be written at all
// from one about this object (a bad digest, a name the service refuses,
// a path conflict in a file-system-backed service).
func isFatal(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, ErrFenced) || errors.Is(err, ErrLockLost) {
		return true
	}
	r := minio.ToErrorResponse(err)
	switch {
	case r.Code == "" && r.StatusCode == 0:
		return true // no answer: the network, or the local file
	case r.StatusCode >= 500, r.StatusCode == http.StatusForbidden:
		return true
	case r.Code == minio.NoSuchBucket, r.Code == "AccessDenied", r.Code == "InvalidAccessKeyId", r.Code == "SignatureDoesNotMatch":
		return true
	}
	return false
}

// local marks an error that says the bucket cannot be written as
// resourcesync.ErrLocal, which stops a run.
func local(err error) error {
	if isFatal(err) {
		return fmt.Errorf("%w: %w", resourcesync.ErrLocal, err)
	}
	return err
}
