package gedcom

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// WriterOptions control a Writer. The zero value writes GEDCOM 7.0 in UTF-8 with LF line
// ends.
type WriterOptions struct {
	// Version is Version70 (the default), Version551 or Version55.
	Version Version
	// Encoding is UTF8 (the default); for 5.5 and 5.5.1 also UTF16LE, UTF16BE ("UNICODE"),
	// ANSEL or ASCII. Characters ANSEL or ASCII cannot express are written as '?' and
	// counted by Substitutions.
	Encoding Encoding
	// BOM writes a UTF-8 byte order mark (UTF-16 always gets one).
	BOM bool
	// LineEnding is "\n" (the default), "\r\n" or "\r".
	LineEnding string
	// MaxLineLength is the most characters on a line, terminator excluded, for 5.5 and
	// 5.5.1, where longer values are split with CONC: default 253 (255 with CR LF, the
	// 5.5.1 limit). GEDCOM 7 has no CONC and no limit, so 7.0 lines are never split except
	// at newlines (CONT).
	MaxLineLength int
}

// Writer writes a GEDCOM file: HEAD (by NewWriter), records (Write), TRLR (Close). It
// splits values into CONT lines at newlines and, for 5.5.x, into CONC lines at the line
// length; it escapes @ as the version requires and writes the charset in HEAD.
type Writer struct {
	bw     *bufio.Writer
	tw     io.WriteCloser // UTF-16 encoder, closed by Close
	opts   WriterOptions
	err    error
	closed bool
	subst  int
	line   []byte
	enc    []byte
}

// Errors from the Writer.
var (
	ErrBadLine = errors.New("gedcom: line cannot be written")
	ErrClosed  = errors.New("gedcom: writer closed")
)

// NewWriter writes HEAD to w and returns a Writer for the records. h may be nil; when
// h.Record is set it is written with GEDC.VERS set to the output version, GEDC.FORM
// LINEAGE-LINKED for 5.5.x (removed for 7.0), and CHAR set to the output encoding for
// 5.5.x (removed for 7.0); otherwise HEAD is built from h's fields.
func NewWriter(w io.Writer, h *Header, opts *WriterOptions) (*Writer, error) {
	wr := &Writer{}
	if opts != nil {
		wr.opts = *opts
	}
	o := &wr.opts
	switch o.Version {
	case VersionUnknown:
		o.Version = Version70
	case Version55, Version551, Version70:
	default:
		return nil, fmt.Errorf("gedcom: cannot write version %d", o.Version)
	}
	if o.Encoding == EncodingUnknown {
		o.Encoding = UTF8
	}
	switch o.Encoding {
	case UTF8:
	case UTF16LE, UTF16BE, ANSEL, ASCII:
		if o.Version == Version70 {
			return nil, fmt.Errorf("gedcom: GEDCOM 7 files are UTF-8, not %s", o.Encoding)
		}
	default:
		return nil, fmt.Errorf("gedcom: cannot write %s (GEDCOM 5.5.1 allows UTF-8, UNICODE, ANSEL and ASCII)", o.Encoding)
	}
	switch o.LineEnding {
	case "":
		o.LineEnding = "\n"
	case "\n", "\r\n", "\r":
	default:
		return nil, fmt.Errorf("gedcom: line ending %q", o.LineEnding)
	}
	if o.Version == Version70 {
		o.MaxLineLength = 0
	} else if o.MaxLineLength <= 0 {
		o.MaxLineLength = 253
	} else if o.MaxLineLength < 40 {
		o.MaxLineLength = 40
	}
	switch o.Encoding {
	case UTF16LE, UTF16BE:
		endian := xunicode.LittleEndian
		if o.Encoding == UTF16BE {
			endian = xunicode.BigEndian
		}
		wr.tw = transform.NewWriter(w, xunicode.UTF16(endian, xunicode.UseBOM).NewEncoder())
		wr.bw = bufio.NewWriterSize(wr.tw, 64<<10)
	default:
		wr.bw = bufio.NewWriterSize(w, 64<<10)
		if o.BOM && o.Encoding == UTF8 {
			wr.bw.WriteString("\uFEFF")
		}
	}
	head := wr.headRecord(h)
	if err := wr.record(head); err != nil {
		return nil, err
	}
	return wr, nil
}

