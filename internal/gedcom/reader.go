package gedcom

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Options control a Reader. The zero value is lenient with the default limits.
type Options struct {
	// Strict makes the first warning an error (a *SyntaxError) that ends the read.
	Strict bool
	// Encoding, when set, is used instead of what the BOM and HEAD.CHAR say.
	Encoding Encoding
	// MaxLineBytes is the longest physical line kept (default 1 MiB); the rest of a longer
	// line is dropped with a warning.
	MaxLineBytes int
	// MaxRecordBytes bounds the memory of one record: its lines' bytes plus 200 per line
	// (default 64 MiB). The rest of a larger record is dropped with a warning.
	MaxRecordBytes int
	// MaxWarnings is how many warnings Warnings keeps (default 1000; -1 keeps none).
	// WarningCount counts them all.
	MaxWarnings int
	// OnWarning, when set, is called with every warning as it happens.
	OnWarning func(Warning)
	// Limits end the read with a *LimitError, for files from people the caller does
	// not trust (uploads). The zero value has none.
	Limits Limits
}

const (
	defaultMaxLine    = 1 << 20
	defaultMaxRecord  = 64 << 20
	defaultMaxWarning = 1000
	lineOverhead      = 200 // bytes charged per line against MaxRecordBytes: about what a line costs in memory
	maxLevel          = 99  // GEDCOM 5.5.1: levels are 0–99
	prescanLines      = 2000
	prescanBytes      = 256 << 10
)

// Warning is a problem the Reader recovered from. Line is the 1-based line number in the
// file (0 when the problem is not tied to a line).
type Warning struct {
	Line    int
	Message string
}

func (w Warning) String() string {
	if w.Line > 0 {
		return "line " + strconv.Itoa(w.Line) + ": " + w.Message
	}
	return w.Message
}

// SyntaxError is the error a strict Reader returns for the first warning.
type SyntaxError struct{ Warning }

func (e *SyntaxError) Error() string { return "gedcom: " + e.Warning.String() }

// A Reader reads a GEDCOM file one record at a time. HEAD is read by NewReader and given
// by Header; TRLR ends the file; every other level-0 record comes from Next. Memory is
// bounded by the largest record (see Options.MaxRecordBytes), never by the file.
type Reader struct {
	opts     Options
	count    *countingReader
	sc       *lineScanner
	closer   io.Closer
	files    fs.FS // the GEDZIP archive, or nil
	size     int64 // the input's size when known (Open, OpenGEDZIP), else -1
	enc      Encoding
	version  Version // the rules in force (5.5.1 when the file does not say)
	header   *Header
	warnings []Warning
	nWarn    int
	err      error

	pend    []rawLine // lines read ahead to find HEAD.CHAR, replayed first
	pendIdx int
	dbuf    []byte // decoded line

	b        builder
	nRecords int   // level-0 lines read, for Limits.MaxRecords
	first    *Line // a first record that is not HEAD, returned by the first Next
	seenTRLR bool  // TRLR has been read
	afterTRL bool  // warned about data after TRLR
	tags     map[string]string
}

type rawLine struct {
	data      []byte
	lineNo    int
	truncated bool
}

