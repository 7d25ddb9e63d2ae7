package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"
	"testing"
)

// TestStatementCache: every SQLite connection of a store keeps the statements it runs
// (the driver's connection still has every interface stmtConn forwards), runs them
// again with new arguments and after the schema changes, gives a query whose
// statement is still reading rows a statement of its own, keeps no more than
// stmtCacheSize and no long texts, and keeps a value (Keep) until the connection
// closes.
func TestStatementCache(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var sc *stmtConn
	conn.Raw(func(dc any) error { sc, _ = dc.(*stmtConn); return nil })
	if sc == nil {
		t.Fatal("the driver's connection lacks an interface that stmtConn forwards: statements are compiled on every run")
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := conn.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)`)
	const ins = `INSERT INTO t (id, s) VALUES (?, ?)`
	for i := 1; i <= 3; i++ {
		exec(ins, i, fmt.Sprint("s", i))
	}
	kept := sc.stmts[ins]
	if kept == nil || kept.busy {
		t.Fatalf("the INSERT is not kept, or kept busy: %+v", kept)
	}
	exec(ins, 4, "s4")
	if sc.stmts[ins] != kept {
		t.Error("the INSERT was compiled again")
	}

	const sel = `SELECT id, s FROM t WHERE id >= ? ORDER BY id`
	outer, err := conn.QueryContext(ctx, sel, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for outer.Next() {
		var id int
		var s string
		if err := outer.Scan(&id, &s); err != nil {
			t.Fatal(err)
		}
		// The same query while outer reads: a statement of its own.
		var n int
		if err := conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+sel+`)`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		inner, err := conn.QueryContext(ctx, sel, id)
		if err != nil {
			t.Fatal(err)
		}
		m := 0
		for inner.Next() {
			m++
		}
		inner.Close()
		got = append(got, fmt.Sprintf("%d:%s:%d:%d", id, s, n, m))
	}
	if err := outer.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "1:s1:4:4 2:s2:3:3 3:s3:2:2 4:s4:1:1"; strings.Join(got, " ") != want {
		t.Errorf("read %q, want %q", strings.Join(got, " "), want)
	}
	if cs := sc.stmts[sel]; cs == nil || cs.busy {
		t.Errorf("the SELECT is not kept, or still busy after its rows closed: %+v", cs)
	}

	// A kept statement after the schema changes reads the new schema.
	const star = `SELECT * FROM t WHERE id = ?`
	cols := func() int {
		rows, err := conn.QueryContext(ctx, star, 1)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		c, _ := rows.Columns()
		return len(c)
	}
	if n := cols(); n != 2 {
		t.Fatalf("%d columns", n)
	}
	exec(`ALTER TABLE t ADD COLUMN n INTEGER`)
	if n := cols(); n != 3 {
		t.Errorf("after ALTER TABLE: %d columns, want 3", n)
	}

	long := `SELECT 1 /*` + strings.Repeat("x", stmtCacheMaxSQL) + `*/`
	exec(long)
	if sc.stmts[long] != nil {
		t.Error("a long text was kept")
	}
	for i := range stmtCacheSize + 10 {
		exec(fmt.Sprintf(`SELECT %d`, i))
	}
	if len(sc.stmts) > stmtCacheSize {
		t.Errorf("%d statements kept, at most %d", len(sc.stmts), stmtCacheSize)
	}

	type key struct{}
	made, closed := 0, 0
	mk := func() (any, func()) { made++; return made, func() { closed++ } }
	if v := sc.Keep(key{}, mk); v != 1 {
		t.Errorf("Keep gave %v", v)
	}
	if v := sc.Keep(key{}, mk); v != 1 || made != 1 {
		t.Errorf("Keep again gave %v, made %d", v, made)
	}
	// Closing the driver's connection (database/sql discards a connection whose
	// Raw call reports it bad) closes what it keeps.
	conn.Raw(func(any) error { return driver.ErrBadConn })
	if closed != 1 {
		t.Errorf("closed %d times, want 1", closed)
	}
	var one int
	if err := db.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil || one != 1 {
		t.Fatalf("the pool after a closed connection: %v", err)
	}
}
