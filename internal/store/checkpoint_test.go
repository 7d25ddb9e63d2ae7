package store_test

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestCheckpointer: a writer with its own checkpoints off leaves its commits in the
// write-ahead log; a poked Checkpointer copies them into the database file, and Stop
// waits for it. On PostgreSQL there is none, and its methods do nothing.
func TestCheckpointer(t *testing.T) {
	ctx := context.Background()
	db := storetest.SQLite(t)
	conn := oneConn(t, db)
	for _, q := range []string{`PRAGMA wal_autocheckpoint = 0`, `CREATE TABLE filler (id INTEGER PRIMARY KEY, s TEXT)`, `PRAGMA wal_checkpoint(TRUNCATE)`} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	size := func() int64 {
		fi, err := os.Stat(db.Where)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	ckpt := db.StartCheckpointer(ctx, 0)
	row := strings.Repeat("x", 1000)
	for batch := range 4 {
		err := store.InTxOn(ctx, conn, func(tx *sql.Tx) error {
			for i := range 500 {
				if _, err := tx.ExecContext(ctx, `INSERT INTO filler (id, s) VALUES (?, ?)`, batch*500+i, row); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if batch == 0 {
			if grown := size() - before; grown > 0 {
				t.Fatalf("the database file grew by %d bytes with checkpoints off and no Checkpointer poked", grown)
			}
		}
		ckpt.Poke()
	}
	ckpt.Stop()
	if grown := size() - before; grown < 2000*1000 {
		t.Errorf("after the Checkpointer the database file grew by %d bytes, not the 2 MB written", grown)
	}
	var busy, log, done int
	if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &log, &done); err != nil {
		t.Fatal(err)
	}
	if busy != 0 || log != done {
		t.Errorf("wal_checkpoint: busy %d, %d frames in the log, %d copied", busy, log, done)
	}

	pg := storetest.Postgres(t)
	none := pg.StartCheckpointer(ctx, 0)
	if none != nil {
		t.Error("PostgreSQL has a Checkpointer")
	}
	none.Poke()
	none.Stop()
}

// oneConn is a connection of db's pool, closed when the test ends.
func oneConn(t *testing.T, db *store.DB) *sql.Conn {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}
