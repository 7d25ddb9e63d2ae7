package auth_test

import (
	"strings"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestRegistrationAndVerification(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		b := e.browser()
		b.do("GET", "/sanctum/csrf-cookie", nil)
		r := b.do("POST", "/api/register", map[string]any{"name": "Grace Hopper", "email": "Grace@Example.org",
			"password": "cobol forever", "password_confirmation": "cobol forever"})
		expect(t, r, 201, "Thanks for registering. We have emailed you a link to verify your email address.")

		// Not before the link is followed.
		expect(t, b.do("POST", "/login", map[string]any{"email": "grace@example.org", "password": "cobol forever"}), 422,
			"Your email address is not verified.")

		ms := e.mails()
		if len(ms) != 1 || ms[0].To[0] != "grace@example.org" || ms[0].Subject != "Verify your email address" {
			t.Fatalf("mail %+v", ms)
		}
		if !strings.Contains(ms[0].Body, e.srv.URL+"/verify-email?token=") || !strings.Contains(ms[0].Body, "Hello Grace Hopper,") {
			t.Fatalf("body %s", ms[0].Body)
		}
		token := e.linkToken("grace@example.org")
		expect(t, b.do("POST", "/api/email/verify", map[string]any{"token": token + "x"}), 422, "This link is invalid or has expired.")
		r = b.do("POST", "/api/email/verify", map[string]any{"token": token})
		expect(t, r, 200, "Your email address is verified.")
		if r.json(t)["email"] != "grace@example.org" {
			t.Error(string(r.body))
		}
		// Single use.
		expect(t, b.do("POST", "/api/email/verify", map[string]any{"token": token}), 422, "This link is invalid or has expired.")
		expect(t, b.do("POST", "/login", map[string]any{"email": "grace@example.org", "password": "cobol forever"}), 204, "")
	})
}

func TestRegistrationValidation(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		b := e.browser()
		r := b.do("POST", "/api/register", map[string]any{})
		expect(t, r, 422, "The name field is required. (and 2 more errors)")
		expect(t, b.do("POST", "/api/register", map[string]any{"name": "A", "email": "ADA@example.org", "password": "12345678", "password_confirmation": "12345678"}),
			422, "The email has already been taken.")
		expect(t, b.do("POST", "/api/register", map[string]any{"name": "B", "email": "b@example.org", "password": "short", "password_confirmation": "short"}),
			422, "The password field must be at least 8 characters.")
		expect(t, b.do("POST", "/api/register", map[string]any{"name": "B", "email": "b@example.org", "password": "long enough", "password_confirmation": "different"}),
			422, "The password field confirmation does not match.")
		expect(t, b.do("POST", "/api/register", map[string]any{"name": "B", "email": "b@@example", "password": "long enough", "password_confirmation": "long enough"}),
			422, "The email field must be a valid email address.")
		if n := len(e.mails()); n != 0 {
			t.Errorf("%d mails sent for failed registrations", n)
		}
	})
}

func TestResendVerification(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		b := e.browser()
		b.do("POST", "/api/register", map[string]any{"name": "G", "email": "g@example.org", "password": "12345678", "password_confirmation": "12345678"})
		first := e.linkToken("g@example.org")
		e.clock.Add(2 * time.Minute)
		msg := "If an account with that address is waiting to be verified, we have emailed it a new link."
		expect(t, b.do("POST", "/api/email/verification-notification", map[string]any{"email": "g@example.org"}), 202, msg)
		// The same answer for verified and unknown addresses, and no mail to them.
		expect(t, b.do("POST", "/api/email/verification-notification", map[string]any{"email": "ada@example.org"}), 202, msg)
		expect(t, b.do("POST", "/api/email/verification-notification", map[string]any{"email": "nobody@example.org"}), 202, msg)
		// At most one a minute.
		expect(t, b.do("POST", "/api/email/verification-notification", map[string]any{"email": "g@example.org"}), 202, msg)
		if n := len(e.mails()); n != 2 {
			t.Fatalf("%d mails, want 2", n)
		}
		second := e.linkToken("g@example.org")
		// A new link replaces the old one.
		expect(t, b.do("POST", "/api/email/verify", map[string]any{"token": first}), 422, "This link is invalid or has expired.")
		expect(t, b.do("POST", "/api/email/verify", map[string]any{"token": second}), 200, "Your email address is verified.")
	})
}

