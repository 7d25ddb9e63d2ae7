package names

import (
	"strings"
	"unicode"
)

// Double Metaphone, after Lawrence Philips, "The Double Metaphone Search Algorithm",
// C/C++ Users Journal, June 2000. It codes a name as it would be said, in a primary
// and an alternate reading, each at most four characters from the alphabet
// A (a first vowel) F H J K L M N P R S T X (as in sh) 0 (as in th).

const metaphoneMax = 4

// cedilla marks Ç, which the rules treat apart from C; input letters are A–Z, so it
// cannot collide.
const cedilla = '#'

type metaphone struct {
	w                  []byte // the name in upper case, padded with spaces
	length, last       int
	primary, alternate strings.Builder
	slavoGermanic      bool
}

// DoubleMetaphone returns the primary and alternate Double Metaphone codes of a name.
// The alternate is the same as the primary when the name has only one likely reading
// (Smith SM0 XMT; Schmidt XMT SMT; Thomson TMSN TMSN). Accents are folded first,
// except that Ç is kept as the rules want it. A name with no letters gives "", "".
func DoubleMetaphone(name string) (primary, alternate string) {
	return doubleMetaphone(metaphoneLetters(name))
}

// metaphoneLetters prepares a name: upper-case letters, single spaces between words
// (the rules look for VAN, VON and SAN as separate words), Ç kept as a marker.
func metaphoneLetters(name string) []byte {
	name = dropEditorial(name)
	out := make([]byte, 0, len(name))
	space := false
	for _, r := range name {
		switch {
		case r == 'Ç' || r == 'ç':
			if space && len(out) > 0 {
				out = append(out, ' ')
			}
			space = false
			out = append(out, cedilla)
		case unicode.IsLetter(r):
			if space && len(out) > 0 {
				out = append(out, ' ')
			}
			space = false
			for _, c := range []byte(foldLetter(r)) {
				if 'a' <= c && c <= 'z' {
					out = append(out, c-'a'+'A')
				}
			}
		case isApostrophe(r) || isGap(r) || r == '[' || r == ']':
		default:
			space = true
		}
	}
	return out
}

func doubleMetaphone(w []byte) (string, string) {
	if len(w) == 0 {
		return "", ""
	}
	m := &metaphone{length: len(w), last: len(w) - 1}
	m.w = append(append(make([]byte, 0, len(w)+5), w...), "     "...)
	s := string(w)
	m.slavoGermanic = strings.Contains(s, "W") || strings.Contains(s, "K") ||
		strings.Contains(s, "CZ") || strings.Contains(s, "WITZ")
	m.encode()
	p, a := m.primary.String(), m.alternate.String()
	if len(p) > metaphoneMax {
		p = p[:metaphoneMax]
	}
	if len(a) > metaphoneMax {
		a = a[:metaphoneMax]
	}
	return p, a
}

func (m *metaphone) at(i int) byte {
	if i < 0 || i >= len(m.w) {
		return 0
	}
	return m.w[i]
}

// is reports whether one of the strings starts at position i.
func (m *metaphone) is(i int, ss ...string) bool {
	if i < 0 {
		return false
	}
	for _, s := range ss {
		if i+len(s) <= len(m.w) && string(m.w[i:i+len(s)]) == s {
			return true
		}
	}
	return false
}

func (m *metaphone) vowel(i int) bool {
	switch m.at(i) {
	case 'A', 'E', 'I', 'O', 'U', 'Y':
		return i < m.length
	}
	return false
}

// add appends to both codes.
func (m *metaphone) add(s string) {
	m.primary.WriteString(s)
	m.alternate.WriteString(s)
}

// add2 appends to each code its own reading; "" leaves that code as it is.
func (m *metaphone) add2(primary, alternate string) {
	m.primary.WriteString(primary)
	m.alternate.WriteString(alternate)
}

func (m *metaphone) germanic() bool {
	return m.is(0, "VAN ", "VON ", "SCH")
}

