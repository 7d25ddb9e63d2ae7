package ingest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Defaults of CSVLimits.
const (
	// DefaultFieldLines is how many lines one quoted field may span: a transcript
	// written over several lines fits; a quote that is never closed is found within
	// that many lines instead of swallowing the rest of the file.
	DefaultFieldLines = 100
	// DefaultRowBytes is the longest row, in bytes: every field of a record at its
	// longest (a transcript is at most 100 000 characters) fits.
	DefaultRowBytes = 1 << 20
)

// CSVLimits bound the rows of a CSV file; the zero value means the defaults.
type CSVLimits struct {
	FieldLines int // lines one quoted field may span (DefaultFieldLines)
	RowBytes   int // bytes of one row (DefaultRowBytes)
}

func (l CSVLimits) withDefaults() CSVLimits {
	if l.FieldLines <= 0 {
		l.FieldLines = DefaultFieldLines
	}
	if l.RowBytes <= 0 {
		l.RowBytes = DefaultRowBytes
	}
	return l
}

// CSVRows reads CSV rows (RFC 4180, with the delimiter of a mapping) one physical
// line at a time, so that a quote that is never closed cannot swallow the rest of
// the file: a quoted field may run on to later lines, but when it is not closed by
// the end of the file or within CSVLimits.FieldLines lines, or the row it makes does
// not have the header's number of fields, its row is reported as unreadable at the
// line where it began, and reading goes on at the next line. As encoding/csv's
// LazyQuotes, a quote inside an unquoted field, or one inside a quoted field not
// followed by the delimiter or the end of the line, is kept as written.
type CSVRows struct {
	br    *bufio.Reader
	comma string
	lim   CSVLimits
	// fields is the number of fields a row must have when it spans lines (the
	// header's); 0 while the header is read, which must be one line.
	fields int
	line   int        // the number of the last line read from br
	back   []physLine // lines to read again, after a row that could not be read
}

// physLine is one line of the file without its line ending.
type physLine struct {
	n    int
	text string
	long bool // longer than RowBytes: text holds only its beginning
}

func NewCSVRows(r io.Reader, comma rune, lim CSVLimits) *CSVRows {
	return &CSVRows{br: bufio.NewReaderSize(r, 64<<10), comma: string(comma), lim: lim.withDefaults()}
}

