package s3mirror

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/resync-dest/resync-dest/mirror"
	"github.com/resync-dest/resync-dest/resourcesync"
)

// stagedObject is a file Put staged: a closed local temp file waiting for
// Publish. Its ticket is the temp file's name.
type stagedObject struct {
	rel, file string
	size      int64
	sums      resourcesync.Fixity // md5 and sha-256 of the bytes
	mtime     time.Time
	cancelled bool // Remove deleted the target after it was staged
	// inflight is closed when Publish's upload of the file ends; nil
	// until Publish takes it. Remove waits for it, so that an upload
	// never lands after the removal that follows it.
	inflight chan struct{}
}

// sink is the temp file fill writes through, hashed on the way.
type sink struct {
	f *os.File
	v *resourcesync.Verifier
}

func (s *sink) Write(p []byte) (int, error) {
	n, err := s.f.Write(p)
	s.v.Write(p[:n])
	return n, err
}

func (s *sink) Reset() error {
	s.v.Reset()
	if err := s.f.Truncate(0); err != nil {
		return err
	}
	_, err := s.f.Seek(0, 0)
	return err
}

// Put writes the new content of rel (a path from Path) into a local temp
// file through the sink given to fill (a retried attempt calls Reset
// first) and stages it: nothing is in the bucket yet, and ticket names
// the file for Publish (or Discard). mtime is the Source's lastmod,
// stored with the object (zero: none). keep=false or an error from fill
// removes the temp file and returns ticket ""; an error from fill is
// returned as it is, so that the caller can classify it. It fails with
// mirror.ErrReadOnly on a read-only Mirror. It is safe for concurrent use.
func (m *Mirror) Put(rel string, mtime time.Time, fill func(resourcesync.Sink) (keep bool, err error)) (ticket string, err error) {
	if err := checkRel("put", rel); err != nil {
		return "", err
	}
	if m.readOnly {
		return "", fmt.Errorf("put %s: %w", rel, mirror.ErrReadOnly)
	}
	if err := m.usable(); err != nil {
		return "", fmt.Errorf("put %s: %w", rel, err)
	}
	f, err := os.CreateTemp(m.tmp, "put-")
	if err != nil {
		return "", fmt.Errorf("put %s: %w", rel, err)
	}
	s := &sink{f: f, v: resourcesync.NewVerifier(nil, 0, false, "md5", "sha-256")}
	keep, err := fill(s)
	if cerr := f.Close(); err == nil && keep && cerr != nil {
		err = fmt.Errorf("put %s: %w", rel, cerr)
	}
	if err != nil || !keep {
		os.Remove(f.Name())
		return "", err
	}
	so := &stagedObject{rel: rel, file: f.Name(), size: s.v.Written(), sums: s.v.Sums(), mtime: mtime}
	m.stageMu.Lock()
	defer m.stageMu.Unlock()
	if m.staged == nil { // closed meanwhile
		os.Remove(so.file)
		return "", fmt.Errorf("put %s: the mirror was closed", rel)
	}
	ticket = filepath.Base(so.file)
	m.staged[ticket] = so
	m.byRel[rel] = append(m.byRel[rel], so)
	return ticket, nil
}

// usable fails once the lock this Mirror held was lost, or its fence
// ended.
func (m *Mirror) usable() error {
	if m.fence != nil && m.fence.Err() != nil {
		return fmt.Errorf("%w: %w", ErrFenced, context.Cause(m.fence))
	}
	m.lockMu.Lock()
	l := m.lock
	m.lockMu.Unlock()
	if l != nil {
		return l.lost()
	}
	return nil
}

// Discard removes a staged file without publishing it. It does nothing
// for "", for an unknown ticket, or for one Remove cancelled.
func (m *Mirror) Discard(ticket string) error {
	if ticket == "" {
		return nil
	}
	m.stageMu.Lock()
	so := m.staged[ticket]
	if so != nil {
		delete(m.staged, ticket)
		m.unindex(so)
	}
	m.stageMu.Unlock()
	if so == nil || so.cancelled || so.inflight != nil {
		return nil
	}
	if err := os.Remove(so.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("discard %s: %w", so.rel, err)
	}
	return nil
}

// unindex drops so from byRel. The caller holds stageMu.
func (m *Mirror) unindex(so *stagedObject) {
	list := m.byRel[so.rel]
	if i := slices.Index(list, so); i >= 0 {
		list = slices.Delete(list, i, i+1)
	}
	if len(list) == 0 {
		delete(m.byRel, so.rel)
	} else {
		m.byRel[so.rel] = list
	}
}

// discardAll discards every staged file and stops staging (Close).
func (m *Mirror) discardAll() error {
	m.stageMu.Lock()
	staged := m.staged
	m.staged, m.byRel = nil, nil
	m.stageMu.Unlock()
	var errs []error
	for _, so := range staged {
		if err := os.Remove(so.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("discard %s: %w", so.rel, err))
		}
	}
	return errors.Join(errs...)
}

// Remove deletes the object at rel and cancels every file staged for rel
// and not yet published (Publish reports resourcesync.ErrSuperseded for
// its ticket), so that "write X, then delete X" leaves no X. Deleting an
// absent object is no error (S3 says nothing about it). It fails with
// mirror.ErrReadOnly on a read-only Mirror; errors name rel. It is safe
// for concurrent use.
func (m *Mirror) Remove(rel string) error {
	if err := checkRel("remove", rel); err != nil {
		return err
	}
	if m.readOnly {
		return fmt.Errorf("remove %s: %w", rel, mirror.ErrReadOnly)
	}
	if err := m.usable(); err != nil {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	m.stageMu.Lock()
	list := m.byRel[rel]
	delete(m.byRel, rel)
	var wait []chan struct{}
	for _, so := range list {
		if so.inflight != nil {
			wait = append(wait, so.inflight)
			continue
		}
		so.cancelled = true
		os.Remove(so.file)
	}
	m.stageMu.Unlock()
	for _, c := range wait {
		<-c
	}
	ctx, cancel := m.request()
	defer cancel()
	if err := m.cl.RemoveObject(ctx, m.loc.Bucket, m.loc.key(rel), minioRemove); err != nil {
		return fmt.Errorf("remove %s: %w", rel, local(err))
	}
	return nil
}

// DropPartial does nothing: a Mirror in an object store keeps no partial
// download for the next run (its staged files go with the run, and a
// download into one starts again from zero when it fails).
func (m *Mirror) DropPartial(string) error { return nil }

// SweepPartials does nothing, for the same reason, and removes none.
func (m *Mirror) SweepPartials(func(rel string) (bool, error)) (int, error) { return 0, nil }

// HasPartials is false: a bucket keeps no partial downloads.
func (m *Mirror) HasPartials() (bool, error) { return false, nil }