func TestForgotAndResetPassword(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		signedIn := e.signedIn("ada@example.org", "correct horse battery")

		b := e.browser()
		msg := "If an account uses that address, we have emailed it a link to reset the password."
		expect(t, b.do("POST", "/api/forgot-password", map[string]any{"email": "nobody@example.org"}), 202, msg)
		expect(t, b.do("POST", "/api/forgot-password", map[string]any{"email": "ADA@example.org"}), 202, msg)
		expect(t, b.do("POST", "/api/forgot-password", map[string]any{}), 422, "The email field is required.")
		ms := e.mails()
		if len(ms) != 1 || ms[0].Subject != "Reset your password" {
			t.Fatalf("mails %+v", ms)
		}
		if !strings.Contains(ms[0].Body, e.srv.URL+"/reset-password?token=") || !strings.Contains(ms[0].Body, "&email=ada%40example.org") {
			t.Errorf("body %s", ms[0].Body)
		}
		token := e.linkToken("ada@example.org")

		expect(t, b.do("POST", "/api/reset-password", map[string]any{"token": token, "password": "new", "password_confirmation": "new"}),
			422, "The password field must be at least 8 characters.")
		expect(t, b.do("POST", "/api/reset-password", map[string]any{"token": "bogus", "password": "a new password", "password_confirmation": "a new password"}),
			422, "This password reset link is invalid or has expired.")
		expect(t, b.do("POST", "/api/reset-password", map[string]any{"token": token, "password": "a new password", "password_confirmation": "a new password"}),
			200, "Your password has been reset. You can now sign in.")
		expect(t, b.do("POST", "/api/reset-password", map[string]any{"token": token, "password": "another one", "password_confirmation": "another one"}),
			422, "This password reset link is invalid or has expired.")

		// Signed out everywhere; the old password is gone.
		expect(t, signedIn.do("GET", "/api/user", nil), 401, "Unauthenticated.")
		b.do("GET", "/sanctum/csrf-cookie", nil)
		expect(t, b.do("POST", "/login", map[string]any{"email": "ada@example.org", "password": "correct horse battery"}), 422,
			"These credentials do not match our records.")
		expect(t, b.do("POST", "/login", map[string]any{"email": "ada@example.org", "password": "a new password"}), 204, "")

		// Links expire after an hour.
		e.clock.Add(2 * time.Minute)
		expect(t, b.do("POST", "/api/forgot-password", map[string]any{"email": "ada@example.org"}), 202, msg)
		late := e.linkToken("ada@example.org")
		e.clock.Add(61 * time.Minute)
		expect(t, b.do("POST", "/api/reset-password", map[string]any{"token": late, "password": "too late now", "password_confirmation": "too late now"}),
			422, "This password reset link is invalid or has expired.")
	})
}

func TestChangePassword(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		a, other := e.browser(), e.browser()
		a.signIn("ada@example.org", "correct horse battery")
		other.signIn("ada@example.org", "correct horse battery")
		expect(t, e.browser().do("PUT", "/api/user/password", map[string]any{}), 401, "Unauthenticated.")
		expect(t, a.do("PUT", "/api/user/password", map[string]any{"current_password": "wrong", "password": "brand new pass", "password_confirmation": "brand new pass"}),
			422, "The password is incorrect.")
		before := a.cookie("lineage_session")
		expect(t, a.do("PUT", "/api/user/password", map[string]any{"current_password": "correct horse battery", "password": "brand new pass", "password_confirmation": "brand new pass"}),
			200, "Your password has been changed.")
		if a.cookie("lineage_session") == before {
			t.Error("session id kept after a password change")
		}
		expect(t, a.do("GET", "/api/user", nil), 200, "")
		expect(t, other.do("GET", "/api/user", nil), 401, "Unauthenticated.")
		e.signedIn("ada@example.org", "brand new pass")
	})
}

func TestChangeEmail(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		e.user("taken@example.org", "whatever12")
		b := e.signedIn("ada@example.org", "correct horse battery")
		expect(t, b.do("PUT", "/api/user/email", map[string]any{"email": "taken@example.org", "password": "correct horse battery"}),
			422, "The email has already been taken.")
		expect(t, b.do("PUT", "/api/user/email", map[string]any{"email": "ada.l@example.org", "password": "wrong"}),
			422, "The password is incorrect.")
		expect(t, b.do("PUT", "/api/user/email", map[string]any{"email": "ada.l@example.org", "password": "correct horse battery"}),
			202, "We have emailed a confirmation link to the new address. Your address changes when you follow it.")
		ms := e.mails()
		if len(ms) != 2 {
			t.Fatalf("%d mails, want 2", len(ms))
		}
		var notice bool
		for _, m := range ms {
			if m.To[0] == "ada@example.org" && strings.Contains(m.Body, "ada.l@example.org") && !strings.Contains(m.Body, "token=") {
				notice = true
			}
		}
		if !notice {
			t.Error("no notice to the old address")
		}
		// Unchanged until the link is followed.
		if r := b.do("GET", "/api/user", nil); r.json(t)["email"] != "ada@example.org" {
			t.Error("address changed before confirmation")
		}
		token := e.linkToken("ada.l@example.org")
		r := b.do("POST", "/api/email/verify", map[string]any{"token": token})
		expect(t, r, 200, "Your email address is verified.")
		if r := b.do("GET", "/api/user", nil); r.json(t)["email"] != "ada.l@example.org" {
			t.Errorf("user after change: %s", r.body)
		}
		e.signedIn("ada.l@example.org", "correct horse battery")
	})
}