// Substitutions is the number of characters written as '?' because the output encoding
// (ANSEL, ASCII) has no form for them.
func (w *Writer) Substitutions() int { return w.subst }

// Write writes one record (a level-0 Line and everything under it). HEAD and TRLR are the
// Writer's own.
func (w *Writer) Write(rec *Line) error {
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	if rec == nil {
		return fmt.Errorf("%w: nil record", ErrBadLine)
	}
	if (rec.Tag == "HEAD" || rec.Tag == "TRLR") && rec.Xref == "" {
		return fmt.Errorf("%w: %s is written by the Writer", ErrBadLine, rec.Tag)
	}
	return w.record(rec)
}

// Close writes TRLR and flushes. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	if w.err == nil {
		w.emit([]byte("0 TRLR"))
	}
	w.closed = true
	if w.err == nil {
		w.err = w.bw.Flush()
	}
	if w.tw != nil {
		if err := w.tw.Close(); err != nil && w.err == nil {
			w.err = err
		}
	}
	return w.err
}

func (w *Writer) record(rec *Line) error {
	if err := w.structure(rec, 0); err != nil {
		if w.err == nil {
			w.err = err
		}
		return err
	}
	return w.err
}

func (w *Writer) structure(l *Line, depth int) error {
	if depth > maxLevel {
		return fmt.Errorf("%w: deeper than level %d", ErrBadLine, maxLevel)
	}
	if err := w.writeLine(l, depth); err != nil {
		return err
	}
	for _, c := range l.Children {
		if c == nil {
			continue
		}
		if err := w.structure(c, depth+1); err != nil {
			return err
		}
	}
	return w.err
}

func (w *Writer) writeLine(l *Line, depth int) error {
	if !validTagString(l.Tag) {
		return fmt.Errorf("%w: tag %q (line %d)", ErrBadLine, l.Tag, l.LineNo)
	}
	if l.Pointer != "" && l.Value != "" {
		return fmt.Errorf("%w: %s has both a pointer and a value", ErrBadLine, l.Tag)
	}
	b := strconv.AppendInt(w.line[:0], int64(depth), 10)
	if l.Xref != "" {
		b = append(b, " @"...)
		b = append(b, w.ident(l.Xref)...)
		b = append(b, '@')
	}
	b = append(b, ' ')
	b = append(b, l.Tag...)
	if l.Pointer != "" {
		b = append(b, " @"...)
		b = append(b, w.ident(l.Pointer)...)
		b = append(b, '@')
		w.line = b
		w.emit(b)
		return w.err
	}
	v := l.Value
	if strings.IndexByte(v, '\r') >= 0 {
		v = strings.ReplaceAll(strings.ReplaceAll(v, "\r\n", "\n"), "\r", "\n")
	}
	for first := true; ; first = false {
		part, rest, more := strings.Cut(v, "\n")
		esc := w.escape(part)
		if !first {
			b = strconv.AppendInt(b[:0], int64(depth+1), 10)
			b = append(b, " CONT"...)
		}
		if w.opts.MaxLineLength > 0 && utf8.RuneCount(b)+1+utf8.RuneCountInString(esc) > w.opts.MaxLineLength {
			concLen := len(strconv.Itoa(depth+1)) + len(" CONC")
			chunks := splitValue(esc, w.opts.MaxLineLength-utf8.RuneCount(b)-1, w.opts.MaxLineLength-concLen-1)
			b = w.emitValue(b, chunks[0])
			for _, c := range chunks[1:] {
				b = strconv.AppendInt(b[:0], int64(depth+1), 10)
				b = append(b, " CONC"...)
				b = w.emitValue(b, c)
			}
		} else {
			b = w.emitValue(b, esc)
		}
		if !more {
			break
		}
		v = rest
	}
	w.line = b
	return w.err
}

// emitValue writes prefix and value as one line; it returns the buffer for reuse.
func (w *Writer) emitValue(prefix []byte, value string) []byte {
	if value != "" {
		prefix = append(prefix, ' ')
		prefix = append(prefix, value...)
	}
	w.emit(prefix)
	return prefix
}

