package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestSQLiteBulk: the driver still has the shape NewSQLiteBulk reads, so imports take
// the compiled-statement path (decision 005); the writer refuses to write outside a
// transaction, binds NULLs, integers and texts longer than its first buffer, reports
// constraint errors and unbindable values, and leaves the connection usable.
func TestSQLiteBulk(t *testing.T) {
	ctx := context.Background()
	conn, b := storetest.SQLiteBulk(t, `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, n INTEGER)`)
	q := store.InsertSQL("INSERT OR FAIL", "t", []string{"id", "s", "n"})
	if q != "INSERT OR FAIL INTO t (id, s, n) VALUES (?,?,?)" {
		t.Errorf("InsertSQL: %s", q)
	}
	if err := b.Exec(q, [][]any{{9, "x", 1}}); !errors.Is(err, store.ErrNoTransaction) {
		t.Errorf("outside a transaction: %v", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !b.InTransaction() {
		t.Error("InTransaction is false inside one")
	}
	long := strings.Repeat("ü", 70000) // more than the buffer holds at first
	if err := b.Exec(q, [][]any{{1, "it's", nil}, {int64(2), "", 7}, {3, long, int64(-8)}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Exec(q, [][]any{{1, "again", 1}}); err == nil {
		t.Error("a duplicate id was accepted")
	}
	if err := b.Exec(q, [][]any{{4, 1.5, 1}}); err == nil {
		t.Error("a float was bound")
	}
	if err := b.Exec("INSERT INTO nowhere VALUES (?)", [][]any{{1}}); err == nil {
		t.Error("a statement on a missing table compiled")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var s1, s2, s3 string
	var n1 any
	var count int
	if err := conn.QueryRowContext(ctx, `SELECT (SELECT s FROM t WHERE id = 1), (SELECT n FROM t WHERE id = 1), (SELECT s FROM t WHERE id = 2), (SELECT s FROM t WHERE id = 3), (SELECT count(*) FROM t)`).Scan(&s1, &n1, &s2, &s3, &count); err != nil {
		t.Fatal(err)
	}
	if s1 != "it's" || n1 != nil || s2 != "" || s3 != long || count != 3 {
		t.Errorf("%q %v %q %d bytes, %d rows", s1, n1, s2, len(s3), count)
	}
}
