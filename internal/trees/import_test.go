package trees_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lineage/internal/gedcom"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

func writeGenerated(t testing.TB, people int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gen.ged")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := trees.GenerateGEDCOM(f, people, 3); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// An import that is stopped part way (the process killed, the context cancelled)
// leaves nothing half-loaded: no new tree, or the old tree exactly as it was.
func TestInterruptedImportLeavesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		path := writeGenerated(t, 3000)
		stop := func(slug string) error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r, err := gedcom.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			calls := 0
			_, err = s.Import(ctx, r, trees.ImportOptions{Slug: slug, Progress: func(done, size int64, records int) {
				if calls++; calls == 2 {
					cancel()
				}
			}})
			return err
		}
		if err := stop("gen"); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted import: %v", err)
		}
		if ok, _ := s.Exists(context.Background(), "gen"); ok {
			t.Fatal("an interrupted import left a tree")
		}
		var n int
		db.QueryRow(`SELECT COUNT(*) FROM tree_records`).Scan(&n)
		if n != 0 {
			t.Fatalf("%d records left behind", n)
		}
		// Over an existing tree: the old tree stays.
		importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "gen", Title: "Kept"})
		before := snapshot(t, s, "gen")
		if err := stop("gen"); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted re-import: %v", err)
		}
		if after := snapshot(t, s, "gen"); !slices.Equal(before, after) {
			t.Fatal("an interrupted re-import changed the tree")
		}
		// A whole re-import replaces it, keeping the title.
		rep := importPath(t, s, path, trees.ImportOptions{Slug: "gen"})
		if rep.Tree.Title != "Kept" || rep.Tree.Counts.People != 3000 {
			t.Fatalf("re-import: %+v", rep.Tree)
		}
		if p, err := s.Person(withViewer(context.Background(), staff), "gen", "I8"); err != nil || strings.Contains(p.Name, "Timer") {
			t.Fatalf("re-import kept old people: %v %v", p, err)
		}
	})
}

// --strict stops at the first warning and loads nothing; lenient imports report
// warnings with line numbers.
func TestStrictAndWarnings(t *testing.T) {
	s := newService(t, storetest.SQLite(t))
	path := filepath.Join(t.TempDir(), "bad.ged")
	os.WriteFile(path, []byte("0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME A /B/\nthis line is wrong\n0 @I2@ INDI\n1 NAME C /D/\n0 TRLR\n"), 0o644)
	r, _ := gedcom.Open(path, &gedcom.Options{Strict: true})
	_, err := s.Import(context.Background(), r, trees.ImportOptions{Slug: "bad"})
	r.Close()
	var se *gedcom.SyntaxError
	if !errors.As(err, &se) || se.Line != 7 {
		t.Fatalf("strict import: %v", err)
	}
	if ok, _ := s.Exists(context.Background(), "bad"); ok {
		t.Fatal("a strict import that failed left a tree")
	}
	rep := importPath(t, s, path, trees.ImportOptions{Slug: "bad"})
	if rep.WarningCount != 1 || rep.Warnings[0].Line != 7 || rep.Tree.Counts.People != 2 {
		t.Fatalf("lenient import: %+v %+v", rep.Warnings, rep.Tree.Counts)
	}
}

func TestSlugs(t *testing.T) {
	for _, tc := range []struct{ title, slug string }{
		{"The Ashworth family", "the-ashworth-family"},
		{"  Müller & Söhne, 1850–1900 ", "muller-sohne-1850-1900"},
		{"!!!", "tree"},
		{strings.Repeat("word ", 40), strings.TrimSuffix(strings.Repeat("word-", 16), "-")},
	} {
		if got := trees.Slugify(tc.title); got != tc.slug {
			t.Errorf("Slugify(%q) = %q, want %q", tc.title, got, tc.slug)
		}
	}
	for _, bad := range []string{"", "search", "uploads", "Upper", "a--b", "-a", "a b", strings.Repeat("a", 101)} {
		if trees.ValidSlug(bad) {
			t.Errorf("ValidSlug(%q)", bad)
		}
	}
	s := newService(t, storetest.SQLite(t))
	r, _ := gedcom.Open("testdata/privacy.ged", nil)
	defer r.Close()
	if _, err := s.Import(context.Background(), r, trees.ImportOptions{Slug: "search"}); !errors.Is(err, trees.ErrBadSlug) {
		t.Fatalf("import to a reserved slug: %v", err)
	}
}
