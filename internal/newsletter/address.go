package newsletter

import (
	"errors"
	"net/mail"
	"strings"

	"lineage/internal/textfield"
)

// Errors of ParseAddress; the sign-up form shows their words next to the field.
var (
	ErrAddress    = errors.New("Enter an email address like name@example.org.")
	ErrDisposable = errors.New("This looks like a temporary address: please use an address you keep, so that you can unsubscribe later.")
)

// disposableDomains are providers of throw-away inboxes: a newsletter sent there is
// read by anyone, and the confirmation link with it.
var disposableDomains = map[string]bool{
	"mailinator.com": true, "guerrillamail.com": true, "guerrillamail.net": true, "sharklasers.com": true,
	"10minutemail.com": true, "yopmail.com": true, "trashmail.com": true, "tempmail.com": true,
	"temp-mail.org": true, "throwawaymail.com": true, "getnada.com": true, "dispostable.com": true,
	"maildrop.cc": true, "mailnesia.com": true, "fakeinbox.com": true, "discard.email": true,
	"mintemail.com": true, "mohmal.com": true, "emailondeck.com": true, "spamgourmet.com": true,
}

// ParseAddress reads the address a visitor typed: one bare address (no name, no
// angle brackets), at most 254 characters, a domain with a dot and no IP literal, and
// not at a throw-away provider (nor its subdomains). It returns the address with its
// domain lower-cased and the local part as typed, trimmed.
func ParseAddress(s string) (string, error) {
	s, err := textfield.SingleLine(s, 254)
	if err != nil || s == "" || strings.ContainsAny(s, "<>\"(), ;:\\[]") {
		return "", ErrAddress
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return "", ErrAddress
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || at > 64 {
		return "", ErrAddress
	}
	domain := strings.ToLower(s[at+1:])
	if !strings.Contains(domain, ".") || strings.HasSuffix(domain, ".") || strings.HasPrefix(domain, ".") || strings.Contains(domain, "..") {
		return "", ErrAddress
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return "", ErrAddress
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c > 0x7f) {
				return "", ErrAddress
			}
		}
	}
	for d := domain; d != ""; {
		if disposableDomains[d] {
			return "", ErrDisposable
		}
		i := strings.IndexByte(d, '.')
		if i < 0 {
			break
		}
		d = d[i+1:]
	}
	return s[:at+1] + domain, nil
}

// addressKey is how addresses are compared and stored: lower-cased, like accounts'.
func addressKey(s string) string { return strings.ToLower(s) }
