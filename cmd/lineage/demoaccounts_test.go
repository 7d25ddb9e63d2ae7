package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lineage/internal/auth/authtest"
	"lineage/internal/config"
	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestDemoAccounts: serve --demo makes a member (with a membership in force), an editor
// and an admin who sign in with the passwords start-up prints; a restart makes nothing
// new and prints the same passwords; a serve without --demo makes none.
func TestDemoAccounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		start := func(cfg config.Config) *app { // the rooms of assemble the demo accounts need
			t.Helper()
			a := &app{}
			for _, add := range []func() error{
				func() error { return a.addAccounts(ctx, cfg, db) },
				func() error { return a.addPayments(cfg, db) },
				func() error { return a.addMembership(ctx, cfg, db) },
				func() error { return a.addDemoAccounts(ctx, cfg) },
			} {
				if err := add(); err != nil {
					t.Fatal(err)
				}
			}
			return a
		}
		users := func() int {
			var n int
			if err := db.QueryRow(`SELECT COUNT(*) FROM users`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		if a := start(config.Config{DataDir: t.TempDir(), PublicURL: "http://localhost"}); len(a.demoLogins) != 0 || users() != 0 {
			t.Fatalf("serve without --demo: %d logins, %d accounts", len(a.demoLogins), users())
		}

		data := t.TempDir()
		startDemo := func() *app { return start(config.Config{DataDir: data, PublicURL: "http://localhost", Demo: true}) }
		a := startDemo()
		if len(a.demoLogins) != 3 || users() != 3 {
			t.Fatalf("serve --demo: %+v, %d accounts", a.demoLogins, users())
		}
		if fi, err := os.Stat(filepath.Join(data, demoPasswordsFile)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("the passwords file: %v %v", fi, err)
		}
		var printed bytes.Buffer
		printDemoLogins(&printed, "http://localhost", data, a.demoLogins)
		srv := httptest.NewServer(httpx.Serve(authtest.AuthRoom(a.accounts, slog.New(slog.NewTextHandler(io.Discard, nil)))))
		defer srv.Close()
		wantScope := map[string]string{"member": "member", "editor": "editor", "admin": "admin"}
		for _, l := range a.demoLogins {
			if len(l.Password) < 12 || !strings.Contains(printed.String(), l.Email) || !strings.Contains(printed.String(), l.Password) {
				t.Errorf("demo login %+v, printed:\n%s", l, printed.String())
			}
			body, _ := json.Marshal(map[string]string{"email": l.Email, "password": l.Password})
			res, b := send(t, http.DefaultClient, "POST", srv.URL+"/api/tokens", "", bytes.NewReader(body))
			var tok struct {
				AccessToken string `json:"access_token"`
			}
			json.Unmarshal(b, &tok)
			if res.StatusCode != http.StatusCreated {
				t.Fatalf("%s signs in: %d", l.Email, res.StatusCode)
			}
			_, b = send(t, http.DefaultClient, "GET", srv.URL+"/api/user", tok.AccessToken, nil)
			var u struct {
				Scope []string `json:"scope"`
			}
			json.Unmarshal(b, &u)
			if !slices.Contains(u.Scope, wantScope[l.Role]) {
				t.Errorf("%s (%s) has scope %q", l.Email, l.Role, u.Scope)
			}
		}

		// A restart makes no account or membership and prints the same passwords.
		var memberships int
		db.QueryRow(`SELECT COUNT(*) FROM memberships`).Scan(&memberships)
		again := startDemo()
		var membershipsAgain int
		db.QueryRow(`SELECT COUNT(*) FROM memberships`).Scan(&membershipsAgain)
		if !slices.Equal(again.demoLogins, a.demoLogins) || users() != 3 || memberships != 1 || membershipsAgain != 1 {
			t.Errorf("after a restart: %+v (was %+v), %d accounts, memberships %d then %d", again.demoLogins, a.demoLogins, users(), memberships, membershipsAgain)
		}
		// Without the file, the accounts stay and start-up says how to set a password.
		os.Remove(filepath.Join(data, demoPasswordsFile))
		printed.Reset()
		printDemoLogins(&printed, "http://localhost", data, startDemo().demoLogins)
		if users() != 3 || !strings.Contains(printed.String(), "user set-password --email admin@example.org") {
			t.Errorf("without the passwords file: %d accounts, printed:\n%s", users(), printed.String())
		}
	})
}
