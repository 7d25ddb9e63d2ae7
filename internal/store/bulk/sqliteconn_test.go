package bulk_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"lineage/internal/store/bulk"
	"lineage/internal/store/storetest"
)

// TestSQLiteConn: the driver still has the shape NewSQLiteConn reads, so imports take
// the compiled-statement path (decision 005); the writer refuses to write outside a
// transaction, binds NULLs, integers and texts longer than its first buffer, reports
// constraint errors and unbindable values, and leaves the connection usable.
func TestSQLiteConn(t *testing.T) {
	ctx := context.Background()
	conn, b := storetest.SQLiteConn(t, `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, n INTEGER)`)
	q := bulk.InsertSQL("INSERT OR FAIL", "t", []string{"id", "s", "n"})
	if q != "INSERT OR FAIL INTO t (id, s, n) VALUES (?, ?, ?)" {
		t.Errorf("InsertSQL: %s", q)
	}
	if q2 := bulk.InsertRowsSQL("INSERT", "t", []string{"id", "s"}, 2); q2 != "INSERT INTO t (id, s) VALUES (?, ?),(?, ?)" {
		t.Errorf("InsertRowsSQL: %s", q2)
	}
	if err := b.Exec(q, [][]any{{9, "x", 1}}); !errors.Is(err, bulk.ErrNoTransaction) {
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

// TestSQLiteConnInts: ExecInts binds every parameter of a multi-row INSERT, refuses to
// write outside a transaction and reports a constraint error; QueryInts reads each row
// (NULL as 0), refuses a query with fewer columns than asked and stops at fn's error.
func TestSQLiteConnInts(t *testing.T) {
	ctx := context.Background()
	conn, b := storetest.SQLiteConn(t, `CREATE TABLE t (a INTEGER PRIMARY KEY, b INTEGER)`)
	q := `INSERT INTO t (a, b) VALUES (?, ?), (?, ?)`
	if err := b.ExecInts(q, []int64{1, 2, 3, 4}); !errors.Is(err, bulk.ErrNoTransaction) {
		t.Errorf("outside a transaction: %v", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.ExecInts(q, []int64{1, -2, 3, 1 << 40}); err != nil {
		t.Fatal(err)
	}
	if err := b.ExecInts(q, []int64{5, 6, 1, 8}); err == nil {
		t.Error("a duplicate key was accepted")
	}
	if err := b.ExecInts(`INSERT INTO t (a) VALUES (?)`, []int64{7}); err != nil {
		t.Fatal(err)
	}
	var got [][2]int64
	read := func(row []int64) error { got = append(got, [2]int64{row[0], row[1]}); return nil }
	if err := b.QueryInts(`SELECT a, b FROM t ORDER BY a`, 2, read); err != nil {
		t.Fatal(err)
	}
	if want := [][2]int64{{1, -2}, {3, 1 << 40}, {7, 0}}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("read %v, want %v", got, want)
	}
	if err := b.QueryInts(`SELECT a FROM t`, 2, read); err == nil {
		t.Error("a one-column query read as two")
	}
	stop := errors.New("stop")
	n := 0
	if err := b.QueryInts(`SELECT a, b FROM t`, 2, func([]int64) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Errorf("fn's error: %v after %d rows", err, n)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestSQLiteConnKept: on a connection of a store, NewSQLiteConn gives the SQLiteConn
// kept with the connection, whose Close leaves its statements ready for the next
// job, which writes as the first did.
func TestSQLiteConnKept(t *testing.T) {
	ctx := context.Background()
	conn, b := storetest.SQLiteConn(t, `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)`)
	q := bulk.InsertSQL("INSERT", "t", []string{"id", "s"})
	for i := range 3 {
		if again := bulk.NewSQLiteConn(conn); again != b {
			t.Fatalf("job %d: another SQLiteConn on the same connection", i)
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Exec(q, [][]any{{i, strings.Repeat("x", i)}}); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		b.Close()
	}
	var n, l int
	if err := conn.QueryRowContext(ctx, `SELECT COUNT(*), SUM(length(s)) FROM t`).Scan(&n, &l); err != nil || n != 3 || l != 3 {
		t.Errorf("%d rows, %d bytes, %v", n, l, err)
	}
}
