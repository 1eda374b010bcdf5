package s3mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/resync-dest/resync-dest/mirror"
)

const lockName = stateDir + "/lock"

// lockRecord is the content of the lock object.
type lockRecord struct {
	Holder  string    `json:"holder"` // host and pid, for the error a second run gets
	Expires time.Time `json:"expires"`
}

// bucketLock is a lock this Mirror holds; a goroutine renews its lease.
type bucketLock struct {
	m    *Mirror
	stop chan struct{}
	done chan struct{}

	mu      sync.Mutex
	etag    string
	lostErr error
}

// Lock takes the mirror's single-writer lock for a write run and returns
// the function that releases it (idempotent; Close releases it too). The
// lock is the object PREFIX/.resync-dest/lock, created only if absent
// (If-None-Match: *) or replaced only if it is the version read and its
// lease ran out (If-Match: its ETag), so that two runs never both take it.
// A run that holds it renews the lease every third of Options.Lease; when
// a renewal fails past the lease, the lock is lost, and every later write
// and Publish fails with ErrLockLost. Another holder's live lock is
// mirror.ErrLocked, naming the holder. A read-only Mirror takes nothing.
func (m *Mirror) Lock() (release func() error, err error) {
	if m.readOnly {
		return func() error { return nil }, nil
	}
	m.lockMu.Lock()
	defer m.lockMu.Unlock()
	if m.lock != nil {
		return nil, fmt.Errorf("lock %s: %w (this run holds it already)", m.loc, mirror.ErrLocked)
	}
	etag, err := m.acquire()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", m.loc, err)
	}
	l := &bucketLock{m: m, etag: etag, stop: make(chan struct{}), done: make(chan struct{})}
	go l.renew()
	m.lock = l
	var once sync.Once
	return func() error {
		var err error
		once.Do(func() {
			m.lockMu.Lock()
			held := m.lock == l
			if held {
				m.lock = nil
			}
			m.lockMu.Unlock()
			if held {
				err = l.release()
			}
		})
		return err
	}, nil
}

// acquire creates or takes over the lock object and returns its ETag.
func (m *Mirror) acquire() (string, error) {
	for range 5 { // a race lost to another run is retried a few times
		ctx, cancel := m.request()
		cur, etag, err := m.readLock(ctx)
		cancel()
		if err != nil {
			return "", err
		}
		if etag != "" && cur.Expires.After(m.now()) {
			return "", fmt.Errorf("%w: %s holds it until %s", mirror.ErrLocked, cur.Holder, cur.Expires.UTC().Format(time.RFC3339))
		}
		got, err := m.writeLock(etag)
		if isPrecondition(err) {
			continue
		}
		return got, err
	}
	return "", fmt.Errorf("%w: other runs keep taking it", mirror.ErrLocked)
}

// readLock returns the lock object's record and ETag; "" when absent.
func (m *Mirror) readLock(ctx context.Context) (lockRecord, string, error) {
	obj, err := m.cl.GetObject(ctx, m.loc.Bucket, m.loc.key(lockName), minio.GetObjectOptions{})
	if err != nil {
		return lockRecord{}, "", local(err)
	}
	defer obj.Close()
	body, err := io.ReadAll(io.LimitReader(obj, 1<<16))
	if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
		return lockRecord{}, "", nil
	}
	if err != nil {
		return lockRecord{}, "", local(err)
	}
	oi, err := obj.Stat()
	if err != nil {
		return lockRecord{}, "", local(err)
	}
	var rec lockRecord
	if json.Unmarshal(body, &rec) != nil {
		rec = lockRecord{Holder: "an unreadable lock object"} // expired: taken over
	}
	return rec, oi.ETag, nil
}

// writeLock writes a fresh lease: only if the object is absent (etag ""),
// else only if it is still the version etag.
func (m *Mirror) writeLock(etag string) (string, error) {
	host, _ := os.Hostname()
	rec := lockRecord{Holder: fmt.Sprintf("resync-dest (pid %d on %s)", os.Getpid(), host), Expires: m.now().Add(m.lease)}
	body, err := json.Marshal(rec)
	if err != nil {
		return "", err
	}
	opts := minio.PutObjectOptions{ContentType: "application/json", SendContentMd5: true}
	if etag == "" {
		opts.SetMatchETagExcept("*")
	} else {
		opts.SetMatchETag(etag)
	}
	ctx, cancel := m.request()
	defer cancel()
	info, err := m.cl.PutObject(ctx, m.loc.Bucket, m.loc.key(lockName), bytes.NewReader(body), int64(len(body)), opts)
	if err != nil {
		if isPrecondition(err) {
			return "", err
		}
		return "", local(err)
	}
	return info.ETag, nil
}

func isPrecondition(err error) bool {
	r := minio.ToErrorResponse(err)
	return r.StatusCode == http.StatusPreconditionFailed || r.Code == "PreconditionFailed" ||
		r.StatusCode == http.StatusConflict || r.Code == "ConditionalRequestConflict"
}

// renew extends the lease every third of it until released. A renewal
// refused (another run took the lock) or failing until the lease is over
// loses the lock.
func (l *bucketLock) renew() {
	defer close(l.done)
	every := l.m.lease / 3
	t := time.NewTicker(every)
	defer t.Stop()
	renewed := l.m.now()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		l.mu.Lock()
		etag := l.etag
		l.mu.Unlock()
		got, err := l.m.writeLock(etag)
		switch {
		case err == nil:
			renewed = l.m.now()
			l.mu.Lock()
			l.etag = got
			l.mu.Unlock()
		case isPrecondition(err) || l.m.now().Sub(renewed) >= l.m.lease:
			l.mu.Lock()
			l.lostErr = fmt.Errorf("%w %s: %v", ErrLockLost, l.m.loc, err)
			l.mu.Unlock()
			return
		}
	}
}

// lost is the error of a lost lock; nil while it is held.
func (l *bucketLock) lost() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lostErr
}

// release stops the renewals and deletes the lock object, unless the lock
// was lost (it may be another run's now).
func (l *bucketLock) release() error {
	close(l.stop)
	<-l.done
	if l.lost() != nil {
		return nil
	}
	ctx, cancel := l.m.request()
	defer cancel()
	if err := l.m.cl.RemoveObject(ctx, l.m.loc.Bucket, l.m.loc.key(lockName), minioRemove); err != nil {
		return fmt.Errorf("release the lock of %s: %w", l.m.loc, err)
	}
	return nil
}

var _ = errors.New
