package dumpzip

import (
	"encoding/binary"
	"io"
)

// Records of the end of a ZIP file (APPNOTE.TXT 4.3.14-4.3.16).
const (
	eocdSig          = 0x06054b50
	eocdLen          = 22
	zip64LocatorSig  = 0x07064b50
	zip64LocatorLen  = 20
	zip64EOCDSig     = 0x06064b50
	zip64EOCDLen     = 56
	maxCommentLength = 0xffff
)

// directoryRecords reads how many entries the ZIP file's central directory
// claims, so that a package claiming millions is refused before
// archive/zip allocates a record for each. ok is false when the end of the
// file cannot be read this way; archive/zip then says what is wrong.
func directoryRecords(r io.ReaderAt, size int64) (n uint64, ok bool) {
	tail := min(size, eocdLen+maxCommentLength)
	if tail < eocdLen {
		return 0, false
	}
	buf := make([]byte, tail)
	if _, err := r.ReadAt(buf, size-tail); err != nil {
		return 0, false
	}
	at := -1
	for i := len(buf) - eocdLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(buf[i:]) == eocdSig {
			at = i
			break
		}
	}
	if at < 0 {
		return 0, false
	}
	eocd := buf[at:]
	n = uint64(binary.LittleEndian.Uint16(eocd[10:]))
	if n != 0xffff && binary.LittleEndian.Uint32(eocd[16:]) != 0xffffffff {
		return n, true
	}
	// Zip64: the locator sits right before the end record and points at
	// the zip64 end record, which has the real count.
	locAt := size - tail + int64(at) - zip64LocatorLen
	if locAt < 0 {
		return n, true
	}
	var loc [zip64LocatorLen]byte
	if _, err := r.ReadAt(loc[:], locAt); err != nil || binary.LittleEndian.Uint32(loc[:]) != zip64LocatorSig {
		return n, true
	}
	off := binary.LittleEndian.Uint64(loc[8:])
	if uint64(size) < zip64EOCDLen || off > uint64(size)-zip64EOCDLen {
		return 0, false
	}
	var rec [zip64EOCDLen]byte
	if _, err := r.ReadAt(rec[:], int64(off)); err != nil || binary.LittleEndian.Uint32(rec[:]) != zip64EOCDSig {
		return 0, false
	}
	return binary.LittleEndian.Uint64(rec[32:]), true
}
