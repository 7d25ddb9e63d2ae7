package newsletter_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"lineage/internal/newsletter"
)

// FuzzParseAddress: what the sign-up form accepts is one bare address of valid text,
// with no character that could add a header or a recipient, and reading it again
// gives the same address.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"ann@example.org", " Ann@Example.ORG ", "a@b", "x@mailinator.com", "x@sub.yopmail.com",
		"Ann <ann@example.org>", "ann@example.org\r\nBcc: eve@example.org", "\"a b\"@example.org", "a@[127.0.0.1]", "a@-x.org", "é@例え.jp"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := newsletter.ParseAddress(s)
		if err != nil {
			return
		}
		if !utf8.ValidString(got) || strings.ContainsAny(got, "\r\n<>,;: \t\"") || strings.Count(got, "@") != 1 {
			t.Fatalf("ParseAddress(%q) = %q", s, got)
		}
		again, err := newsletter.ParseAddress(got)
		if err != nil || again != got {
			t.Fatalf("ParseAddress(%q) = %q, then %q, %v", s, got, again, err)
		}
	})
}

// FuzzParsePreferencesToken: a token from a link is read without panicking, and what
// is read is a positive id and an 18-byte signature written back the same way.
func FuzzParsePreferencesToken(f *testing.F) {
	for _, s := range []string{"1.AAAAAAAAAAAAAAAAAAAAAAAA", "12.abc", ".x", "0.AAAAAAAAAAAAAAAAAAAAAAAA", "-1.AAAAAAAAAAAAAAAAAAAAAAAA", "a1.AAAAAAAAAAAAAAAAAAAAAAAA", "99999999999999999999.A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, sig, ok := newsletter.ParsePreferencesToken(s)
		if !ok {
			return
		}
		if id <= 0 || len(sig) != 18 || !strings.HasPrefix(s, strings.Split(s, ".")[0]) {
			t.Fatalf("ParsePreferencesToken(%q) = %d, %x", s, id, sig)
		}
	})
}
