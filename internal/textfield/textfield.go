package textfield

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Errors of SingleLine and MultiLine; callers turn them into their own field messages.
var (
	// ErrNotText: the value is not valid UTF-8.
	ErrNotText = errors.New("textfield: not valid UTF-8 text")
	// ErrControl: the value holds a line break where none is allowed, or a control or
	// direction-override character.
	ErrControl = errors.New("textfield: control character")
	// ErrTooLong: the value has more characters than allowed.
	ErrTooLong = errors.New("textfield: too long")
)

// forbidden reports whether r may appear in no text field: the C0 controls (TAB, CR and
// LF among them), DEL, the C1 controls (NEL among them), the Unicode line and paragraph
// separators, and the explicit bidirectional embeddings, overrides and isolates, which
// can make a name display as different text ("Trojan Source"). The implicit marks
// U+200E and U+200F stay allowed: right-to-left names legitimately use them.
func forbidden(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// SingleLine trims surrounding white space from s and checks that the rest is valid
// UTF-8 of at most max characters (max <= 0: no limit) with no character forbidden in
// a single line. It returns the trimmed value, or an error: ErrNotText, ErrControl or
// ErrTooLong, in that order of precedence.
func SingleLine(s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	return s, check(s, max, false)
}

// MultiLine is SingleLine for fields that may hold several lines (notes,
// descriptions): CR LF and lone CR become LF first (browsers send a textarea's line
// breaks as CR LF), then LF is the one control character allowed.
func MultiLine(s string, max int) (string, error) {
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	s = strings.TrimSpace(s)
	return s, check(s, max, true)
}

func check(s string, max int, newlines bool) error {
	if !utf8.ValidString(s) {
		return ErrNotText
	}
	n := 0
	for _, r := range s {
		if forbidden(r) && !(newlines && r == '\n') {
			return ErrControl
		}
		n++
	}
	if max > 0 && n > max {
		return ErrTooLong
	}
	return nil
}

// Valid reports whether s may be stored in a single-line field as it is.
func Valid(s string) bool { return check(s, 0, false) == nil }

// Escape returns s with every character SingleLine forbids written as a Go escape
// (\n, \r, \t, \x1b, \u2028 …) and every invalid UTF-8 byte as \xNN, so that a value
// stored before validation existed prints on one line and cannot move a terminal's
// cursor. Valid values come back unchanged.
func Escape(s string) string {
	if Valid(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case forbidden(r):
			q := strconv.QuoteRuneToASCII(r) // '\n', '\x1b', '\u2028'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}
