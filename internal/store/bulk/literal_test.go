package bulk_test

import (
	"context"
	"database/sql"
	"math"
	"strconv"
	"strings"
	"testing"

	"lineage/internal/store/bulk"
	"lineage/internal/store/storetest"
)

// TestLiteralInserts: statements split every rowsPerStmt rows, and what they store in
// a real SQLite database is exactly the values given (NUL as U+FFFD).
func TestLiteralInserts(t *testing.T) {
	cols := []string{"id", "s", "n"}
	row := func(id int) []any { return []any{id, "r'" + string(rune('a'+id)), int64(id) * 10} }
	for _, c := range []struct {
		rows, per int
		want      []string
	}{
		{0, 2, nil},
		{1, 2, []string{"INSERT OR FAIL INTO t (id, s, n) VALUES (0,'r''a',0)"}},
		{2, 2, []string{"INSERT OR FAIL INTO t (id, s, n) VALUES (0,'r''a',0),(1,'r''b',10)"}},
		{3, 2, []string{
			"INSERT OR FAIL INTO t (id, s, n) VALUES (0,'r''a',0),(1,'r''b',10)",
			"INSERT OR FAIL INTO t (id, s, n) VALUES (2,'r''c',20)",
		}},
		{2, 0, []string{
			"INSERT OR FAIL INTO t (id, s, n) VALUES (0,'r''a',0)",
			"INSERT OR FAIL INTO t (id, s, n) VALUES (1,'r''b',10)",
		}},
	} {
		var rows [][]any
		for i := 0; i < c.rows; i++ {
			rows = append(rows, row(i))
		}
		got := bulk.LiteralInserts("INSERT OR FAIL", "t", cols, rows, c.per)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") || len(got) != len(c.want) {
			t.Errorf("%d rows, %d per statement:\ngot  %q\nwant %q", c.rows, c.per, got, c.want)
		}
	}

	db := storetest.SQLite(t)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{
		{1, "O'Brien", nil},
		{2, "a\x00b", int64(math.MaxInt64)},
		{3, "", -7},
		{1, "duplicate id", 0},
	}
	for _, q := range bulk.LiteralInserts("INSERT OR IGNORE", "t", []string{"id", "s", "n"}, rows, 3) {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	res, err := db.QueryContext(ctx, `SELECT id, s, n FROM t ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var got []string
	for res.Next() {
		var id int
		var s string
		var n sql.NullInt64
		if err := res.Scan(&id, &s, &n); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join([]string{s, nullString(n)}, "|"))
	}
	want := []string{"O'Brien|NULL", "a\uFFFDb|9223372036854775807", "|-7"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stored %q, want %q", got, want)
	}
	if _, err := db.ExecContext(ctx, bulk.LiteralInserts("INSERT OR FAIL", "t", []string{"id", "s", "n"}, rows[:1], 10)[0]); err == nil {
		t.Error("INSERT OR FAIL of an existing id did not fail")
	}
}

func nullString(n sql.NullInt64) string {
	if !n.Valid {
		return "NULL"
	}
	return strconv.FormatInt(n.Int64, 10)
}

// TestPGColumn: a column with any string becomes a text array (NUL as U+FFFD), else a
// bigint array with NULLs, and PostgreSQL's unnest stores exactly those values.
func TestPGColumn(t *testing.T) {
	rows := [][]any{{1, "O'Brien"}, {int64(2), "a\x00b"}, {nil, nil}}
	ids, idType := bulk.PGColumn(rows, 0)
	texts, textType := bulk.PGColumn(rows, 1)
	if idType != "bigint" || textType != "text" {
		t.Fatalf("types %s, %s", idType, textType)
	}
	if got := texts.([]string); strings.Join(got, "|") != "O'Brien|a\uFFFDb|" {
		t.Errorf("texts %q", got)
	}
	if got := ids.([]*int64); *got[0] != 1 || *got[1] != 2 || got[2] != nil {
		t.Errorf("ids %v", got)
	}
	db := storetest.Postgres(t)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (n BIGINT, s TEXT)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO t (n, s) SELECT * FROM unnest($1::bigint[], $2::text[])`, ids, texts); err != nil {
		t.Fatal(err)
	}
	var got []string
	res, err := db.QueryContext(ctx, `SELECT COALESCE(n::text, 'NULL'), s FROM t ORDER BY n NULLS LAST`)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	for res.Next() {
		var n, s string
		if err := res.Scan(&n, &s); err != nil {
			t.Fatal(err)
		}
		got = append(got, n+"|"+s)
	}
	if want := "1|O'Brien 2|a\uFFFDb NULL|"; strings.Join(got, " ") != want {
		t.Errorf("stored %q, want %q", strings.Join(got, " "), want)
	}
}
