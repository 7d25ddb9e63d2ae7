package store_test

import (
	"context"
	"database/sql"
	"errors"
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
	})
}

func TestOpenRejectsNonPostgresURL(t *testing.T) {
	_, err := store.Open(context.Background(), store.Options{DataDir: t.TempDir(), DatabaseURL: "mysql://x"})
	if err == nil {
		t.Fatal("want error")
	}
}
