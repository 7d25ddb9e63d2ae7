package gedcom

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ANSEL (ANSI Z39.47-1985) as GEDCOM 5.5 uses it: ASCII below 0x80, spacing letters and
// symbols at 0xA1–0xCF, and combining diacritics at 0xE0–0xFE that come *before* the
// letter they modify (Unicode puts them after). The Unicode values are those of the
// Library of Congress MARC-21 mapping, plus GEDCOM's own additions: 0xBE and 0xBF (empty
// and black box), 0xCD and 0xCE (midline e and o, here the subscript letters) and 0xCF
// (es zet). 0xC7 (MARC-21's es zet) is read as ß too; ß is written as 0xCF.
var anselSpacing = map[byte]rune{
	0x88: 0x0098, // MARC non-sort begin, kept as the C1 control of the same number
	0x89: 0x009C, // MARC non-sort end
	0x8D: 0x200D, // zero width joiner
	0x8E: 0x200C, // zero width non-joiner
	0xA1: 0x0141, // Ł
	0xA2: 0x00D8, // Ø
	0xA3: 0x0110, // Đ
	0xA4: 0x00DE, // Þ
	0xA5: 0x00C6, // Æ
	0xA6: 0x0152, // Œ
	0xA7: 0x02B9, // ʹ soft sign, prime
	0xA8: 0x00B7, // · middle dot
	0xA9: 0x266D, // ♭ musical flat
	0xAA: 0x00AE, // ®
	0xAB: 0x00B1, // ±
	0xAC: 0x01A0, // Ơ
	0xAD: 0x01AF, // Ư
	0xAE: 0x02BC, // ʼ alif
	0xB0: 0x02BB, // ʻ ayn
	0xB1: 0x0142, // ł
	0xB2: 0x00F8, // ø
	0xB3: 0x0111, // đ
	0xB4: 0x00FE, // þ
	0xB5: 0x00E6, // æ
	0xB6: 0x0153, // œ
	0xB7: 0x02BA, // ʺ hard sign, double prime
	0xB8: 0x0131, // ı dotless i
	0xB9: 0x00A3, // £
	0xBA: 0x00F0, // ð
	0xBC: 0x01A1, // ơ
	0xBD: 0x01B0, // ư
	0xBE: 0x25A1, // □ empty box (GEDCOM)
	0xBF: 0x25A0, // ■ black box (GEDCOM)
	0xC0: 0x00B0, // ° degree sign
	0xC1: 0x2113, // ℓ script l
	0xC2: 0x2117, // ℗ sound recording copyright
	0xC3: 0x00A9, // ©
	0xC4: 0x266F, // ♯ musical sharp
	0xC5: 0x00BF, // ¿
	0xC6: 0x00A1, // ¡
	0xC7: 0x00DF, // ß (MARC-21)
	0xC8: 0x20AC, // € (MARC-21)
	0xCD: 0x2091, // ₑ midline e (GEDCOM)
	0xCE: 0x2092, // ₒ midline o (GEDCOM)
	0xCF: 0x00DF, // ß es zet (GEDCOM)
}

var anselCombining = map[byte]rune{
	0xE0: 0x0309, // hook above
	0xE1: 0x0300, // grave
	0xE2: 0x0301, // acute
	0xE3: 0x0302, // circumflex
	0xE4: 0x0303, // tilde
	0xE5: 0x0304, // macron
	0xE6: 0x0306, // breve
	0xE7: 0x0307, // dot above
	0xE8: 0x0308, // diaeresis
	0xE9: 0x030C, // caron
	0xEA: 0x030A, // ring above
	0xEB: 0xFE20, // ligature left half
	0xEC: 0xFE21, // ligature right half
	0xED: 0x0315, // comma above right
	0xEE: 0x030B, // double acute
	0xEF: 0x0310, // candrabindu
	0xF0: 0x0327, // cedilla
	0xF1: 0x0328, // ogonek (right hook)
	0xF2: 0x0323, // dot below
	0xF3: 0x0324, // diaeresis below
	0xF4: 0x0325, // ring below
	0xF5: 0x0333, // double low line
	0xF6: 0x0332, // low line
	0xF7: 0x0326, // comma below (left hook)
	0xF8: 0x031C, // left half ring below (right cedilla)
	0xF9: 0x032E, // breve below
	0xFA: 0xFE22, // double tilde left half
	0xFB: 0xFE23, // double tilde right half
	0xFE: 0x0313, // comma above
}

