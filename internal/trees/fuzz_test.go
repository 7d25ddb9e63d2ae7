package trees_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"lineage/internal/gedcom"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

// fuzzLimits keep every input small enough that one run takes milliseconds: an input past
// them is refused by the reader, as an upload would be.
var fuzzLimits = gedcom.Limits{MaxBytes: 16 << 10, MaxLines: 400, MaxRecords: 40, MaxTextBytes: 4 << 10}

// FuzzImport: no input makes the importer panic or fail other than by the reader's
// error; whatever imports can be read back (every person, a chart, the public export).
// One SQLite database serves the whole run (each import replaces the tree "fuzz"), and
// the seeds are small, so that it runs thousands of inputs, not a handful.
func FuzzImport(f *testing.F) {
	f.Add([]byte("0 HEAD\n1 GEDC\n2 VERS 5.5.1\n0 @I1@ INDI\n1 NAME A /B/\n1 FAMS @F1@\n0 @F1@ FAM\n1 HUSB @I1@\n1 CHIL @I1@\n0 TRLR\n"))
	f.Add([]byte("0 HEAD\n1 GEDC\n2 VERS 7.0\n0 @I1@ INDI\n1 NAME /\n1 BIRT\n2 DATE BET 1900 AND 1800\n1 FAMC @VOID@\n0 TRLR\n"))
	f.Add([]byte("0 @I1@ INDI\n0 @I1@ INDI\n1 NAME x /y/\n0 @F1@ FAM\n1 WIFE @I1@\n1 WIFE @I1@\n1 HUSB @I9@\n"))
	f.Add([]byte("0 HEAD\n1 GEDC\n2 VERS 5.5.1\n0 @I1@ INDI\n1 RESN privacy\n1 NOTE @N1@\n1 SOUR @S1@\n2 PAGE 3\n1 OBJE\n2 FILE https://x/y.jpg\n0 @N1@ NOTE a\n1 CONT b\n0 @S1@ SOUR\n1 TITL t\n0 TRLR\n"))
	for _, name := range []string{"gedcom70/voidptr.ged", "gedcom70/same-sex-marriage.ged", "gedcom70/notes-1.ged", "gedcom70/xref.ged"} {
		data, err := os.ReadFile(filepath.Join(conformance, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	db := storetest.SQLite(f)
	s := newService(f, db)
	ctx := withViewer(context.Background(), staff)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := gedcom.NewReader(bytes.NewReader(data), &gedcom.Options{MaxWarnings: -1, Limits: fuzzLimits})
		var le *gedcom.LimitError
		if err != nil {
			if !errors.As(err, &le) {
				t.Fatalf("lenient NewReader: %v", err)
			}
			return
		}
		if _, err := s.Import(ctx, r, trees.ImportOptions{Slug: "fuzz", Published: published(true)}); err != nil {
			if errors.As(err, &le) {
				return
			}
			t.Fatalf("import: %v", err)
		}
		page, err := s.People(ctx, "fuzz", &trees.PeopleQuery{Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Results {
			if _, err := s.Person(ctx, "fuzz", p.ID); err != nil {
				t.Fatalf("person %s: %v", p.ID, err)
			}
		}
		if len(page.Results) > 0 {
			if _, err := s.Graph(ctx, "fuzz", page.Results[0].ID, "hourglass", 3); err != nil {
				t.Fatalf("graph %s: %v", page.Results[0].ID, err)
			}
		}
		var out bytes.Buffer
		if err := s.Export(context.Background(), "fuzz", &out, trees.ExportOptions{Public: true}); err != nil {
			t.Fatalf("export: %v", err)
		}
	})
}
