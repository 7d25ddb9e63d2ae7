package textfield

import (
	"net/mail"
	"strings"
)

// Email reports whether s is an email address as accounts and bookings take it: one
// bare address (no display name, no angle brackets) of at most 254 bytes, with a
// domain that has a dot. Callers compare addresses lower-cased and trimmed.
func Email(s string) bool {
	if len(s) > 254 || s == "" {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	return at > 0 && strings.Contains(s[at+1:], ".") && !strings.ContainsAny(s, " \t\r\n<>")
}
