package store_test

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestCollect: every row is scanned in order (one column with Scalar), no rows is an empty slice (not nil), a
// failed query's error and a scan's error come back, and times go to and from their
// stored Unix seconds, NULL as nil.
func TestCollect(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		at := things(t, db)
		type thing struct {
			id int64
			at *time.Time
		}
		scan := func(r store.Row) (thing, error) {
			var th thing
			var n sql.NullInt64
			err := r.Scan(&th.id, &n)
			th.at = store.TimeOrNil(n)
			return th, err
		}
		rs, err := db.QueryContext(ctx, `SELECT id, at FROM things ORDER BY id`)
		got, err := store.Collect(rs, err, scan)
		if err != nil || len(got) != 2 || got[0].id != 1 || got[0].at == nil || !got[0].at.Equal(at) || got[0].at.Location() != time.UTC || got[1].at != nil {
			t.Fatalf("rows: %+v %v", got, err)
		}
		rs, err = db.QueryContext(ctx, `SELECT id FROM things ORDER BY id DESC`)
		if ids, err := store.Collect(rs, err, store.Scalar[int64]); err != nil || len(ids) != 2 || ids[0] != 2 || ids[1] != 1 {
			t.Fatalf("Scalar: %v %v", ids, err)
		}
		rs, err = db.QueryContext(ctx, `SELECT id, at FROM things WHERE id > 5`)
		if none, err := store.Collect(rs, err, scan); err != nil || none == nil || len(none) != 0 {
			t.Fatalf("no rows must be an empty slice: %#v %v", none, err)
		}
		rs, err = db.QueryContext(ctx, `SELECT id, at FROM no_such_table`)
		if _, err := store.Collect(rs, err, scan); err == nil {
			t.Fatal("a failed query must be its error")
		}
		broken := errors.New("scan failed")
		rs, err = db.QueryContext(ctx, `SELECT id, at FROM things`)
		if _, err := store.Collect(rs, err, func(store.Row) (thing, error) { return thing{}, broken }); !errors.Is(err, broken) {
			t.Fatalf("a scan's error: %v", err)
		}
		if got := store.Time(at.Unix()); !got.Equal(at) || got.Location() != time.UTC {
			t.Fatalf("Time: %v", got)
		}
	})
}

// things makes the table the row tests read: thing 1 at the time it returns, thing 2
// at NULL (each stored through UnixOrNil).
func things(t *testing.T, db *store.DB) time.Time {
	t.Helper()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE things (id INTEGER PRIMARY KEY, at BIGINT)`); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	for i, v := range []any{store.UnixOrNil(&at), store.UnixOrNil(nil)} {
		if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO things (id, at) VALUES (?, ?)`), i+1, v); err != nil {
			t.Fatal(err)
		}
	}
	return at
}

// TestCollectMap: rows of two columns become a map through Pair (a NULL value as its
// zero), no rows is an empty map (not nil), and a failed query's or a scan's error
// comes back.
func TestCollectMap(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		at := things(t, db)
		rs, err := db.QueryContext(ctx, `SELECT id, at FROM things`)
		got, err := store.CollectMap(rs, err, store.Pair[int64, sql.NullInt64])
		if err != nil || len(got) != 2 || got[1] != (sql.NullInt64{Int64: at.Unix(), Valid: true}) || got[2].Valid {
			t.Fatalf("map: %v %v", got, err)
		}
		rs, err = db.QueryContext(ctx, `SELECT id, at FROM things WHERE id > 5`)
		if none, err := store.CollectMap(rs, err, store.Pair[int64, sql.NullInt64]); err != nil || none == nil || len(none) != 0 {
			t.Fatalf("no rows must be an empty map: %#v %v", none, err)
		}
		rs, err = db.QueryContext(ctx, `SELECT id, at FROM no_such_table`)
		if _, err := store.CollectMap(rs, err, store.Pair[int64, sql.NullInt64]); err == nil {
			t.Fatal("a failed query must be its error")
		}
		// A NULL cannot be scanned into an int64: Pair's scan error is CollectMap's.
		rs, err = db.QueryContext(ctx, `SELECT id, at FROM things`)
		if _, err := store.CollectMap(rs, err, store.Pair[int64, int64]); err == nil {
			t.Fatal("a scan's error must come back")
		}
		broken := errors.New("scan failed")
		rs, err = db.QueryContext(ctx, `SELECT id, at FROM things`)
		if _, err := store.CollectMap(rs, err, func(store.Row) (int64, int64, error) { return 0, 0, broken }); !errors.Is(err, broken) {
			t.Fatalf("a scan's error: %v", err)
		}
	})
}

// TestChanged: a statement that changed a row is no error, one that changed none is
// the caller's none, and a failed statement is its own error, not none.
func TestChanged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		things(t, db)
		none := errors.New("no such thing")
		update := func(table string, id int64) error {
			res, err := db.ExecContext(ctx, db.Rebind(`UPDATE `+table+` SET at = 0 WHERE id = ?`), id)
			return store.Changed(res, err, none)
		}
		if err := update("things", 1); err != nil {
			t.Errorf("a changed row: %v", err)
		}
		if err := update("things", 9); err != none {
			t.Errorf("no row changed: %v, want none", err)
		}
		if err := update("no_such_table", 1); err == nil || errors.Is(err, none) {
			t.Errorf("a failed statement: %v, want its own error", err)
		}
		res, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM things WHERE id = ?`), 2)
		if err := store.Changed(res, err, none); err != nil {
			t.Errorf("a deleted row: %v", err)
		}
	})
}

// TestSet: the rows of one column become the set of their values, each true (a value
// met twice is one key), of whatever type the column is scanned as; no rows is an
// empty set (not nil), and a failed query's or a scan's error comes back.
func TestSet(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		things(t, db)
		for _, tc := range []struct {
			name, query string
			want        map[int64]bool // nil: an error is wanted
		}{
			{"rows", `SELECT id FROM things`, map[int64]bool{1: true, 2: true}},
			{"each value once", `SELECT t.id FROM things t, things u`, map[int64]bool{1: true, 2: true}},
			{"no rows", `SELECT id FROM things WHERE id > 5`, map[int64]bool{}},
			{"failed query", `SELECT id FROM no_such_table`, nil},
			{"scan error", `SELECT at FROM things`, nil}, // thing 2's NULL is no int64
		} {
			rs, err := db.QueryContext(ctx, tc.query)
			got, err := store.Set[int64](rs, err)
			switch {
			case tc.want == nil && err == nil:
				t.Errorf("%s: %v, want an error", tc.name, got)
			case tc.want != nil && (err != nil || got == nil || !maps.Equal(got, tc.want)):
				t.Errorf("%s: %#v %v, want %v", tc.name, got, err, tc.want)
			}
		}
		rs, err := db.QueryContext(ctx, `SELECT 'thing' FROM things`)
		if got, err := store.Set[string](rs, err); err != nil || !maps.Equal(got, map[string]bool{"thing": true}) {
			t.Errorf("strings: %v %v", got, err)
		}
	})
}