func TestProfile(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		b := e.signedIn("ada@example.org", "correct horse battery")
		expect(t, b.do("PATCH", "/api/user", map[string]any{"name": " "}), 422, "The name field is required.")
		r := b.do("PATCH", "/api/user", map[string]any{"name": "Ada Lovelace"})
		expect(t, r, 200, "")
		if r.json(t)["name"] != "Ada Lovelace" {
			t.Error(string(r.body))
		}
	})
}

func TestExportAndDeleteAccount(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		keep := e.user("bob@example.org", "bobs password")
		b := e.signedIn("ada@example.org", "correct horse battery")
		expect(t, b.do("POST", "/api/bookmarks", map[string]any{"url": "/news/annual-meeting", "title": "Annual meeting"}), 201, "")
		r := b.do("POST", "/api/reading-lists", map[string]any{"name": "Census"})
		expect(t, r, 201, "")
		list := r.json(t)["id"].(float64)
		expect(t, b.do("POST", "/api/reading-lists/"+ftoa(list)+"/items", map[string]any{"url": "/learn/guides/how-to-use-census-records", "title": "Census guide"}), 201, "")
		expect(t, b.do("POST", "/api/saved-searches", map[string]any{"name": "Smiths", "path": "/research-hub/our-collections/searchexplore", "params": map[string]any{"surname": "Smith"}}), 201, "")
		expect(t, b.do("POST", "/api/search-history", map[string]any{"path": "/research-hub/our-collections/searchexplore", "params": map[string]any{"surname": "Smith"}}), 201, "")
		bob := e.signedIn("bob@example.org", "bobs password")
		expect(t, bob.do("POST", "/api/bookmarks", map[string]any{"url": "/news/other", "title": "Other"}), 201, "")

		r = b.do("GET", "/api/user/data", nil)
		expect(t, r, 200, "")
		if !strings.Contains(r.header.Get("Content-Disposition"), "attachment") {
			t.Errorf("Content-Disposition %q", r.header.Get("Content-Disposition"))
		}
		data := r.json(t)
		if data["user"].(map[string]any)["email"] != "ada@example.org" {
			t.Error("export lacks the user")
		}
		for key, want := range map[string]int{"bookmarks": 1, "reading_lists": 1, "saved_searches": 1, "search_history": 1, "sessions": 1} {
			if got, _ := data[key].([]any); len(got) != want {
				t.Errorf("export %s: %v", key, data[key])
			}
		}
		if strings.Contains(string(r.body), "/news/other") {
			t.Error("export contains another member's bookmark")
		}
		items := data["reading_lists"].([]any)[0].(map[string]any)["items"].([]any)
		if len(items) != 1 {
			t.Errorf("reading list items in export: %v", items)
		}

		expect(t, b.do("DELETE", "/api/user", map[string]any{}), 422, "The password field is required.")
		expect(t, b.do("DELETE", "/api/user", map[string]any{"password": "wrong"}), 422, "The password is incorrect.")
		r = b.do("DELETE", "/api/user", map[string]any{"password": "correct horse battery"})
		expect(t, r, 204, "")
		if setCookies(r)["XSRF-TOKEN"] == nil {
			t.Error("no fresh guest session after deletion")
		}
		expect(t, b.do("GET", "/api/user", nil), 401, "Unauthenticated.")
		for _, table := range []string{"bookmarks", "reading_lists", "reading_list_items", "saved_searches", "search_history", "api_tokens"} {
			var n int
			e.db.QueryRow(`SELECT COUNT(*) FROM ` + table + ` t WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = ` + ownerColumn(table) + `)`).Scan(&n)
			if n != 0 {
				t.Errorf("%d orphaned rows in %s", n, table)
			}
		}
		var n int
		e.db.QueryRow(`SELECT COUNT(*) FROM bookmarks`).Scan(&n)
		if n != 1 {
			t.Errorf("%d bookmarks left, want bob's 1", n)
		}
		if _, err := e.svc.UserByID(t.Context(), keep.ID); err != nil {
			t.Error("the other account went too")
		}
		expect(t, bob.do("GET", "/api/bookmarks", nil), 200, "")
	})
}

func ownerColumn(table string) string {
	if table == "reading_list_items" {
		return "(SELECT user_id FROM reading_lists l WHERE l.id = t.list_id)"
	}
	return "t.user_id"
}

func TestRegistrationThrottle(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	b := e.browser()
	b.header["X-Forwarded-For"] = "198.51.100.4"
	for i := 0; i < 10; i++ {
		expect(t, b.do("POST", "/api/register", map[string]any{"name": "N", "email": "n" + ftoa(float64(i)) + "@example.org",
			"password": "12345678", "password_confirmation": "12345678"}), 201, "")
	}
	r := b.do("POST", "/api/register", map[string]any{"name": "N", "email": "last@example.org", "password": "12345678", "password_confirmation": "12345678"})
	expect(t, r, 422, "Too many registrations from your address. Please try again later.")
	if r.header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	b.header["X-Forwarded-For"] = "198.51.100.5"
	expect(t, b.do("POST", "/api/register", map[string]any{"name": "N", "email": "last@example.org", "password": "12345678", "password_confirmation": "12345678"}), 201, "")
}
