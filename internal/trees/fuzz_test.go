package trees_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"lineage/internal/gedcom"
	"lineage/internal/store"
	"lineage/internal/trees"
)

// fuzzLimits keep every input small enough that one run takes milliseconds: an input past
// them is refused by the reader, as an upload would be.
var fuzzLimits = gedcom.Limits{MaxBytes: 16 << 10, MaxLines: 400, MaxRecords: 40, MaxTextBytes: 4 << 10}

// FuzzImport: no input makes the importer panic or fail other than by the reader's error;
// whatever imports can be read back (every person, a chart, the public export). The seeds
// are small, so that it runs thousands of inputs, not a handful: each input goes through
// the whole import (staging tree, swap) on a real SQLite, into a tree of its own, so that
// none pays for removing the previous one's rows (what the importer and
// TestStagingTreeTakenAway, TestKilledImport and TestSignInDuringImportAndDelete check
// with trees of every size, no fuzz input reaches); every fuzzTreesPerDB inputs the
// database is swapped for a fresh one.
func FuzzImport(f *testing.F) {
	f.Add([]byte(fuzzSeedFamily))
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
	fs := &fuzzStore{dir: f.TempDir()}
	f.Cleanup(fs.close)
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
		fuzzImportOne(t, fs, ctx, r)
	})
}

// fuzzImportOne imports what r reads into a tree of its own and reads it back: every
// person, a chart, the public export.
func fuzzImportOne(t testing.TB, fs *fuzzStore, ctx context.Context, r *gedcom.Reader) {
	t.Helper()
	var le *gedcom.LimitError
	s, slug := fs.next(t)
	if _, err := s.Import(ctx, r, trees.ImportOptions{Slug: slug, Published: published(true)}); err != nil {
		if errors.As(err, &le) {
			return
		}
		t.Fatalf("import: %v", err)
	}
	page, err := s.People(ctx, slug, &trees.PeopleQuery{Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range page.Results {
		if _, err := s.Person(ctx, slug, p.ID); err != nil {
			t.Fatalf("person %s: %v", p.ID, err)
		}
	}
	if len(page.Results) > 0 {
		if _, err := s.Graph(ctx, slug, page.Results[0].ID, "hourglass", 3); err != nil {
			t.Fatalf("graph %s: %v", page.Results[0].ID, err)
		}
	}
	var out bytes.Buffer
	if err := s.Export(context.Background(), slug, &out, trees.ExportOptions{Public: true}); err != nil {
		t.Fatalf("export: %v", err)
	}
}

// BenchmarkFuzzImportOne is one input of FuzzImport (its first seed) as a benchmark:
// where a fuzz run's time goes, without the fuzzer's coverage instrumentation.
func BenchmarkFuzzImportOne(b *testing.B) {
	data := []byte(fuzzSeedFamily)
	fs := &fuzzStore{dir: b.TempDir()}
	defer fs.close()
	ctx := withViewer(context.Background(), staff)
	for b.Loop() {
		r, err := gedcom.NewReader(bytes.NewReader(data), &gedcom.Options{MaxWarnings: -1, Limits: fuzzLimits})
		if err != nil {
			b.Fatal(err)
		}
		fuzzImportOne(b, fs, ctx, r)
	}
}

// fuzzSeedFamily is a person who is his own child: the first seed.
const fuzzSeedFamily = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n0 @I1@ INDI\n1 NAME A /B/\n1 FAMS @F1@\n0 @F1@ FAM\n1 HUSB @I1@\n1 CHIL @I1@\n0 TRLR\n"

// fuzzTreesPerDB is how many inputs one database of a fuzz run takes: enough that
// opening and migrating a fresh one costs little per input, few enough that its tables
// stay small.
const fuzzTreesPerDB = 1000

// fuzzStore is the SQLite database of a fuzz run, in a directory under the run's
// t.TempDir, and the slug of each input's tree.
type fuzzStore struct {
	dir string
	db  *store.DB
	sub string // the current database's directory
	s   *trees.Service
	n   int
}

// next returns the service and a slug no tree has, on a fresh database every
// fuzzTreesPerDB inputs.
func (fs *fuzzStore) next(t testing.TB) (*trees.Service, string) {
	t.Helper()
	if fs.db == nil || fs.n == fuzzTreesPerDB {
		fs.close()
		sub, err := os.MkdirTemp(fs.dir, "db")
		if err != nil {
			t.Fatal(err)
		}
		db, err := store.Open(context.Background(), store.Options{DataDir: sub})
		if err != nil {
			t.Fatal(err)
		}
		fs.db, fs.sub, fs.n = db, sub, 0
		fs.s = newService(t, db)
	}
	fs.n++
	return fs.s, "fuzz-" + strconv.Itoa(fs.n)
}

func (fs *fuzzStore) close() {
	if fs.db != nil {
		fs.db.Close()
		os.RemoveAll(fs.sub)
		fs.db = nil
	}
}
