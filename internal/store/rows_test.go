package store_test

import (
	"context"
	"database/sql"
	"errors"
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
		if _, err := db.ExecContext(ctx, `CREATE TABLE things (id INTEGER PRIMARY KEY, at BIGINT)`); err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
		for i, v := range []any{store.UnixOrNil(&at), store.UnixOrNil(nil)} {
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO things (id, at) VALUES (?, ?)`), i+1, v); err != nil {
				t.Fatal(err)
			}
		}
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
