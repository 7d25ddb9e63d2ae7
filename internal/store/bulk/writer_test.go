package bulk_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/bulk"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// TestWriter: on both databases, with a connection (compiled statements on SQLite,
// COPY on PostgreSQL) and with transactions from the pool (literal INSERTs, unnest),
// the Writer stores exactly the rows given (NUL as U+FFFD, NULLs, quotes, more rows
// than one statement takes), fails a duplicate key with an error naming the table,
// skips it under Ignore, merges it under an upsert, and writes rows of integers.
func TestWriter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		for _, pooled := range []bool{false, true} {
			t.Run(fmt.Sprintf("pooled=%v", pooled), func(t *testing.T) {
				ctx := context.Background()
				suffix := "c"
				if pooled {
					suffix = "p"
				}
				tbl, facets := "t_"+suffix, "f_"+suffix
				if _, err := db.ExecContext(ctx, `CREATE TABLE `+tbl+` (id BIGINT PRIMARY KEY, s TEXT, n BIGINT)`); err != nil {
					t.Fatal(err)
				}
				if _, err := db.ExecContext(ctx, `CREATE TABLE `+facets+` (k BIGINT PRIMARY KEY, n BIGINT NOT NULL)`); err != nil {
					t.Fatal(err)
				}
				var conn *sql.Conn
				var begin store.TxBeginner = db.DB
				if !pooled {
					var err error
					if conn, err = db.Conn(ctx); err != nil {
						t.Fatal(err)
					}
					defer conn.Close()
					begin = conn
				}
				w := bulk.New(db, conn)
				defer w.Close()
				inTx := func(fn func(tx *sql.Tx) error) error { return store.InTxOn(ctx, begin, fn) }
				table := bulk.Table{Name: tbl, Cols: []string{"id", "s", "n"}}

				var rows [][]any
				want := map[int64]string{}
				for i := range 70 { // two statements of many rows and some one by one
					id := int64(i + 1)
					var s string
					var n any
					switch i % 4 {
					case 0:
						s, n = "O'Brien", nil
					case 1:
						s, n = "a\x00b", i*10
					case 2:
						s, n = "", int64(-i)
					default:
						s, n = strings.Repeat("ü", i*100), i
					}
					rows = append(rows, []any{id, s, n})
					want[id] = fmt.Sprintf("%s|%v", strings.ReplaceAll(s, "\x00", "\uFFFD"), n)
				}
				if err := inTx(func(tx *sql.Tx) error { return w.Insert(ctx, tx, table, rows) }); err != nil {
					t.Fatal(err)
				}
				err := inTx(func(tx *sql.Tx) error {
					return w.Insert(ctx, tx, table, [][]any{{int64(71), "new", 1}, {int64(1), "again", 1}})
				})
				if err == nil || !strings.HasPrefix(err.Error(), "insert into "+tbl+": ") {
					t.Errorf("a duplicate id: %v", err)
				}
				ignore := table
				ignore.OnConflict = bulk.Ignore
				if err := inTx(func(tx *sql.Tx) error {
					return w.Insert(ctx, tx, ignore, [][]any{{int64(72), "kept", nil}, {int64(2), "ignored", nil}})
				}); err != nil {
					t.Fatal(err)
				}
				want[72] = "kept|<nil>"
				got := map[int64]string{}
				res, err := db.QueryContext(ctx, `SELECT id, s, n FROM `+tbl)
				if err != nil {
					t.Fatal(err)
				}
				for res.Next() {
					var id int64
					var s string
					var n sql.NullInt64
					if err := res.Scan(&id, &s, &n); err != nil {
						t.Fatal(err)
					}
					var nv any
					if n.Valid {
						nv = n.Int64
					}
					got[id] = fmt.Sprintf("%s|%v", s, nv)
				}
				res.Close()
				if len(got) != len(want) {
					t.Errorf("%d rows stored, want %d", len(got), len(want))
				}
				for id, s := range want {
					if got[id] != s {
						t.Errorf("row %d: %.40q, want %.40q", id, got[id], s)
					}
				}

				upsert := bulk.Table{Name: facets, Cols: []string{"k", "n"}, OnConflict: `ON CONFLICT (k) DO UPDATE SET n = ` + facets + `.n + excluded.n`}
				var vals []int64
				for k := range int64(40) {
					vals = append(vals, k, k+1)
				}
				for range 2 {
					if err := inTx(func(tx *sql.Tx) error { return w.InsertInts(ctx, tx, upsert, vals) }); err != nil {
						t.Fatal(err)
					}
				}
				var count, sum int64
				if err := db.QueryRowContext(ctx, `SELECT COUNT(*), SUM(n) FROM `+facets).Scan(&count, &sum); err != nil {
					t.Fatal(err)
				}
				if count != 40 || sum != 2*40*41/2 {
					t.Errorf("upserted %d cells summing to %d", count, sum)
				}
				if err := inTx(func(tx *sql.Tx) error { return w.InsertInts(ctx, tx, upsert, []int64{1, 2, 3}) }); err == nil {
					t.Error("three values taken as rows of two")
				}
				cancelled, cancel := context.WithCancel(ctx)
				cancel()
				if err := inTx(func(tx *sql.Tx) error { return w.Insert(cancelled, tx, table, [][]any{{int64(99), "x", nil}}) }); err == nil {
					t.Error("wrote with a cancelled context")
				}
			})
		}
	})
}

// TestWriterOutsideTransaction: on its connection, the SQLite Writer refuses rows that
// would commit on their own (after a rollback database/sql made from another
// goroutine, say), naming the table.
func TestWriterOutsideTransaction(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	w := bulk.New(db, conn)
	defer w.Close()
	err = w.Insert(ctx, nil, bulk.Table{Name: "t", Cols: []string{"id"}}, [][]any{{1}})
	if !errors.Is(err, bulk.ErrNoTransaction) || !strings.HasPrefix(err.Error(), "insert into t: ") {
		t.Errorf("outside a transaction: %v", err)
	}
	if err := w.InsertInts(ctx, nil, bulk.Table{Name: "t", Cols: []string{"id"}}, []int64{1}); !errors.Is(err, bulk.ErrNoTransaction) {
		t.Errorf("ints outside a transaction: %v", err)
	}
}
