package trees

import (
	"context"
	"strings"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestSQLiteBulkWriter: through bulkInsert, texts are stored as the literal INSERTs
// store them (NUL as U+FFFD, quotes, long texts), NULLs and integers bind, a duplicate
// key fails, and nothing is written outside a transaction (the writer itself is
// store.SQLiteBulk, tested in internal/store).
func TestSQLiteBulkWriter(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	b := store.NewSQLiteBulk(conn)
	if b == nil {
		t.Fatal("store.NewSQLiteBulk: the driver's connection no longer has the expected fields; imports fall back to literal INSERTs")
	}
	defer b.Close()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	cols := []string{"id", "s", "n"}
	if err := bulkInsert(b, "t", cols, [][]any{{1, "x", 1}}); err == nil || !strings.Contains(err.Error(), "no transaction") {
		t.Errorf("insert outside a transaction: %v", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("ü", 70000) // more than the buffer holds at first
	rows := [][]any{{1, "it's", nil}, {int64(2), "", 7}, {3, long, int64(-8)}, {4, "a\x00b\x00", 0}}
	if err := bulkInsert(b, "t", cols, rows); err != nil {
		t.Fatal(err)
	}
	if err := bulkInsert(b, "t", cols, [][]any{{1, "again", 1}}); err == nil {
		t.Error("a duplicate id was accepted")
	}
	if err := b.Exec(store.InsertSQL("INSERT OR IGNORE", "t", cols), [][]any{{1, "again", 1}, {5, "five", 5}}); err != nil {
		t.Errorf("OR IGNORE: %v", err)
	}
	if err := bulkInsert(b, "t", cols, [][]any{{6, 1.5, 1}}); err == nil {
		t.Error("a float was bound")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	want := map[int]string{1: "it's|null", 2: "|7", 3: long + "|-8", 4: "a\uFFFDb\uFFFD|0", 5: "five|5"}
	got, err := conn.QueryContext(ctx, `SELECT id, s, coalesce(n, 'null') FROM t ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	n := 0
	for got.Next() {
		var id int
		var s, v string
		if err := got.Scan(&id, &s, &v); err != nil {
			t.Fatal(err)
		}
		if w := want[id]; s+"|"+v != w {
			t.Errorf("row %d: %.40q, want %.40q", id, s+"|"+v, w)
		}
		n++
	}
	if n != len(want) {
		t.Errorf("%d rows, want %d", n, len(want))
	}
}
