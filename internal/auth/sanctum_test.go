package auth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestCSRFCookie(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		b := e.browser()
		r := b.do("GET", "/sanctum/csrf-cookie", nil)
		expect(t, r, 204, "")
		if len(r.body) != 0 {
			t.Errorf("body %q, want empty", r.body)
		}
		c := setCookies(r)
		sess, xsrf := c[auth.SessionCookie], c[auth.XSRFCookie]
		if sess == nil || xsrf == nil {
			t.Fatalf("cookies %v", r.header.Values("Set-Cookie"))
		}
		if !sess.HttpOnly || sess.SameSite != http.SameSiteLaxMode || sess.Path != "/" || sess.Secure {
			t.Errorf("session cookie %+v", sess)
		}
		if xsrf.HttpOnly || xsrf.SameSite != http.SameSiteLaxMode || xsrf.Path != "/" || xsrf.MaxAge != 7200 {
			t.Errorf("XSRF cookie %+v", xsrf)
		}
		if url.QueryEscape(xsrf.Value) != xsrf.Value || len(xsrf.Value) < 32 {
			t.Errorf("XSRF token %q is not a long URL-safe value", xsrf.Value)
		}
		// A second call keeps the session and its token.
		r = b.do("GET", "/sanctum/csrf-cookie", nil)
		if c2 := setCookies(r); c2[auth.XSRFCookie] == nil || c2[auth.XSRFCookie].Value != xsrf.Value || c2[auth.SessionCookie].Value != sess.Value {
			t.Errorf("second csrf-cookie changed the session")
		}
	})
}

func TestCSRFCookieSecureBehindHTTPS(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), func(o *auth.Options) { o.PublicURL = "https://lineage.example.org" })
	r := e.browser().do("GET", "/sanctum/csrf-cookie", nil)
	for name, c := range setCookies(r) {
		if !c.Secure {
			t.Errorf("%s not Secure behind https", name)
		}
	}
}

func TestLoginLogout(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		b := e.browser()
		expect(t, b.do("GET", "/api/user", nil), 401, "Unauthenticated.")

		expect(t, b.do("GET", "/sanctum/csrf-cookie", nil), 204, "")
		guestSession, token := b.cookie(auth.SessionCookie), b.cookie(auth.XSRFCookie)
		r := b.do("POST", "/login", map[string]any{"email": "Ada@Example.org", "password": "correct horse battery"})
		expect(t, r, 204, "")
		if len(r.body) != 0 {
			t.Errorf("login body %q", r.body)
		}
		// Session fixation: the id changes at sign-in; the CSRF token does not.
		if b.cookie(auth.SessionCookie) == guestSession {
			t.Error("session id unchanged by sign-in")
		}
		if b.cookie(auth.XSRFCookie) != token {
			t.Error("CSRF token changed by sign-in")
		}
		r = b.do("GET", "/api/user", nil)
		expect(t, r, 200, "")
		u := r.json(t)
		if u["email"] != "ada@example.org" || u["role"] != "registered" || u["email_verified_at"] == nil {
			t.Errorf("user %v", u)
		}
		if scope, _ := u["scope"].([]any); len(scope) != 1 || scope[0] != "registered" {
			t.Errorf("scope %v", u["scope"])
		}
		if _, ok := u["password_hash"]; ok {
			t.Error("user JSON leaks the password hash")
		}

		// The old guest cookie, if an attacker had planted it, signs nobody in.
		other := e.browser()
		other.setCookie(auth.SessionCookie, guestSession)
		expect(t, other.do("GET", "/api/user", nil), 401, "Unauthenticated.")

		// Already signed in: Laravel's guest middleware sends the user home.
		r = b.do("POST", "/login", map[string]any{"email": "ada@example.org", "password": "correct horse battery"})
		if r.status != 302 || r.header.Get("Location") != "/" {
			t.Errorf("login while signed in: %d %s", r.status, r.header.Get("Location"))
		}

		before := b.cookie(auth.SessionCookie)
		r = b.do("POST", "/logout", nil)
		expect(t, r, 204, "")
		if b.cookie(auth.XSRFCookie) == token || b.cookie(auth.XSRFCookie) == "" {
			t.Error("logout did not issue a new CSRF token")
		}
		if b.cookie(auth.SessionCookie) == before {
			t.Error("logout kept the session id")
		}
		expect(t, b.do("GET", "/api/user", nil), 401, "Unauthenticated.")
		expect(t, b.do("POST", "/logout", nil), 401, "Unauthenticated.")
	})
}

