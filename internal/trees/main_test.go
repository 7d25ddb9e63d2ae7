package trees_test

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/gedcom"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

func TestMain(m *testing.M) {
	flag.Parse()
	shortFuzzMinimizing()
	storetest.Main(m)
}

// shortFuzzMinimizing gives a fuzz run's minimizations 50 runs each unless the command
// line sets -fuzzminimizetime. Every run of this package's fuzz targets goes through
// SQLite, whose code is instrumented for coverage too, so nearly every new input is
// "interesting"; minimizing each for the default 60 s of runs that take milliseconds left
// FuzzImport a handful of inputs in a short run.
func shortFuzzMinimizing() {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.fuzzminimizetime" })
	if !set {
		flag.Set("test.fuzzminimizetime", "50x")
	}
}

// conformance is the shared GEDCOM test files.
const conformance = "../../../shared/testdata/gedcom"

// testNow is the clock of every test: 1 January 2026.
var testNow = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// viewerKey carries a test's reader on the context; handlers tests put it there from a
// header (see handlers_test.go).
type viewerKey struct{}

func withViewer(ctx context.Context, v trees.Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

func newService(t testing.TB, db *store.DB) *trees.Service {
	t.Helper()
	// Three accounts, ids 1–3 in a fresh store: an owner, another registered user, an editor.
	a := auth.New(db, auth.Options{Log: quietLog()})
	for i, role := range []string{"registered", "registered", "editor"} {
		u, err := a.CreateUser(context.Background(), auth.NewUser{Email: "user" + strconv.Itoa(i+1) + "@example.org", Name: "User " + strconv.Itoa(i+1), Role: role, Verified: true})
		if err != nil {
			t.Fatal(err)
		}
		if u.ID != int64(i+1) {
			t.Fatalf("user %d has id %d", i+1, u.ID)
		}
	}
	s := trees.New(db, trees.Options{Log: quietLog(), Viewer: func(ctx context.Context) trees.Viewer {
		v, _ := ctx.Value(viewerKey{}).(trees.Viewer)
		return v
	}})
	s.Now = func() time.Time { return testNow }
	return s
}

func published(b bool) *bool { return &b }

// importPath imports a file into a tree and fails the test on an error.
func importPath(t testing.TB, s *trees.Service, path string, opts trees.ImportOptions) *trees.ImportReport {
	t.Helper()
	r, err := gedcom.Open(path, nil)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer r.Close()
	if opts.SourceFile == "" {
		opts.SourceFile = filepath.Base(path)
	}
	if opts.Published == nil {
		opts.Published = published(true)
	}
	rep, err := s.Import(context.Background(), r, opts)
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	return rep
}

// conformanceFiles lists every .ged and .gdz file of the shared test data.
func conformanceFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(conformance, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(p); !d.IsDir() && (ext == ".ged" || ext == ".gdz") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 79 {
		t.Fatalf("found %d conformance files, want 79", len(out))
	}
	return out
}
