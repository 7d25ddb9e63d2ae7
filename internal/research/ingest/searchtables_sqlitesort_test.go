package ingest_test

import (
	"slices"
	"testing"

	"lineage/internal/auth/authtest"
	"lineage/internal/research"
	"lineage/internal/research/ingest"
	"lineage/internal/store"
)

// keptByBulk is how many of countIndexes' indexes a bulk load keeps: records_browse
// on SQLite, whose build would hold the write lock throughout (decision 010).
func keptByBulk(db *store.DB) int {
	if db.Dialect == store.SQLite {
		return 1
	}
	return 0
}

// TestBuildSortedBySQLiteInChunks: search rows that are not sorted in memory (more
// than maxSortedBuild, here 10) are sorted by SQLite outside the write lock and
// written in the same bounded transactions as the others: a sign-in completes after
// each of them, mid-way through the build. They used to be sorted and written in one
// transaction, which held the write lock for the whole build (SQLite only: the
// search tables exist only there).
func TestBuildSortedBySQLiteInChunks(t *testing.T) {
	defer ingest.SetMaxSortedBuild(10)()
	db, s := deferredLoad(t)
	importFile(t, s, "burials.csv", research.ImportOptions{Collection: "london-burials", Bulk: research.BulkDefer})
	var rows int
	if err := db.QueryRow(`SELECT COUNT(*) FROM search_keys WHERE surname_id <> 0`).Scan(&rows); err != nil || rows < 20 {
		t.Fatalf("%d search rows: %v", rows, err)
	}
	fd := authtest.Start(t, db)
	chunks, signIns := 0, 0
	restore := ingest.SetBuildChunks(7, func() {
		chunks++
		if _, _, err := fd.SignIn(); err != nil {
			t.Errorf("sign-in after chunk %d of the build: %v", chunks, err)
			return
		}
		signIns++
	})
	buildAndCheck(t, db, s)
	restore()
	// Two tables of rows/7 chunks each, and the rename.
	if want := 2*((rows+6)/7) + 1; chunks != want || signIns != chunks {
		t.Errorf("%d transactions of the build (%d sign-ins between them), want %d for %d rows", chunks, signIns, want, rows)
	}
	if got := keys(t, s, search(t, s, "surname=Smith&surname_mode=exact&place=Sussex", true)); !slices.Equal(got, []string{"B6", "B4"}) {
		t.Errorf("after the build: %v", got)
	}
}

// TestBuildSortedBySQLiteStoreChanges: an import that changes search_keys while rows
// sorted by SQLite are being written stops the build, which leaves no table behind;
// the next build completes.
func TestBuildSortedBySQLiteStoreChanges(t *testing.T) {
	defer ingest.SetMaxSortedBuild(10)()
	db, s := deferredLoad(t)
	buildWhileStoreChanges(t, db, s)
}
