package auth_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"lineage/internal/auth"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// The provider is mockoidc, an in-process OpenID provider that checks client
// credentials, PKCE (S256) and signs ID tokens carrying the nonce. (zitadel/oidc, the
// first choice, could not be fetched from the module proxy.)
func startProvider(t *testing.T) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown() })
	return m
}

func withProvider(m *mockoidc.MockOIDC) envOption {
	return func(o *auth.Options) {
		o.OIDC = &auth.OIDCConfig{Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, Name: "VeryConnect"}
	}
}

// externalSignIn walks the browser through the provider and back: the redirect
// endpoint, the provider's authorize endpoint, and the code and state that the
// /veryconnect-auth page receives. It returns them without calling the callback.
func (b *browser) externalSignIn(t *testing.T, redirect string) (code, state string) {
	t.Helper()
	r := b.do("GET", "/api/oidc/redirect?redirect="+url.QueryEscape(redirect), nil)
	if r.status != http.StatusFound {
		t.Fatalf("redirect: %d %s", r.status, r.body)
	}
	auth, _ := url.Parse(r.header.Get("Location"))
	q := auth.Query()
	if q.Get("state") == "" || q.Get("nonce") == "" || q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" ||
		q.Get("redirect_uri") != b.e.srv.URL+"/veryconnect-auth" || q.Get("response_type") != "code" {
		t.Fatalf("authorize URL %s", auth)
	}
	res, err := b.c.Get(auth.String())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	back, _ := url.Parse(res.Header.Get("Location"))
	if back.Path != "/veryconnect-auth" {
		t.Fatalf("provider sent the browser to %s (%d)", back, res.StatusCode)
	}
	return back.Query().Get("code"), back.Query().Get("state")
}

func TestOIDCNewAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := startProvider(t)
		e := newEnv(t, db, withProvider(m))
		b := e.browser()
		r := b.do("GET", "/api/oidc", nil)
		if j := r.json(t); j["enabled"] != true || j["name"] != "VeryConnect" {
			t.Fatalf("info %s", r.body)
		}
		m.QueueUser(&mockoidc.MockUser{Subject: "vc-1", Email: "Member@Example.org", EmailVerified: true, PreferredUsername: "member1"})
		code, state := b.externalSignIn(t, "/news/annual-meeting?x=1#top")
		before := b.cookie(auth.SessionCookie)
		r = b.do("POST", "/api/oidc/callback", map[string]any{"code": code, "state": state})
		expect(t, r, 200, "")
		j := r.json(t)
		if j["redirect"] != "/news/annual-meeting?x=1#top" || j["user"].(map[string]any)["email"] != "member@example.org" {
			t.Fatalf("callback %s", r.body)
		}
		if b.cookie(auth.SessionCookie) == before {
			t.Error("session id unchanged by external sign-in")
		}
		r = b.do("GET", "/api/user", nil)
		expect(t, r, 200, "")
		if u := r.json(t); u["email_verified_at"] == nil || u["has_password"] != false || u["name"] != "member1" {
			t.Errorf("user %s", r.body)
		}
		// The state is spent.
		expect(t, b.do("POST", "/api/oidc/callback", map[string]any{"code": code, "state": state}), 422,
			"This sign-in has expired or was started in another browser. Please try again.")

		// The same identity signs in to the same account next time.
		b2 := e.browser()
		m.QueueUser(&mockoidc.MockUser{Subject: "vc-1", Email: "changed@example.org", EmailVerified: false})
		code, state = b2.externalSignIn(t, "//evil.example/")
		r = b2.do("POST", "/api/oidc/callback", map[string]any{"code": code, "state": state})
		expect(t, r, 200, "")
		if j := r.json(t); j["redirect"] != "/" || j["user"].(map[string]any)["email"] != "member@example.org" {
			t.Errorf("second sign-in %s", r.body)
		}
	})
}

