package textfield

import (
	"strings"
	"testing"
)

func TestEmail(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"pat@example.org", true},
		{"Pat.Smith+news@mail.example.co.uk", true},
		{"", false},
		{"pat", false},
		{"pat@localhost", false},
		{"@example.org", false},
		{"Pat <pat@example.org>", false},
		{"<pat@example.org>", false},
		{"pat@example.org ", false},
		{"pat@exa mple.org", false},
		{"pat@example.org\r\nBcc: x@example.org", false},
		{"pat@@example.org", false},
		{strings.Repeat("a", 64) + "@" + strings.Repeat("b", 185) + ".org", true}, // 254 bytes
		{strings.Repeat("a", 64) + "@" + strings.Repeat("b", 186) + ".org", false},
	} {
		if got := Email(c.in); got != c.want {
			t.Errorf("Email(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// FuzzEmail: an address Email takes is one line of at most 254 bytes, with an @ that
// has something before it and a dot after it.
func FuzzEmail(f *testing.F) {
	for _, s := range []string{"pat@example.org", "a@b.c", "Pat <pat@example.org>", "\"a b\"@example.org", "x@[127.0.0.1]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !Email(s) {
			return
		}
		at := strings.LastIndexByte(s, '@')
		if len(s) > 254 || at <= 0 || !strings.Contains(s[at+1:], ".") || strings.ContainsAny(s, "\r\n<> \t") {
			t.Fatalf("Email(%q) took it", s)
		}
	})
}
