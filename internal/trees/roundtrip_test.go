package trees_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/gedcom"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

// The paired 5.5.1 and 7.0 files give the same people, families and events.
func TestPairsGiveTheSamePeople(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		files, _ := filepath.Glob(filepath.Join(conformance, "pairs", "7", "*.ged"))
		if len(files) < 25 {
			t.Fatalf("%d pair files", len(files))
		}
		for _, f7 := range files {
			name := filepath.Base(f7)
			f5 := filepath.Join(conformance, "pairs", "5", name)
			importPath(t, s, f5, trees.ImportOptions{Slug: "five"})
			importPath(t, s, f7, trees.ImportOptions{Slug: "seven"})
			a, b := snapshotOf(t, s, "five", false), snapshotOf(t, s, "seven", false)
			onlyA, onlyB := diff(a, b)
			if name == "age-valid.ged" && len(onlyA) == 0 && len(onlyB) == 1 && strings.Contains(onlyB[0], "event DEAT") {
				// The 7.0 file alone ends with a stillborn DEAT (AGE 0y, PHRASE Stillborn).
				continue
			}
			if len(onlyA)+len(onlyB) > 0 {
				t.Errorf("%s: 5.5.1 only:\n  %s\n7.0 only:\n  %s", name, strings.Join(onlyA, "\n  "), strings.Join(onlyB, "\n  "))
			}
			ta, _ := s.Tree(withViewer(context.Background(), staff), "five")
			tb, _ := s.Tree(withViewer(context.Background(), staff), "seven")
			if ta.Counts.People != tb.Counts.People || ta.Counts.Families != tb.Counts.Families || ta.Counts.Events != tb.Counts.Events {
				t.Errorf("%s: counts 5.5.1 %+v, 7.0 %+v", name, ta.Counts, tb.Counts)
			}
		}
	})
}

// export writes a tree to bytes.
func export(t testing.TB, s *trees.Service, slug string, opts trees.ExportOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Export(context.Background(), slug, &buf, opts); err != nil {
		t.Fatalf("export %s: %v", slug, err)
	}
	return buf.Bytes()
}

func importBytes(t testing.TB, s *trees.Service, data []byte, opts trees.ImportOptions) *trees.ImportReport {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.ged")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return importPath(t, s, path, opts)
}

// Import → export → import keeps every person, family, event, name, source and note, in
// the version imported and across versions; the records themselves come back line for
// line in the same version.
func TestRoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		for _, path := range conformanceFiles(t) {
			rep := importPath(t, s, path, trees.ImportOptions{Slug: "orig"})
			want := snapshot(t, s, "orig")
			for _, v := range []gedcom.Version{gedcom.VersionUnknown, gedcom.Version551, gedcom.Version70} {
				data := export(t, s, "orig", trees.ExportOptions{Version: v})
				again := importBytes(t, s, data, trees.ImportOptions{Slug: "again"})
				if again.WarningCount > 0 && v == gedcom.VersionUnknown {
					t.Errorf("%s: re-import warned: %v", path, again.Warnings)
				}
				got := snapshot(t, s, "again")
				if onlyA, onlyB := diff(want, got); len(onlyA)+len(onlyB) > 0 {
					t.Errorf("%s → %v: lost:\n  %s\ngained:\n  %s", path, v, strings.Join(onlyA, "\n  "), strings.Join(onlyB, "\n  "))
				}
				a, b := rep.Tree.Counts, again.Tree.Counts
				if a != b {
					t.Errorf("%s → %v: counts %+v, after the round trip %+v", path, v, a, b)
				}
			}
		}
	})
}

// Every record comes back line for line through export in the version imported.
func TestRoundTripRecordsLineForLine(t *testing.T) {
	s := newService(t, storetest.SQLite(t))
	for _, path := range conformanceFiles(t) {
		importPath(t, s, path, trees.ImportOptions{Slug: "orig"})
		data := export(t, s, "orig", trees.ExportOptions{})
		want := readRecords(t, path)
		got := readRecordsBytes(t, data)
		if len(want) != len(got) {
			t.Errorf("%s: %d records, %d after export", path, len(want), len(got))
			continue
		}
		for i := range want {
			if want[i] != got[i] {
				t.Errorf("%s: record %d:\n%s\nafter export:\n%s", path, i, want[i], got[i])
				break
			}
		}
	}
}

func readRecords(t testing.TB, path string) []string {
	t.Helper()
	r, err := gedcom.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return collect(t, r)
}

func readRecordsBytes(t testing.TB, data []byte) []string {
	t.Helper()
	r, err := gedcom.NewReader(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	return collect(t, r)
}

func collect(t testing.TB, r *gedcom.Reader) []string {
	var out []string
	for rec, err := range r.Records() {
		if err != nil {
			t.Fatal(err)
		}
		if rec.Tag == "HEAD" || rec.Tag == "TRLR" {
			continue
		}
		out = append(out, rec.String())
	}
	return out
}
