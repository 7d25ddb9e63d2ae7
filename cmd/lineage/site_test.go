package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/server"
	"lineage/internal/store"
)

// startSite opens a SQLite store in dataDir, assembles the services as serve does and
// serves them through the front door (server.New with the app's mounts) on a test
// server; all of it is closed when the test ends. ctx is cancelled then too.
func startSite(t *testing.T, dataDir string) (context.Context, config.Config, *store.DB, *app, *httptest.Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cfg := config.Config{DataDir: dataDir, PublicURL: "http://localhost"}
	db, err := store.Open(ctx, cfg.Store())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	a, err := assemble(ctx, cfg, db)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(server.New(server.Options{PublicURL: cfg.PublicURL, DB: db, Mounts: a.frontDoorMounts()}))
	t.Cleanup(srv.Close)
	return ctx, cfg, db, a, srv
}

// send makes a request with c, with "Authorization: Bearer bearer" unless bearer is
// empty and a JSON body unless body is nil, and answers the response (its body read
// and closed) and the body; a request that cannot be made fails the test.
func send(t *testing.T, c *http.Client, method, url, bearer string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// getOK GETs url, with "Authorization: Bearer bearer" unless bearer is empty, and
// returns the body; any answer but 200 fails the test.
func getOK(t *testing.T, url, bearer string) []byte {
	t.Helper()
	res, b := send(t, http.DefaultClient, http.MethodGet, url, bearer, nil)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, b)
	}
	return b
}

// userWithToken makes a verified account on the site (its password "correct horse
// battery") and answers it with an API access token of its own.
func userWithToken(t *testing.T, ctx context.Context, a *app, nu auth.NewUser) (*auth.User, string) {
	t.Helper()
	nu.Password, nu.Verified = "correct horse battery", true
	u, err := a.accounts.CreateUser(ctx, nu)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := a.accounts.IssueTokens(ctx, u.ID, "test")
	if err != nil {
		t.Fatal(err)
	}
	return u, tok.AccessToken
}
