package gedcom

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lineage/internal/gedcom/gedcomtest"
)

// maximal70.gdz holds a copy of maximal70.ged (CRLF line ends, and multimedia records
// that point into the archive rather than to the web) and the media it points to.
func TestGEDZIPConformance(t *testing.T) {
	z := openConformance(t, "gedcom70/maximal70.gdz", &Options{Strict: true})
	g := openConformance(t, "gedcom70/maximal70.ged", nil)
	zr, gr := readAllFrom(t, z), readAllFrom(t, g)
	notOBJE := func(recs []*Line) []string {
		lines := flat(slices.DeleteFunc(slices.Clone(recs), func(l *Line) bool { return l.Tag == "OBJE" })...)
		return slices.DeleteFunc(lines, func(s string) bool { return strings.Contains(s, " OBJE @") })
	}
	diffLines(t, "records other than OBJE", notOBJE(gr), notOBJE(zr))
	if len(zr) != 16 || len(gr) != 17 {
		t.Errorf("%d and %d records", len(zr), len(gr))
	}
	if z.Files() == nil || g.Files() != nil {
		t.Fatal("Files")
	}
	var files []string
	fs.WalkDir(z.Files(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	for _, want := range []string{"gedcom.ged", "media/CharlotteBrontë.jpg", "media/original.mp3", "path/to/file1"} {
		if !slices.Contains(files, want) {
			t.Errorf("archive lacks %s (has %v)", want, files)
		}
	}
	// Every relative FILE value names a file in the archive.
	found := 0
	for _, rec := range zr {
		rec.Walk(func(l *Line) bool {
			if l.Tag != "FILE" {
				return true
			}
			name, ok := MediaPath(l.Value)
			if !ok {
				return true
			}
			st, err := fs.Stat(z.Files(), name)
			if err != nil || st.Size() == 0 {
				t.Errorf("FILE %s → %s: %v", l.Value, name, err)
			}
			found++
			return true
		})
	}
	if found < 2 {
		t.Errorf("%d media files found through FILE", found)
	}

	m := openConformance(t, "gedcom70/minimal70.gdz", nil)
	if recs := readAllFrom(t, m); len(recs) != 0 || m.Header().Version != Version70 || m.WarningCount() != 0 {
		t.Errorf("minimal70.gdz: %d records, %v, %v", len(recs), m.Header().Version, m.Warnings())
	}
}

// Write an archive with maximal70's records and media; read it back.
func TestGEDZIPWrite(t *testing.T) {
	src := openConformance(t, "gedcom70/maximal70.gdz", nil)
	recs := readAllFrom(t, src)
	var buf bytes.Buffer
	zw := NewZipWriter(&buf)
	if _, err := zw.GEDCOM(src.Header(), &WriterOptions{Version: Version551}); err == nil {
		t.Error("GEDZIP with 5.5.1 allowed")
	}
	w, err := zw.GEDCOM(src.Header(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.AddFile("media/x.jpg", bytes.NewReader(nil)); err == nil {
		t.Error("AddFile before the GEDCOM writer is closed")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := zw.GEDCOM(nil, nil); err == nil {
		t.Error("second gedcom.ged")
	}
	media := map[string][]byte{}
	fs.WalkDir(src.Files(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == GEDZIPName {
			return err
		}
		b, err := fs.ReadFile(src.Files(), p)
		if err != nil {
			return err
		}
		media[p] = b
		return zw.AddFile(p, bytes.NewReader(b))
	})
	if len(media) < 4 {
		t.Fatalf("%d media files", len(media))
	}
	for _, bad := range []string{"../x", "/abs", "", GEDZIPName, "media/original.mp3"} {
		if err := zw.AddFile(bad, bytes.NewReader(nil)); err == nil {
			t.Errorf("AddFile(%q) allowed", bad)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}

	r, err := OpenGEDZIP(bytes.NewReader(buf.Bytes()), int64(buf.Len()), &Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	diffLines(t, "records", flat(recs...), flat(readAllFrom(t, r)...))
	for name, want := range media {
		got, err := fs.ReadFile(r.Files(), name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v", name, err)
		}
	}

	// Through Open, from a file.
	path := filepath.Join(t.TempDir(), "out.gdz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r2, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(readAllFrom(t, r2)); n != len(recs) {
		t.Errorf("Open: %d records", n)
	}
	if r2.Size() <= 0 || r2.Offset() != r2.Size() {
		t.Errorf("GEDZIP: Offset %d, Size %d", r2.Offset(), r2.Size())
	}
	if err := r2.Close(); err != nil {
		t.Error(err)
	}
}

func TestGEDZIPErrors(t *testing.T) {
	other := gedcomtest.Zip(t, [2]string{"other.ged", "0 HEAD\n0 TRLR\n"})
	if _, err := OpenGEDZIP(bytes.NewReader(other), int64(len(other)), nil); !errors.Is(err, ErrNoGEDZIPDataset) {
		t.Errorf("no gedcom.ged: %v", err)
	}
	if _, err := OpenGEDZIP(bytes.NewReader([]byte("not a zip")), 9, nil); err == nil {
		t.Error("not a zip")
	}
	// A dataset in another case is tolerated.
	upper := gedcomtest.Zip(t, [2]string{"GEDCOM.GED", "0 HEAD\n1 GEDC\n2 VERS 7.0\n0 @I1@ INDI\n0 TRLR\n"})
	r, err := OpenGEDZIP(bytes.NewReader(upper), int64(len(upper)), nil)
	if err != nil || len(readAllFrom(t, r)) != 1 {
		t.Errorf("GEDCOM.GED: %v", err)
	}
	if err := NewZipWriter(io.Discard).Close(); !errors.Is(err, ErrNoGEDZIPDataset) {
		t.Errorf("empty archive: %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.ged"), nil); err == nil {
		t.Error("Open of a missing file")
	}
}

func TestMediaPath(t *testing.T) {
	for in, want := range map[string]string{
		"media/CharlotteBront%C3%AB.jpg": "media/CharlotteBrontë.jpg",
		"media/a%20b.jpg":                "media/a b.jpg",
		"./photo.jpg":                    "photo.jpg",
		"file.txt":                       "file.txt",
		"http://host.example.com/x.jpg":  "",
		"file:///path/to/file1":          "",
		"/abs/file":                      "",
		"../up.jpg":                      "",
		"":                               "",
		"%zz":                            "",
	} {
		got, ok := MediaPath(in)
		if got != want || ok != (want != "") {
			t.Errorf("MediaPath(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if got := MediaURL("media/Brontë x.jpg"); got != "media/Bront%C3%AB%20x.jpg" {
		t.Errorf("MediaURL: %s", got)
	}
	if got, _ := MediaPath(MediaURL("a b/ü?#.jpg")); got != "a b/ü?#.jpg" {
		t.Errorf("MediaURL round trip: %s", got)
	}
}