func TestLoginValidation(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		b := e.browser()
		b.do("GET", "/sanctum/csrf-cookie", nil)

		r := b.do("POST", "/login", map[string]any{"email": "ada@example.org", "password": "wrong password"})
		expect(t, r, 422, "These credentials do not match our records.")
		if string(r.body) != `{"errors":{"email":["These credentials do not match our records."]},"message":"These credentials do not match our records."}`+"\n" {
			t.Errorf("body %s", r.body)
		}
		r = b.do("POST", "/login", map[string]any{"email": "nobody@example.org", "password": "whatever1"})
		expect(t, r, 422, "These credentials do not match our records.")

		r = b.do("POST", "/login", map[string]any{})
		expect(t, r, 422, "The email field is required. (and 1 more error)")
		errs := r.json(t)["errors"].(map[string]any)
		if errs["email"].([]any)[0] != "The email field is required." || errs["password"].([]any)[0] != "The password field is required." {
			t.Errorf("errors %v", errs)
		}
		expect(t, b.do("POST", "/login", map[string]any{"email": "not-an-address", "password": "x"}), 422,
			"The email field must be a valid email address.")
		expect(t, b.do("POST", "/login", "not an object"), 422, "The request body must be a JSON object.")

		// An account whose address is not verified cannot sign in yet.
		if _, err := e.svc.CreateUser(t.Context(), auth.NewUser{Email: "new@example.org", Password: "new password"}); err != nil {
			t.Fatal(err)
		}
		r = b.do("POST", "/login", map[string]any{"email": "new@example.org", "password": "new password"})
		expect(t, r, 422, "Your email address is not verified.")
	})
}

func TestCSRF(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		creds := map[string]any{"email": "ada@example.org", "password": "correct horse battery"}

		// No session at all: nothing to match.
		b := e.browser()
		r := b.do("POST", "/login", creds)
		expect(t, r, 419, "CSRF token mismatch.")
		if string(r.body) != `{"message":"CSRF token mismatch."}`+"\n" {
			t.Errorf("body %s", r.body)
		}

		// Session, but no token.
		b.do("GET", "/sanctum/csrf-cookie", nil)
		b.noXSRF = true
		expect(t, b.do("POST", "/login", creds), 419, "CSRF token mismatch.")
		// Wrong token, in each accepted place.
		b.header["X-XSRF-TOKEN"] = "wrong" + b.cookie(auth.XSRFCookie)
		expect(t, b.do("POST", "/login", creds), 419, "CSRF token mismatch.")
		delete(b.header, "X-XSRF-TOKEN")
		b.header["X-CSRF-TOKEN"] = b.cookie(auth.XSRFCookie)[1:]
		expect(t, b.do("POST", "/login", creds), 419, "CSRF token mismatch.")
		delete(b.header, "X-CSRF-TOKEN")
		form := url.Values{"email": {"ada@example.org"}, "password": {"correct horse battery"}, "_token": {"nope"}}
		expect(t, b.do("POST", "/login", form), 419, "CSRF token mismatch.")
		// Another session's valid token does not fit this session.
		other := e.browser()
		other.do("GET", "/sanctum/csrf-cookie", nil)
		b.header["X-XSRF-TOKEN"] = other.cookie(auth.XSRFCookie)
		expect(t, b.do("POST", "/login", creds), 419, "CSRF token mismatch.")
		delete(b.header, "X-XSRF-TOKEN")

		// Right token as X-CSRF-TOKEN; then as the _token field of a server-rendered form.
		b.header["X-CSRF-TOKEN"] = b.cookie(auth.XSRFCookie)
		expect(t, b.do("POST", "/login", creds), 204, "")
		delete(b.header, "X-CSRF-TOKEN")
		form.Set("_token", b.cookie(auth.XSRFCookie))
		expect(t, b.do("POST", "/logout", form), 204, "")
		form.Set("_token", b.cookie(auth.XSRFCookie))
		expect(t, b.do("POST", "/login", form), 204, "")

		// Every state-changing API request with the session cookie needs the token...
		expect(t, b.do("POST", "/api/bookmarks", map[string]any{"url": "/news/a", "title": "A"}), 419, "CSRF token mismatch.")
		expect(t, b.do("DELETE", "/api/user", map[string]any{"password": "correct horse battery"}), 419, "CSRF token mismatch.")
		// ... reads do not.
		expect(t, b.do("GET", "/api/bookmarks", nil), 200, "")
		b.noXSRF = false
		expect(t, b.do("POST", "/api/bookmarks", map[string]any{"url": "/news/a", "title": "A"}), 201, "")

		// A bearer request without the cookie is not stateful and needs no token.
		tok := e.browser()
		tok.noXSRF = true
		r = tok.do("POST", "/api/tokens", creds)
		expect(t, r, 201, "")
		tok.header["Authorization"] = "Bearer " + r.json(t)["access_token"].(string)
		expect(t, tok.do("POST", "/api/bookmarks", map[string]any{"url": "/news/b", "title": "B"}), 201, "")
	})
}

