package content

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// foldRune maps accented Latin letters to their base letter, so that "Séamus" matches a
// search for "seamus". It covers Latin-1 and Latin Extended-A, which is what Irish,
// British and European names in the society's content use.
func foldRune(r rune) rune {
	if r < 0xC0 {
		return unicode.ToLower(r)
	}
	if f, ok := foldTable[r]; ok {
		return f
	}
	return unicode.ToLower(r)
}

var foldTable = func() map[rune]rune {
	groups := map[rune]string{
		'a': "àáâãäåāăąÀÁÂÃÄÅĀĂĄ",
		'c': "çćĉċčÇĆĈĊČ",
		'd': "ďđĎĐ",
		'e': "èéêëēĕėęěÈÉÊËĒĔĖĘĚ",
		'g': "ĝğġģĜĞĠĢ",
		'h': "ĥħĤĦ",
		'i': "ìíîïĩīĭįıÌÍÎÏĨĪĬĮİ",
		'j': "ĵĴ",
		'k': "ķĶ",
		'l': "ĺļľŀłĹĻĽĿŁ",
		'n': "ñńņňÑŃŅŇ",
		'o': "òóôõöøōŏőÒÓÔÕÖØŌŎŐ",
		'r': "ŕŗřŔŖŘ",
		's': "śŝşšŚŜŞŠß",
		't': "ţťŧŢŤŦ",
		'u': "ùúûüũūŭůűųÙÚÛÜŨŪŬŮŰŲ",
		'w': "ŵŴ",
		'y': "ýÿŷÝŸŶ",
		'z': "źżžŹŻŽ",
	}
	m := make(map[rune]rune)
	for base, s := range groups {
		for _, r := range s {
			m[r] = base
		}
	}
	return m
}()

// appendWords appends the lower-cased, accent-folded words (letters and digits) of s.
func appendWords(dst []string, s string) []string {
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			dst = append(dst, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(foldRune(r))
		} else if r == '\'' || r == '’' {
			// "O'Brien" is one word: drop the apostrophe rather than split.
			continue
		} else {
			flush()
		}
	}
	flush()
	return dst
}

// sortedUnique sorts ws and removes duplicates in place.
func sortedUnique(ws []string) []string {
	if len(ws) == 0 {
		return ws
	}
	sort.Strings(ws)
	out := ws[:1]
	for _, w := range ws[1:] {
		if w != out[len(out)-1] {
			out = append(out, w)
		}
	}
	return out
}

// hasWordPrefix reports whether the sorted word list has a word starting with term.
// Prefix matching stands in for Prismic's stemming: "register" finds "registers".
func hasWordPrefix(sorted []string, term string) bool {
	i := sort.SearchStrings(sorted, term)
	return i < len(sorted) && strings.HasPrefix(sorted[i], term)
}

// slugify makes a Prismic-style slug: folded, lower case, words joined by hyphens.
func slugify(s string) string {
	ws := appendWords(nil, s)
	out := strings.Join(ws, "-")
	if len(out) > 100 {
		out = out[:100]
		for !utf8.ValidString(out) {
			out = out[:len(out)-1]
		}
		out = strings.TrimRight(out, "-")
	}
	return out
}

// humanize turns a type API ID such as "news_item" into a label, "News item".
func humanize(id string) string {
	s := strings.NewReplacer("_", " ", "-", " ").Replace(id)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
