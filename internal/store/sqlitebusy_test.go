package store_test

import (
	"context"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// A writer that finds SQLite's write lock taken waits in store's busy handler, which
// counts it (so that a long job can let it go first) and tries again until the lock
// is free: it neither fails nor waits for SQLite's own back-off.
func TestBusyHandler(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := context.Background()
	if _, err := db.Exec(`CREATE TABLE busy (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTx(ctx, nil) // _txlock=immediate: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO busy VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := db.Exec(`INSERT INTO busy VALUES (2)`)
		done <- err
	}()
	for store.WritersWaiting() == 0 {
		select {
		case err := <-done:
			t.Fatalf("the second writer did not wait in store's busy handler: %v", err)
		default:
			time.Sleep(time.Millisecond)
		}
	}
	db.YieldToWriters() // returns though the writer still waits (the lock is held here)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the waiting writer: %v", err)
	}
	var n int
	db.QueryRow(`SELECT COUNT(*) FROM busy`).Scan(&n)
	if n != 2 {
		t.Fatalf("%d rows", n)
	}
}
