package gedcom

import (
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"math"
	"strconv"
	"sync"
)

// Limits bound what a Reader reads from a file someone else made: a value of 0 is no
// limit. Unlike MaxLineBytes and MaxRecordBytes, which cut and warn, going past a limit
// ends the read with a *LimitError, in lenient mode too: the caller should then keep
// nothing of the file.
type Limits struct {
	// MaxBytes bounds the GEDCOM dataset's bytes as read (for a GEDZIP archive, those
	// of gedcom.ged once decompressed).
	MaxBytes int64
	// MaxLines bounds its physical lines, blank ones included.
	MaxLines int
	// MaxRecords bounds its level-0 records, HEAD and TRLR included.
	MaxRecords int
	// MaxTextBytes bounds one line's value with its CONT and CONC lines joined (a NOTE,
	// a TEXT…), in UTF-8 bytes.
	MaxTextBytes int
	// MaxArchiveBytes bounds the bytes a GEDZIP archive expands to: the sizes its
	// directory declares, and the bytes actually decompressed from it (gedcom.ged and
	// whatever is read through Files), whichever is reached first.
	MaxArchiveBytes int64
	// MaxArchiveEntries bounds the entries of a GEDZIP archive, counted in its central
	// directory before archive/zip reads it (which would keep every entry in memory).
	MaxArchiveEntries int
}

// LimitKind names the limit a LimitError is about.
type LimitKind string

// The kinds of LimitError, one per field of Limits.
const (
	LimitBytes          LimitKind = "bytes"
	LimitLines          LimitKind = "lines"
	LimitRecords        LimitKind = "records"
	LimitTextBytes      LimitKind = "text_bytes"
	LimitArchiveBytes   LimitKind = "archive_bytes"
	LimitArchiveEntries LimitKind = "archive_entries"
)

// LimitError is a file that goes past one of the Reader's Limits. Its message names the
// limit ("a GEDZIP archive may expand to at most 500 MB").
type LimitError struct {
	Kind LimitKind
	Max  int64
	Line int // the line where it was noticed, 0 when it is not tied to a line
}

func (e *LimitError) Error() string { return "gedcom: " + e.Message() }

// Message is the error's sentence without the package prefix, for a person to read.
func (e *LimitError) Message() string {
	var s string
	switch e.Kind {
	case LimitBytes:
		s = "a GEDCOM file may be at most " + FormatBytes(e.Max)
	case LimitLines:
		s = "a GEDCOM file may have at most " + formatCount(e.Max) + " lines"
	case LimitRecords:
		s = "a GEDCOM file may have at most " + formatCount(e.Max) + " records"
	case LimitTextBytes:
		s = "a text value (a NOTE or TEXT with its CONT and CONC lines) may be at most " + FormatBytes(e.Max)
	case LimitArchiveBytes:
		s = "a GEDZIP archive may expand to at most " + FormatBytes(e.Max)
	case LimitArchiveEntries:
		s = "a GEDZIP archive may hold at most " + formatCount(e.Max) + " files"
	default:
		s = "over the limit " + string(e.Kind) + " of " + strconv.FormatInt(e.Max, 10)
	}
	if e.Line > 0 {
		s += " (line " + strconv.Itoa(e.Line) + ")"
	}
	return s
}

// FormatBytes writes a size for people: "500 MB", "1.5 MB", "64 KB", "100 bytes"
// (MB and KB of 1024).
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return trimUnits(float64(n)/(1<<20)) + " MB"
	case n >= 1<<10:
		return trimUnits(float64(n)/(1<<10)) + " KB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

func trimUnits(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }

// formatCount writes a count with thousands separators: 1,000,000.
func formatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// budgetReader counts the bytes read through it and fails with err once they pass max.
type budgetReader struct {
	r   io.Reader
	b   *budget
	err error
}

func (c *budgetReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	if e := c.b.spend(int64(n)); e != nil {
		c.err = e
		return n, e
	}
	return n, err
}

// budget is a byte allowance shared by every reader of one archive.
type budget struct {
	mu   sync.Mutex
	used int64
	max  int64 // 0: none
	kind LimitKind
}

func (b *budget) spend(n int64) error {
	if b == nil || b.max <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used += n
	if b.used > b.max {
		return &LimitError{Kind: b.kind, Max: b.max}
	}
	return nil
}