func TestThrottle(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		b := e.browser()
		b.do("GET", "/sanctum/csrf-cookie", nil)
		b.header["X-Forwarded-For"] = "203.0.113.7"
		for i := 0; i < 5; i++ {
			expect(t, b.do("POST", "/login", map[string]any{"email": "ada@example.org", "password": "guess"}), 422,
				"These credentials do not match our records.")
		}
		// The sixth attempt is refused even with the right password.
		r := b.do("POST", "/login", map[string]any{"email": "ADA@example.org", "password": "correct horse battery"})
		expect(t, r, 422, "Too many login attempts. Please try again in 60 seconds.")
		if r.header.Get("Retry-After") != "60" {
			t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
		}
		// The token endpoint shares the counter.
		expect(t, e.browser().do("POST", "/api/tokens", map[string]any{"email": "ada@example.org", "password": "correct horse battery"}),
			201, "") // another address (loopback, no X-Forwarded-For) is not locked out
		tb := e.browser()
		tb.header["X-Forwarded-For"] = "203.0.113.7"
		expect(t, tb.do("POST", "/api/tokens", map[string]any{"email": "ada@example.org", "password": "correct horse battery"}),
			422, "Too many login attempts. Please try again in 60 seconds.")

		e.clock.Add(30 * time.Second)
		r = b.do("POST", "/login", map[string]any{"email": "ada@example.org", "password": "correct horse battery"})
		expect(t, r, 422, "Too many login attempts. Please try again in 30 seconds.")
		e.clock.Add(31 * time.Second)
		expect(t, b.do("POST", "/login", map[string]any{"email": "ada@example.org", "password": "correct horse battery"}), 204, "")
	})
}

func TestSessionExpiry(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		b := e.signedIn("ada@example.org", "correct horse battery")
		// Active use keeps a session alive past the idle limit ...
		for i := 0; i < 3; i++ {
			e.clock.Add(90 * time.Minute)
			expect(t, b.do("GET", "/api/user", nil), 200, "")
		}
		// ... but not past the idle limit without use,
		e.clock.Add(2*time.Hour + time.Second)
		expect(t, b.do("GET", "/api/user", nil), 401, "Unauthenticated.")

		// nor past the absolute limit however active.
		b = e.signedIn("ada@example.org", "correct horse battery")
		for i := 0; i < 16; i++ {
			e.clock.Add(90 * time.Minute)
			b.do("GET", "/api/user", nil)
		}
		expect(t, b.do("GET", "/api/user", nil), 401, "Unauthenticated.")

		// "Remember me" lasts for days.
		b = e.browser()
		b.do("GET", "/sanctum/csrf-cookie", nil)
		r := b.do("POST", "/login", map[string]any{"email": "ada@example.org", "password": "correct horse battery", "remember": true})
		expect(t, r, 204, "")
		if c := setCookies(r)[auth.SessionCookie]; c.MaxAge != 30*24*3600 {
			t.Errorf("remembered session cookie Max-Age %d", c.MaxAge)
		}
		e.clock.Add(5 * 24 * time.Hour)
		expect(t, b.do("GET", "/api/user", nil), 200, "")

		// Sweep removes what has expired and keeps what lives.
		if err := e.svc.Sweep(t.Context()); err != nil {
			t.Fatal(err)
		}
		var n int
		e.db.SignIn().QueryRow(`SELECT COUNT(*) FROM sessions`).Scan(&n)
		if n != 1 {
			t.Errorf("%d sessions after sweep, want 1", n)
		}
	})
}