// nextLine returns the next line, or io.EOF.
func (c *CSVRows) nextLine() (physLine, error) {
	if len(c.back) > 0 {
		l := c.back[0]
		c.back = c.back[1:]
		return l, nil
	}
	var buf []byte
	long := false
	for {
		chunk, err := c.br.ReadSlice('\n')
		if len(buf)+len(chunk) > c.lim.RowBytes+2 { // +2: the line ending
			long = true
			if keep := c.lim.RowBytes - len(buf); keep > 0 {
				buf = append(buf, chunk[:keep]...)
			}
		} else {
			buf = append(buf, chunk...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(buf) == 0 && !long:
			return physLine{}, io.EOF
		case err != nil && err != io.EOF:
			return physLine{}, err
		}
		break
	}
	c.line++
	text := string(buf)
	if !long {
		text = strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r")
	}
	if len(text) > c.lim.RowBytes {
		text, long = text[:c.lim.RowBytes], true
	}
	return physLine{n: c.line, text: text, long: long}, nil
}

// Read returns the next row: its fields and the line it begins on. A row that cannot
// be Read comes back as a *RowError with the fields Read before the trouble (the
// record_id, usually first, names the row's record). io.EOF at the end.
func (c *CSVRows) Read() (fields []string, line int, rowErr *RowError, err error) {
	first, err := c.nextLine()
	if err != nil {
		return nil, 0, nil, err
	}
	if first.long {
		return c.partial(first), first.n, &RowError{Line: first.n, Message: fmt.Sprintf("is longer than %d bytes (the longest row a file may have)", c.lim.RowBytes)}, nil
	}
	lines := []physLine{first}
	size := len(first.text)
	cur, pos := first.text, 0
	var b strings.Builder
	// unclosed reports the row as unreadable and reads its later lines again.
	unclosed := func(why string) ([]string, int, *RowError, error) {
		c.back = append(append([]physLine(nil), lines[1:]...), c.back...)
		msg := "a quoted field begins on this line and " + why
		if c.fields == 0 {
			msg += " (a header is one line)"
		}
		return c.partial(first), first.n, &RowError{Line: first.n, Message: msg}, nil
	}
	for {
		// One field, from cur[pos:].
		if pos < len(cur) && cur[pos] == '"' {
			b.Reset()
			pos++
			opened, stray := len(lines), false
			// closed ends the field; one that ran on to later lines with a quote in it
			// that is not doubled is a runaway: its opening quote was never closed,
			// and it has taken up to another field's closing quote.
			closed := func() bool {
				fields = append(fields, b.String())
				return !stray || len(lines) == opened
			}
			for {
				i := strings.IndexByte(cur[pos:], '"')
				if i < 0 {
					b.WriteString(cur[pos:])
					b.WriteByte('\n')
					switch {
					case c.fields == 0:
						return unclosed("is not closed on it")
					case len(lines) >= c.lim.FieldLines:
						return unclosed(fmt.Sprintf("is not closed within %d lines (the most a field may span)", c.lim.FieldLines))
					}
					next, err := c.nextLine()
					if err == io.EOF {
						return unclosed("is not closed before the end of the file")
					}
					if err != nil {
						return nil, 0, nil, err
					}
					lines = append(lines, next)
					if size += len(next.text) + 1; next.long || size > c.lim.RowBytes {
						return unclosed(fmt.Sprintf("runs on past %d bytes (the longest row a file may have) without being closed", c.lim.RowBytes))
					}
					cur, pos = next.text, 0
					continue
				}
				b.WriteString(cur[pos : pos+i])
				j := pos + i + 1
				switch {
				case j < len(cur) && cur[j] == '"':
					b.WriteByte('"')
					pos = j + 1
					continue
				case j == len(cur) || strings.HasPrefix(cur[j:], c.comma):
					if !closed() {
						return unclosed(fmt.Sprintf("runs on to line %d past a quote that is not doubled, so it is taken as not closed", lines[len(lines)-1].n))
					}
					if j == len(cur) {
						return c.finish(fields, lines, unclosed)
					}
					pos = j + len(c.comma)
				default:
					b.WriteByte('"') // a stray quote, kept
					stray = true
					pos = j
					continue
				}
				break
			}
			continue
		}
		i := strings.Index(cur[pos:], c.comma)
		if i < 0 {
			fields = append(fields, cur[pos:])
			return c.finish(fields, lines, unclosed)
		}
		fields = append(fields, cur[pos:pos+i])
		pos += i + len(c.comma)
	}
}

// finish checks a row that spans lines: it must have the header's number of fields,
// or the quote that carried it on is taken as unclosed.
func (c *CSVRows) finish(fields []string, lines []physLine, unclosed func(string) ([]string, int, *RowError, error)) ([]string, int, *RowError, error) {
	if len(lines) > 1 && len(fields) != c.fields {
		return unclosed(fmt.Sprintf("runs on to line %d, making a row of %d fields where the header has %d, so it is taken as not closed", lines[len(lines)-1].n, len(fields), c.fields))
	}
	return fields, lines[0].n, nil, nil
}

// partial is what can be read of a row that cannot be read: the fields of its first
// line that end in the delimiter on that line.
func (c *CSVRows) partial(l physLine) []string {
	var out []string
	rest := l.text
	for {
		var f string
		if strings.HasPrefix(rest, `"`) {
			var b strings.Builder
			i := 1
			for {
				j := strings.IndexByte(rest[i:], '"')
				if j < 0 {
					return out
				}
				b.WriteString(rest[i : i+j])
				i += j + 1
				if !strings.HasPrefix(rest[i:], `"`) {
					break
				}
				b.WriteByte('"')
				i++
			}
			if !strings.HasPrefix(rest[i:], c.comma) {
				return out
			}
			f, rest = b.String(), rest[i+len(c.comma):]
		} else {
			i := strings.Index(rest, c.comma)
			if i < 0 {
				return out
			}
			f, rest = rest[:i], rest[i+len(c.comma):]
		}
		out = append(out, f)
	}
}

// ReadHeader reads the first row, which must be one readable line, and sets the
// number of fields every later row must have when it spans lines.
func (c *CSVRows) ReadHeader() ([]string, error) {
	header, _, rowErr, err := c.Read()
	switch {
	case err == io.EOF:
		return nil, errors.New("the file is empty: it needs a header row")
	case err != nil:
		return nil, fmt.Errorf("header: %w", err)
	case rowErr != nil:
		return nil, fmt.Errorf("header: %w", *rowErr)
	}
	c.fields = len(header)
	return header, nil
}
