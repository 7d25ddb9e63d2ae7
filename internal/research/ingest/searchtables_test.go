package ingest_test

import (
	"context"
	"lineage/internal/research/ingest"
	"slices"
	"strings"
	"testing"

	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// checkSearchTables fails unless SQLite's two search tables hold exactly the rows of
// search_keys (when they are built; a deferred bulk import leaves both out).
func checkSearchTables(t *testing.T, db *store.DB) {
	t.Helper()
	if db.Dialect != store.SQLite {
		return
	}
	var tables int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('search_keys_surname', 'search_keys_given')`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	switch tables {
	case 0:
		return
	case 1:
		t.Fatal("one search table without the other")
	}
	const cols = "id, surname_id, span, jdn_lo, jdn_hi, dq, given_id, place_id, county_id, collection_id, type_id, role_id"
	for _, table := range []string{"search_keys_surname", "search_keys_given"} {
		var keys, rows, missing, extra int
		// The tables have the rows of persons with a surname (those of stores migrated
		// by 00009 may have the others too, unread).
		if err := db.QueryRow(`SELECT (SELECT COUNT(*) FROM search_keys WHERE surname_id <> 0), (SELECT COUNT(*) FROM `+table+` WHERE surname_id <> 0),
			(SELECT COUNT(*) FROM (SELECT `+cols+` FROM search_keys WHERE surname_id <> 0 EXCEPT SELECT `+cols+` FROM `+table+`)),
			(SELECT COUNT(*) FROM (SELECT `+cols+` FROM `+table+` WHERE surname_id <> 0 EXCEPT SELECT `+cols+` FROM search_keys))`).Scan(&keys, &rows, &missing, &extra); err != nil {
			t.Fatal(err)
		}
		if keys != rows || missing != 0 || extra != 0 {
			t.Errorf("%s: %d rows for search_keys' %d; %d missing, %d not in search_keys", table, rows, keys, missing, extra)
		}
	}
}

// TestBuildSearchTables: a deferred bulk load's search tables are built with every
// row of search_keys, whether sorted in memory or, for an index too large for that
// or values too wide for its compact rows, by SQLite; an ordinary import and a
// re-import that changes records keep them in step.
func TestBuildSearchTables(t *testing.T) {
	for _, tc := range []struct {
		name  string
		max   int64
		setup func(t *testing.T, db *store.DB)
	}{
		{"sorted in memory", 64 << 20, nil},
		{"too many rows", 10, nil},
		{"too wide", 64 << 20, func(t *testing.T, db *store.DB) {
			if _, err := db.Exec(`INSERT INTO search_keys (id, surname_id, span, jdn_lo, jdn_hi, dq, given_id, place_id, county_id, collection_id, type_id, role_id)
				VALUES (999999 * 256, 1, 0, 2400000, 2400000, 1, 0, 0, 0, 1, 70000, 1)`); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer ingest.SetMaxSortedBuild(tc.max)()
			db, s := deferredLoad(t)
			importFile(t, s, "burials.csv", research.ImportOptions{Collection: "london-burials", Bulk: research.BulkDefer})
			// A witness known by given names alone: search_keys has her, the search
			// tables do not.
			witness := "record_id,record_type,date,place,role,surname,given_names\n" +
				"N1,baptism,1850,Guildford,principal,Smithers,Anne\n" +
				"N1,baptism,1850,Guildford,witness,,Martha\n"
			if _, err := importString(t, s, witness, nil, research.ImportOptions{Collection: "nameless", Bulk: research.BulkDefer}); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, db)
			}
			buildAndCheck(t, db, s)
			var nameless, kept int
			if err := db.QueryRow(`SELECT (SELECT COUNT(*) FROM search_keys WHERE surname_id = 0), (SELECT COUNT(*) FROM search_keys_surname WHERE surname_id = 0) + (SELECT COUNT(*) FROM search_keys_given WHERE surname_id = 0)`).Scan(&nameless, &kept); err != nil || nameless == 0 || kept != 0 {
				t.Errorf("%d rows of persons without a surname, %d of them in the search tables: %v", nameless, kept, err)
			}
			if got := keys(t, s, search(t, s, "surname=Smith&surname_mode=exact&place=Sussex", true)); !slices.Equal(got, []string{"B6", "B4"}) {
				t.Errorf("after the build: %v", got)
			}
		})
	}
	t.Run("in chunks", func(t *testing.T) {
		defer ingest.SetBuildChunks(7, nil)()
		db, s := deferredLoad(t)
		buildAndCheck(t, db, s)
	})
	t.Run("the store changes between chunks", func(t *testing.T) {
		db, s := deferredLoad(t)
		buildWhileStoreChanges(t, db, s)
	})
	t.Run("ordinary imports", func(t *testing.T) {
		db := storetest.SQLite(t)
		s := newService(t, db, 1000)
		importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "c", Bulk: research.BulkOff})
		checkSearchTables(t, db)
		csv := "record_id,record_type,date,place,role,surname,given_names\n" +
			"T1,baptism,1850,Guildford,principal,Zebedee,Anne\n" +
			"T1,baptism,1850,Guildford,witness,,Martha\n"
		if _, err := importString(t, s, csv, nil, research.ImportOptions{Collection: "z", Bulk: research.BulkOff}); err != nil {
			t.Fatal(err)
		}
		var kept int
		if err := db.QueryRow(`SELECT (SELECT COUNT(*) FROM search_keys_surname WHERE surname_id = 0) + (SELECT COUNT(*) FROM search_keys_given WHERE surname_id = 0)`).Scan(&kept); err != nil || kept != 0 {
			t.Errorf("%d rows of persons without a surname in the search tables: %v", kept, err)
		}
		// The same record again, changed: its old rows leave all three tables.
		csv = strings.Replace(csv, "Zebedee,Anne", "Zebedey,Jane", 1)
		rep, err := importString(t, s, csv, nil, research.ImportOptions{Collection: "z", Bulk: research.BulkOff})
		if err != nil || rep.Updated != 1 {
			t.Fatalf("%+v %v", rep, err)
		}
		checkSearchTables(t, db)
		if got := search(t, s, "surname=Zebedee&surname_mode=exact", true); got.Total != 0 {
			t.Errorf("the changed record's old surname still found: %d", got.Total)
		}
		if got := search(t, s, "surname=Zebedey&surname_mode=exact&given=Jane", true); got.Total != 1 {
			t.Errorf("the changed record: %d", got.Total)
		}
	})
}

// TestSearchTablesMigration: migration 00009 (SQLite) fills the search tables from
// the rows search_keys holds, and its down step brings the covering indexes back.
func TestSearchTablesMigration(t *testing.T) {
	ctx := context.Background()
	db := storetest.SQLite(t)
	s := newService(t, db, 1000)
	importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "c"})
	if err := db.MigrateTo(ctx, 8); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name IN ('search_keys_surname', 'search_keys_given') AND type = 'index'`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d covering indexes after the down step (%v)", n, err)
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM search_keys_surname`).Scan(&n); err != nil || n == 0 {
		t.Fatalf("%d rows in search_keys_surname (%v)", n, err)
	}
	checkSearchTables(t, db)
}

// deferredLoad is a SQLite store with the tricky fixture loaded by a deferred bulk
// import: its search tables are still to be built.
func deferredLoad(t *testing.T) (*store.DB, *research.Service) {
	t.Helper()
	db := storetest.SQLite(t)
	s := newService(t, db, 1000)
	importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "surrey-baptisms", Bulk: research.BulkDefer})
	return db, s
}

// buildAndCheck builds the search indexes a deferred import left out and checks the
// search tables against search_keys.
// buildWhileStoreChanges builds the search tables in chunks of 7 rows while another
// writer, as a concurrent import would, adds a search key before the first chunk: the
// build stops and leaves no table behind, and the next build completes.
func buildWhileStoreChanges(t *testing.T, db *store.DB, s *research.Service) {
	t.Helper()
	wrote := false
	restore := ingest.SetBuildChunks(7, func() {
		if wrote {
			return
		}
		wrote = true
		if _, err := db.Exec(`INSERT INTO search_keys (id, surname_id, span, jdn_lo, jdn_hi, dq, given_id, place_id, county_id, collection_id, type_id, role_id)
			VALUES (999999 * 256, 1, 0, 2400000, 2400000, 1, 0, 0, 0, 1, 1, 1)`); err != nil {
			t.Error(err)
		}
		if _, err := db.Exec(`UPDATE search_epoch SET n = n + 1`); err != nil { // as an import's batch does
			t.Error(err)
		}
	})
	_, err := s.BuildSearchIndexes(context.Background())
	restore()
	if err == nil || !strings.Contains(err.Error(), "changed while the search tables were being built") {
		t.Fatalf("a build over a store that changed: %v", err)
	}
	var left int
	if err := db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'search_keys_%'`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d search tables (complete or half-built) after the failed build: %v", left, err)
	}
	buildAndCheck(t, db, s)
}

func buildAndCheck(t *testing.T, db *store.DB, s *research.Service) {
	t.Helper()
	if built, err := s.BuildSearchIndexes(context.Background()); err != nil || !built {
		t.Fatalf("build: %v %v", built, err)
	}
	checkSearchTables(t, db)
}