func (m *metaphone) encode() {
	i := 0
	// Silent first letters: GN, KN, PN, WR, PS.
	if m.is(0, "GN", "KN", "PN", "WR", "PS") {
		i = 1
	}
	// An initial X is S (Xavier).
	if m.at(0) == 'X' {
		m.add("S")
		i = 1
	}
	for (m.primary.Len() < metaphoneMax || m.alternate.Len() < metaphoneMax) && i < m.length {
		switch c := m.at(i); c {
		case 'A', 'E', 'I', 'O', 'U', 'Y':
			if i == 0 { // a first vowel is coded A; others are not coded
				m.add("A")
			}
			i++
		case 'B':
			m.add("P")
			i = m.skipDouble(i, 'B')
		case cedilla:
			m.add("S")
			i++
		case 'C':
			i = m.c(i)
		case 'D':
			switch {
			case m.is(i, "DG"):
				if m.is(i+2, "I", "E", "Y") { // edge
					m.add("J")
					i += 3
				} else { // edgar
					m.add("TK")
					i += 2
				}
			case m.is(i, "DT", "DD"):
				m.add("T")
				i += 2
			default:
				m.add("T")
				i++
			}
		case 'F':
			m.add("F")
			i = m.skipDouble(i, 'F')
		case 'G':
			i = m.g(i)
		case 'H':
			// Kept only first or between vowels, and before a vowel.
			if (i == 0 || m.vowel(i-1)) && m.vowel(i+1) {
				m.add("H")
				i += 2
			} else {
				i++
			}
		case 'J':
			i = m.j(i)
		case 'K':
			m.add("K")
			i = m.skipDouble(i, 'K')
		case 'L':
			if m.at(i+1) == 'L' {
				// Spanish -ILLO, -ILLA, -ALLE: the LL may be a Y sound.
				if (i == m.length-3 && m.is(i-1, "ILLO", "ILLA", "ALLE")) ||
					((m.is(m.last-1, "AS", "OS") || m.is(m.last, "A", "O")) && m.is(i-1, "ALLE")) {
					m.add2("L", "")
					i += 2
					continue
				}
				i += 2
			} else {
				i++
			}
			m.add("L")
		case 'M':
			// Dumb, thumb, and the B of -UMBER are silent.
			if (m.is(i-1, "UMB") && (i+1 == m.last || m.is(i+2, "ER"))) || m.at(i+1) == 'M' {
				i += 2
			} else {
				i++
			}
			m.add("M")
		case 'N':
			m.add("N")
			i = m.skipDouble(i, 'N')
		case 'P':
			if m.at(i+1) == 'H' {
				m.add("F")
				i += 2
				continue
			}
			// Campbell, raspberry: the next P or B is silent.
			if m.is(i+1, "P", "B") {
				i += 2
			} else {
				i++
			}
			m.add("P")
		case 'Q':
			m.add("K")
			i = m.skipDouble(i, 'Q')
		case 'R':
			// French -IER at the end (Rogier), but not -MEIER, -MAIER.
			if i == m.last && !m.slavoGermanic && m.is(i-2, "IE") && !m.is(i-4, "ME", "MA") {
				m.add2("", "R")
			} else {
				m.add("R")
			}
			i = m.skipDouble(i, 'R')
		case 'S':
			i = m.s(i)
		case 'T':
			i = m.t(i)
		case 'V':
			m.add("F")
			i = m.skipDouble(i, 'V')
		case 'W':
			i = m.wCase(i)
		case 'X':
			// French -AUX, -EAUX, -OUX at the end are silent (Breaux).
			if !(i == m.last && (m.is(i-3, "IAU", "EAU") || m.is(i-2, "AU", "OU"))) {
				m.add("KS")
			}
			if m.is(i+1, "C", "X") {
				i += 2
			} else {
				i++
			}
		case 'Z':
			if m.at(i+1) == 'H' { // Chinese pinyin: Zhao
				m.add("J")
				i += 2
				continue
			}
			if m.is(i+1, "ZO", "ZI", "ZA") || (m.slavoGermanic && i > 0 && m.at(i-1) != 'T') {
				m.add2("S", "TS")
			} else {
				m.add("S")
			}
			i = m.skipDouble(i, 'Z')
		default:
			i++
		}
	}
}

func (m *metaphone) skipDouble(i int, c byte) int {
	if m.at(i+1) == c {
		return i + 2
	}
	return i + 1
}

