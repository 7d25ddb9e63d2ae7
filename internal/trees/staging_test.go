package trees_test

import (
	"context"
	"fmt"
	"testing"

	"lineage/internal/gedcom"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

// A small import writes its rows and swaps its tree in within one transaction: when
// the swap fails (its staging tree taken for a dead import's), none of its rows stay,
// nor its staging tree, and the tree it was replacing is as it was.
func TestSmallImportFailsWhole(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		importWhileStagingTaken(t, db, 50)
		if n := orphanRows(t, db); n != "" {
			t.Fatalf("rows of no tree: %s", n)
		}
	})
}

// importWhileStagingTaken replaces a tree with a generated file of people people while
// another process takes the import's staging tree for a dead import's (on the first
// progress report): the import fails, the tree it was replacing stays as it was, and no
// hidden tree is left.
func importWhileStagingTaken(t *testing.T, db *store.DB, people int) {
	t.Helper()
	s := newService(t, db)
	importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "kept"})
	before := snapshot(t, s, "kept")
	r, err := gedcom.Open(writeGenerated(t, people), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	taken := false
	_, err = s.Import(context.Background(), r, trees.ImportOptions{Slug: "kept", Progress: func(done, size int64, records int) {
		if !taken {
			taken = true
			if _, err := db.Exec(`UPDATE trees SET state = 'deleting' WHERE state = 'loading'`); err != nil {
				t.Error(err)
			}
		}
	}})
	if err == nil {
		t.Fatal("the import swapped in a staging tree that was being removed")
	}
	if after := snapshot(t, s, "kept"); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatal("the tree was replaced")
	}
	if n := hiddenTrees(t, db); n != 0 {
		t.Fatalf("%d hidden trees left", n)
	}
}

// Replacing and deleting small trees (removed in one transaction each) leaves no row of
// theirs behind.
func TestSmallTreesRemovedWhole(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		for range 3 {
			importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "again"})
		}
		importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "gone"})
		if err := s.Delete(withViewer(context.Background(), staff), "gone"); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM trees`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d trees (%v), want 1", n, err)
		}
		if n := orphanRows(t, db); n != "" {
			t.Fatalf("rows of no tree: %s", n)
		}
	})
}

// orphanRows names the tree tables that have rows of a tree that is not there.
func orphanRows(t *testing.T, db *store.DB) string {
	t.Helper()
	var out string
	for _, tbl := range []string{"tree_records", "tree_people", "tree_names", "tree_events", "tree_links", "tree_families"} {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM ` + tbl + ` WHERE tree_id NOT IN (SELECT id FROM trees)`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			out += fmt.Sprintf("%s: %d ", tbl, n)
		}
	}
	return out
}
