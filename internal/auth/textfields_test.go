package auth_test

import (
	"context"
	"net/mail"
	"net/url"
	"strings"
	"testing"

	"lineage/internal/auth"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

const injectedName = "X\r\nBcc: evil@evil.com"

// TestNameRejectsControlCharacters checks that a name with a line break (or
// any control character) answers 422 naming the field, and nothing is stored or mailed.
func TestNameRejectsControlCharacters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		b := e.browser()
		b.do("GET", "/sanctum/csrf-cookie", nil)
		const msg = "The name field must be a single line without control characters."
		for _, name := range []string{injectedName, "X\nY", "X\tY", "X\x00Y", "X\u2028Y", "X\u202eY", "X\x1b[2JY"} {
			r := b.do("POST", "/api/register", map[string]any{"name": name, "email": "mallory@example.org",
				"password": "long enough", "password_confirmation": "long enough"})
			expect(t, r, 422, msg)
			if errs := r.json(t)["errors"].(map[string]any); len(errs) != 1 || errs["name"] == nil {
				t.Fatalf("register with name %q: errors %v, want name only", name, errs)
			}
		}
		// A form body is read like JSON.
		expect(t, b.do("POST", "/api/register", url.Values{"name": {injectedName}, "email": {"mallory@example.org"},
			"password": {"long enough"}, "password_confirmation": {"long enough"}}), 422, msg)
		if _, err := e.svc.UserByEmail(context.Background(), "mallory@example.org"); err != auth.ErrNotFound {
			t.Fatalf("a rejected registration stored an account: %v", err)
		}
		if n := len(e.mails()); n != 0 {
			t.Fatalf("%d mails sent for rejected registrations", n)
		}

		// Updating the name of an account.
		e.user("ada@example.org", "correct horse battery")
		b.signIn("ada@example.org", "correct horse battery")
		expect(t, b.do("PATCH", "/api/user", map[string]any{"name": injectedName}), 422, msg)
		if u, _ := e.svc.UserByEmail(context.Background(), "ada@example.org"); u.Name != "Test ada@example.org" {
			t.Fatalf("name changed to %q by a rejected update", u.Name)
		}
		r := b.do("PATCH", "/api/user", map[string]any{"name": "  Ada King \r\n"})
		expect(t, r, 200, "")
		if got := r.json(t)["name"]; got != "Ada King" {
			t.Fatalf("name %q, want trimmed %q", got, "Ada King")
		}

		// An API token's label.
		c := e.browser()
		expect(t, c.do("POST", "/api/tokens", map[string]any{"email": "ada@example.org", "password": "correct horse battery", "name": "laptop\r\nX: y"}), 422, msg)
		expect(t, c.do("POST", "/api/tokens", map[string]any{"email": "ada@example.org", "password": "correct horse battery", "name": strings.Repeat("é", 101)}),
			422, "The name field must not be greater than 100 characters.")
		expect(t, c.do("POST", "/api/tokens", map[string]any{"email": "ada@example.org", "password": "correct horse battery", "name": strings.Repeat("é", 100)}), 201, "")

		// Accounts made by an operator or a program go through CreateUser, which
		// refuses such a name too.
		if _, err := e.svc.CreateUser(context.Background(), auth.NewUser{Email: "bob@example.org", Name: injectedName}); err == nil {
			t.Fatal("CreateUser accepted a name with a line break")
		}
	})
}

// TestMailToStoredControlName: a name stored before the rule (written here straight
// into the table) neither adds a header nor a line to the mails the account gets.
func TestMailToStoredControlName(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		u := e.user("ada@example.org", "correct horse battery")
		if _, err := db.ExecContext(context.Background(), db.Rebind(`UPDATE users SET name = ? WHERE id = ?`), injectedName, u.ID); err != nil {
			t.Fatal(err)
		}
		b := e.browser()
		b.do("GET", "/sanctum/csrf-cookie", nil)
		expect(t, b.do("POST", "/api/forgot-password", map[string]any{"email": "ada@example.org"}), 202, "")
		b.signIn("ada@example.org", "correct horse battery")
		expect(t, b.do("PUT", "/api/user/email", map[string]any{"email": "ada@new.example.org", "password": "correct horse battery"}), 202, "")

		ms := e.mails()
		if len(ms) != 3 {
			t.Fatalf("%d mails, want 3", len(ms))
		}
		for _, m := range ms {
			if len(m.To) != 1 || (m.To[0] != "ada@example.org" && m.To[0] != "ada@new.example.org") {
				t.Errorf("envelope recipients %v", m.To)
			}
			msg, err := mail.ReadMessage(strings.NewReader(m.Raw))
			if err != nil {
				t.Fatalf("mail does not parse: %v\n%s", err, m.Raw)
			}
			for k := range msg.Header {
				switch strings.ToLower(k) {
				case "bcc", "cc":
					t.Errorf("mail %q has a %s header: %q", m.Subject, k, msg.Header.Get(k))
				}
			}
			if to, err := msg.Header.AddressList("To"); err != nil || len(to) != 1 {
				t.Errorf("To header %q: %v", msg.Header.Get("To"), err)
			}
			if strings.Contains(m.Body, "evil") || !strings.HasPrefix(m.Body, "Hello,\r\n") && !strings.HasPrefix(m.Body, "Hello,\n") {
				t.Errorf("mail %q body carries the stored name:\n%s", m.Subject, m.Body)
			}
		}
	})
}

// TestSessionUserAgentStored: the User-Agent header is the client's to choose; bytes
// that are not UTF-8, or a multi-byte character at the length cut, still give a
// session (PostgreSQL refuses invalid UTF-8, which made this a 500 there).
func TestSessionUserAgentStored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		for _, ua := range []string{"Bot \xff\xfe/1.0", strings.Repeat("a", 299) + "é and more"} {
			b := e.browser()
			b.header["User-Agent"] = ua
			expect(t, b.do("GET", "/sanctum/csrf-cookie", nil), 204, "")
		}
	})
}

// TestOddTextNeverServerError sends NUL, invalid UTF-8, control characters and
// over-long values in every field of every public auth endpoint, on both stores:
// PostgreSQL refuses NUL in text, so a raw value reaching a query would be a 500.
func TestOddTextNeverServerError(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		odd := []string{"\x00", "a\x00@example.org", "\xff", "ada@example.org\x00", "\x1b[2J", strings.Repeat("é", 5000)}
		fields := []string{"name", "email", "password", "password_confirmation", "token", "refresh_token", "current_password", "confirm", "state", "code"}
		paths := []struct{ method, path string }{
			{"POST", "/api/register"}, {"POST", "/login"}, {"POST", "/api/forgot-password"},
			{"POST", "/api/email/verification-notification"}, {"POST", "/api/reset-password"},
			{"POST", "/api/email/verify"}, {"POST", "/api/tokens"}, {"POST", "/api/tokens/refresh"},
			{"PATCH", "/api/user"}, {"PUT", "/api/user/email"}, {"PUT", "/api/user/password"},
		}
		for _, signedIn := range []bool{false, true} {
			b := e.browser()
			b.do("GET", "/sanctum/csrf-cookie", nil)
			if signedIn {
				b.signIn("ada@example.org", "correct horse battery")
			}
			for _, p := range paths {
				for _, v := range odd {
					body := map[string]any{}
					for _, f := range fields {
						body[f] = v
					}
					if r := b.do(p.method, p.path, body); r.status >= 500 {
						t.Fatalf("%s %s with %q: %d %s", p.method, p.path, v, r.status, r.body)
					}
				}
			}
		}
	})
}
