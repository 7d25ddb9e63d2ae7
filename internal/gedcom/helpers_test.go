package gedcom

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testdata is where the shared conformance files live, from this package's directory:
// the repository is /work/main (or a CI checkout) with shared/ beside it.
const testdata = "../../../shared/testdata/gedcom"

// conformanceDir returns the folder of conformance files, failing (never skipping) when it
// is missing.
func conformanceDir(t testing.TB) string {
	t.Helper()
	abs, _ := filepath.Abs(testdata)
	st, err := os.Stat(testdata)
	if err != nil || !st.IsDir() {
		t.Fatalf("the GEDCOM conformance files are missing: expected the folder %s (%s), "+
			"i.e. shared/testdata/gedcom beside the repository; see its README.md. Error: %v", testdata, abs, err)
	}
	return testdata
}

// conformanceFiles lists every .ged and .gdz file, relative to the folder, failing when a
// group is empty.
func conformanceFiles(t testing.TB) []string {
	t.Helper()
	dir := conformanceDir(t)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".ged") || strings.HasSuffix(p, ".gdz")) {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("listing %s: %v", dir, err)
	}
	for _, g := range []string{"gedcom70/", "pairs/5/", "pairs/7/", "torture55/"} {
		if !slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, g) }) {
			t.Fatalf("no conformance files in %s/%s", dir, g)
		}
	}
	for _, f := range []string{"gedcom70/maximal70.ged", "gedcom70/maximal70.gdz", "torture55/TGC55C.ged"} {
		if !slices.Contains(files, f) {
			t.Fatalf("conformance file %s/%s is missing", dir, f)
		}
	}
	return files
}

func readFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(conformanceDir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readAllFrom reads every record; it fails the test on an error.
func readAllFrom(t testing.TB, r *Reader) []*Line {
	t.Helper()
	var out []*Line
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("after %d records: %v", len(out), err)
		}
		out = append(out, rec)
	}
}

// countRecords reads r to its end and counts the records, holding none of them.
func countRecords(t testing.TB, r *Reader) int {
	t.Helper()
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
}

// parse reads a whole input; it returns the records, the warnings and the error that ended
// the read (nil at a clean EOF).
func parse(input []byte, opts *Options) (*Reader, []*Line, error) {
	r, err := NewReader(bytes.NewReader(input), opts)
	if err != nil {
		return nil, nil, err
	}
	var recs []*Line
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return r, recs, nil
		}
		if err != nil {
			return r, recs, err
		}
		recs = append(recs, rec)
	}
}

// flat renders records as one logical line each ("depth @X@ TAG @P@ "value""), the form
// the round-trip tests compare.
func flat(recs ...*Line) []string {
	var out []string
	for _, r := range recs {
		var walk func(l *Line, depth int)
		walk = func(l *Line, depth int) {
			s := strconv.Itoa(depth)
			if l.Xref != "" {
				s += " @" + l.Xref + "@"
			}
			s += " " + l.Tag
			if l.Pointer != "" {
				s += " @" + l.Pointer + "@"
			} else if l.Value != "" {
				s += " " + strconv.Quote(l.Value)
			}
			out = append(out, s)
			for _, c := range l.Children {
				walk(c, depth+1)
			}
		}
		walk(r, 0)
	}
	return out
}

// diffLines reports the first few differing lines of two line lists.
func diffLines(t testing.TB, what string, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	n := 0
	for i := 0; i < max(len(want), len(got)) && n < 5; i++ {
		var a, b string
		if i < len(want) {
			a = want[i]
		}
		if i < len(got) {
			b = got[i]
		}
		if a != b {
			t.Errorf("%s: line %d:\n  want %s\n  got  %s", what, i+1, a, b)
			n++
		}
	}
	if len(want) != len(got) {
		t.Errorf("%s: %d lines, want %d", what, len(got), len(want))
	}
}

func warningStrings(ws []Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
	}
	return out
}
