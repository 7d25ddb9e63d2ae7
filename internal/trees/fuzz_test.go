package trees_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"lineage/internal/gedcom"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

// FuzzImport: no input makes the importer panic or fail other than by the reader's
// error; whatever imports can be read back through every endpoint and exported.
func FuzzImport(f *testing.F) {
	f.Add([]byte("0 HEAD\n1 GEDC\n2 VERS 5.5.1\n0 @I1@ INDI\n1 NAME A /B/\n1 FAMS @F1@\n0 @F1@ FAM\n1 HUSB @I1@\n1 CHIL @I1@\n0 TRLR\n"))
	f.Add([]byte("0 HEAD\n1 GEDC\n2 VERS 7.0\n0 @I1@ INDI\n1 NAME /\n1 BIRT\n2 DATE BET 1900 AND 1800\n1 FAMC @VOID@\n0 TRLR\n"))
	f.Add([]byte("0 @I1@ INDI\n0 @I1@ INDI\n1 NAME x /y/\n0 @F1@ FAM\n1 WIFE @I1@\n1 WIFE @I1@\n1 HUSB @I9@\n"))
	paths, _ := filepath.Glob(filepath.Join(conformance, "*", "*.ged"))
	for i, p := range paths {
		if i%8 == 0 {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	db := storetest.SQLite(f)
	s := newService(f, db)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := gedcom.NewReader(bytes.NewReader(data), nil)
		if err != nil {
			return
		}
		if _, err := s.Import(context.Background(), r, trees.ImportOptions{Slug: "fuzz", Published: published(true)}); err != nil {
			t.Fatalf("import: %v", err)
		}
		snapshot(t, s, "fuzz")
		ctx := withViewer(context.Background(), staff)
		page, err := s.People(ctx, "fuzz", &trees.PeopleQuery{Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Results {
			if _, err := s.Graph(context.Background(), "fuzz", p.ID, "hourglass", 3); err != nil {
				t.Fatalf("graph %s: %v", p.ID, err)
			}
		}
		var out bytes.Buffer
		if err := s.Export(context.Background(), "fuzz", &out, trees.ExportOptions{Public: true}); err != nil {
			t.Fatalf("export: %v", err)
		}
	})
}
