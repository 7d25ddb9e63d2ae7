package names

import "testing"

func TestFoldPattern(t *testing.T) {
	for in, want := range map[string]string{
		"Sm?th":    "sm?th",
		"McDon*":   "macdon*",
		"Mül*":     FoldPattern("Mül") + "*",
		"O'Br*n":   FoldPattern("O'Br") + "*n",
		"*":        "*",
		"":         "",
		"Van Dyk*": FoldPattern("VanDyk") + "*",
	} {
		if got := FoldPattern(in); got != want {
			t.Errorf("FoldPattern(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		pat, s string
		want   bool
	}{
		{"smith", "smith", true},
		{"sm?th", "smyth", true},
		{"sm?th", "smth", false},
		{"sm*", "sm", true},
		{"sm*", "smithson", true},
		{"*son", "johnson", true},
		{"*son", "sonny", false},
		{"j*n*s", "johnsons", true},
		{"j*n*s", "johnson", false},
		{"a*a*a*b", "aaaaaaaaaaaaaaaaaaaa", false},
		{"", "", true},
		{"", "a", false},
		{"**", "", true},
		{"ü?", "üx", true},
	} {
		if got := GlobMatch(c.pat, c.s); got != c.want {
			t.Errorf("GlobMatch(%q, %q) = %v", c.pat, c.s, got)
		}
	}
}
