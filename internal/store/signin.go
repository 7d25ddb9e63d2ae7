package store

import (
	"context"
	"fmt"
)

// signInFile holds SQLite's sign-in state, beside lineage.db.
const signInFile = "signin.db"

// signInTables are the tables of the sign-in state, parents before children.
var signInTables = []struct{ name, columns string }{
	{"sessions", "id, user_id, csrf_token, remember, created_at, last_seen_at, expires_at, ip, user_agent"},
	{"rate_limits", "key, hits, reset_at"},
	{"oidc_flows", "state_hash, session_id, nonce, code_verifier, return_to, expires_at"},
}

// SignIn is the database of what signing in writes: sessions (a guest's too), external
// sign-ins under way and the attempt counters. On SQLite they live in a file of their
// own, signin.db: SQLite lets one writer at a time write a database file, and a long
// job on the main file (an import's batches, a tree's deletion) would otherwise make
// every visitor who needs a session wait for it (docs/decisions/024-sign-in-apart.md).
// On PostgreSQL, where writers wait only for the rows they share, it is db itself.
//
// Nothing may join these tables with the main database's: a query names one database.
func (db *DB) SignIn() *DB {
	if db.signIn != nil {
		return db.signIn
	}
	return db
}

// migrateSignIn brings signin.db's schema up to date and, the first time, moves into
// it the sign-in state that lineage.db kept before (copied while the main file still
// has its tables; the main file's migration 00026 then drops them), so that nobody is
// signed out by the move. A copy interrupted half way is taken again: rows already
// there are kept.
func (db *DB) migrateSignIn(ctx context.Context) error {
	if db.signIn == nil {
		return nil
	}
	p, err := db.signIn.gooseProvider()
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("store: migrate %s: %w", db.signIn.Where, err)
	}
	var left int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'sessions'`).Scan(&left); err != nil {
		return fmt.Errorf("store: migrate %s: %w", db.signIn.Where, err)
	}
	if left == 0 {
		return nil
	}
	// ATTACH applies to one connection, and outside a transaction.
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS signin`, db.signIn.Where); err != nil {
		return fmt.Errorf("store: attach %s: %w", db.signIn.Where, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `DETACH DATABASE signin`)
	for _, t := range signInTables {
		q := `INSERT OR IGNORE INTO signin.` + t.name + ` (` + t.columns + `) SELECT ` + t.columns + ` FROM main.` + t.name
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("store: copy %s to %s: %w", t.name, signInFile, err)
		}
	}
	return nil
}
