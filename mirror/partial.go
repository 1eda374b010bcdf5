package mirror

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// Partial downloads. A download the Source's client marks kept (Keep: a
// large body with a validator) is moved out of the tree into
// .resync-dest/partial/<key>, beside <key>.json, which names its target,
// its URL, the validator it was fetched with, and how many of its bytes
// were made durable. Should the download fail - the network, SIGTERM,
// kill -9 - the file stays there, out of reach of the crash sweep, and the
// next Put of the same target offers it (Partial) to continue with Range.
// Once complete and verified it moves back beside its target as an
// ordinary temp file, so that nothing else of the write path changes.
const partialDir = stateDir + "/partial"

// partialMeta is a partial's <key>.json.
type partialMeta struct {
	Path      string `json:"path"` // the target, mirror-relative
	URL       string `json:"url"`
	Validator string `json:"validator"` // If-Range: a strong ETag or a Last-Modified
	Bytes     int64  `json:"bytes"`     // made durable so far: what may be resumed
}

// partialKey names rel's partial file: 16 hex digits of SHA-256(rel).
func partialKey(rel string) string {
	sum := sha256.Sum256([]byte(rel))
	return hex.EncodeToString(sum[:8])
}

func partialFile(rel string) string { return partialDir + "/" + partialKey(rel) }

// checkpointEvery is how many bytes a kept download writes between two
// checkpoints (fdatasync, then its meta): a 64th of its length, at least
// 1 MiB, so that a kill loses little and a large file costs few syncs.
func checkpointEvery(length int64) int64 { return max(1<<20, length/64) }

// readMeta reads the meta of the partial at file; ok is false when there
// is none or it does not describe rel.
func (m *Mirror) readMeta(file, rel string) (partialMeta, bool) {
	f, err := m.fsys.OpenFile(file+".json", os.O_RDONLY, 0)
	if err != nil {
		return partialMeta{}, false
	}
	defer f.Close()
	var meta partialMeta
	if err := json.NewDecoder(io.LimitReader(f, 64<<10)).Decode(&meta); err != nil || meta.Path != rel ||
		meta.Validator == "" || meta.Bytes < 0 {
		return partialMeta{}, false
	}
	return meta, true
}

// writeMeta replaces the meta of the partial at file (write, rename).
func (m *Mirror) writeMeta(file string, meta partialMeta) error {
	b, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	tmp := file + ".json.tmp"
	f, err := m.fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = m.fsys.Rename(tmp, file+".json")
	}
	return err
}

// loadPartialKeys learns which partials are kept, when the lock is taken.
func (m *Mirror) loadPartialKeys() error {
	m.partialKeys.Clear()
	ents, err := m.fsys.ReadDir(partialDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list partial downloads: %w", err)
	}
	for _, e := range ents {
		if !strings.Contains(e.Name(), ".") {
			m.partialKeys.Store(e.Name(), struct{}{})
		}
	}
	return nil
}

// openPartial opens rel's partial, if one is kept, for a Put: it returns
// nil when there is none (or none usable, which is removed).
func (m *Mirror) openPartial(rel string) (f File, meta partialMeta, size int64) {
	if !m.keepsPartials() {
		return nil, partialMeta{}, 0
	}
	if _, ok := m.partialKeys.Load(partialKey(rel)); !ok {
		return nil, partialMeta{}, 0
	}
	file := partialFile(rel)
	meta, ok := m.readMeta(file, rel)
	if !ok {
		return nil, partialMeta{}, 0
	}
	f, err := m.fsys.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		m.removePartial(file)
		return nil, partialMeta{}, 0
	}
	size, err = f.Seek(0, io.SeekEnd)
	// Only the bytes made durable are offered: after a crash of the
	// machine the rest may be anything.
	meta.Bytes = min(meta.Bytes, size)
	if err == nil && meta.Bytes > 0 && meta.Bytes < size {
		err = f.Truncate(meta.Bytes)
	}
	if err != nil || meta.Bytes == 0 {
		f.Close()
		m.removePartial(file)
		return nil, partialMeta{}, 0
	}
	return f, meta, meta.Bytes
}

