package gedcom

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Warnings the conformance files are expected to give; every other file gives none.
var expectedWarnings = map[string][]string{
	// Deliberately mislabelled: "UTF-8 without BOM mislabeled as UNICODE".
	"pairs/5/char_utf8-2.ged": {`HEAD.CHAR says "UNICODE" (UTF-16) but the file is not UTF-16; read as UTF-8`},
	// "0 HEAD", "0 TRLR" and nothing else.
	"pairs/5/tiny-1.ged": {
		"line 1: HEAD has no GEDC.VERS; read as GEDCOM 5.5.1",
		"line 1: HEAD has no CHAR; read as UTF-8",
	},
}

type fileFacts struct {
	version  Version
	encoding Encoding
	bom      bool
}

// What the header of each group says; exceptions by file.
func expectedFacts(rel string) fileFacts {
	switch rel {
	case "pairs/5/tiny-1.ged":
		return fileFacts{VersionUnknown, UTF8, false}
	case "pairs/5/char_ascii_1.ged", "pairs/5/enum-ext.ged", "pairs/5/filename-1.ged",
		"pairs/5/obsolete-1.ged", "pairs/5/rela_1.ged", "pairs/5/xref-case.ged":
		return fileFacts{Version551, ASCII, false}
	case "pairs/5/char_ascii_2.ged": // CHAR LATIN1
		return fileFacts{Version551, CP1252, false}
	case "pairs/5/char_utf16le-1.ged":
		return fileFacts{Version551, UTF16LE, false}
	case "pairs/5/char_utf16le-2.ged":
		return fileFacts{Version551, UTF16LE, true}
	case "pairs/5/char_utf16be-1.ged":
		return fileFacts{Version551, UTF16BE, false}
	case "pairs/5/char_utf16be-2.ged":
		return fileFacts{Version551, UTF16BE, true}
	case "pairs/5/char_utf8-3.ged":
		return fileFacts{Version551, UTF8, true}
	case "gedcom70/extensions.ged", "gedcom70/long-url.ged", "gedcom70/minimal70.ged":
		return fileFacts{Version70, UTF8, false}
	}
	switch {
	case strings.HasPrefix(rel, "torture55/"):
		return fileFacts{Version55, ANSEL, false}
	case strings.HasPrefix(rel, "pairs/5/"):
		return fileFacts{Version551, UTF8, false}
	}
	return fileFacts{Version70, UTF8, true}
}

func openConformance(t testing.TB, rel string, opts *Options) *Reader {
	t.Helper()
	r, err := Open(filepath.Join(conformanceDir(t), rel), opts)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// Every conformance file reads without error, with exactly the expected warnings and
// header facts, and in strict mode too unless it is expected to warn.
func TestConformanceRead(t *testing.T) {
	files := conformanceFiles(t)
	if len(files) < 79 {
		t.Fatalf("%d conformance files, want at least 79", len(files))
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			r := openConformance(t, rel, nil)
			recs := readAllFrom(t, r)
			want := expectedWarnings[rel]
			got := warningStrings(r.Warnings())
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			h := r.Header()
			f := expectedFacts(rel)
			if h.Version != f.version || h.Encoding != f.encoding || h.BOM != f.bom {
				t.Errorf("header: version %v encoding %v BOM %v; want %v %v %v", h.Version, h.Encoding, h.BOM, f.version, f.encoding, f.bom)
			}
			if h.Record == nil || h.Record.Tag != "HEAD" {
				t.Errorf("no HEAD record")
			}
			for _, rec := range recs {
				if rec.Tag == "HEAD" || rec.Tag == "TRLR" {
					t.Errorf("Next returned %s", rec.Tag)
				}
				rec.Walk(func(l *Line) bool {
					if !utf8.ValidString(l.Value) || l.Pointer != "" && l.Value != "" {
						t.Errorf("line %d: bad value %q / pointer %q", l.LineNo, l.Value, l.Pointer)
					}
					return true
				})
			}
			if !strings.Contains(rel, "minimal70") && !strings.Contains(rel, "tiny-1") && len(recs) == 0 {
				t.Errorf("no records")
			}

			if len(want) > 0 {
				return // strict mode fails; checked below
			}
			rs := openConformance(t, rel, &Options{Strict: true})
			var err error
			for _, err = range rs.Records() {
				if err != nil {
					break
				}
			}
			if err != nil {
				t.Errorf("strict: %v", err)
			}
		})
	}
	// A file that warns fails in strict mode, at NewReader here (the warnings are about
	// the header).
	for rel, want := range expectedWarnings {
		_, err := Open(filepath.Join(conformanceDir(t), rel), &Options{Strict: true})
		var se *SyntaxError
		if !errors.As(err, &se) || se.Warning.String() != want[0] {
			t.Errorf("%s strict: %v, want SyntaxError %q", rel, err, want[0])
		}
	}
}

