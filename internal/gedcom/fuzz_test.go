package gedcom

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/gedcom/gedcomtest"
)

// FuzzRead: no input makes the Reader panic or keep more than its limits allow, and every
// record it returns survives the Writer (7.0, and 5.5.1 with short CONC lines) and a
// second read unchanged, identifiers mapped as the Writer documents.
func FuzzRead(f *testing.F) {
	dir := conformanceDir(f)
	for _, rel := range conformanceFiles(f) {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) <= 16<<10 && strings.HasSuffix(rel, ".ged") {
			f.Add(b)
		}
	}
	for _, s := range []string{
		head551 + "0 @I1@ INDI\n1 NAME a\n3 DATE x\njunk\n1 @X BIRT\n0 TRLR\n",
		head70 + "0 @N1@ SNOTE @@x\n1 CONT @@y\n1 CONC z\n0 TRLR\n",
		strings.Replace(head551, "UTF-8", "ANSEL", 1) + "0 @N1@ NOTE \xE2e\xE8\n1 CONC \xF0\n0 TRLR\n",
		strings.Replace(head551, "UTF-8", "IBMPC", 1) + "0 @N1@ NOTE \x81\x82\n0 TRLR\n",
		"\xFF\xFE0\x00 \x00H\x00E\x00A\x00D\x00\n\x00",
		"\xEF\xBB\xBF0 HEAD\r1 GEDC\r2 VERS 7.0\r0 TRLR\r",
		head551 + "0 @N1@ NOTE @#DJULIAN@@@ @@@\n1 FAMC @F1@\n2 CONT @X@\n0 CONT a\n0 @a b@ HEAD\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		opts := &Options{MaxLineBytes: 512, MaxRecordBytes: 16 << 10, MaxWarnings: 8}
		r, err := NewReader(bytes.NewReader(in), opts)
		if err != nil {
			t.Fatalf("lenient NewReader: %v", err)
		}
		var recs []*Line
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("lenient Next: %v", err)
			}
			// Bounded: a record is at most MaxRecordBytes of lines (each at least 200)
			// plus the line that crossed the limit; decoding can triple a byte.
			lines, size := 0, 0
			rec.Walk(func(l *Line) bool {
				lines++
				size += len(l.Value) + len(l.Tag) + len(l.Xref) + len(l.Pointer)
				return true
			})
			if lines > opts.MaxRecordBytes/lineOverhead+1 || size > 3*(opts.MaxRecordBytes+opts.MaxLineBytes) {
				t.Fatalf("record of %d lines, %d bytes", lines, size)
			}
			if rec.Tag == "HEAD" && rec.Xref == "" {
				continue // a second HEAD: the Writer writes only its own
			}
			recs = append(recs, rec)
		}
		if len(r.Warnings()) > 8 || r.WarningCount() < len(r.Warnings()) {
			t.Fatalf("%d warnings kept, %d counted", len(r.Warnings()), r.WarningCount())
		}
		if len(in) > 0 && r.Offset() == 0 {
			t.Fatal("Offset 0")
		}

		for _, o := range []WriterOptions{{Version: Version70}, {Version: Version551, MaxLineLength: 40}} {
			var buf bytes.Buffer
			w, err := NewWriter(&buf, r.Header(), &o)
			if err != nil {
				t.Fatal(err)
			}
			for _, rec := range recs {
				if err := w.Write(rec); err != nil {
					t.Fatalf("%v: Write: %v\n%s", o.Version, err, rec)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			_, again, err := parse(buf.Bytes(), nil)
			if err != nil {
				t.Fatalf("%v: re-read: %v", o.Version, err)
			}
			id := &Writer{opts: o}
			want := flat(mapIdents(recs, id.ident)...)
			got := flat(again...)
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				diffLines(t, o.Version.String()+" round trip", want, got)
				t.Fatalf("output:\n%s", buf.String())
			}
		}
	})
}

// mapIdents copies records with identifiers mapped by fn.
func mapIdents(recs []*Line, fn func(string) string) []*Line {
	out := make([]*Line, len(recs))
	for i, r := range recs {
		c := r.Clone()
		c.Walk(func(l *Line) bool {
			if l.Xref != "" {
				l.Xref = fn(l.Xref)
			}
			if l.Pointer != "" {
				l.Pointer = fn(l.Pointer)
			}
			return true
		})
		out[i] = c
	}
	return out
}

// FuzzGEDZIP: no archive makes OpenGEDZIP, the Reader or Files panic, and no archive
// gets more than its limits out of the decompressor or past its entry count.
func FuzzGEDZIP(f *testing.F) {
	dir := conformanceDir(f)
	if b, err := os.ReadFile(filepath.Join(dir, "gedcom70/minimal70.gdz")); err == nil {
		f.Add(b)
	} else {
		f.Fatal(err)
	}
	f.Add(gedcomtest.Zip(f, [2]string{GEDZIPName, head70 + "0 @I1@ INDI\n1 NAME a /b/\n0 TRLR\n"}, [2]string{"media/a.jpg", "xyz"}))
	f.Add(gedcomtest.Zip(f, [2]string{GEDZIPName, head70 + strings.Repeat("\n", 4096)}))
	f.Add(gedcomtest.Zip(f, [2]string{"a", ""}, [2]string{"b/", ""}, [2]string{"./GEDCOM.GED", head70}))
	f.Add(lyingZip(f, head70+strings.Repeat("0 TRLR\n", 1000), 10))
	const maxBytes, maxEntries = 64 << 10, 16
	f.Fuzz(func(t *testing.T, in []byte) {
		opts := &Options{MaxLineBytes: 512, MaxRecordBytes: 16 << 10, MaxWarnings: 8,
			Limits: Limits{MaxArchiveBytes: maxBytes, MaxArchiveEntries: maxEntries, MaxLines: 10000, MaxTextBytes: 4096}}
		r, err := OpenGEDZIP(bytes.NewReader(in), int64(len(in)), opts)
		if err != nil {
			return
		}
		defer r.Close()
		for _, err := range r.Records() {
			if err != nil {
				break
			}
		}
		if r.Offset() > maxBytes {
			t.Fatalf("%d bytes of gedcom.ged read, limit %d", r.Offset(), maxBytes)
		}
		var out int64
		entries := 0
		fs.WalkDir(r.Files(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			entries++
			if d.IsDir() {
				return nil
			}
			fl, err := r.Files().Open(p)
			if err != nil {
				return nil
			}
			n, _ := io.Copy(io.Discard, fl)
			fl.Close()
			out += n
			return nil
		})
		// The directory names directories the archive does not list (implied by paths):
		// entries are bounded by twice the limit plus the root.
		if entries > 2*maxEntries+1 {
			t.Fatalf("%d entries walked, limit %d", entries, maxEntries)
		}
		if out > maxBytes {
			t.Fatalf("%d bytes decompressed from the files, limit %d", out, maxBytes)
		}
	})
}
