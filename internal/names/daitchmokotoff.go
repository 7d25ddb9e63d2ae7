package names

import (
	"slices"
	"strings"
	"unicode"
)

// dmRule is one row of the Daitch–Mokotoff coding chart: a letter or letter group and
// its code at the start of a name, before a vowel, and anywhere else. A code with a
// "|" has two alternatives and makes the name branch; an empty alternative means the
// letters are not coded there.
type dmRule struct {
	letters              string
	start, vowel, others []string
}

// The chart as published by Daitch and Mokotoff (Avotaynu, JewishGen), in its order.
// The Polish nasal vowels Ą and Ę and the Romanian Ţ are written here as the marker
// bytes 1, 2 and 3, which letters of the input never are.
var dmChart = []struct{ letters, start, vowel, others string }{
	{"AI", "0", "1", ""}, {"AJ", "0", "1", ""}, {"AY", "0", "1", ""},
	{"AU", "0", "7", ""},
	{"1", "", "", "6|"}, // Ą
	{"A", "0", "", ""},
	{"B", "7", "7", "7"},
	{"CHS", "5", "54", "54"},
	{"CH", "5|4", "5|4", "5|4"},
	{"CK", "5|45", "5|45", "5|45"},
	{"CZ", "4", "4", "4"}, {"CS", "4", "4", "4"}, {"CSZ", "4", "4", "4"}, {"CZS", "4", "4", "4"},
	{"C", "5|4", "5|4", "5|4"},
	{"DRZ", "4", "4", "4"}, {"DRS", "4", "4", "4"},
	{"DS", "4", "4", "4"}, {"DSH", "4", "4", "4"}, {"DSZ", "4", "4", "4"},
	{"DZ", "4", "4", "4"}, {"DZH", "4", "4", "4"}, {"DZS", "4", "4", "4"},
	{"D", "3", "3", "3"}, {"DT", "3", "3", "3"},
	{"EI", "0", "1", ""}, {"EJ", "0", "1", ""}, {"EY", "0", "1", ""},
	{"EU", "1", "1", ""},
	{"2", "", "", "6|"}, // Ę
	{"E", "0", "", ""},
	{"FB", "7", "7", "7"}, {"F", "7", "7", "7"},
	{"G", "5", "5", "5"},
	{"H", "5", "5", ""},
	{"IA", "1", "", ""}, {"IE", "1", "", ""}, {"IO", "1", "", ""}, {"IU", "1", "", ""},
	{"I", "0", "", ""},
	{"J", "1|4", "|4", "|4"},
	{"KS", "5", "54", "54"}, {"KH", "5", "5", "5"}, {"K", "5", "5", "5"},
	{"L", "8", "8", "8"},
	{"MN", "66", "66", "66"}, {"M", "6", "6", "6"},
	{"NM", "66", "66", "66"}, {"N", "6", "6", "6"},
	{"OI", "0", "1", ""}, {"OJ", "0", "1", ""}, {"OY", "0", "1", ""},
	{"O", "0", "", ""},
	{"P", "7", "7", "7"}, {"PF", "7", "7", "7"}, {"PH", "7", "7", "7"},
	{"Q", "5", "5", "5"},
	{"R", "9", "9", "9"},
	{"RS", "94|4", "94|4", "94|4"}, {"RZ", "94|4", "94|4", "94|4"},
	{"SCHTSCH", "2", "4", "4"}, {"SCHTSH", "2", "4", "4"}, {"SCHTCH", "2", "4", "4"},
	{"SCH", "4", "4", "4"},
	{"SHTCH", "2", "4", "4"}, {"SHCH", "2", "4", "4"}, {"SHTSH", "2", "4", "4"},
	{"SHT", "2", "43", "43"}, {"SCHT", "2", "43", "43"}, {"SCHD", "2", "43", "43"},
	{"SH", "4", "4", "4"},
	{"STCH", "2", "4", "4"}, {"STSCH", "2", "4", "4"}, {"SC", "2", "4", "4"},
	{"STRZ", "2", "4", "4"}, {"STRS", "2", "4", "4"}, {"STSH", "2", "4", "4"},
	{"ST", "2", "43", "43"},
	{"SZCZ", "2", "4", "4"}, {"SZCS", "2", "4", "4"},
	{"SZT", "2", "43", "43"}, {"SHD", "2", "43", "43"}, {"SZD", "2", "43", "43"}, {"SD", "2", "43", "43"},
	{"SZ", "4", "4", "4"},
	{"S", "4", "4", "4"},
	{"3", "3|4", "3|4", "3|4"}, // Ţ
	{"TCH", "4", "4", "4"}, {"TTCH", "4", "4", "4"}, {"TTSCH", "4", "4", "4"},
	{"TH", "3", "3", "3"},
	{"TRZ", "4", "4", "4"}, {"TRS", "4", "4", "4"},
	{"TSCH", "4", "4", "4"}, {"TSH", "4", "4", "4"},
	{"TS", "4", "4", "4"}, {"TTS", "4", "4", "4"}, {"TTSZ", "4", "4", "4"}, {"TC", "4", "4", "4"},
	{"TZ", "4", "4", "4"}, {"TTZ", "4", "4", "4"}, {"TZS", "4", "4", "4"}, {"TSZ", "4", "4", "4"},
	{"T", "3", "3", "3"},
	{"UI", "0", "1", ""}, {"UJ", "0", "1", ""}, {"UY", "0", "1", ""},
	{"U", "0", "", ""}, {"UE", "0", "", ""},
	{"V", "7", "7", "7"},
	{"W", "7", "7", "7"},
	{"X", "5", "54", "54"},
	{"Y", "1", "", ""},
	{"ZDZ", "2", "4", "4"}, {"ZDZH", "2", "4", "4"}, {"ZHDZH", "2", "4", "4"},
	{"ZD", "2", "43", "43"}, {"ZHD", "2", "43", "43"},
	{"ZH", "4", "4", "4"}, {"ZS", "4", "4", "4"}, {"ZSCH", "4", "4", "4"}, {"ZSH", "4", "4", "4"},
	{"Z", "4", "4", "4"},
}

