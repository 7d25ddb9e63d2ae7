package gedcom

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Encoding is a character encoding of a GEDCOM file.
type Encoding int

// The encodings the Reader understands. The Writer writes UTF8 for GEDCOM 7 and UTF8,
// UTF16LE, UTF16BE, ANSEL or ASCII for GEDCOM 5.5 and 5.5.1 (the values 5.5.1 allows in
// HEAD.CHAR).
const (
	EncodingUnknown Encoding = iota
	UTF8
	UTF16LE
	UTF16BE
	ANSEL
	ASCII
	CP1252   // "ANSI": Windows-1252, also used for ISO-8859-1 labels (a superset of it)
	CP437    // "IBM PC": the original IBM PC / MS-DOS code page
	MacRoman // "MACINTOSH"
)

var encodingNames = [...]string{
	EncodingUnknown: "",
	UTF8:            "UTF-8",
	UTF16LE:         "UTF-16LE",
	UTF16BE:         "UTF-16BE",
	ANSEL:           "ANSEL",
	ASCII:           "ASCII",
	CP1252:          "ANSI",
	CP437:           "IBMPC",
	MacRoman:        "MACINTOSH",
}

// String is the encoding's usual HEAD.CHAR spelling ("UTF-8", "ANSEL", "ANSI", "IBMPC"…);
// UTF-16 is "UTF-16LE" or "UTF-16BE" (in a file's HEAD.CHAR it is "UNICODE").
func (e Encoding) String() string {
	if e >= 0 && int(e) < len(encodingNames) {
		return encodingNames[e]
	}
	return "Encoding(" + strconv.Itoa(int(e)) + ")"
}

// charValue is what the Writer puts in HEAD.CHAR for e.
func (e Encoding) charValue() string {
	switch e {
	case UTF16LE, UTF16BE:
		return "UNICODE"
	}
	return e.String()
}

// EncodingFromCharset maps a HEAD.CHAR value to an encoding. The match ignores case,
// spaces, hyphens and underscores; ok is false for values it does not know. UNICODE is
// UTF-16 (GEDCOM 5.5.1); the Reader reads a file that says UNICODE but is not UTF-16 as
// UTF-8.
func EncodingFromCharset(value string) (e Encoding, ok bool) {
	var b strings.Builder
	for _, r := range strings.ToUpper(value) {
		if r == ' ' || r == '-' || r == '_' || r == '\t' {
			continue
		}
		b.WriteRune(r)
	}
	switch b.String() {
	case "UTF8", "UTF8BOM":
		return UTF8, true
	case "UNICODE", "UTF16", "UCS2", "UTF16LE":
		return UTF16LE, true
	case "UTF16BE":
		return UTF16BE, true
	case "ANSEL", "ANSIZ39.47", "Z39.47", "MARC8":
		return ANSEL, true
	case "ASCII", "USASCII", "ANSIX3.4":
		return ASCII, true
	case "ANSI", "WINDOWS", "WINDOWS1252", "CP1252", "MSWINDOWS", "IBMWINDOWS", "WINANSI",
		"ISO88591", "ISO8859", "LATIN1", "ISOLATIN1", "8859", "ISO885915", "LATIN9":
		return CP1252, true
	case "IBMPC", "IBMDOS", "MSDOS", "DOS", "CP437", "IBM437", "PC8", "OEM", "IBM":
		return CP437, true
	case "MACINTOSH", "MAC", "MACROMAN", "APPLEROMAN":
		return MacRoman, true
	}
	return EncodingUnknown, false
}

// Single-byte tables: the rune for each byte 0x80–0xFF.
var (
	cp1252Table   [128]rune
	cp437Table    [128]rune
	macRomanTable [128]rune
)

func init() {
	for i := range 128 {
		b := byte(0x80 + i)
		cp1252Table[i] = charmap.Windows1252.DecodeByte(b)
		cp437Table[i] = charmap.CodePage437.DecodeByte(b)
		macRomanTable[i] = charmap.Macintosh.DecodeByte(b)
	}
	// Windows-1252 leaves five bytes undefined; x/text gives U+FFFD for them. Map them to
	// the C1 controls of the same number, as ISO-8859-1 (and the WHATWG decoder) does, so
	// that no byte is lost.
	for _, b := range []byte{0x81, 0x8D, 0x8F, 0x90, 0x9D} {
		cp1252Table[b-0x80] = rune(b)
	}
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// decodeTable appends the UTF-8 form of the single-byte text src to dst.
func decodeTable(dst, src []byte, t *[128]rune) []byte {
	for _, c := range src {
		if c < 0x80 {
			dst = append(dst, c)
			continue
		}
		dst = utf8.AppendRune(dst, t[c-0x80])
	}
	return dst
}

// decodeUTF8Lenient appends src to dst, reading every byte that is not part of a valid
// UTF-8 sequence as Windows-1252. It reports whether it had to.
func decodeUTF8Lenient(dst, src []byte) ([]byte, bool) {
	bad := false
	for len(src) > 0 {
		c := src[0]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			src = src[1:]
			continue
		}
		r, n := utf8.DecodeRune(src)
		if r == utf8.RuneError && n <= 1 {
			dst = utf8.AppendRune(dst, cp1252Table[c-0x80])
			bad = true
			src = src[1:]
			continue
		}
		dst = append(dst, src[:n]...)
		src = src[n:]
	}
	return dst, bad
}
