package store_test

import (
	"context"
	"testing"

	"lineage/internal/store"
)

// Upgrading a SQLite installation moves its sign-in state from lineage.db into
// signin.db, rows and all (nobody is signed out by the upgrade), and lineage.db keeps
// no copy; a second start copies nothing twice.
func TestSignInStateMovesToItsFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, store.Options{DataDir: dir, SkipMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.MigrateTo(ctx, 25); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO users (email, role, created_at, updated_at) VALUES ('a@example.org', 'registered', 1, 1)`,
		`INSERT INTO sessions (id, user_id, csrf_token, remember, created_at, last_seen_at, expires_at, ip, user_agent) VALUES ('s1', 1, 'c1', 1, 10, 11, 12, '192.0.2.1', 'Firefox')`,
		`INSERT INTO sessions (id, user_id, csrf_token, created_at, last_seen_at, expires_at) VALUES ('guest', NULL, 'c2', 20, 21, 22)`,
		`INSERT INTO rate_limits (key, hits, reset_at) VALUES ('login:a@example.org|192.0.2.1', 3, 99)`,
		`INSERT INTO oidc_flows (state_hash, session_id, nonce, code_verifier, return_to, expires_at) VALUES ('h', 'guest', 'n', 'v', '/back', 30)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name IN ('sessions', 'rate_limits', 'oidc_flows')`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("lineage.db still has %d of the tables (%v)", left, err)
	}
	check := func(db *store.DB) {
		t.Helper()
		var got string
		if err := db.SignIn().QueryRowContext(ctx, `SELECT
			(SELECT group_concat(id || ':' || COALESCE(user_id, 0) || ':' || csrf_token || ':' || remember || ':' || created_at || ':' || last_seen_at || ':' || expires_at || ':' || ip || ':' || user_agent, ' ') FROM (SELECT * FROM sessions ORDER BY id)) || ' | ' ||
			(SELECT group_concat(key || ':' || hits || ':' || reset_at) FROM rate_limits) || ' | ' ||
			(SELECT group_concat(state_hash || ':' || session_id || ':' || nonce || ':' || code_verifier || ':' || return_to || ':' || expires_at) FROM oidc_flows)`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		want := "guest:0:c2:0:20:21:22:: s1:1:c1:1:10:11:12:192.0.2.1:Firefox | login:a@example.org|192.0.2.1:3:99 | h:guest:n:v:/back:30"
		if got != want {
			t.Errorf("signin.db holds\n%s\nwant\n%s", got, want)
		}
	}
	check(db)
	db.Close()
	again, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	check(again)
	// Down and up again: lineage.db gets its (empty) tables back, and loses them again.
	if err := again.MigrateTo(ctx, 25); err != nil {
		t.Fatal(err)
	}
	if err := again.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	check(again)
}
