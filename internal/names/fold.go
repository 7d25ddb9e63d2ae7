package names

import (
	"strings"
	"unicode"
)

// foldBase maps accented Latin letters to their base letter. The table was made from
// Unicode's canonical decompositions (NFD, combining marks dropped) of Latin-1
// Supplement, Latin Extended-A and -B and Latin Extended Additional, so the package
// needs no normalisation library; letters with no decomposition are listed by hand.
var foldBase = func() map[rune]string {
	groups := map[string]string{
		"a": "ÀÁÂÃÄÅàáâãäåĀāĂăĄąǍǎǞǟǠǡǺǻȀȁȂȃȦȧḀḁẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặ",
		"b": "ḂḃḄḅḆḇ",
		"c": "ÇçĆćĈĉĊċČčḈḉ",
		"d": "ĎďḊḋḌḍḎḏḐḑḒḓ",
		"e": "ÈÉÊËèéêëĒēĔĕĖėĘęĚěȄȅȆȇȨȩḔḕḖḗḘḙḚḛḜḝẸẹẺẻẼẽẾếỀềỂểỄễỆệ",
		"f": "Ḟḟ",
		"g": "ĜĝĞğĠġĢģǦǧǴǵḠḡ",
		"h": "ĤĥȞȟḢḣḤḥḦḧḨḩḪḫẖ",
		"i": "ÌÍÎÏìíîïĨĩĪīĬĭĮįǏǐȈȉȊȋḬḭḮḯỈỉỊịİ",
		"j": "Ĵĵǰ",
		"k": "ĶķǨǩḰḱḲḳḴḵ",
		"l": "ĹĺĻļĽľḶḷḸḹḺḻḼḽ",
		"m": "ḾḿṀṁṂṃ",
		"n": "ÑñŃńŅņŇňǸǹṄṅṆṇṈṉṊṋ",
		"o": "ÒÓÔÕÖòóôõöŌōŎŏŐőƠơǑǒǪǫǬǭȌȍȎȏȪȫȬȭȮȯȰȱṌṍṎṏṐṑṒṓỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợ",
		"p": "ṔṕṖṗ",
		"r": "ŔŕŖŗŘřȐȑȒȓṘṙṚṛṜṝṞṟ",
		"s": "ŚśŜŝŞşŠšȘșṠṡṢṣṤṥṦṧṨṩ",
		"t": "ŢţŤťȚțṪṫṬṭṮṯṰṱẗ",
		"u": "ÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲųƯưǓǔǕǖǗǘǙǚǛǜȔȕȖȗṲṳṴṵṶṷṸṹṺṻỤụỦủỨứỪừỬửỮữỰự",
		"v": "ṼṽṾṿ",
		"w": "ŴŵẀẁẂẃẄẅẆẇẈẉẘ",
		"x": "ẊẋẌẍ",
		"y": "ÝýÿŶŷŸȲȳẎẏẙỲỳỴỵỶỷỸỹ",
		"z": "ŹźŻżŽžẐẑẒẓẔẕ",
	}
	// Letters without a decomposition, folded to what English-language records write
	// for them. Yogh (ȝ) was printed as z in Scottish names (Menzies, Dalziel); the
	// long s (ſ) is an s.
	special := map[string]string{
		"ss": "ßẞ", "ae": "æÆǽǼǣǢ", "oe": "œŒ", "o": "øØǿǾ", "l": "łŁŀĿ", "d": "đĐðÐ",
		"th": "þÞ", "h": "ħĦ", "i": "ı", "ij": "ĳĲ", "s": "ſ", "z": "ȝȜ", "n": "ŋŊ",
		"t": "ŧŦ", "k": "ĸ", "f": "ƒ",
	}
	m := make(map[rune]string)
	for _, g := range []map[string]string{groups, special} {
		for base, s := range g {
			for _, r := range s {
				m[r] = base
			}
		}
	}
	return m
}()

// foldLetter returns the lower-case ASCII spelling of a letter, or the lower-case
// letter itself when it is not Latin (Greek, Cyrillic … compare as themselves).
func foldLetter(r rune) string {
	if r < 0x80 {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return string(r)
	}
	if f, ok := foldBase[r]; ok {
		return f
	}
	r = unicode.ToLower(r)
	if f, ok := foldBase[r]; ok {
		return f
	}
	return string(r)
}

