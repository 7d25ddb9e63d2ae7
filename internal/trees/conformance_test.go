package trees_test

import (
	"context"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

// Every file of the shared test data imports without error, on both stores.
func TestImportConformanceFiles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		for _, path := range conformanceFiles(t) {
			rep := importPath(t, s, path, trees.ImportOptions{Slug: "conf"})
			if rep.Tree == nil || rep.Records == 0 && rep.Tree.Counts.People != 0 {
				t.Fatalf("%s: report %+v", path, rep)
			}
		}
		tr, err := s.Tree(context.Background(), "conf")
		if err != nil {
			t.Fatal(err)
		}
		if tr.SourceFile == "" {
			t.Fatalf("tree %+v", tr)
		}
	})
}