func TestOIDCLinksOnlyByVerifiedEmail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := startProvider(t)
		e := newEnv(t, db, withProvider(m))
		local := e.user("ada@example.org", "correct horse battery")

		// Unverified at the provider: refused, nothing linked or created.
		b := e.browser()
		m.QueueUser(&mockoidc.MockUser{Subject: "vc-ada", Email: "ada@example.org", EmailVerified: false})
		code, state := b.externalSignIn(t, "/")
		expect(t, b.do("POST", "/api/oidc/callback", map[string]any{"code": code, "state": state}), 422,
			"Your VeryConnect has no verified email address, so it cannot be used to sign in here.")
		expect(t, b.do("GET", "/api/user", nil), 401, "Unauthenticated.")

		// Verified: linked to the existing account.
		m.QueueUser(&mockoidc.MockUser{Subject: "vc-ada", Email: "ADA@example.org", EmailVerified: true})
		code, state = b.externalSignIn(t, "/user-account")
		r := b.do("POST", "/api/oidc/callback", map[string]any{"code": code, "state": state})
		expect(t, r, 200, "")
		if u := r.json(t)["user"].(map[string]any); u["id"] != float64(local.ID) || u["has_password"] != true {
			t.Errorf("linked user %v", u)
		}
		users, _ := e.svc.ListUsers(context.Background())
		if len(users) != 1 {
			t.Errorf("%d users, want 1", len(users))
		}
	})
}

func TestOIDCTakesOverUnverifiedRegistration(t *testing.T) {
	m := startProvider(t)
	e := newEnv(t, storetest.SQLite(t), withProvider(m))
	// Someone registers the owner's address but cannot verify it.
	squatter := e.browser()
	squatter.do("POST", "/api/register", map[string]any{"name": "X", "email": "owner@example.org", "password": "squatters pw", "password_confirmation": "squatters pw"})
	// The owner signs in through the provider.
	b := e.browser()
	m.QueueUser(&mockoidc.MockUser{Subject: "vc-owner", Email: "owner@example.org", EmailVerified: true})
	code, state := b.externalSignIn(t, "/")
	expect(t, b.do("POST", "/api/oidc/callback", map[string]any{"code": code, "state": state}), 200, "")
	// The squatter's password no longer opens the account.
	squatter.do("GET", "/sanctum/csrf-cookie", nil)
	expect(t, squatter.do("POST", "/login", map[string]any{"email": "owner@example.org", "password": "squatters pw"}), 422,
		"These credentials do not match our records.")
}

func TestOIDCStateBoundToSession(t *testing.T) {
	m := startProvider(t)
	e := newEnv(t, storetest.SQLite(t), withProvider(m))
	attacker, victim := e.browser(), e.browser()
	code, state := attacker.externalSignIn(t, "/")
	// The victim's browser is made to deliver the attacker's code and state.
	victim.do("GET", "/sanctum/csrf-cookie", nil)
	expect(t, victim.do("POST", "/api/oidc/callback", map[string]any{"code": code, "state": state}), 422,
		"This sign-in has expired or was started in another browser. Please try again.")
	expect(t, victim.do("GET", "/api/user", nil), 401, "Unauthenticated.")
	// Without a session there is nothing to bind to.
	expect(t, e.browser().do("POST", "/api/oidc/callback", map[string]any{"code": code, "state": state}), 422,
		"This sign-in has expired or was started in another browser. Please try again.")
	// A refusal at the provider.
	code, state = victim.externalSignIn(t, "/")
	_ = code
	expect(t, victim.do("POST", "/api/oidc/callback", map[string]any{"state": state, "error": "access_denied"}), 422,
		"The sign-in was cancelled or refused by VeryConnect.")
	// A wrong code.
	_, state = victim.externalSignIn(t, "/")
	expect(t, victim.do("POST", "/api/oidc/callback", map[string]any{"code": "forged", "state": state}), 422,
		"The sign-in could not be completed. Please try again.")
}

func TestOIDCNotConfigured(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	b := e.browser()
	if r := b.do("GET", "/api/oidc", nil); r.json(t)["enabled"] != false {
		t.Error(string(r.body))
	}
	expect(t, b.do("GET", "/api/oidc/redirect", nil), 404, "External sign-in is not configured.")
}
