package names

import (
	"slices"
	"testing"
	"unicode/utf8"
)

var nameSeeds = []string{"Smith", "Müller", "McDonald", "M'Donald", "St. John", "O'Brien",
	"Sm[i]th", "[illegible]", "Schwarzenegger", "Rosochowaciec", "Jackson-Jackson",
	"Wałęsa", "Ţuţea", "François", "San Jacinto", "Van Gogh", "ccccccccccccjjjjjjjj",
	"Σωκράτης", "", "???", "[[]]", "M'", "st", "\xff\xfe"}

// FuzzKeys checks that key computation never panics, is deterministic, and keeps to
// each key's alphabet and length.
func FuzzKeys(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := SurnameKeys(s)
		if k.String() != SurnameKeys(s).String() {
			t.Fatalf("SurnameKeys(%q) is not deterministic", s)
		}
		if !utf8.ValidString(k.Folded) || !utf8.ValidString(k.Variant) {
			t.Fatalf("invalid UTF-8 in %q", k)
		}
		if SurnameKey(k.Folded) != k.Folded {
			t.Fatalf("SurnameKey is not idempotent on %q: %q", k.Folded, SurnameKey(k.Folded))
		}
		if f := Fold(s); Fold(f) != f {
			t.Fatalf("Fold is not idempotent on %q: %q then %q", s, f, Fold(f))
		}
		if k.Soundex != "" {
			if len(k.Soundex) != 4 || k.Soundex[0] < 'A' || k.Soundex[0] > 'Z' || !digits(k.Soundex[1:], "0123456") {
				t.Fatalf("Soundex(%q) = %q", s, k.Soundex)
			}
		}
		if !slices.IsSorted(k.DM) {
			t.Fatalf("DM codes of %q not sorted: %v", s, k.DM)
		}
		for _, c := range k.DM {
			if len(c) != 6 || !digits(c, "0123456789") {
				t.Fatalf("DM(%q) has %q", s, c)
			}
		}
		for _, m := range []string{k.MetaphonePrimary, k.MetaphoneAlt} {
			if len(m) > 4 || !digits(m, "0AFHJKLMNPRSTX") {
				t.Fatalf("Double Metaphone of %q is %q", s, m)
			}
		}
		// Names in other scripts fold to themselves and have no phonetic codes.
		if (len(letters(k.Folded)) == 0) != (k.Soundex == "") {
			t.Fatalf("%q: folded %q but Soundex %q", s, k.Folded, k.Soundex)
		}
		// The public functions agree with the keys when the name is already folded.
		if k.Folded != "" {
			if Soundex(k.Folded) != k.Soundex || !slices.Equal(DaitchMokotoff(k.Folded), k.DM) {
				t.Fatalf("%q: codes of the folded key differ", s)
			}
		}
		g := DefaultGivenNames()
		if !g.Match(s, s) && Fold(s) != "" {
			t.Fatalf("given name %q does not match itself", s)
		}
	})
}

func digits(s, alphabet string) bool {
	for i := 0; i < len(s); i++ {
		ok := false
		for j := 0; j < len(alphabet); j++ {
			if s[i] == alphabet[j] {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