// keepsPartials reports whether any partial download is known to be kept:
// usually none is, and then a Put need not hash its path to look for one.
func (m *Mirror) keepsPartials() bool {
	kept := false
	m.partialKeys.Range(func(any, any) bool {
		kept = true
		return false
	})
	return kept
}

// removePartial removes a partial file and its meta.
func (m *Mirror) removePartial(file string) error {
	m.partialKeys.Delete(path.Base(file))
	var errs []error
	for _, name := range []string{file + ".json", file + ".json.tmp", file} {
		if err := m.fsys.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	m.markDirty(partialDir)
	return errors.Join(errs...)
}

// DropPartial removes the partial download kept for rel, if any: its
// resource is gone. Errors name rel. It is safe for concurrent use with
// Puts of other paths.
func (m *Mirror) DropPartial(rel string) error {
	if m.readOnly || !m.keepsPartials() {
		return nil
	}
	if _, ok := m.partialKeys.Load(partialKey(rel)); !ok {
		return nil
	}
	if err := m.removePartial(partialFile(rel)); err != nil {
		return fmt.Errorf("drop the partial download of %s: %w", rel, err)
	}
	return nil
}

// PartialInfo describes a partial download kept for the next run.
type PartialInfo struct {
	Path  string // its target; "" for a file whose meta is missing
	URL   string
	Bytes int64 // on disk

	name string // in partialDir
}

// Partials lists the partial downloads kept, in no order; a file without
// (or with a broken) meta, left by a crash between the two, is reported
// with Path "".
func (m *Mirror) Partials() ([]PartialInfo, error) {
	ents, err := m.fsys.ReadDir(partialDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list partial downloads: %w", err)
	}
	var out []PartialInfo
	for _, e := range ents {
		name := e.Name()
		if strings.Contains(name, ".") || e.IsDir() {
			continue
		}
		file := partialDir + "/" + name
		info := PartialInfo{name: name}
		if fi, err := e.Info(); err == nil {
			info.Bytes = fi.Size()
		}
		if meta, ok := m.readMetaAny(file); ok && partialKey(meta.Path) == name {
			info.Path, info.URL = meta.Path, meta.URL
		}
		out = append(out, info)
	}
	return out, nil
}

func (m *Mirror) readMetaAny(file string) (partialMeta, bool) {
	f, err := m.fsys.OpenFile(file+".json", os.O_RDONLY, 0)
	if err != nil {
		return partialMeta{}, false
	}
	defer f.Close()
	var meta partialMeta
	err = json.NewDecoder(io.LimitReader(f, 64<<10)).Decode(&meta)
	return meta, err == nil && meta.Path != ""
}

// HasPartials reports whether a partial download is kept (one without a
// meta too).
func (m *Mirror) HasPartials() (bool, error) {
	ps, err := m.Partials()
	return len(ps) > 0, err
}

// SweepPartials removes every partial download whose target wanted does
// not accept, and those without a meta, and makes the removals durable;
// it returns how many it removed. An error of wanted stops it. It needs
// the lock, and no Put running.
func (m *Mirror) SweepPartials(wanted func(rel string) (bool, error)) (int, error) {
	if m.readOnly {
		return 0, nil
	}
	ps, err := m.Partials()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range ps {
		if p.Path != "" {
			keep, err := wanted(p.Path)
			if err != nil {
				return n, err
			}
			if keep {
				continue
			}
		}
		if err := m.removePartial(partialDir + "/" + p.name); err != nil {
			return n, fmt.Errorf("sweep the partial download of %s: %w", p.Path, err)
		}
		n++
	}
	if n > 0 {
		if err := m.SyncDirs(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// sweepPartialOrphans removes, after a crash, what a partial download
// left incomplete: a meta being replaced, a file without a meta (the crash
// came between the move and the meta), a meta without a file.
func (m *Mirror) sweepPartialOrphans() error {
	ents, err := m.fsys.ReadDir(partialDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list partial downloads: %w", err)
	}
	have := map[string]bool{}
	for _, e := range ents {
		have[e.Name()] = true
	}
	for name := range have {
		base, isMeta := strings.CutSuffix(name, ".json")
		orphan := strings.HasSuffix(name, ".json.tmp") ||
			(isMeta && !have[base]) || (!isMeta && !strings.Contains(name, ".") && !have[name+".json"])
		if !orphan {
			continue
		}
		if err := m.fsys.Remove(partialDir + "/" + name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", name, err)
		}
		m.markDirty(partialDir)
	}
	return nil
}

// keep moves p's file out of the tree into rel's partial (replacing an
// older one) and writes its meta: a failure from now on keeps it.
func (p *pending) keep(url, validator string) error {
	m := p.m
	file := partialFile(p.rel)
	if p.tmp != file {
		if err := m.fsys.Mkdir(partialDir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("keep %s: %w", p.rel, err)
		}
		_ = m.fsys.Remove(file + ".json") // an older partial's meta must not describe this file
		if err := m.fsys.Rename(p.tmp, file); err != nil {
			return fmt.Errorf("keep %s: %w", p.rel, err)
		}
		m.markDirty(path.Dir(p.tmp))
		m.entries.forget(path.Dir(p.tmp))
		p.tmp = file
		m.partialKeys.Store(partialKey(p.rel), struct{}{})
	}
	p.meta = partialMeta{Path: p.rel, URL: url, Validator: validator}
	p.kept = true
	p.nextCheck = p.written + checkpointEvery(p.reserved+p.base)
	if err := m.writeMeta(file, p.meta); err != nil {
		return fmt.Errorf("keep %s: %w", p.rel, err)
	}
	m.markDirty(partialDir)
	return nil
}

// checkpoint makes what p holds durable and says so in its meta.
func (p *pending) checkpoint() error {
	if err := p.f.Sync(); err != nil {
		return err
	}
	p.meta.Bytes = p.written
	p.nextCheck = p.written + checkpointEvery(p.reserved+p.base)
	return p.m.writeMeta(p.tmp, p.meta)
}

// park ends a kept download that failed: its bytes stay for the next run.
func (p *pending) park() error {
	p.done = true
	// The bytes kept stay on the disk: only what was reserved beyond them
	// is given back.
	p.m.space.release(p.reserved - max(0, p.written-p.base))
	p.reserved = 0
	var err error
	if p.offer == 0 {
		err = p.checkpoint()
	} // else the partial offered was not touched (the request failed first): its meta holds
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	p.f, p.tmp = nil, ""
	p.m.pending.Add(-1)
	return err
}

// unkeep drops what p kept (and its meta), for a download that starts
// again from zero.
func (p *pending) unkeep() {
	if !p.kept {
		return
	}
	p.kept, p.offer = false, 0
	_ = p.m.fsys.Remove(p.tmp + ".json")
	p.m.markDirty(partialDir)
}

// unpark moves a complete kept download back beside its target as an
// ordinary temp file, and drops its meta.
func (p *pending) unpark() error {
	m := p.m
	dir := path.Dir(p.rel)
	var b [8]byte
	for {
		rand.Read(b[:])
		tmp := path.Join(dir, tempPrefix+hex.EncodeToString(b[:]))
		if _, err := m.fsys.Lstat(tmp); err == nil {
			continue
		}
		if err := m.fsys.Rename(p.tmp, tmp); err != nil {
			return err
		}
		_ = m.fsys.Remove(p.tmp + ".json")
		m.markDirty(partialDir)
		m.partialKeys.Delete(path.Base(p.tmp))
		p.tmp, p.kept = tmp, false
		return nil
	}
}