// headWithout renders a HEAD record without GEDC and CHAR, the parts the Writer sets.
func headWithout(h *Line) []string {
	if h == nil {
		return nil
	}
	c := *h
	c.Children = without(without(h.Children, "GEDC"), "CHAR")
	return flat(&c)
}

func writeAll(t testing.TB, h *Header, recs []*Line, opts *WriterOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Read → write → read keeps every record line for line, for every conformance file, in
// UTF-8 and (5.5.x) in the file's own encoding; HEAD too, apart from GEDC and CHAR.
func TestConformanceRoundTrip(t *testing.T) {
	for _, rel := range conformanceFiles(t) {
		t.Run(rel, func(t *testing.T) {
			r := openConformance(t, rel, nil)
			recs := readAllFrom(t, r)
			h := r.Header()
			v := h.Version
			if v == VersionUnknown {
				v = Version551
			}
			encs := []Encoding{UTF8}
			if v != Version70 && h.Encoding != UTF8 {
				switch h.Encoding {
				case ANSEL, ASCII, UTF16LE, UTF16BE:
					encs = append(encs, h.Encoding)
				}
			}
			for _, enc := range encs {
				out := writeAll(t, h, recs, &WriterOptions{Version: v, Encoding: enc})
				r2, recs2, err := parse(out, &Options{Strict: true})
				if err != nil {
					t.Fatalf("%v: re-read: %v", enc, err)
				}
				diffLines(t, enc.String()+" records", flat(recs...), flat(recs2...))
				h2 := r2.Header()
				diffLines(t, enc.String()+" HEAD", headWithout(h.Record), headWithout(h2.Record))
				if h2.Version != v || h2.Encoding != enc {
					t.Errorf("%v: re-read as %v %v", enc, h2.Version, h2.Encoding)
				}
				if v == Version70 && h2.Charset != "" {
					t.Errorf("7.0 output has CHAR %q", h2.Charset)
				}
				if v != Version70 && h2.Charset != enc.charValue() {
					t.Errorf("CHAR %q, want %q", h2.Charset, enc.charValue())
				}
				if v != Version70 && enc != UTF16LE && enc != UTF16BE {
					for i, line := range strings.Split(string(out), "\n") {
						if n := utf8.RuneCountInString(line); n > 253 {
							t.Errorf("%v: output line %d has %d characters", enc, i+1, n)
						}
					}
				}
			}
		})
	}
}

// GEDCOM 7 files written back as 7.0 are the same text, line for line: same lines, same
// CONT splits, same escapes. Only the line ends and the BOM follow the original here.
func TestConformanceRoundTrip70Text(t *testing.T) {
	for _, rel := range conformanceFiles(t) {
		if !strings.HasSuffix(rel, ".ged") || expectedFacts(rel).version != Version70 {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			orig := readFile(t, rel)
			r := openConformance(t, rel, nil)
			recs := readAllFrom(t, r)
			le := "\n"
			if bytes.Contains(orig, []byte("\r\n")) {
				le = "\r\n"
			}
			out := writeAll(t, r.Header(), recs, &WriterOptions{Version: Version70, BOM: r.Header().BOM, LineEnding: le})
			if !bytes.HasSuffix(orig, []byte(le)) {
				orig = append(orig, le...)
			}
			diffLines(t, "text", strings.Split(string(orig), le), strings.Split(string(out), le))
		})
	}
}

// The torture test comes in four files: CR and LF line ends, and two editions. The line
// ends make no difference.
func TestTortureLineEnds(t *testing.T) {
	for _, pair := range [][2]string{{"torture55/TGC551.ged", "torture55/TGC551LF.ged"}, {"torture55/TGC55C.ged", "torture55/TGC55CLF.ged"}} {
		a := openConformance(t, pair[0], nil)
		b := openConformance(t, pair[1], nil)
		ra, rb := readAllFrom(t, a), readAllFrom(t, b)
		diffLines(t, pair[0]+" vs "+pair[1], flat(ra...), flat(rb...))
		if len(ra) < 60 {
			t.Errorf("%s: %d records", pair[0], len(ra))
		}
		// Line numbers count CR-only lines too.
		for i := range min(len(ra), len(rb)) {
			if ra[i].LineNo != rb[i].LineNo {
				t.Errorf("record %d: line %d vs %d", i, ra[i].LineNo, rb[i].LineNo)
				break
			}
		}
	}
}