var (
	anselDecode    [128]rune // 0x80–0xFF → rune; combining marks included; 0 = unassigned
	anselIsComb    [128]bool
	anselEncode    = map[rune]byte{}
	anselEncodeCmb = map[rune]byte{}
)

func init() {
	for b, r := range anselSpacing {
		anselDecode[b-0x80] = r
		if b != 0xC7 { // ß is written as GEDCOM's 0xCF
			anselEncode[r] = b
		}
	}
	for b, r := range anselCombining {
		anselDecode[b-0x80] = r
		anselIsComb[b-0x80] = true
		anselEncodeCmb[r] = b
	}
}

// decodeANSEL appends the UTF-8 (NFC) form of one ANSEL line to dst. bad counts bytes
// that are not assigned in ANSEL (each becomes U+FFFD).
func decodeANSEL(dst, src []byte) (out []byte, bad int) {
	start := len(dst)
	var marks [8]rune
	nm := 0
	combined := false
	for _, c := range src {
		if c < 0x80 {
			dst = append(dst, c)
			if nm > 0 {
				for _, m := range marks[:nm] {
					dst = utf8.AppendRune(dst, m)
				}
				nm = 0
			}
			continue
		}
		r := anselDecode[c-0x80]
		if r == 0 {
			r = utf8.RuneError
			bad++
		}
		if anselIsComb[c-0x80] {
			combined = true
			if nm < len(marks) {
				marks[nm] = r
				nm++
			}
			continue
		}
		dst = utf8.AppendRune(dst, r)
		for _, m := range marks[:nm] {
			dst = utf8.AppendRune(dst, m)
		}
		nm = 0
	}
	// Marks at the end of a line have nothing to modify: keep them after a space, the way
	// Unicode shows a diacritic on its own.
	if nm > 0 {
		dst = append(dst, ' ')
		for _, m := range marks[:nm] {
			dst = utf8.AppendRune(dst, m)
		}
	}
	if combined {
		composed := norm.NFC.Bytes(dst[start:])
		dst = append(dst[:start], composed...)
	}
	return dst, bad
}

// encodeANSEL appends the ANSEL form of the UTF-8 text s to dst. Characters ANSEL cannot
// express become '?'; subst counts them.
func encodeANSEL(dst []byte, s string) (out []byte, subst int) {
	if isASCIIString(s) {
		return append(dst, s...), 0
	}
	d := norm.NFD.String(s)
	// Each cluster is a base character and the combining marks after it.
	for len(d) > 0 {
		base, n := utf8.DecodeRuneInString(d)
		d = d[n:]
		var marks []rune
		for len(d) > 0 {
			m, n := utf8.DecodeRuneInString(d)
			if !unicode.Is(unicode.Mn, m) {
				break
			}
			marks = append(marks, m)
			d = d[n:]
		}
		if unicode.Is(unicode.Mn, base) {
			// A mark with nothing before it: ANSEL writes it before a space.
			marks = append([]rune{base}, marks...)
			base = ' '
		}
		// A mark ANSEL lacks may belong to a letter it has precomposed (O with horn is Ơ,
		// 0xAC): fold such marks into the base.
		var codes []byte
		for _, m := range marks {
			if b, ok := anselEncodeCmb[m]; ok {
				codes = append(codes, b)
				continue
			}
			c := []rune(norm.NFC.String(string([]rune{base, m})))
			if _, ok := anselEncode[c[0]]; len(c) == 1 && ok {
				base = c[0]
				continue
			}
			subst++
		}
		dst = append(dst, codes...)
		switch b, ok := anselEncode[base]; {
		case base < 0x80:
			dst = append(dst, byte(base))
		case ok:
			dst = append(dst, b)
		default:
			dst = append(dst, '?')
			subst++
		}
	}
	return dst, subst
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
