package gedcom

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"lineage/internal/gedcom/gedcomtest"
)

// lyingZip stores gedcom.ged deflated from body, but with a directory that declares
// declared bytes: a bomb that hides its size.
func lyingZip(t testing.TB, body string, declared uint64) []byte {
	t.Helper()
	var comp bytes.Buffer
	fw, _ := flate.NewWriter(&comp, flate.BestCompression)
	io.WriteString(fw, body)
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: GEDZIPName, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE([]byte(body)),
		CompressedSize64: uint64(comp.Len()), UncompressedSize64: declared})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(comp.Bytes())
	zw.Close()
	return buf.Bytes()
}

// readLimited reads every record of in (a .ged, or a .gdz when it starts with PK) with
// the limits, and returns the first error and how many bytes came out of the archive.
func readLimited(in []byte, lim Limits) (recs int, err error) {
	opts := &Options{Limits: lim}
	var r *Reader
	if bytes.HasPrefix(in, []byte("PK\x03\x04")) {
		r, err = OpenGEDZIP(bytes.NewReader(in), int64(len(in)), opts)
	} else {
		r, err = NewReader(bytes.NewReader(in), opts)
	}
	if err != nil {
		return 0, err
	}
	defer r.Close()
	for _, err := range r.Records() {
		if err != nil {
			return recs, err
		}
		recs++
	}
	return recs, nil
}

func people(n int) string {
	var b strings.Builder
	b.WriteString(head551)
	for i := range n {
		b.WriteString("0 @I" + strconv.Itoa(i) + "@ INDI\n1 NAME A /B/\n")
	}
	b.WriteString("0 TRLR\n")
	return b.String()
}

// TestLimits: each limit refuses the file that goes past it with a *LimitError naming
// it, and lets through the file that stays within it.
func TestLimits(t *testing.T) {
	longNote := head551 + "0 @N1@ NOTE " + strings.Repeat("x", 100) + "\n" +
		strings.Repeat("1 CONT "+strings.Repeat("y", 100)+"\n", 20) + "0 TRLR\n"
	bomb := people(1) // the GEDCOM, then 8 MB of blank lines after TRLR: 8 KB deflated
	bomb = bomb + strings.Repeat("\n", 8<<20)
	many := make([][2]string, 0, 2001)
	many = append(many, [2]string{GEDZIPName, people(1)})
	for i := range 2000 {
		many = append(many, [2]string{"media/" + strconv.Itoa(i), ""})
	}
	maximal, err := os.ReadFile(filepath.Join(conformanceDir(t), "gedcom70/maximal70.gdz"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   []byte
		lim  Limits
		kind LimitKind // "" = no error
		msg  string
	}{
		{"lines OK", []byte(people(10)), Limits{MaxLines: 100}, "", ""},
		{"too many lines", []byte(people(100)), Limits{MaxLines: 100}, LimitLines, "a GEDCOM file may have at most 100 lines (line 101)"},
		{"records OK", []byte(people(10)), Limits{MaxRecords: 12}, "", ""},
		{"too many records", []byte(people(100)), Limits{MaxRecords: 50}, LimitRecords, "a GEDCOM file may have at most 50 records"},
		{"note OK", []byte(longNote), Limits{MaxTextBytes: 4096}, "", ""},
		{"overlong note", []byte(longNote), Limits{MaxTextBytes: 1024}, LimitTextBytes,
			"a text value (a NOTE or TEXT with its CONT and CONC lines) may be at most 1 KB (line 6)"},
		{"overlong line value", []byte(head551 + "0 @N1@ NOTE " + strings.Repeat("x", 2000) + "\n0 TRLR\n"), Limits{MaxTextBytes: 1024}, LimitTextBytes, "at most 1 KB"},
		{"bytes OK", []byte(people(10)), Limits{MaxBytes: 1 << 20}, "", ""},
		{"too many bytes", []byte(people(100000)), Limits{MaxBytes: 1 << 20}, LimitBytes, "a GEDCOM file may be at most 1 MB"},
		{"maximal70.gdz OK", maximal, Limits{MaxArchiveBytes: 1 << 20, MaxArchiveEntries: 10}, "", ""},
		{"maximal70.gdz, too many entries", maximal, Limits{MaxArchiveEntries: 2}, LimitArchiveEntries, "at most 2 files"},
		{"GEDZIP OK", gedcomtest.Zip(t, [2]string{GEDZIPName, people(10)}), Limits{MaxArchiveBytes: 1 << 20, MaxArchiveEntries: 10}, "", ""},
		{"zip bomb", gedcomtest.Zip(t, [2]string{GEDZIPName, bomb}), Limits{MaxArchiveBytes: 1 << 20}, LimitArchiveBytes, "a GEDZIP archive may expand to at most 1 MB"},
		{"zip bomb in a media file", gedcomtest.Zip(t, [2]string{GEDZIPName, people(1)}, [2]string{"media/x", bomb}), Limits{MaxArchiveBytes: 1 << 20}, LimitArchiveBytes, "a GEDZIP archive may expand to at most 1 MB"},
		{"zip bomb that hides its size", lyingZip(t, bomb, 100), Limits{MaxArchiveBytes: 1 << 20}, "", ""},
		{"too many entries", gedcomtest.Zip(t, many...), Limits{MaxArchiveEntries: 1000}, LimitArchiveEntries, "a GEDZIP archive may hold at most 1,000 files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readLimited(tc.in, tc.lim)
			if tc.name == "zip bomb that hides its size" {
				// archive/zip stops at the declared size: an error, and never 8 MB read.
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			var le *LimitError
			if tc.kind == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			if !errors.As(err, &le) {
				t.Fatalf("error %v, want a LimitError", err)
			}
			if le.Kind != tc.kind || !strings.Contains(le.Message(), tc.msg) {
				t.Errorf("%s %q, want %s %q", le.Kind, le.Message(), tc.kind, tc.msg)
			}
		})
	}
}

// TestGEDZIPMediaBudget: the bytes read from an archive's files count against
// MaxArchiveBytes as they are decompressed, not only as the directory declares them:
// reading a file again spends the budget again.
func TestGEDZIPMediaBudget(t *testing.T) {
	in := gedcomtest.Zip(t, [2]string{GEDZIPName, people(1)}, [2]string{"a", strings.Repeat("a", 600<<10)})
	r, err := OpenGEDZIP(bytes.NewReader(in), int64(len(in)), &Options{Limits: Limits{MaxArchiveBytes: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := fs.ReadFile(r.Files(), "a"); err != nil {
		t.Fatalf("first read, within the limit: %v", err)
	}
	_, err = fs.ReadFile(r.Files(), "a")
	var le *LimitError
	if !errors.As(err, &le) || le.Kind != LimitArchiveBytes {
		t.Fatalf("second read, past the limit: %v", err)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{500 << 20: "500 MB", 1 << 10: "1 KB", 1536 << 10: "1.5 MB", 100: "100 bytes"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{1000: "1,000", 12: "12", 5000000: "5,000,000"} {
		if got := formatCount(n); got != want {
			t.Errorf("formatCount(%d) = %q, want %q", n, got, want)
		}
	}
}