type countingReader struct {
	r   io.Reader
	n   int64
	max int64 // Limits.MaxBytes; 0: none
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.max > 0 && c.n > c.max {
		return 0, &LimitError{Kind: LimitBytes, Max: c.max}
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.max > 0 && c.n > c.max {
		return n, &LimitError{Kind: LimitBytes, Max: c.max}
	}
	return n, err
}

// NewReader reads the start of r: the byte order mark, the encoding, and the HEAD record.
// opts may be nil. The error is an I/O error or, in strict mode, a *SyntaxError; a file
// that does not start with HEAD is read anyway (with a warning).
func NewReader(r io.Reader, opts *Options) (*Reader, error) {
	rd := &Reader{tags: make(map[string]string, 256), size: -1}
	if opts != nil {
		rd.opts = *opts
	}
	if rd.opts.MaxLineBytes <= 0 {
		rd.opts.MaxLineBytes = defaultMaxLine
	}
	if rd.opts.MaxRecordBytes <= 0 {
		rd.opts.MaxRecordBytes = defaultMaxRecord
	}
	if rd.opts.MaxWarnings == 0 {
		rd.opts.MaxWarnings = defaultMaxWarning
	}
	rd.b.reset()
	rd.count = &countingReader{r: r, max: rd.opts.Limits.MaxBytes}
	rd.sc = newLineScanner(rd.count, rd.opts.MaxLineBytes)
	if err := rd.start(); err != nil {
		return nil, err
	}
	return rd, nil
}

// start detects the encoding and reads HEAD.
func (r *Reader) start() error {
	h := &Header{}
	p := r.sc.peek(4)
	utf16 := EncodingUnknown
	switch {
	case bytes.HasPrefix(p, []byte{0xEF, 0xBB, 0xBF}):
		h.BOM = true
		r.sc.discard(3)
	case bytes.HasPrefix(p, []byte{0xFF, 0xFE}):
		h.BOM, utf16 = true, UTF16LE
		r.sc.discard(2)
	case bytes.HasPrefix(p, []byte{0xFE, 0xFF}):
		h.BOM, utf16 = true, UTF16BE
		r.sc.discard(2)
	case len(p) >= 2 && p[0] != 0 && p[1] == 0:
		utf16 = UTF16LE
	case len(p) >= 2 && p[0] == 0 && p[1] != 0:
		utf16 = UTF16BE
	}
	if r.opts.Encoding == UTF16LE || r.opts.Encoding == UTF16BE {
		utf16 = r.opts.Encoding
	} else if r.opts.Encoding != EncodingUnknown {
		utf16 = EncodingUnknown
	}
	if utf16 != EncodingUnknown {
		// Re-read what is buffered, then the rest, through a UTF-16 decoder.
		rest := bytes.Clone(r.sc.buf[r.sc.start:r.sc.end])
		if r.sc.err != nil {
			return fmt.Errorf("gedcom: reading: %w", r.sc.err)
		}
		var src io.Reader = r.count
		if r.sc.eof {
			src = bytes.NewReader(nil)
		}
		endian := unicode.LittleEndian
		if utf16 == UTF16BE {
			endian = unicode.BigEndian
		}
		dec := unicode.UTF16(endian, unicode.IgnoreBOM).NewDecoder()
		r.sc = newLineScanner(transform.NewReader(io.MultiReader(bytes.NewReader(rest), src), dec), r.opts.MaxLineBytes)
		r.enc = utf16
	}

	// Read the first record's raw lines ahead, to find GEDC.VERS and CHAR before decoding.
	var vers, char string
	var parent1 string
	total := 0
	seen0 := false
	for len(r.pend) < prescanLines && total < prescanBytes {
		line, trunc, ok := r.sc.next()
		if !ok {
			break
		}
		r.pend = append(r.pend, rawLine{data: bytes.Clone(line), lineNo: r.sc.lineNo, truncated: trunc})
		total += len(line)
		pl, _ := parseLine(line)
		if pl.tag == nil {
			continue
		}
		if pl.level == 0 {
			if seen0 {
				break
			}
			seen0 = true
			continue
		}
		tag := string(pl.tag)
		switch {
		case pl.level == 1:
			parent1 = tag
			if tag == "CHAR" && char == "" {
				char = strings.TrimSpace(string(pl.value))
			}
		case pl.level == 2 && tag == "VERS" && parent1 == "GEDC" && vers == "":
			vers = strings.TrimSpace(string(pl.value))
		}
	}
	if r.sc.err != nil {
		return fmt.Errorf("gedcom: reading: %w", r.sc.err)
	}

	v, vok := ParseVersion(vers)
	r.version = v
	if !vok {
		r.version = Version551
	}
	switch {
	case r.enc != EncodingUnknown: // UTF-16
	case r.opts.Encoding != EncodingUnknown:
		r.enc = r.opts.Encoding
	case h.BOM:
		r.enc = UTF8
		if e, ok := EncodingFromCharset(char); ok && e != UTF8 && e != UTF16LE {
			r.warn(0, "the file has a UTF-8 byte order mark but HEAD.CHAR says "+strconv.Quote(char)+"; read as UTF-8")
		}
	case v == Version70:
		r.enc = UTF8
	case char == "":
		r.enc = UTF8
	default:
		e, ok := EncodingFromCharset(char)
		switch {
		case !ok:
			r.warn(0, "unknown character set HEAD.CHAR "+strconv.Quote(char)+"; read as UTF-8")
			r.enc = UTF8
		case e == UTF16LE || e == UTF16BE:
			r.warn(0, "HEAD.CHAR says "+strconv.Quote(char)+" (UTF-16) but the file is not UTF-16; read as UTF-8")
			r.enc = UTF8
		default:
			r.enc = e
		}
	}
	if r.err != nil {
		return r.err
	}

	head, err := r.next()
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if head != nil && head.Tag == "TRLR" && head.Xref == "" {
		r.seenTRLR = true
		r.warn(head.LineNo, "the file starts with TRLR")
	} else if head != nil && head.Tag == "HEAD" {
		h2 := headerFrom(head)
		h2.BOM, h2.Encoding = h.BOM, r.enc
		h = h2
	} else {
		h.Encoding = r.enc
		line := 0
		if head != nil {
			line = head.LineNo
			r.first = head
		}
		r.warn(line, "the file does not start with a HEAD record")
	}
	if head != nil && head.Tag == "HEAD" {
		switch {
		case vers == "":
			r.warn(head.LineNo, "HEAD has no GEDC.VERS; read as GEDCOM 5.5.1")
		case !vok:
			r.warn(head.LineNo, "unknown GEDCOM version "+strconv.Quote(vers)+"; read as GEDCOM 5.5.1")
		}
		if char == "" && r.version != Version70 && utf16 == EncodingUnknown && !h.BOM && r.opts.Encoding == EncodingUnknown {
			r.warn(head.LineNo, "HEAD has no CHAR; read as UTF-8")
		}
	}
	r.header = h
	if r.err != nil {
		return r.err
	}
	return nil
}

// Header returns what HEAD says and how the file is being read.
func (r *Reader) Header() *Header { return r.header }

// Warnings returns the warnings so far (at most Options.MaxWarnings of them).
func (r *Reader) Warnings() []Warning { return r.warnings }

// WarningCount is the number of warnings so far, including those Warnings no longer keeps.
func (r *Reader) WarningCount() int { return r.nWarn }

// Offset is the number of bytes read from the input so far (ahead of the records returned
// by up to one buffer), for progress reports.
func (r *Reader) Offset() int64 { return r.count.n }

// Size is the number of bytes Offset will reach at the end, when known: the file's size
// for Open, the uncompressed size of gedcom.ged for a GEDZIP archive; -1 for NewReader.
func (r *Reader) Size() int64 { return r.size }

// Close closes the file or archive member the Reader opened (Open, OpenGEDZIP); it does
// nothing for a Reader made by NewReader.
func (r *Reader) Close() error {
	if r.closer != nil {
		c := r.closer
		r.closer = nil
		return c.Close()
	}
	return nil
}

// Next returns the next record (not HEAD, not TRLR). At the end it returns io.EOF; after a
// strict-mode warning or a read error it returns that error, and keeps returning it.
func (r *Reader) Next() (*Line, error) {
	if r.first != nil {
		f := r.first
		r.first = nil
		return f, nil
	}
	for {
		rec, err := r.next()
		if err != nil {
			return nil, err
		}
		if rec.Tag == "TRLR" && rec.Xref == "" {
			if len(rec.Children) > 0 {
				r.warn(rec.LineNo, "TRLR has lines under it; they are ignored")
				if r.err != nil {
					return nil, r.err
				}
			}
			continue
		}
		return rec, nil
	}
}

// Records ranges over the records; it stops after yielding an error (never io.EOF).
func (r *Reader) Records() iter.Seq2[*Line, error] {
	return func(yield func(*Line, error) bool) {
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

func (r *Reader) warn(line int, msg string) {
	w := Warning{Line: line, Message: msg}
	r.nWarn++
	if r.opts.MaxWarnings > 0 && len(r.warnings) < r.opts.MaxWarnings {
		r.warnings = append(r.warnings, w)
	}
	if r.opts.OnWarning != nil {
		r.opts.OnWarning(w)
	}
	if r.opts.Strict && r.err == nil {
		r.err = &SyntaxError{w}
	}
}

// next reads the next level-0 record of any kind.
func (r *Reader) next() (*Line, error) {
	if r.err != nil {
		return nil, r.err
	}
	for {
		pl, ok := r.readLine()
		if r.err != nil {
			return nil, r.err
		}
		if !ok {
			if r.b.active() {
				return r.b.finish(), nil
			}
			if r.header != nil && !r.seenTRLR {
				r.seenTRLR = true // warn once
				r.warn(0, "the file ends without TRLR; it may be cut short")
				if r.err != nil {
					return nil, r.err
				}
			}
			return nil, io.EOF
		}
		if pl.level == 0 {
			var done *Line
			if r.b.active() {
				done = r.b.finish()
			}
			if r.seenTRLR && !r.afterTRL && string(pl.tag) != "TRLR" {
				r.afterTRL = true
				r.warn(pl.lineNo, "records after TRLR; they are read too")
			}
			r.begin(pl)
			if r.err != nil {
				return nil, r.err
			}
			if done != nil {
				return done, nil
			}
			continue
		}
		r.add(pl)
		if r.err != nil {
			return nil, r.err
		}
	}
}

// parsed is one line split into its parts (slices of the decoded line).
type parsed struct {
	level  int
	xref   []byte
	tag    []byte
	value  []byte
	lineNo int
	rawLen int
}

// parseLine splits a line. On failure msg says why and pl.level is the level if it was
// read (else -1). A blank line gives msg == "" and pl.tag == nil.
func parseLine(b []byte) (pl parsed, msg string) {
	pl.level = -1
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	if i == len(b) || isFiller(b[i:]) {
		return pl, ""
	}
	j := i
	lvl := 0
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		if lvl <= maxLevel {
			lvl = lvl*10 + int(b[j]-'0')
		}
		j++
	}
	if j == i {
		return pl, "no level number at the start of the line " + quoteShort(b)
	}
	if lvl > maxLevel {
		return pl, "level " + quoteShort(b[i:j]) + " is deeper than 99"
	}
	pl.level = lvl
	if j == len(b) {
		return pl, "a level number with no tag"
	}
	if b[j] != ' ' && b[j] != '\t' {
		return pl, "no space after the level number in " + quoteShort(b)
	}
	for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
		j++
	}
	if j == len(b) {
		return pl, "a level number with no tag"
	}
	if b[j] == '@' {
		k := bytes.IndexByte(b[j+1:], '@')
		if k < 0 {
			return pl, "cross-reference identifier with no closing @ in " + quoteShort(b)
		}
		if k == 0 {
			return pl, "empty cross-reference identifier @@ in " + quoteShort(b)
		}
		pl.xref = b[j+1 : j+1+k]
		j += k + 2
		if j == len(b) {
			return pl, "a cross-reference identifier with no tag"
		}
		if b[j] != ' ' && b[j] != '\t' {
			return pl, "no space after the cross-reference identifier in " + quoteShort(b)
		}
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if j == len(b) {
			return pl, "a cross-reference identifier with no tag"
		}
	}
	if b[j] == '@' {
		return pl, "a tag cannot start with @ in " + quoteShort(b)
	}
	k := j
	for k < len(b) && b[k] != ' ' && b[k] != '\t' {
		k++
	}
	pl.tag = b[j:k]
	if k < len(b) {
		pl.value = b[k+1:]
	}
	return pl, ""
}

// isFiller reports whether the rest of a line is only NULs, Ctrl-Z (a DOS end of file) or
// other blanks, which old files carry at their end.
func isFiller(b []byte) bool {
	for _, c := range b {
		if c != 0 && c != 0x1A && c != ' ' && c != '\t' && c != '\f' && c != '\v' {
			return false
		}
	}
	return true
}

func validTag(t []byte) bool {
	for _, c := range t {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return len(t) > 0
}

func quoteShort(b []byte) string {
	const max = 60
	if len(b) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		return strconv.Quote(string(b[:cut])) + "…"
	}
	return strconv.Quote(string(b))
}

// readLine returns the next non-blank, well-formed line, decoded to UTF-8.
func (r *Reader) readLine() (parsed, bool) {
	for {
		var raw []byte
		var lineNo int
		var trunc bool
		if r.pendIdx < len(r.pend) {
			p := r.pend[r.pendIdx]
			r.pend[r.pendIdx] = rawLine{}
			r.pendIdx++
			if r.pendIdx == len(r.pend) {
				r.pend, r.pendIdx = nil, 0
			}
			raw, lineNo, trunc = p.data, p.lineNo, p.truncated
		} else {
			var ok bool
			raw, trunc, ok = r.sc.next()
			if !ok {
				var le *LimitError
				switch {
				case r.err != nil:
				case errors.As(r.sc.err, &le):
					r.err = le
				case r.sc.err != nil:
					r.err = fmt.Errorf("gedcom: reading after line %d: %w", r.sc.lineNo, r.sc.err)
				}
				return parsed{}, false
			}
			lineNo = r.sc.lineNo
		}
		if m := r.opts.Limits.MaxLines; m > 0 && lineNo > m {
			r.fail(&LimitError{Kind: LimitLines, Max: int64(m), Line: lineNo})
			return parsed{}, false
		}
		if trunc {
			r.warn(lineNo, "line longer than "+strconv.Itoa(r.opts.MaxLineBytes)+" bytes; the rest of it is dropped")
		}
		dec := r.decode(raw, lineNo)
		pl, msg := parseLine(dec)
		pl.lineNo = lineNo
		pl.rawLen = len(raw)
		if msg != "" {
			if pl.level >= 0 {
				msg += "; the line and the lines under it are ignored"
				r.b.skipBelow = pl.level
			} else {
				msg += "; the line is ignored"
			}
			r.warn(lineNo, msg)
			if r.err != nil {
				return parsed{}, false
			}
			continue
		}
		if pl.tag == nil {
			continue // blank
		}
		if !validTag(pl.tag) {
			r.warn(lineNo, "tag "+quoteShort(pl.tag)+" has characters other than letters, digits and _")
			if r.err != nil {
				return parsed{}, false
			}
		}
		return pl, true
	}
}

// decode returns the line as UTF-8.
func (r *Reader) decode(raw []byte, lineNo int) []byte {
	switch r.enc {
	case CP1252, CP437, MacRoman:
		if isASCII(raw) {
			return raw
		}
		t := &cp1252Table
		if r.enc == CP437 {
			t = &cp437Table
		} else if r.enc == MacRoman {
			t = &macRomanTable
		}
		r.dbuf = decodeTable(r.dbuf[:0], raw, t)
		return r.dbuf
	case ANSEL:
		if isASCII(raw) {
			return raw
		}
		var bad int
		r.dbuf, bad = decodeANSEL(r.dbuf[:0], raw)
		if bad > 0 {
			r.warn(lineNo, "bytes that are not ANSEL characters; read as U+FFFD")
		}
		return r.dbuf
	case ASCII:
		if isASCII(raw) {
			return raw
		}
		if utf8.Valid(raw) {
			r.warn(lineNo, "non-ASCII characters in a file that says ASCII; read as UTF-8")
			return raw
		}
		r.dbuf, _ = decodeUTF8Lenient(r.dbuf[:0], raw)
		r.warn(lineNo, "non-ASCII bytes in a file that says ASCII; read as ANSI (CP1252)")
		return r.dbuf
	default: // UTF-8, and UTF-16 already converted to UTF-8
		if utf8.Valid(raw) {
			return raw
		}
		r.dbuf, _ = decodeUTF8Lenient(r.dbuf[:0], raw)
		r.warn(lineNo, "bytes that are not valid UTF-8; read as ANSI (CP1252)")
		return r.dbuf
	}
}

// intern returns a string for a tag without allocating for tags seen before.
func (r *Reader) intern(b []byte) string {
	if s, ok := r.tags[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(r.tags) < 4096 {
		r.tags[s] = s
	}
	return s
}

// builder assembles one record. Values (and nothing else) live in one byte arena that
// becomes one string when the record is done.
type builder struct {
	nodes     []node
	vbuf      []byte
	stack     []int32 // node index at each depth
	counts    []int32 // scratch for finish
	cost      int
	overflow  bool // the record hit MaxRecordBytes; skip to the next record
	skipBelow int  // drop lines deeper than this level (under a dropped line); -1 = none
	last      int32
}

type node struct {
	depth      int
	xref, tag  string
	ptr        string
	voff, vlen int
	lineNo     int
	parent     int32
}

func (b *builder) reset() {
	b.nodes = b.nodes[:0]
	b.vbuf = b.vbuf[:0]
	b.stack = b.stack[:0]
	b.cost = 0
	b.overflow = false
	b.skipBelow = -1
	b.last = -1
}

func (b *builder) active() bool { return len(b.nodes) > 0 }

func (r *Reader) begin(pl parsed) {
	b := &r.b
	b.reset()
	r.nRecords++
	if m := r.opts.Limits.MaxRecords; m > 0 && r.nRecords > m {
		r.fail(&LimitError{Kind: LimitRecords, Max: int64(m), Line: pl.lineNo})
		return
	}
	n := node{depth: 0, tag: r.intern(pl.tag), lineNo: pl.lineNo, parent: -1}
	if pl.xref != nil {
		n.xref = upper(pl.xref)
	}
	if n.tag == "TRLR" && n.xref == "" {
		r.seenTRLR = true
	}
	isCont := n.tag == "CONT" || n.tag == "CONC"
	if isCont {
		r.warn(pl.lineNo, n.tag+" at level 0; read as a record")
	}
	r.setValue(&n, pl.value, !isCont)
	b.nodes = append(b.nodes, n)
	b.stack = append(b.stack, 0)
	b.last = 0
	b.cost = pl.rawLen + lineOverhead
}

func (r *Reader) add(pl parsed) {
	b := &r.b
	if b.skipBelow >= 0 {
		if pl.level > b.skipBelow {
			return
		}
		b.skipBelow = -1
	}
	if !b.active() {
		r.warn(pl.lineNo, "a level "+strconv.Itoa(pl.level)+" line before any record; ignored")
		return
	}
	if b.overflow {
		return
	}
	b.cost += pl.rawLen + lineOverhead
	if b.cost > r.opts.MaxRecordBytes {
		b.overflow = true
		r.warn(pl.lineNo, "the record that starts on line "+strconv.Itoa(b.nodes[0].lineNo)+
			" is larger than "+strconv.Itoa(r.opts.MaxRecordBytes)+" bytes; the rest of it is dropped")
		return
	}
	level := pl.level
	top := len(b.stack) - 1
	if level > top+1 {
		r.warn(pl.lineNo, "level "+strconv.Itoa(level)+" follows level "+strconv.Itoa(b.nodes[b.last].depth)+
			"; read as level "+strconv.Itoa(top+1))
		level = top + 1
	}
	b.stack = b.stack[:level]
	parent := b.stack[level-1]
	tag := r.intern(pl.tag)

	if (tag == "CONT" || tag == "CONC") && b.nodes[parent].ptr == "" {
		p := &b.nodes[parent]
		if pl.xref != nil {
			r.warn(pl.lineNo, "a cross-reference identifier on "+tag+"; ignored")
		}
		if tag == "CONC" && r.version == Version70 {
			r.warn(pl.lineNo, "CONC is not part of GEDCOM 7; joined anyway")
		}
		if b.last != parent {
			r.warn(pl.lineNo, tag+" after the lines under "+p.tag+"; joined to its value anyway")
		}
		if p.voff+p.vlen != len(b.vbuf) {
			off := len(b.vbuf)
			b.vbuf = append(b.vbuf, b.vbuf[p.voff:p.voff+p.vlen]...)
			p.voff = off
		}
		if tag == "CONT" {
			b.vbuf = append(b.vbuf, '\n')
		}
		b.vbuf = r.appendText(b.vbuf, pl.value)
		p.vlen = len(b.vbuf) - p.voff
		r.checkText(p.vlen, p.lineNo)
		return
	}
	if tag == "CONT" || tag == "CONC" {
		r.warn(pl.lineNo, tag+" under a pointer line; kept as a line of its own")
	}
	n := node{depth: level, tag: tag, lineNo: pl.lineNo, parent: parent}
	if pl.xref != nil {
		n.xref = upper(pl.xref)
	}
	r.setValue(&n, pl.value, true)
	b.nodes = append(b.nodes, n)
	idx := int32(len(b.nodes) - 1)
	b.stack = append(b.stack, idx)
	b.last = idx
}

// setValue stores a line value as a pointer or as unescaped text.
func (r *Reader) setValue(n *node, v []byte, pointers bool) {
	if pointers && isPointer(v) {
		n.ptr = upper(v[1 : len(v)-1])
		n.voff = len(r.b.vbuf)
		return
	}
	n.voff = len(r.b.vbuf)
	r.b.vbuf = r.appendText(r.b.vbuf, v)
	n.vlen = len(r.b.vbuf) - n.voff
	r.checkText(n.vlen, n.lineNo)
}

// checkText enforces Limits.MaxTextBytes on a value of n bytes that starts on line.
func (r *Reader) checkText(n, line int) {
	if m := r.opts.Limits.MaxTextBytes; m > 0 && n > m {
		r.fail(&LimitError{Kind: LimitTextBytes, Max: int64(m), Line: line})
	}
}

// fail ends the read with err (the first one wins).
func (r *Reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// isPointer: @X@ where X is not empty, has no @ and does not start with # (an escape such
// as @#DJULIAN@).
func isPointer(v []byte) bool {
	if len(v) < 3 || v[0] != '@' || v[len(v)-1] != '@' || v[1] == '#' {
		return false
	}
	return bytes.IndexByte(v[1:len(v)-1], '@') < 0
}

// appendText appends a line value with its @@ escapes removed: in GEDCOM 7 only a leading
// @@ is an escape; in 5.5 and 5.5.1 every @@ is one @.
func (r *Reader) appendText(dst, v []byte) []byte {
	if r.version == Version70 {
		if len(v) >= 2 && v[0] == '@' && v[1] == '@' {
			v = v[1:]
		}
		return append(dst, v...)
	}
	for {
		i := bytes.Index(v, []byte("@@"))
		if i < 0 {
			return append(dst, v...)
		}
		dst = append(dst, v[:i+1]...)
		v = v[i+2:]
	}
}

// upper returns the identifier in upper case.
func upper(b []byte) string {
	for _, c := range b {
		if c >= 0x80 {
			return strings.ToUpper(string(b))
		}
	}
	if bytes.IndexFunc(b, func(r rune) bool { return r >= 'a' && r <= 'z' }) < 0 {
		return string(b)
	}
	return string(bytes.ToUpper(b))
}

// finish turns the builder's nodes into a tree of Lines.
func (b *builder) finish() *Line {
	n := len(b.nodes)
	lines := make([]Line, n)
	vals := string(b.vbuf)
	var kids []*Line
	if n > 1 {
		kids = make([]*Line, n-1)
	}
	counts := b.counts[:0]
	for range n {
		counts = append(counts, 0)
	}
	b.counts = counts
	for i := 1; i < n; i++ {
		counts[b.nodes[i].parent]++
	}
	pos := int32(0)
	for i := range n {
		c := counts[i]
		if c > 0 {
			lines[i].Children = kids[pos : pos : pos+c]
		}
		pos += c
	}
	for i := range n {
		nd := &b.nodes[i]
		l := &lines[i]
		l.Level, l.Xref, l.Tag, l.Pointer, l.LineNo = nd.depth, nd.xref, nd.tag, nd.ptr, nd.lineNo
		l.Value = vals[nd.voff : nd.voff+nd.vlen]
		if i > 0 {
			p := &lines[nd.parent]
			p.Children = append(p.Children, l)
		}
	}
	b.reset()
	return &lines[0]
}
