package index

import "testing"

// TestASCIISlug: the ASCII fast path of VocabSlug agrees with folding letter by letter
// on every ASCII text of up to three characters, and refuses any other text.
func TestASCIISlug(t *testing.T) {
	var texts []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		texts = append(texts, prefix)
		if n == 0 {
			return
		}
		for c := 0; c < 0x80; c++ {
			gen(prefix+string(rune(c)), n-1)
		}
	}
	gen("", 3)
	for _, s := range append(texts, "Father-in-law", " Baptism ", "god_parent", "O'Brien's  WIFE", "1st__witness") {
		got, ok := asciiSlug(s)
		if want := foldedSlug(s); !ok || got != want {
			t.Fatalf("%q: %q %v, folded %q", s, got, ok, want)
		}
	}
	if _, ok := asciiSlug("Tëst"); ok {
		t.Error("a text with an accent took the ASCII path")
	}
}

// FuzzVocabSlug: for any text, VocabSlug is what folding letter by letter gives.
func FuzzVocabSlug(f *testing.F) {
	f.Add("Father in law")
	f.Add("Mère")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := VocabSlug(s), foldedSlug(s); got != want {
			t.Errorf("%q: %q, folded %q", s, got, want)
		}
	})
}
