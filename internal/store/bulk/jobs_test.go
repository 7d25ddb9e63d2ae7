package bulk_test

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/bulk"
	"lineage/internal/store/storetest"
)

// TestNextIDs: on both databases the ids a Writer reserves are distinct, above every
// id the table has held (a deleted row's id included), and the rows written with
// them are stored; rows the database numbers itself afterwards take none of them.
func TestNextIDs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ddl := `CREATE TABLE numbered (id INTEGER PRIMARY KEY AUTOINCREMENT, s TEXT NOT NULL)`
		if db.Dialect == store.Postgres {
			ddl = `CREATE TABLE numbered (id BIGSERIAL PRIMARY KEY, s TEXT NOT NULL)`
		}
		if _, err := db.ExecContext(ctx, ddl); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"a", "b", "c"} {
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO numbered (s) VALUES (?)`), s); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.ExecContext(ctx, `DELETE FROM numbered WHERE s = 'c'`); err != nil {
			t.Fatal(err)
		}
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		w := bulk.New(db, conn)
		defer w.Close()
		var ids []int64
		err = store.InTxOn(ctx, conn, func(tx *sql.Tx) error {
			var err error
			if ids, err = w.NextIDs(ctx, tx, "numbered", 5); err != nil {
				return err
			}
			rows := make([][]any, len(ids))
			for i, id := range ids {
				rows[i] = []any{id, "new"}
			}
			return w.Insert(ctx, tx, bulk.Table{Name: "numbered", Cols: []string{"id", "s"}}, rows)
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) != 5 || slices.Min(ids) <= 3 || len(slices.Compact(slices.Sorted(slices.Values(ids)))) != 5 {
			t.Fatalf("ids %v: want 5 distinct ids above 3", ids)
		}
		var after int64
		if err := db.QueryRowContext(ctx, db.Rebind(`INSERT INTO numbered (s) VALUES (?) RETURNING id`), "later").Scan(&after); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(ids, after) {
			t.Errorf("the database numbered a later row %d, one of the reserved %v", after, ids)
		}
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM numbered WHERE s = 'new'`).Scan(&n); err != nil || n != 5 {
			t.Errorf("%d rows written with the reserved ids: %v", n, err)
		}
	})
}

// TestBudget: on SQLite, which has one write lock, a long job's transactions take at
// most the budget's size, which halves after a transaction over TxBudget and grows
// by a quarter (up to the largest allowed) after one under half of it; on PostgreSQL
// a batch is never split.
func TestBudget(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := bulk.New(db, nil)
		defer w.Close()
		b := w.Budget(100)
		if db.Dialect == store.Postgres {
			b.Took(10*bulk.TxBudget, 100)
			if got := b.Take(5000); got != 5000 {
				t.Errorf("PostgreSQL split a batch of 5000: %d", got)
			}
			return
		}
		check := func(step int, want int) {
			t.Helper()
			if got := b.Take(1000); got != want {
				t.Errorf("step %d: takes %d of 1000, want %d", step, got, want)
			}
			if got := b.Take(3); got != min(3, want) {
				t.Errorf("step %d: takes %d of 3", step, got)
			}
		}
		check(0, 100)
		b.Took(2*bulk.TxBudget, 60)
		check(1, 50)
		b.Took(bulk.TxBudget, 60) // at the budget: unchanged
		check(2, 50)
		b.Took(bulk.TxBudget*3/4, 60) // between half and the budget: unchanged
		check(3, 50)
		b.Took(bulk.TxBudget/4, 60) // under half: a quarter more and one, up to 60
		check(4, 60)
		for i, want := range []int{30, 15, 8, 4, 2, 1, 1} {
			b.Took(bulk.TxBudget+time.Millisecond, 60)
			check(5+i, want)
		}
		for i, want := range []int{2, 3, 4, 6, 8} {
			b.Took(bulk.TxBudget/10, 60)
			check(12+i, want)
		}
	})
}

// TestForeignKeysOff: on SQLite the Writer's connection skips foreign key checks
// until Close, which puts them back, and the Writer says so; on PostgreSQL, and on
// SQLite without a connection of its own, the checks stay and it says so.
func TestForeignKeysOff(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, ddl := range []string{
			`CREATE TABLE parent (id BIGINT PRIMARY KEY)`,
			`CREATE TABLE child (id BIGINT PRIMARY KEY, parent_id BIGINT NOT NULL REFERENCES parent (id))`,
		} {
			if _, err := db.ExecContext(ctx, ddl); err != nil {
				t.Fatal(err)
			}
		}
		orphan := func(begin store.TxBeginner, w bulk.Writer, id int64) error {
			return store.InTxOn(ctx, begin, func(tx *sql.Tx) error {
				return w.Insert(ctx, tx, bulk.Table{Name: "child", Cols: []string{"id", "parent_id"}}, [][]any{{id, int64(404)}})
			})
		}

		pooled := bulk.New(db, nil)
		off, err := pooled.ForeignKeysOff(ctx)
		if err != nil || off {
			t.Errorf("without a connection: off %v, %v", off, err)
		}
		if err := orphan(db.DB, pooled, 1); err == nil {
			t.Error("without a connection: a row without its parent was written")
		}
		pooled.Close()

		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		w := bulk.New(db, conn)
		off, err = w.ForeignKeysOff(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := db.Dialect == store.SQLite; off != want {
			t.Errorf("off %v, want %v", off, want)
		}
		err = orphan(conn, w, 2)
		if off && err != nil {
			t.Errorf("with the checks off: %v", err)
		}
		if !off && err == nil {
			t.Error("with the checks on, a row without its parent was written")
		}
		w.Close()
		w = bulk.New(db, conn)
		defer w.Close()
		if err := orphan(conn, w, 3); err == nil || !strings.Contains(strings.ToLower(err.Error()), "foreign key") {
			t.Errorf("after Close the connection's checks are not back: %v", err)
		}
	})
}
