package names

import (
	"slices"
	"strings"
)

// Keys are the precomputed forms of a surname that Lineage stores in indexed columns
// (ARCHITECTURE.md §4), so that every search mode is an index lookup on SQLite and
// PostgreSQL alike:
//
//   - exact: Folded equal;
//   - variants: Variant equal (known clusters, umlaut spellings, and through Folded the
//     prefixes and accents);
//   - Soundex: Soundex equal;
//   - phonetic: any DM code in common, or a Double Metaphone code (primary or
//     alternate) in common.
//
// All keys are computed from Folded, so spellings that fold alike (McDonald,
// MacDonald, M'Donald) have identical keys of every kind.
type Keys struct {
	Folded           string   // SurnameKey: folded, prefixes normalised, words joined
	Variant          string   // the variant key (see SurnameVariants.VariantKey)
	Soundex          string   // American Soundex, e.g. "R163"
	DM               []string // every Daitch–Mokotoff code, sorted
	MetaphonePrimary string   // Double Metaphone, primary reading
	MetaphoneAlt     string   // Double Metaphone, alternate reading
	Uncertain        bool     // the text had transcribers' marks (*, ?, _, [ ])
}

// SurnameKeys computes the keys of a surname with the shipped surname clusters. A
// surname with no letters has empty keys.
func SurnameKeys(surname string) Keys { return DefaultSurnameVariants().Keys(surname) }

// Keys computes the keys of a surname with these clusters.
func (v *SurnameVariants) Keys(surname string) Keys {
	folded := SurnameKey(surname)
	k := Keys{Folded: folded, Uncertain: Uncertain(surname)}
	if folded == "" {
		return k
	}
	l := letters(folded)
	k.Variant = v.variantOf(folded)
	k.Soundex = soundex(l)
	k.DM = daitchMokotoff(l)
	k.MetaphonePrimary, k.MetaphoneAlt = doubleMetaphone(l)
	return k
}

// PhoneticMatch reports whether two sets of keys share a Daitch–Mokotoff code or a
// Double Metaphone code, the "phonetic" search mode.
func (k Keys) PhoneticMatch(o Keys) bool {
	for _, a := range k.DM {
		for _, b := range o.DM {
			if a == b {
				return true
			}
		}
	}
	for _, a := range []string{k.MetaphonePrimary, k.MetaphoneAlt} {
		if a != "" && (a == o.MetaphonePrimary || a == o.MetaphoneAlt) {
			return true
		}
	}
	return false
}

// String writes the keys on one line, for logs and test failures.
func (k Keys) String() string {
	return k.Folded + " variant=" + k.Variant + " soundex=" + k.Soundex + " dm=" +
		strings.Join(k.DM, ",") + " metaphone=" + k.MetaphonePrimary + "/" + k.MetaphoneAlt
}

// Codes are the surname's phonetic codes as the search dictionaries store them (the
// research surname_codes and the family trees' tree_surname_codes): 'd' + each
// Daitch–Mokotoff code, then 'm' + each distinct Double Metaphone code.
func (k Keys) Codes() []string {
	var out []string
	for _, c := range k.DM {
		out = append(out, "d"+c)
	}
	for _, c := range []string{k.MetaphonePrimary, k.MetaphoneAlt} {
		if c != "" && !slices.Contains(out, "m"+c) {
			out = append(out, "m"+c)
		}
	}
	return out
}
