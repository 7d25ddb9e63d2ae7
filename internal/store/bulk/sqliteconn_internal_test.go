package bulk

import (
	"context"
	"errors"
	"testing"

	sqlite3 "modernc.org/sqlite/lib"

	"lineage/internal/store"
	"lineage/internal/store/internal/sqlitehandle"
)

// TestSQLiteConnUnlocked: the bulk writer sets the connection's mutex aside only
// while it runs, on success and on failure alike, so database/sql finds the
// connection in serialized mode again.
func TestSQLiteConnUnlocked(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, store.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	b := NewSQLiteConn(conn)
	if b == nil {
		t.Fatal("no SQLiteConn")
	}
	defer b.Close()
	mu := (*sqlite3.Tsqlite3)(sqlitehandle.Mem(b.db)).Fmutex
	if mu == 0 {
		t.Fatal("the driver's connection has no mutex: not in serialized mode")
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE t (a INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	var during uintptr = 1
	err = b.QueryInts(`SELECT 1`, 1, func([]int64) error {
		during = (*sqlite3.Tsqlite3)(sqlitehandle.Mem(b.db)).Fmutex
		return nil
	})
	if err != nil || during != 0 {
		t.Errorf("during QueryInts: mutex %#x, %v", during, err)
	}
	if err := b.ExecInts(`INSERT INTO t VALUES (?)`, []int64{1}); !errors.Is(err, ErrNoTransaction) {
		t.Errorf("outside a transaction: %v", err)
	}
	stop := errors.New("stop")
	if err := b.QueryInts(`SELECT 1`, 1, func([]int64) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("QueryInts: %v", err)
	}
	if got := (*sqlite3.Tsqlite3)(sqlitehandle.Mem(b.db)).Fmutex; got != mu {
		t.Errorf("after the bulk calls the mutex is %#x, not %#x", got, mu)
	}
	// database/sql goes on using the connection.
	if _, err := conn.ExecContext(ctx, `INSERT INTO t VALUES (2)`); err != nil {
		t.Fatal(err)
	}
}