// emit writes one physical line in the output encoding.
func (w *Writer) emit(s []byte) {
	if w.err != nil {
		return
	}
	switch w.opts.Encoding {
	case ANSEL:
		var n int
		w.enc, n = encodeANSEL(w.enc[:0], string(s))
		w.subst += n
		w.bw.Write(w.enc)
	case ASCII:
		w.enc = w.enc[:0]
		for _, r := range string(s) {
			if r >= 0x80 {
				r = '?'
				w.subst++
			}
			w.enc = append(w.enc, byte(r))
		}
		w.bw.Write(w.enc)
	default:
		w.bw.Write(s)
	}
	if _, err := w.bw.WriteString(w.opts.LineEnding); err != nil {
		w.err = err
	}
}

// escape doubles @ as the version requires: GEDCOM 7 doubles a leading @ only; 5.5 and
// 5.5.1 double every @ except those of an @#…@ escape (such as @#DJULIAN@).
func (w *Writer) escape(s string) string {
	if strings.IndexByte(s, '@') < 0 {
		return s
	}
	if w.opts.Version == Version70 {
		if s[0] == '@' {
			return "@" + s
		}
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '@' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '#' {
			if j := strings.IndexByte(s[i+2:], '@'); j >= 0 {
				b.WriteString(s[i : i+2+j+1])
				i += 2 + j
				continue
			}
		}
		b.WriteString("@@")
	}
	return b.String()
}

