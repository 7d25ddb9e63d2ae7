package auth_test

import (
	"context"
	"testing"

	"lineage/internal/auth"
	"lineage/internal/auth/authtest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// Signing in writes nothing that waits for the main database's writers: while a
// transaction that has written to every account holds them (on SQLite the one write
// lock of lineage.db, as an import's batch or a tree's deletion does; on PostgreSQL the
// users' rows), new browsers get a session and sign in, and sign out. Before sessions
// had a file of their own on SQLite, each of these waited for the lock and then failed
// with SQLITE_BUSY ("database is locked") after the busy timeout.
func TestSignInWhileAWriterHoldsTheStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fd := authtest.Start(t, db)
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `UPDATE users SET updated_at = updated_at + 1`); err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			if _, _, err := fd.SignIn(); err != nil {
				t.Fatalf("sign-in %d while a writer holds the store: %v", i, err)
			}
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.SignIn().QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions WHERE user_id IS NOT NULL`).Scan(&n); err != nil || n != 5 {
			t.Fatalf("%d signed-in sessions, %v; want 5", n, err)
		}
	})
}

// Deleting an account ends its sessions, though on SQLite they are in another file
// that the schema's cascade does not reach.
func TestDeleteUserEndsSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fd := authtest.Start(t, db)
		for range 2 {
			if _, _, err := fd.SignIn(); err != nil {
				t.Fatal(err)
			}
		}
		svc := auth.New(db, auth.Options{Password: auth.TestPasswordParams})
		u, err := svc.UserByEmail(ctx, fd.Email)
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.DeleteUser(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.SignIn().QueryRowContext(ctx, db.Rebind(`SELECT COUNT(*) FROM sessions WHERE user_id = ?`), u.ID).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d sessions of the deleted account left, %v", n, err)
		}
	})
}