// dmRules indexes the chart by first byte, longest letter group first, so that the
// longest group that matches is the one coded.
var dmRules = func() [256][]dmRule {
	var idx [256][]dmRule
	for _, r := range dmChart {
		idx[r.letters[0]] = append(idx[r.letters[0]], dmRule{
			letters: r.letters,
			start:   strings.Split(r.start, "|"),
			vowel:   strings.Split(r.vowel, "|"),
			others:  strings.Split(r.others, "|"),
		})
	}
	for i := range idx {
		slices.SortStableFunc(idx[i], func(a, b dmRule) int { return len(b.letters) - len(a.letters) })
	}
	return idx
}()

// dmLetters prepares a name for coding: upper-case ASCII letters, with the three
// letters the chart codes specially kept as their marker bytes.
func dmLetters(name string) []byte {
	name = dropEditorial(name)
	out := make([]byte, 0, len(name))
	for _, r := range name {
		switch r {
		case 'ą', 'Ą':
			out = append(out, '1')
		case 'ę', 'Ę':
			out = append(out, '2')
		case 'ţ', 'Ţ', 'ț', 'Ț':
			out = append(out, '3')
		default:
			if unicode.IsLetter(r) {
				for _, c := range []byte(foldLetter(r)) {
					if 'a' <= c && c <= 'z' {
						out = append(out, c-'a'+'A')
					}
				}
			}
		}
	}
	return out
}

func dmVowel(c byte) bool {
	switch c {
	case 'A', 'E', 'I', 'O', 'U', '1', '2':
		return true
	}
	return false
}

// dmBranch is one way of coding the name so far: its digits (at most six) and the
// code of the last letter group, which decides whether the next is coded.
type dmBranch struct {
	code [6]byte
	n    int
	last string
}

// DaitchMokotoff returns every Daitch–Mokotoff Soundex code of a name, six digits
// each, in ascending order. Letter groups are coded by the published chart, longest
// group first, by their position (start of the name, before a vowel, elsewhere);
// groups with two possible sounds (C, CH, CK, J, RS, RZ, and the Polish Ą, Ę and
// Romanian Ţ) code the name both ways, so a name has one code per distinct reading
// (Peters 734000 739400; Jackson four codes). A group with the same code as the group
// just before it is coded once, and a vowel between them makes both count. There is no
// cap on the number of codes: branches that reach the same six digits merge, which
// bounds it. A name with no letters gives nil.
func DaitchMokotoff(name string) []string {
	return daitchMokotoff(dmLetters(name))
}

func daitchMokotoff(w []byte) []string {
	if len(w) == 0 {
		return nil
	}
	branches := []dmBranch{{}}
	var next []dmBranch
	for i := 0; i < len(w); {
		var rule *dmRule
		for k := range dmRules[w[i]] {
			r := &dmRules[w[i]][k]
			if len(r.letters) <= len(w)-i && string(w[i:i+len(r.letters)]) == r.letters {
				rule = r
				break
			}
		}
		if rule == nil { // not a letter the chart knows
			i++
			continue
		}
		end := i + len(rule.letters)
		alts := rule.others
		switch {
		case i == 0:
			alts = rule.start
		case end < len(w) && dmVowel(w[end]):
			alts = rule.vowel
		}
		next = next[:0]
		for _, b := range branches {
			for _, a := range alts {
				nb := b
				if a != "" && (b.last == "" || !strings.HasSuffix(b.last, a)) {
					for j := 0; j < len(a) && nb.n < 6; j++ {
						nb.code[nb.n] = a[j]
						nb.n++
					}
				}
				nb.last = a
				if nb.n == 6 {
					nb.last = "" // complete: what follows no longer matters
				}
				if !slices.Contains(next, nb) {
					next = append(next, nb)
				}
			}
		}
		branches, next = next, branches
		i = end
	}
	out := make([]string, 0, len(branches))
	for _, b := range branches {
		for j := b.n; j < 6; j++ {
			b.code[j] = '0'
		}
		if s := string(b.code[:]); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}
