package auth

import (
	"fmt"
	"net/url"
	"time"

	"lineage/internal/textfield"
)

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// greeting opens a mail with the account's name. Names are validated when they are
// set, but one stored before that rule, or written by another program, must not put
// lines of its own into a mail: a name that is not a valid single line is left out.
func greeting(name string) string {
	name, err := textfield.SingleLine(name, MaxNameLen)
	if err != nil || name == "" {
		return "Hello,"
	}
	return "Hello " + name + ","
}

func lifetime(d time.Duration) string {
	if d >= time.Hour && d%time.Hour == 0 {
		if d == time.Hour {
			return "1 hour"
		}
		return fmt.Sprintf("%d hours", d/time.Hour)
	}
	return fmt.Sprintf("%d minutes", d/time.Minute)
}

const signature = "\n-- \nLineage\nThis message was sent automatically; replies are not read.\n"

func verifyText(name, link string, ttl time.Duration) string {
	return greeting(name) + "\n\nPlease confirm your email address by opening this link:\n\n" + link +
		"\n\nThe link works once and for " + lifetime(ttl) + ". If you did not create an account, ignore this message.\n" + signature
}

func resetText(name, link string, ttl time.Duration) string {
	return greeting(name) + "\n\nSomeone asked to reset the password of your account. To choose a new password, open this link:\n\n" + link +
		"\n\nThe link works once and for " + lifetime(ttl) + ". If you did not ask for this, ignore this message: your password stays as it is.\n" + signature
}

func changeText(name, link string, ttl time.Duration) string {
	return greeting(name) + "\n\nTo make this your account's email address, open this link:\n\n" + link +
		"\n\nThe link works once and for " + lifetime(ttl) + ". If you did not ask for this, ignore this message.\n" + signature
}

func changeNoticeText(name, newEmail string) string {
	return greeting(name) + "\n\nSomeone signed in to your account asked to change its email address to " + textfield.Escape(newEmail) +
		". The change happens only when the link sent to that address is followed.\n\nIf this was not you, change your password now.\n" + signature
}