func (m *metaphone) c(i int) int {
	switch {
	// Germanic -ACH- as in Bacher, Macher: K, but not -ACHI-, -ACHE-.
	case i > 1 && !m.vowel(i-2) && m.is(i-1, "ACH") && m.at(i+2) != 'I' &&
		(m.at(i+2) != 'E' || m.is(i-2, "BACHER", "MACHER")):
		m.add("K")
		return i + 2
	case i == 0 && m.is(i, "CAESAR"):
		m.add("S")
		return i + 2
	case m.is(i, "CHIA"): // Italian: Chianti
		m.add("K")
		return i + 2
	case m.is(i, "CH"):
		switch {
		case i > 0 && m.is(i, "CHAE"): // Michael
			m.add2("K", "X")
		case i == 0 && (m.is(i+1, "HARAC", "HARIS") || m.is(i+1, "HOR", "HYM", "HIA", "HEM")) &&
			!m.is(0, "CHORE"): // Greek roots: chorus, chemistry, but not chore
			m.add("K")
		case m.germanic() || m.is(i-2, "ORCHES", "ARCHIT", "ORCHID") || m.is(i+2, "T", "S") ||
			((m.is(i-1, "A", "O", "U", "E") || i == 0) &&
				m.is(i+2, "L", "R", "N", "M", "B", "H", "F", "V", "W", " ")):
			m.add("K") // German, Greek, or CH for a KH sound
		case i > 0:
			if m.is(0, "MC") {
				m.add("K")
			} else {
				m.add2("X", "K")
			}
		default:
			m.add("X")
		}
		return i + 2
	case m.is(i, "CZ") && !m.is(i-2, "WICZ"): // Czerny
		m.add2("S", "X")
		return i + 2
	case m.is(i+1, "CIA"): // Focaccia
		m.add("X")
		return i + 3
	case m.is(i, "CC") && !(i == 1 && m.at(0) == 'M'): // double C, but not McClellan
		if m.is(i+2, "I", "E", "H") && !m.is(i+2, "HU") {
			if (i == 1 && m.at(i-1) == 'A') || m.is(i-1, "UCCEE", "UCCES") {
				m.add("KS") // accident, accede, succeed
			} else {
				m.add("X") // bacci, bertucci
			}
			return i + 3
		}
		m.add("K") // Pierce's rule
		return i + 2
	case m.is(i, "CK", "CG", "CQ"):
		m.add("K")
		return i + 2
	case m.is(i, "CI", "CE", "CY"):
		if m.is(i, "CIO", "CIE", "CIA") { // Italian against English
			m.add2("S", "X")
		} else {
			m.add("S")
		}
		return i + 2
	}
	m.add("K")
	switch {
	case m.is(i+1, " C", " Q", " G"): // Mac Caffrey, Mac Gregor
		return i + 3
	case m.is(i+1, "C", "K", "Q") && !m.is(i+1, "CE", "CI"):
		return i + 2
	}
	return i + 1
}

func (m *metaphone) g(i int) int {
	next := m.at(i + 1)
	switch {
	case next == 'H':
		if i > 0 && !m.vowel(i-1) {
			m.add("K")
			return i + 2
		}
		if i == 0 { // Ghislane, Ghiradelli
			if m.at(i+2) == 'I' {
				m.add("J")
			} else {
				m.add("K")
			}
			return i + 2
		}
		// Parker's rule: Hugh, bough, broughton — silent.
		if (i > 1 && m.is(i-2, "B", "H", "D")) || (i > 2 && m.is(i-3, "B", "H", "D")) ||
			(i > 3 && m.is(i-4, "B", "H")) {
			return i + 2
		}
		// Laugh, McLaughlin, cough, gough, rough, tough: F.
		if i > 2 && m.at(i-1) == 'U' && m.is(i-3, "C", "G", "L", "R", "T") {
			m.add("F")
		} else if i > 0 && m.at(i-1) != 'I' {
			m.add("K")
		}
		return i + 2
	case next == 'N':
		if i == 1 && m.vowel(0) && !m.slavoGermanic {
			m.add2("KN", "N")
		} else if !m.is(i+2, "EY") && m.at(i+1) != 'Y' && !m.slavoGermanic { // not Cagney
			m.add2("N", "KN")
		} else {
			m.add("KN")
		}
		return i + 2
	case m.is(i+1, "LI") && !m.slavoGermanic: // Tagliaro
		m.add2("KL", "L")
		return i + 2
	// -GES-, -GEP-, -GEL-, -GIE- at the beginning.
	case i == 0 && (next == 'Y' || m.is(i+1, "ES", "EP", "EB", "EL", "EY", "IB", "IL", "IN", "IE", "EI", "ER")):
		m.add2("K", "J")
		return i + 2
	// -GER-, -GY-, but not danger, ranger, manger, and not after E or I, RGY, OGY.
	case (m.is(i+1, "ER") || next == 'Y') && !m.is(0, "DANGER", "RANGER", "MANGER") &&
		!m.is(i-1, "E", "I") && !m.is(i-1, "RGY", "OGY"):
		m.add2("K", "J")
		return i + 2
	// Italian: Biaggi.
	case m.is(i+1, "E", "I", "Y") || m.is(i-1, "AGGI", "OGGI"):
		if m.germanic() || m.is(i+1, "ET") {
			m.add("K")
		} else if m.is(i+1, "IER ") { // always soft in French -GIER
			m.add("J")
		} else {
			m.add2("J", "K")
		}
		return i + 2
	}
	m.add("K")
	return m.skipDouble(i, 'G')
}

