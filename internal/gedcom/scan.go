package gedcom

import (
	"errors"
	"io"
)

// lineScanner splits a byte stream into physical lines ended by CR, LF or CR LF. A line is
// never longer than max bytes: the rest of a longer line is skipped and the line is
// reported as truncated. Memory is the buffer, at most max+bufSize bytes.
type lineScanner struct {
	r          io.Reader
	buf        []byte
	start, end int
	max        int
	eof        bool
	err        error
	skipLF     bool // the last line ended with CR; drop a LF that follows
	lineNo     int
	long       []byte // the first max bytes of a line that was too long
}

const scanBufSize = 64 << 10

func newLineScanner(r io.Reader, max int) *lineScanner {
	n := scanBufSize
	if max+1 < n {
		n = max + 1
	}
	return &lineScanner{r: r, buf: make([]byte, n), max: max}
}

// fill reads more input, moving unread bytes to the front and growing the buffer up to
// max+1 bytes when a line needs it. It returns false when nothing more can be read.
func (s *lineScanner) fill() bool {
	if s.eof || s.err != nil {
		return false
	}
	if s.start > 0 {
		n := copy(s.buf, s.buf[s.start:s.end])
		s.start, s.end = 0, n
	}
	if s.end == len(s.buf) {
		limit := s.max + 1
		if len(s.buf) >= limit {
			return false // caller truncates
		}
		nb := make([]byte, min(2*len(s.buf), limit))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	for range 100 {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			if errors.Is(err, io.EOF) {
				s.eof = true
			} else {
				s.err = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	s.err = io.ErrNoProgress
	return false
}

// peek returns at least n buffered bytes if the input has them (fewer at the end).
func (s *lineScanner) peek(n int) []byte {
	for s.end-s.start < n && s.fill() {
	}
	return s.buf[s.start:min(s.end, s.start+n)]
}

func (s *lineScanner) discard(n int) { s.start += n }

// next returns the next line without its terminator, valid until the next call. truncated
// is true when the line was longer than max bytes (line holds its first max bytes). ok is
// false at the end of the input or on a read error (see s.err).
func (s *lineScanner) next() (line []byte, truncated, ok bool) {
	searched := 0
	for {
		data := s.buf[s.start:s.end]
		if s.skipLF && len(data) > 0 {
			s.skipLF = false
			if data[0] == '\n' {
				s.start++
				data = data[1:]
			}
		}
		for i := searched; i < len(data); i++ {
			if c := data[i]; c == '\n' || c == '\r' {
				line = data[:i]
				s.start += i + 1
				s.skipLF = c == '\r'
				s.lineNo++
				if len(line) > s.max {
					return line[:s.max], true, true
				}
				return line, false, true
			}
		}
		searched = len(data)
		if len(data) > s.max {
			// Too long: keep the first max bytes aside and skip to the end of the line.
			s.lineNo++
			s.long = append(s.long[:0], data[:s.max]...)
			s.start = s.end
			s.skipRest()
			return s.long, true, true
		}
		if !s.fill() {
			data = s.buf[s.start:s.end]
			if len(data) == 0 {
				return nil, false, false
			}
			// The last line, without a terminator.
			s.start = s.end
			s.lineNo++
			return data, false, true
		}
	}
}

// skipRest discards input up to and including the next line terminator.
func (s *lineScanner) skipRest() {
	for {
		data := s.buf[s.start:s.end]
		for i, c := range data {
			if c == '\n' || c == '\r' {
				s.start += i + 1
				s.skipLF = c == '\r'
				return
			}
		}
		s.start = s.end
		if !s.fill() {
			return
		}
	}
}
