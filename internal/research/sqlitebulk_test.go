package research

import (
	"context"
	"strings"
	"testing"

	"lineage/internal/store/storetest"
)

// TestSQLiteBulkFastPath: the driver still has the shape sqliteBulkOf reads, so
// imports take the compiled-statement path (decision 005); and the writer inserts,
// reports constraint errors, and leaves the connection usable.
func TestSQLiteBulkFastPath(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	b := sqliteBulkOf(ctx, conn)
	if b == nil {
		t.Fatal("sqliteBulkOf: the driver's connection no longer has the expected fields; imports fall back to literal INSERTs")
	}
	defer b.close()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := insertSQL("INSERT OR FAIL", "t", []string{"id", "s", "n"})
	if err := b.exec(q, [][]any{{1, "it's", nil}, {int64(2), "", 7}, {3, strings.Repeat("ü", 5000), 8}}); err != nil {
		t.Fatal(err)
	}
	if err := b.exec(q, [][]any{{1, "again", 1}}); err == nil {
		t.Error("a duplicate id was accepted")
	}
	if err := b.exec(q, [][]any{{4, 1.5, 1}}); err == nil {
		t.Error("a float was bound")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var s1, s2, s3 string
	var n1 any
	if err := conn.QueryRowContext(ctx, `SELECT (SELECT s FROM t WHERE id = 1), (SELECT n FROM t WHERE id = 1), (SELECT s FROM t WHERE id = 2), (SELECT s FROM t WHERE id = 3)`).Scan(&s1, &n1, &s2, &s3); err != nil {
		t.Fatal(err)
	}
	if s1 != "it's" || n1 != nil || s2 != "" || s3 != strings.Repeat("ü", 5000) {
		t.Errorf("%q %v %q %d bytes", s1, n1, s2, len(s3))
	}
}
