package newsletter_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"lineage/internal/httpx"
	"lineage/internal/mail"
	"lineage/internal/newsletter"
	"lineage/internal/store/storetest"
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

// FuzzVisitorRequests: the bodies and query strings of every route a visitor reaches
// without signing in (sign-up, confirmation, preferences, unsubscribe, one-click) are
// answered with a status of the contract, never a 500, and read at most 64 KiB.
func FuzzVisitorRequests(f *testing.F) {
	db := storetest.SQLite(f)
	ob := mail.NewOutbox(db, &mail.DirSender{Dir: f.TempDir(), From: "no-reply@lineage.test", Log: quiet}, quiet)
	svc := newsletter.New(db, newsletter.Options{Outbox: ob, PublicURL: "https://lineage.test", Log: quiet})
	routes := []struct {
		method string
		h      func(http.ResponseWriter, *http.Request) error
	}{
		{"POST", svc.PostSubscribe}, {"POST", svc.PostConfirm}, {"GET", svc.GetPreferences}, {"PUT", svc.PutPreferences},
		{"POST", svc.PostUnsubscribe}, {"POST", svc.PostOneClick}, {"GET", svc.GetOneClick},
	}
	for _, s := range []string{`{"email":"ann@example.org","lists":["news"],"source":"/","wording":"yes"}`, `{"token":"1.AAAAAAAAAAAAAAAAAAAAAAAA","lists":["news","x"]}`,
		`{"email":["a"]}`, `[]`, `{"lists":null}`, `{"token":"` + strings.Repeat("A", 200) + `"}`} {
		f.Add(uint8(0), s, "token=1.AAAAAAAAAAAAAAAAAAAAAAAA&list=news")
	}
	ok := map[int]bool{200: true, 202: true, 303: true, 404: true, 413: true, 422: true, 429: true}
	f.Fuzz(func(t *testing.T, route uint8, body, query string) {
		rt := routes[int(route)%len(routes)]
		req := httptest.NewRequest(rt.method, "/x", strings.NewReader(body))
		req.URL.RawQuery = query
		req.RemoteAddr = "192.0.2.9:1234"
		w := httptest.NewRecorder()
		if err := rt.h(w, req); err != nil {
			httpx.WriteError(w, req, quiet, "newsletter", err)
		}
		if !ok[w.Code] {
			t.Fatalf("%s %q %q: %d %s", rt.method, body, query, w.Code, w.Body)
		}
	})
}
