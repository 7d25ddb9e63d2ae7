package store_test

import (
	"context"
	"database/sql"
	"encoding/base64"
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

// TestKeptSecret: the key is Secret's, read once and then kept (a changed setting is
// not read again); a key read inside a transaction that rolls back is not kept, so
// the next read makes and keeps the key that is stored; an error is not kept.
func TestKeptSecret(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var k store.KeptSecret
		a, err := k.Get(ctx, db, db, "test.kept")
		if stored, _ := db.Secret(ctx, db, "test.kept"); err != nil || len(a) != 32 || string(a) != string(stored) {
			t.Fatalf("first read: %x, %v; stored %x", a, err, stored)
		}
		other := base64.RawURLEncoding.EncodeToString([]byte(strings.Repeat("k", 32)))
		if _, err := db.Exec(db.Rebind(`UPDATE settings SET value = ? WHERE key = ?`), other, "test.kept"); err != nil {
			t.Fatal(err)
		}
		if b, err := k.Get(ctx, db, db, "test.kept"); err != nil || string(b) != string(a) {
			t.Errorf("second read was not the kept key: %x, %v", b, err)
		}

		var inTx store.KeptSecret
		var rolledBack []byte
		undo := errors.New("roll back")
		err = db.InTx(ctx, func(tx *sql.Tx) error {
			var err error
			if rolledBack, err = inTx.Get(ctx, db, tx, "test.tx"); err != nil {
				return err
			}
			return undo
		})
		if !errors.Is(err, undo) || len(rolledBack) != 32 {
			t.Fatalf("read in a transaction: %x, %v", rolledBack, err)
		}
		after, err := inTx.Get(ctx, db, db, "test.tx")
		if err != nil || string(after) == string(rolledBack) {
			t.Fatalf("the rolled-back transaction's key was kept: %x, %v", after, err)
		}
		if stored, _ := db.Secret(ctx, db, "test.tx"); string(stored) != string(after) {
			t.Errorf("kept %x, stored %x", after, stored)
		}

		var damaged store.KeptSecret
		db.Exec(db.Rebind(`INSERT INTO settings (key, value) VALUES (?, ?)`), "test.damaged", "short")
		if _, err := damaged.Get(ctx, db, db, "test.damaged"); err == nil {
			t.Fatal("a damaged key was accepted")
		}
		db.Exec(db.Rebind(`UPDATE settings SET value = ? WHERE key = ?`), other, "test.damaged")
		if c, err := damaged.Get(ctx, db, db, "test.damaged"); err != nil || string(c) != strings.Repeat("k", 32) {
			t.Errorf("after the error, the repaired key: %q, %v", c, err)
		}
	})
}

func TestOpenRejectsNonPostgresURL(t *testing.T) {
	_, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir(), DatabaseURL: "mysql://x"})
	if err == nil {
		t.Fatal("want error")
	}
}