// limitedFS gives an archive's files with every byte read from them charged to a budget.
type limitedFS struct {
	fsys fs.FS
	b    *budget
}

func (l limitedFS) Open(name string) (fs.File, error) {
	f, err := l.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	if _, ok := f.(fs.ReadDirFile); ok {
		return f, nil // a directory: nothing to decompress
	}
	return &limitedFile{File: f, r: budgetReader{r: f, b: l.b}}, nil
}

type limitedFile struct {
	fs.File
	r budgetReader
}

func (f *limitedFile) Read(p []byte) (int, error) { return f.r.Read(p) }

// Zip record signatures and sizes (APPNOTE.TXT 4.3).
const (
	zipDirSig         = 0x02014b50
	zipDirLen         = 46
	zipEndSig         = 0x06054b50
	zipEndLen         = 22
	zip64LocatorSig   = 0x07064b50
	zip64LocatorLen   = 20
	zip64EndSig       = 0x06064b50
	zip64EndLen       = 56
	zipMaxCommentSize = 65535
)

// errZipDir is a central directory this scan cannot follow; archive/zip then gives its
// own, more precise, error.
var errZipDir = errors.New("gedcom: zip central directory")

// countZipEntries counts the central directory's entries of the zip in r, stopping once
// they pass limit: archive/zip keeps every entry in memory before anyone can count them,
// and a small archive can hold a million empty ones. The directory's own count is not
// trusted: the records are walked, from where the end record says the directory starts
// and from where its size says it starts (archive/zip may use either).
func countZipEntries(r io.ReaderAt, size int64, limit int) (int, error) {
	// The end of central directory record: the last signature within the last 64 KB.
	n := min(size, zipEndLen+zipMaxCommentSize)
	tail := make([]byte, n)
	if _, err := r.ReadAt(tail, size-n); err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	end := -1
	for i := len(tail) - zipEndLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) == zipEndSig {
			end = i
			break
		}
	}
	if end < 0 {
		return 0, errZipDir
	}
	endAt := size - n + int64(end)
	dirSize := int64(binary.LittleEndian.Uint32(tail[end+12:]))
	offset := int64(binary.LittleEndian.Uint32(tail[end+16:]))
	if (offset == 0xFFFFFFFF || dirSize == 0xFFFFFFFF) && endAt >= zip64LocatorLen {
		var loc [zip64LocatorLen]byte
		if _, err := r.ReadAt(loc[:], endAt-zip64LocatorLen); err == nil && binary.LittleEndian.Uint32(loc[:]) == zip64LocatorSig {
			at := int64(binary.LittleEndian.Uint64(loc[8:]))
			var rec [zip64EndLen]byte
			if at >= 0 && at <= size-zip64EndLen {
				if _, err := r.ReadAt(rec[:], at); err == nil && binary.LittleEndian.Uint32(rec[:]) == zip64EndSig {
					endAt = at
					dirSize = int64(binary.LittleEndian.Uint64(rec[40:]))
					offset = int64(binary.LittleEndian.Uint64(rec[48:]))
				}
			}
		}
	}
	starts := []int64{offset}
	if at := endAt - dirSize; at != offset {
		starts = append(starts, at)
	}
	most := 0
	for _, at := range starts {
		if at < 0 || at >= size {
			continue
		}
		c, err := walkZipDir(io.NewSectionReader(r, at, size-at), limit)
		if err != nil {
			return c, err
		}
		most = max(most, c)
	}
	return most, nil
}

// walkZipDir counts central directory records for as long as they have the signature,
// as archive/zip reads them.
func walkZipDir(sr *io.SectionReader, limit int) (int, error) {
	var hdr [zipDirLen]byte
	count := 0
	for {
		if _, err := io.ReadFull(sr, hdr[:]); err != nil || binary.LittleEndian.Uint32(hdr[:]) != zipDirSig {
			return count, nil
		}
		count++
		if limit > 0 && count > limit {
			return count, &LimitError{Kind: LimitArchiveEntries, Max: int64(limit)}
		}
		skip := int64(binary.LittleEndian.Uint16(hdr[28:])) + int64(binary.LittleEndian.Uint16(hdr[30:])) + int64(binary.LittleEndian.Uint16(hdr[32:]))
		if _, err := sr.Seek(skip, io.SeekCurrent); err != nil {
			return count, nil
		}
	}
}