func (m *metaphone) j(i int) int {
	// Spanish: Jose, San Jacinto.
	if m.is(i, "JOSE") || m.is(0, "SAN ") {
		if (i == 0 && m.at(i+4) == ' ') || m.is(0, "SAN ") {
			m.add("H")
		} else {
			m.add2("J", "H")
		}
		return i + 1
	}
	switch {
	case i == 0 && !m.is(i, "JOSE"):
		m.add2("J", "A") // Yankelovich, Jankelowicz
	case m.vowel(i-1) && !m.slavoGermanic && (m.at(i+1) == 'A' || m.at(i+1) == 'O'):
		m.add2("J", "H") // Spanish: bajador
	case i == m.last:
		m.add2("J", "")
	case !m.is(i+1, "L", "T", "K", "S", "N", "M", "B", "Z") && !m.is(i-1, "S", "K", "L"):
		m.add("J")
	}
	return m.skipDouble(i, 'J')
}

func (m *metaphone) s(i int) int {
	switch {
	case m.is(i-1, "ISL", "YSL"): // island, isle, Carlisle, Carlysle
		return i + 1
	case i == 0 && m.is(i, "SUGAR"):
		m.add2("X", "S")
		return i + 1
	case m.is(i, "SH"):
		if m.is(i+1, "HEIM", "HOEK", "HOLM", "HOLZ") { // Germanic
			m.add("S")
		} else {
			m.add("X")
		}
		return i + 2
	case m.is(i, "SIO", "SIA") || m.is(i, "SIAN"): // Italian and Armenian
		if !m.slavoGermanic {
			m.add2("S", "X")
		} else {
			m.add("S")
		}
		return i + 3
	// German and anglicised: Smith and Schmidt, Snider and Schneider; Slavic -SZ-.
	case (i == 0 && m.is(i+1, "M", "N", "L", "W")) || m.is(i+1, "Z"):
		m.add2("S", "X")
		if m.is(i+1, "Z") {
			return i + 2
		}
		return i + 1
	case m.is(i, "SC"):
		if m.at(i+2) == 'H' { // Schlesinger's rule
			if m.is(i+3, "OO", "ER", "EN", "UY", "ED", "EM") { // Dutch: school, schooner
				if m.is(i+3, "ER", "EN") { // Schermerhorn, Schenker
					m.add2("X", "SK")
				} else {
					m.add("SK")
				}
				return i + 3
			}
			if i == 0 && !m.vowel(3) && m.at(3) != 'W' {
				m.add2("X", "S")
			} else {
				m.add("X")
			}
			return i + 3
		}
		if m.is(i+2, "I", "E", "Y") {
			m.add("S")
		} else {
			m.add("SK")
		}
		return i + 3
	}
	// French -AIS, -OIS at the end (Resnais, Artois).
	if i == m.last && m.is(i-2, "AI", "OI") {
		m.add2("", "S")
	} else {
		m.add("S")
	}
	if m.is(i+1, "S", "Z") {
		return i + 2
	}
	return i + 1
}

func (m *metaphone) t(i int) int {
	switch {
	case m.is(i, "TION"):
		m.add("X")
		return i + 3
	case m.is(i, "TIA", "TCH"):
		m.add("X")
		return i + 3
	case m.is(i, "TH") || m.is(i, "TTH"):
		if m.is(i+2, "OM", "AM") || m.germanic() { // Thomas, Thames, or German
			m.add("T")
		} else {
			m.add2("0", "T")
		}
		return i + 2
	}
	m.add("T")
	if m.is(i+1, "T", "D") {
		return i + 2
	}
	return i + 1
}

func (m *metaphone) wCase(i int) int {
	if m.is(i, "WR") {
		m.add("R")
		return i + 2
	}
	if i == 0 && (m.vowel(i+1) || m.is(i, "WH")) {
		if m.vowel(i + 1) { // Wasserman should match Vasserman
			m.add2("A", "F")
		} else { // Uomo should match Womo
			m.add("A")
		}
	}
	// Arnow should match Arnoff.
	if (i == m.last && m.vowel(i-1)) || m.is(i-1, "EWSKI", "EWSKY", "OWSKI", "OWSKY") || m.is(0, "SCH") {
		m.add2("", "F")
		return i + 1
	}
	if m.is(i, "WICZ", "WITZ") { // Polish: Filipowicz
		m.add2("TS", "FX")
		return i + 4
	}
	return i + 1
}