// ident makes a cross-reference identifier writable: upper case; for GEDCOM 7 only A–Z,
// 0–9 and _ (any other byte becomes _ and two hex digits); for 5.5.x no @ or control
// characters (each becomes _).
func (w *Writer) ident(s string) string {
	s = strings.ToUpper(s)
	if s == Void {
		return s
	}
	ok := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if w.opts.Version == Version70 {
			ok = ok && (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')
		} else {
			ok = ok && c != '@' && c >= 0x20 && c != 0x7F
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case w.opts.Version == Version70 && !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'):
			b.WriteByte('_')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		case w.opts.Version != Version70 && (c == '@' || c < 0x20 || c == 0x7F):
			b.WriteByte('_')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func validTagString(t string) bool {
	if t == "" || t[0] == '@' {
		return false
	}
	return strings.IndexAny(t, " \t\r\n") < 0
}

// splitValue cuts an escaped value into pieces for one line and CONC lines: the first
// piece at most first characters, the others at most next. It never cuts an @@ pair, an
// @#…@ escape, or before a combining mark, and it prefers not to cut next to a space
// (readers that trim lines would lose it).
func splitValue(s string, first, next int) []string {
	first = max(first, 20)
	next = max(next, 20)
	if utf8.RuneCountInString(s) <= first {
		return []string{s}
	}
	var out []string
	limit := first
	for utf8.RuneCountInString(s) > limit {
		cut := cutPoint(s, limit)
		out = append(out, s[:cut])
		s = s[cut:]
		limit = next
	}
	return append(out, s)
}

// cutPoint returns a byte offset in s, after at most limit runes and at least one, where s
// may be cut.
func cutPoint(s string, limit int) int {
	// offsets of the first limit+1 runes
	offs := make([]int, 0, limit+1)
	for i := range s {
		if len(offs) > limit {
			break
		}
		offs = append(offs, i)
	}
	// positions inside escapes
	inEsc := make([]bool, len(offs))
	for k := 0; k < len(offs); k++ {
		i := offs[k]
		if s[i] != '@' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '@' {
			if k+1 < len(inEsc) {
				inEsc[k+1] = true
			}
			k++
			continue
		}
		if i+1 < len(s) && s[i+1] == '#' {
			if j := strings.IndexByte(s[i+2:], '@'); j >= 0 {
				end := i + 2 + j // offset of the closing @
				for m := k + 1; m < len(offs) && offs[m] <= end; m++ {
					inEsc[m] = true
				}
			}
		}
	}
	allowed := func(k int) bool {
		if k <= 0 || k >= len(offs) || inEsc[k] {
			return false
		}
		r, _ := utf8.DecodeRuneInString(s[offs[k]:])
		return !unicode.Is(unicode.Mn, r)
	}
	good := func(k int) bool {
		return allowed(k) && s[offs[k]] != ' ' && s[offs[k]-1] != ' '
	}
	top := min(limit, len(offs)-1)
	for k := top; k > top-40 && k > 0; k-- {
		if good(k) {
			return offs[k]
		}
	}
	for k := top; k > 0; k-- {
		if allowed(k) {
			return offs[k]
		}
	}
	return offs[top]
}

// headRecord builds the HEAD the Writer writes.
func (w *Writer) headRecord(h *Header) *Line {
	o := &w.opts
	var head *Line
	if h != nil && h.Record != nil {
		head = h.Record.Clone()
		head.Xref, head.Pointer, head.Value = "", "", ""
		head.Tag = "HEAD"
	} else {
		head = &Line{Tag: "HEAD"}
		if h != nil {
			if h.Source != "" {
				s := &Line{Tag: "SOUR", Value: h.Source}
				if h.SourceName != "" {
					s.Children = append(s.Children, &Line{Tag: "NAME", Value: h.SourceName})
				}
				if h.SourceVersion != "" {
					s.Children = append(s.Children, &Line{Tag: "VERS", Value: h.SourceVersion})
				}
				head.Children = append(head.Children, s)
			}
			if h.Submitter != "" {
				head.Children = append(head.Children, &Line{Tag: "SUBM", Pointer: h.Submitter})
			}
			if h.Filename != "" {
				head.Children = append(head.Children, &Line{Tag: "FILE", Value: h.Filename})
			}
			if h.Language != "" {
				head.Children = append(head.Children, &Line{Tag: "LANG", Value: h.Language})
			}
			if len(h.Schema) > 0 && o.Version == Version70 {
				sch := &Line{Tag: "SCHMA"}
				for _, tag := range sortedKeys(h.Schema) {
					sch.Children = append(sch.Children, &Line{Tag: "TAG", Value: tag + " " + h.Schema[tag]})
				}
				head.Children = append(head.Children, sch)
			}
		}
	}
	vers := o.Version.String()
	if h != nil && o.Version == Version70 && h.Version == Version70 && strings.HasPrefix(h.VersionString, "7.0.") {
		vers = h.VersionString
	}
	gedc := head.Child("GEDC")
	if gedc == nil {
		gedc = &Line{Tag: "GEDC"}
		head.Children = append([]*Line{gedc}, head.Children...)
	}
	gedc.Pointer, gedc.Value = "", ""
	if v := gedc.Child("VERS"); v != nil {
		v.Value, v.Pointer = vers, ""
	} else {
		gedc.Children = append([]*Line{{Tag: "VERS", Value: vers}}, gedc.Children...)
	}
	if o.Version == Version70 {
		gedc.Children = without(gedc.Children, "FORM")
		head.Children = without(head.Children, "CHAR")
	} else {
		if gedc.Child("FORM") == nil {
			gedc.Children = append(gedc.Children, &Line{Tag: "FORM", Value: "LINEAGE-LINKED"})
		}
		char := o.Encoding.charValue()
		if c := head.Child("CHAR"); c != nil {
			if e, ok := EncodingFromCharset(c.Value); !ok || e != o.Encoding && !(e == UTF16LE && o.Encoding == UTF16BE) {
				c.Children = nil // a VERS of another character set no longer applies
			}
			c.Value, c.Pointer = char, ""
		} else {
			// After GEDC, where 5.5.1 lists it.
			at := 0
			for i, c := range head.Children {
				if c == gedc {
					at = i + 1
				}
			}
			kids := make([]*Line, 0, len(head.Children)+1)
			kids = append(kids, head.Children[:at]...)
			kids = append(kids, &Line{Tag: "CHAR", Value: char})
			head.Children = append(kids, head.Children[at:]...)
		}
	}
	return head
}

func without(ls []*Line, tag string) []*Line {
	out := ls[:0:0]
	for _, l := range ls {
		if l.Tag != tag {
			out = append(out, l)
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
