package bulk_test

import (
	"context"
	"database/sql"
	"slices"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/bulk"
	"lineage/internal/store/storetest"
)

// TestIndexes: For picks the database's own Indexes of a Plan; Drop drops the
// Dropped indexes and the derived Tables and leaves the Kept; Repair creates what is
// missing (the Dropped, and a Kept one dropped behind the load's back) or hands it
// to Build when the Indexes have one, and does nothing when nothing is missing.
func TestIndexes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, ddl := range []string{
			`CREATE TABLE loaded (id BIGINT PRIMARY KEY, a BIGINT, b BIGINT)`,
			`CREATE INDEX loaded_a ON loaded (a)`,
			`CREATE INDEX loaded_b ON loaded (b)`,
			`CREATE INDEX loaded_ab ON loaded (a, b)`,
			`CREATE TABLE loaded_derived (a BIGINT PRIMARY KEY)`,
		} {
			if _, err := db.ExecContext(ctx, ddl); err != nil {
				t.Fatal(err)
			}
		}
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		creates := map[string]string{
			"loaded_a":       `CREATE INDEX IF NOT EXISTS loaded_a ON loaded (a)`,
			"loaded_b":       `CREATE INDEX IF NOT EXISTS loaded_b ON loaded (b)`,
			"loaded_ab":      `CREATE INDEX IF NOT EXISTS loaded_ab ON loaded (a, b)`,
			"loaded_derived": `CREATE TABLE IF NOT EXISTS loaded_derived (a BIGINT PRIMARY KEY)`,
		}
		idx := func(name string) bulk.Index { return bulk.Index{Name: name, Create: creates[name]} }
		var built [][]string
		build := func(ctx context.Context, conn *sql.Conn, missing []string) error {
			built = append(built, missing)
			for _, n := range missing {
				if _, err := conn.ExecContext(ctx, creates[n]); err != nil {
					return err
				}
			}
			return nil
		}
		// Each database's Indexes differ, as the research room's do.
		plan := bulk.Plan{
			SQLite:   bulk.Indexes{Dropped: []bulk.Index{idx("loaded_a")}, Kept: []bulk.Index{idx("loaded_ab")}, Tables: []string{"loaded_derived"}, Build: build},
			Postgres: bulk.Indexes{Dropped: []bulk.Index{idx("loaded_b"), idx("loaded_a")}, Kept: []bulk.Index{idx("loaded_ab")}},
		}
		gone, stays := []string{"loaded_a", "loaded_derived"}, []string{"loaded_ab", "loaded_b"}
		if db.Dialect == store.Postgres {
			gone, stays = []string{"loaded_a", "loaded_b"}, []string{"loaded_ab", "loaded_derived"}
		}
		ix := plan.For(db)
		if err := ix.Drop(ctx, conn); err != nil {
			t.Fatal(err)
		}
		have := schemaNames(t, db)
		for _, n := range gone {
			if have[n] {
				t.Errorf("%s not dropped", n)
			}
		}
		for _, n := range stays {
			if !have[n] {
				t.Errorf("%s dropped", n)
			}
		}

		// A Kept index goes missing too (a load by an earlier version was killed).
		if _, err := db.ExecContext(ctx, `DROP INDEX loaded_ab`); err != nil {
			t.Fatal(err)
		}
		if ok, err := ix.Repair(ctx, conn); err != nil || !ok {
			t.Fatalf("repair: %v %v", ok, err)
		}
		have = schemaNames(t, db)
		for n := range creates {
			if !have[n] {
				t.Errorf("%s missing after Repair", n)
			}
		}
		if db.Dialect == store.SQLite {
			if want := []string{"loaded_a", "loaded_ab", "loaded_derived"}; len(built) != 1 || !slices.Equal(built[0], want) {
				t.Errorf("Build was given %v, want once %v", built, want)
			}
		} else if len(built) != 0 {
			t.Errorf("Build of the other database's Indexes called: %v", built)
		}
		if ok, err := ix.Repair(ctx, conn); err != nil || ok {
			t.Errorf("a repair with nothing missing: %v %v", ok, err)
		}
		if len(built) > 1 {
			t.Errorf("Build called with nothing missing: %v", built)
		}
	})
}

// schemaNames are the names of the tables and indexes the test's database holds.
func schemaNames(t *testing.T, db *store.DB) map[string]bool {
	t.Helper()
	q := `SELECT name FROM sqlite_master`
	if db.Dialect == store.Postgres {
		q = `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() UNION ALL SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		have[n] = true
	}
	return have
}

// TestAnalyze: after Analyze the planner has statistics of a table that had none.
func TestAnalyze(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.ExecContext(ctx, `CREATE TABLE counted (id BIGINT PRIMARY KEY, a BIGINT)`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `CREATE INDEX counted_a ON counted (a)`); err != nil {
			t.Fatal(err)
		}
		err := store.InTxOn(ctx, db.DB, func(tx *sql.Tx) error {
			w := bulk.New(db, nil)
			defer w.Close()
			vals := make([]int64, 0, 2000)
			for i := range int64(1000) {
				vals = append(vals, i, i%7)
			}
			return w.InsertInts(ctx, tx, bulk.Table{Name: "counted", Cols: []string{"id", "a"}}, vals)
		})
		if err != nil {
			t.Fatal(err)
		}
		q := `SELECT COUNT(*) FROM sqlite_stat1 WHERE tbl = 'counted'`
		if db.Dialect == store.Postgres {
			q = `SELECT COUNT(*) FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'counted'`
		}
		stats := func() int {
			var n int
			if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil {
				if db.Dialect == store.SQLite {
					return 0 // no sqlite_stat1 before the first ANALYZE
				}
				t.Fatal(err)
			}
			return n
		}
		if n := stats(); n != 0 {
			t.Fatalf("statistics before Analyze: %d", n)
		}
		if err := bulk.Analyze(ctx, db, []string{"counted"}); err != nil {
			t.Fatal(err)
		}
		if n := stats(); n == 0 {
			t.Error("no statistics after Analyze")
		}
	})
}
