package store_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

func TestStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("MigrateTwiceIsNoop", func(t *testing.T) {
			if err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			st, err := db.MigrationStatus(ctx)
			if err != nil || len(st) == 0 {
				t.Fatalf("status %v %v", st, err)
			}
		})
		t.Run("RebindAndTx", func(t *testing.T) {
			err := db.InTx(ctx, func(tx *sql.Tx) error {
				_, err := tx.Exec(db.Rebind("INSERT INTO settings (key, value) VALUES (?, ?)"), "a", "it's ?")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			var v string
			if err := db.QueryRow(db.Rebind("SELECT value FROM settings WHERE key = ? AND value <> '?'"), "a").Scan(&v); err != nil || v != "it's ?" {
				t.Fatalf("got %q, %v", v, err)
			}
		})
		t.Run("ErrRollsBack", func(t *testing.T) {
			boom := errors.New("boom")
			err := db.InTx(ctx, func(tx *sql.Tx) error {
				tx.Exec(db.Rebind("INSERT INTO settings (key, value) VALUES (?, ?)"), "b", "x")
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v", err)
			}
			var n int
			db.QueryRow(db.Rebind("SELECT count(*) FROM settings WHERE key = ?"), "b").Scan(&n)
			if n != 0 {
				t.Fatalf("rolled-back row is visible")
			}
		})
		t.Run("OctetLength", func(t *testing.T) {
			// Bytes, not characters: "é" and "€" are 2 and 3 bytes in UTF-8.
			for text, want := range map[string]int64{"": 0, "abc": 3, "é€": 5} {
				var n int64
				if err := db.QueryRow(db.Rebind(`SELECT `+db.OctetLength("CAST(? AS TEXT)")), text).Scan(&n); err != nil || n != want {
					t.Errorf("OctetLength(%q) = %d, %v; want %d", text, n, err, want)
				}
			}
		})
		t.Run("Secret", func(t *testing.T) {
			a, err := db.Secret(ctx, db, "test.secret")
			if err != nil || len(a) != 32 {
				t.Fatalf("first: %x, %v", a, err)
			}
			if b, err := db.Secret(ctx, db, "test.secret"); err != nil || string(b) != string(a) {
				t.Errorf("second call made another key: %x, %v", b, err)
			}
			if c, _ := db.Secret(ctx, db, "test.other"); string(c) == string(a) {
				t.Error("two names share a key")
			}
			db.Exec(db.Rebind(`UPDATE settings SET value = ? WHERE key = ?`), "short", "test.secret")
			if _, err := db.Secret(ctx, db, "test.secret"); err == nil {
				t.Error("a damaged key was accepted")
			}
		})
		t.Run("ForUpdate", func(t *testing.T) {
			if _, err := db.Exec(db.Rebind(`INSERT INTO settings (key, value) VALUES (?, ?)`), "locked", "1"); err != nil {
				t.Fatal(err)
			}
			q := db.Rebind(`SELECT s.value FROM settings s WHERE s.key = ?` + db.ForUpdate("s"))
			tx1, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx1.Rollback()
			var v string
			if err := tx1.QueryRow(q, "locked").Scan(&v); err != nil || v != "1" {
				t.Fatalf("locking read: %q, %v", v, err)
			}
			if db.Dialect != store.Postgres {
				return // SQLite: the write transaction is the lock
			}
			// A second locker waits for the first: with a short lock timeout it fails.
			tx2, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx2.Rollback()
			if _, err := tx2.Exec(`SET LOCAL lock_timeout = '200ms'`); err != nil {
				t.Fatal(err)
			}
			if err := tx2.QueryRow(q, "locked").Scan(&v); err == nil || !strings.Contains(err.Error(), "lock") {
				t.Errorf("a second FOR UPDATE while the first holds the row: %v, want a lock timeout", err)
			}
		})
	})
}

func TestOpenRejectsNonPostgresURL(t *testing.T) {
	_, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir(), DatabaseURL: "mysql://x"})
	if err == nil {
		t.Fatal("want error")
	}
}