// isApostrophe covers the marks that join O'Brien and M'Donald.
func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', 'ʼ', '`', '´', 'ʻ':
		return true
	}
	return false
}

// isGap covers the transcribers' marks that stand for letters they could not read:
// a wildcard (*), an uncertain letter (?) and a missing letter (_).
func isGap(r rune) bool { return r == '*' || r == '?' || r == '_' }

// editorial words in square brackets that say a word could not be read; the bracket
// is dropped with them. Any other bracketed text (a supplied letter, "Sm[i]th", or a
// supplied name, "[Smith]") is kept without its brackets.
var editorial = map[string]bool{
	"": true, "illegible": true, "unreadable": true, "blank": true, "torn": true,
	"damaged": true, "unclear": true, "unknown": true, "missing": true, "obscured": true,
	"faded": true, "blotted": true, "indecipherable": true, "sic": true,
}

// dropEditorial removes bracketed editorial notes ("[illegible]", "[…]", "[?]").
func dropEditorial(s string) string {
	if !strings.ContainsRune(s, '[') {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '[')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			break
		}
		inner := s[i+1 : i+j]
		b.WriteString(s[:i])
		if !editorial[strings.Trim(strings.ToLower(inner), " .…?*_-")] {
			b.WriteString(inner)
		} else {
			b.WriteByte(' ')
		}
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// Fold returns a name in the form names are compared in: lower case, accents folded to
// ASCII (Müller → muller, Séamus → seamus, Ærø → aero, ß → ss), apostrophes removed
// (O'Brien → obrien), transcribers' marks removed (Sm?th, Sm_th, Sm*th → smth;
// Sm[i]th → smith; "[illegible]" and "[…]" → nothing), and any other punctuation,
// digits or spacing between words turned into one space. Umlauts fold to the bare
// vowel: Müller and Muller share a folded form; Mueller, the German spelling of the
// same name, meets them through the variant key (see Keys).
func Fold(s string) string {
	s = dropEditorial(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteString(foldLetter(r))
		case isApostrophe(r) || isGap(r) || r == '[' || r == ']' || unicode.Is(unicode.Mn, r):
			// joins: O'Brien, Sm_th, Sm[i]th, a stray combining accent
		default:
			space = true
		}
	}
	return b.String()
}

// Uncertain reports whether a name carries transcribers' marks of doubt: *, ?, _ or
// square brackets.
func Uncertain(s string) bool {
	return strings.ContainsAny(s, "*?_[]")
}

// SurnameKey returns the key surnames are matched exactly by: the folded surname with
// its prefixes written one way and its words run together. Mc, M' and Mac are all
// "mac" (McDonald, M'Donald, Mac Donald → macdonald); St, St. and Ste before another
// word are "saint" and "sainte" (St. John, St-John, Saint John → saintjohn); O' and a
// separate O join the name (O'Brien, O Brien → obrien); particles join too (van den
// Berg → vandenberg). Two surnames with the same key are the same surname.
func SurnameKey(s string) string {
	words := strings.Fields(Fold(markMacApostrophe(s)))
	var b strings.Builder
	for i, w := range words {
		switch {
		case (w == "st" || w == "ste") && i+1 < len(words):
			if w == "st" {
				w = "saint"
			} else {
				w = "sainte"
			}
		case strings.HasPrefix(w, "mc"):
			w = "mac" + w[2:]
		}
		b.WriteString(w)
	}
	key := b.String()
	if strings.HasPrefix(key, "mc") { // "M C Donald" joins into one
		key = "mac" + key[2:]
	}
	return key
}

// markMacApostrophe rewrites M' at the start of a word (M'Donald, M’Kenzie), the
// clerks' abbreviation of Mac, before Fold drops the apostrophe.
func markMacApostrophe(s string) string {
	if !strings.ContainsAny(s, "mM") {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		if (rs[i] == 'M' || rs[i] == 'm') && i+2 < len(rs) && isApostrophe(rs[i+1]) &&
			unicode.IsLetter(rs[i+2]) && (i == 0 || !unicode.IsLetter(rs[i-1])) {
			b.WriteString("Mac")
			i++
			continue
		}
		b.WriteRune(rs[i])
	}
	return b.String()
}

// letters returns the ASCII letters of a folded name in upper case, the input of the
// phonetic codes.
func letters(folded string) []byte {
	out := make([]byte, 0, len(folded))
	for i := 0; i < len(folded); i++ {
		if c := folded[i]; 'a' <= c && c <= 'z' {
			out = append(out, c-'a'+'A')
		}
	}
	return out
}
