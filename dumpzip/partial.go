package dumpzip

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/resync-dest/resync-dest/resourcesync"
)

// A package download the Source's client keeps (a large one with a
// validator) is moved into Options.PartialDir as package-<key>, beside
// package-<key>.json naming its URL, validator and the bytes made durable;
// should the download fail (the network, a signal, kill -9), the next
// Download of the same URL continues from it with Range. Without a
// PartialDir a package is resumed only within its download.

// partialMeta is a kept package's package-<key>.json.
type partialMeta struct {
	URL       string `json:"url"`
	Validator string `json:"validator"`
	Bytes     int64  `json:"bytes"`
}

func partialName(url string) string {
	sum := sha256.Sum256([]byte(url))
	return "package-" + hex.EncodeToString(sum[:8])
}

// checkpointEvery: as the mirror's, a 64th of the length, at least 1 MiB.
func checkpointEvery(length int64) int64 { return max(1<<20, length/64) }

func readPartialMeta(file string) (partialMeta, bool) {
	b, err := os.ReadFile(file + ".json")
	var m partialMeta
	if err != nil || json.Unmarshal(b, &m) != nil || m.Validator == "" || m.Bytes <= 0 {
		return partialMeta{}, false
	}
	return m, true
}

func writePartialMeta(file string, m partialMeta) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := os.WriteFile(file+".json.tmp", b, 0o644); err != nil {
		return err
	}
	return os.Rename(file+".json.tmp", file+".json")
}

func removePartial(file string) error {
	var errs []error
	for _, name := range []string{file + ".json", file + ".json.tmp", file} {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// openPartial opens the package kept for url in o.PartialDir, truncated
// to the bytes made durable; nil when there is none.
func openPartial(o Options, url string) (*os.File, partialMeta) {
	if o.PartialDir == "" {
		return nil, partialMeta{}
	}
	file := filepath.Join(o.PartialDir, partialName(url))
	m, ok := readPartialMeta(file)
	if !ok || m.URL != url {
		if _, err := os.Stat(file + ".json"); err == nil {
			_ = removePartial(file) // a broken meta; a file without one may be in use
		}
		return nil, partialMeta{}
	}
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		_ = removePartial(file)
		return nil, partialMeta{}
	}
	size, err := f.Seek(0, io.SeekEnd)
	m.Bytes = min(m.Bytes, size)
	if err == nil && m.Bytes < size {
		err = f.Truncate(m.Bytes)
	}
	if err != nil || m.Bytes <= 0 {
		f.Close()
		_ = removePartial(file)
		return nil, partialMeta{}
	}
	return f, m
}

// Partial offers the package kept by an earlier run (source's resumer).
func (s *fileSink) Partial() (int64, string) { return s.offer, s.meta.Validator }

// Keep moves the package being downloaded into PartialDir, so that a
// failure keeps it for the next run; without a PartialDir (or across file
// systems) it is kept for this download only.
func (s *fileSink) Keep(url, validator string) error {
	s.kept = true
	if s.partialDir == "" {
		return nil
	}
	file := filepath.Join(s.partialDir, partialName(url))
	if s.f.Name() != file {
		if err := os.MkdirAll(s.partialDir, 0o755); err != nil {
			return nil // kept for this download only
		}
		_ = os.Remove(file + ".json")
		if err := os.Rename(s.f.Name(), file); err != nil {
			return nil
		}
		s.name = file
	}
	s.meta = partialMeta{URL: url, Validator: validator}
	s.nextCheck = s.n + checkpointEvery(s.length)
	if err := writePartialMeta(file, s.meta); err != nil {
		return fmt.Errorf("keep package %s: %w: %w", url, resourcesync.ErrLocal, err)
	}
	s.persisted = true
	return nil
}

// checkpoint makes what the file holds durable and says so in its meta.
func (s *fileSink) checkpoint() error {
	if err := s.f.Sync(); err != nil {
		return err
	}
	s.meta.Bytes = s.n
	s.nextCheck = s.n + checkpointEvery(s.length)
	return writePartialMeta(s.name, s.meta)
}

// unkeep forgets the kept download: its bytes are dropped.
func (s *fileSink) unkeep() {
	s.kept, s.offer = false, 0
	if s.persisted {
		_ = os.Remove(s.name + ".json")
		s.persisted = false
	}
}

// SweepPartials removes the packages kept in dir whose URL wanted does
// not accept, and those whose meta is missing or broken; it returns how
// many it removed.
func SweepPartials(dir string, wanted func(url string) bool) (int, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	have := map[string]bool{}
	for _, e := range ents {
		have[e.Name()] = true
	}
	n := 0
	for _, e := range ents {
		name := e.Name()
		if base, _, meta := strings.Cut(name, "."); meta && strings.HasPrefix(name, "package-") && !have[base] {
			_ = os.Remove(filepath.Join(dir, name)) // a meta whose package is gone
			continue
		}
		if !strings.HasPrefix(name, "package-") || strings.Contains(name, ".") {
			continue
		}
		file := filepath.Join(dir, name)
		if m, ok := readPartialMeta(file); ok && wanted(m.URL) {
			continue
		}
		if err := removePartial(file); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
