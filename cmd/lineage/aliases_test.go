package main

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestPageAliases: a GET or HEAD of an address people guess (/login, /account…) is sent
// to the real page with its query, while POST /login stays the sign-in API.
func TestPageAliases(t *testing.T) {
	_, _, _, _, srv := startSite(t, t.TempDir())
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, a := range pageAliases {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			res, _ := send(t, client, method, srv.URL+a.from+"?redirect=%2Fbookmarks", "", nil)
			if want := a.to + "?redirect=%2Fbookmarks"; res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != want {
				t.Errorf("%s %s: %d to %q, want 301 to %q", method, a.from, res.StatusCode, res.Header.Get("Location"), want)
			}
		}
	}

	res, _ := send(t, client, "POST", srv.URL+"/login", "", strings.NewReader(`{"email":"nobody@example.org","password":"wrong"}`))
	if res.StatusCode/100 == 3 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Errorf("POST /login: %d %s, want the sign-in API's JSON answer", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

// TestPageAliasesLeadToPages: every alias names a page of the web app's route table, and
// none hides one.
func TestPageAliasesLeadToPages(t *testing.T) {
	src, err := os.ReadFile("../../web/app/routes.ts")
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]bool{}
	for _, m := range regexp.MustCompile(`route\("([^"]+)"`).FindAllStringSubmatch(string(src), -1) {
		path := "/" + m[1]
		pages[path] = true
		// "sog-events/:slug?" is also the page /sog-events.
		for strings.HasSuffix(path, "?") {
			path = path[:strings.LastIndex(path, "/")]
			pages[path] = true
		}
	}
	for _, a := range pageAliases {
		if !pages[a.to] {
			t.Errorf("alias %s leads to %s, which is not a route of web/app/routes.ts", a.from, a.to)
		}
		if pages[a.from] {
			t.Errorf("alias %s hides the web app's page of that name", a.from)
		}
	}
}