func TestTokens(t *testing.T) {
	eachWithAda(t, func(t *testing.T, e *env) {
		c := e.browser()
		expect(t, c.do("POST", "/api/tokens", map[string]any{"email": "ada@example.org", "password": "nope"}), 422,
			"These credentials do not match our records.")
		r := c.do("POST", "/api/tokens", map[string]any{"email": "ada@example.org", "password": "correct horse battery", "name": "laptop"})
		expect(t, r, 201, "")
		p := r.json(t)
		if p["token_type"] != "Bearer" || p["expires_in"] != float64(1800) || p["token"] != p["access_token"] || p["refresh_token"] == "" {
			t.Fatalf("pair %v", p)
		}
		access, refresh := p["access_token"].(string), p["refresh_token"].(string)
		if len(setCookies(r)) != 0 {
			t.Error("the token endpoint set cookies")
		}
		c.header["Authorization"] = "Bearer " + access
		r = c.do("GET", "/api/user", nil)
		expect(t, r, 200, "")
		if r.json(t)["email"] != "ada@example.org" {
			t.Error(string(r.body))
		}

		// Expired access token: 401, named in WWW-Authenticate.
		e.clock.Add(1801 * time.Second)
		r = c.do("GET", "/api/user", nil)
		expect(t, r, 401, "Unauthenticated.")
		if !strings.Contains(r.header.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Errorf("WWW-Authenticate %q", r.header.Get("WWW-Authenticate"))
		}
		// Refresh gives a new pair; the old refresh token is spent.
		r = c.do("POST", "/api/tokens/refresh", map[string]any{"refresh_token": refresh})
		expect(t, r, 200, "")
		p2 := r.json(t)
		if p2["access_token"] == access || p2["refresh_token"] == refresh {
			t.Fatal("refresh did not rotate the tokens")
		}
		expect(t, c.do("POST", "/api/tokens/refresh", map[string]any{"refresh_token": refresh}), 401, "Unauthenticated.")
		expect(t, c.do("POST", "/api/tokens/refresh", map[string]any{}), 422, "The refresh token field is required.")
		c.header["Authorization"] = "Bearer " + p2["access_token"].(string)
		expect(t, c.do("GET", "/api/user", nil), 200, "")

		// Both expired: the spec's ExpiredAuthSessionError text.
		e.clock.Add(31 * 24 * time.Hour)
		expect(t, c.do("POST", "/api/tokens/refresh", map[string]any{"refresh_token": p2["refresh_token"]}), 401,
			"Both token and refresh token have expired. Your request was aborted.")

		// Revoking the current token.
		r = c.do("POST", "/api/tokens", map[string]any{"email": "ada@example.org", "password": "correct horse battery"})
		c.header["Authorization"] = "Bearer " + r.json(t)["access_token"].(string)
		expect(t, c.do("DELETE", "/api/tokens/current", nil), 204, "")
		expect(t, c.do("GET", "/api/user", nil), 401, "Unauthenticated.")
		expect(t, c.do("DELETE", "/api/tokens/current", nil), 401, "Unauthenticated.")
		c.header["Authorization"] = "Bearer not-a-token"
		expect(t, c.do("GET", "/api/user", nil), 401, "Unauthenticated.")
	})
}

func TestUnknownRoutesAnswerJSON(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	b := e.browser()
	r := b.do("POST", "/api/user", nil)
	expect(t, r, 405, "The POST method is not supported for this URL.")
	if allow := r.header.Get("Allow"); !strings.Contains(allow, "GET") || !strings.Contains(allow, "PATCH") || !strings.Contains(allow, "DELETE") {
		t.Errorf("Allow %q", allow)
	}
	expect(t, b.do("POST", "/sanctum/csrf-cookie", nil), 405, "The POST method is not supported for this URL.")
	expect(t, b.do("GET", "/api/user/nothing-here", nil), 404, "Not Found")
	expect(t, b.do("GET", "/api/tokens/other", nil), 404, "Not Found")
}
