package trees

import (
	"context"
	"strings"
	"testing"

	"lineage/internal/store/storetest"
)

// TestBulkInsert: what bulkInsert adds to store.SQLiteBulk (tested in internal/store):
// texts stored as the literal INSERTs store them (each NUL as U+FFFD), and errors that
// name the table.
func TestBulkInsert(t *testing.T) {
	ctx := context.Background()
	conn, b := storetest.SQLiteBulk(t, `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)`)
	cols := []string{"id", "s"}
	if err := bulkInsert(b, "t", cols, [][]any{{1, "x"}}); err == nil || !strings.Contains(err.Error(), "insert into t: no transaction") {
		t.Errorf("outside a transaction: %v", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bulkInsert(b, "t", cols, [][]any{{1, "a\x00b\x00"}, {2, "it's"}}); err != nil {
		t.Fatal(err)
	}
	if err := bulkInsert(b, "t", cols, [][]any{{1, "again"}}); err == nil || !strings.HasPrefix(err.Error(), "insert into t: ") {
		t.Errorf("a duplicate id: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var s1, s2 string
	if err := conn.QueryRowContext(ctx, `SELECT (SELECT s FROM t WHERE id = 1), (SELECT s FROM t WHERE id = 2)`).Scan(&s1, &s2); err != nil {
		t.Fatal(err)
	}
	if s1 != "a\uFFFDb\uFFFD" || s2 != "it's" {
		t.Errorf("stored %q, %q", s1, s2)
	}
}
