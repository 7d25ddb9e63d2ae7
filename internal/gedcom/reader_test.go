package gedcom

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const head551 = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR UTF-8\n" // lines 1–5
const head70 = "0 HEAD\n1 GEDC\n2 VERS 7.0\n"                                         // lines 1–3

// Well-formed input: what each construct reads as.
func TestReadSyntax(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"pointer, xref case, void", head70 + "0 @i1@ INDI\n1 FAMS @VOID@\n1 FAMC @f1@\n0 TRLR\n",
			[]string{"0 @I1@ INDI", "1 FAMS @VOID@", "1 FAMC @F1@"}},
		{"5.5.1 xref with a space", head551 + "0 @NoTe ref@ NOTE x\n0 @I1@ INDI\n1 NOTE @note REF@\n0 TRLR\n",
			[]string{`0 @NOTE REF@ NOTE "x"`, "0 @I1@ INDI", "1 NOTE @NOTE REF@"}},
		{"7.0 @@: leading only", head70 + "0 @N1@ SNOTE @@x and @@ y\n1 CONT @@z@\n0 TRLR\n",
			[]string{`0 @N1@ SNOTE "@x and @@ y\n@z@"`}},
		{"5.5.1 @@: every one; escapes kept", head551 + "0 @N1@ NOTE a@@b @#DJULIAN@ c@d\n1 CONC @@\n0 @I1@ INDI\n1 BIRT\n2 DATE @#DJULIAN@ 1 JAN 1700\n0 TRLR\n",
			[]string{`0 @N1@ NOTE "a@b @#DJULIAN@ c@d@"`, "0 @I1@ INDI", "1 BIRT", `2 DATE "@#DJULIAN@ 1 JAN 1700"`}},
		{"text that is not a pointer", head70 + "0 @N1@ SNOTE @#DX@\n1 NOTE @@I1@\n1 NOTE @I1@ and more\n1 NOTE @\n0 TRLR\n",
			[]string{`0 @N1@ SNOTE "@#DX@"`, `1 NOTE "@I1@"`, `1 NOTE "@I1@ and more"`, `1 NOTE "@"`}},
		{"CONC and CONT", head551 + "0 @N1@ NOTE first \n1 CONC half\n1 CONT \n1 CONT second\n1 CONC  with space\n0 TRLR\n",
			[]string{`0 @N1@ NOTE "first half\n\nsecond with space"`}},
		{"value spaces kept", head551 + "0 @N1@ NOTE   three leading, two trailing  \n0 TRLR\n",
			[]string{`0 @N1@ NOTE "  three leading, two trailing  "`}},
		{"extension tags", head70 + "0 @X1@ _CUSTOM value\n1 _SUB @I1@\n2 _DEEP x\n0 @I1@ INDI\n1 _UID 123\n0 TRLR\n",
			[]string{`0 @X1@ _CUSTOM "value"`, "1 _SUB @I1@", `2 _DEEP "x"`, "0 @I1@ INDI", `1 _UID "123"`}},
		{"lenient spacing, blank lines, indent, Ctrl-Z", head551 + "\n  0   @I1@   INDI\n\t1 NAME  A /B/\n\n0 TRLR\n\x1a",
			[]string{"0 @I1@ INDI", `1 NAME " A /B/"`}},
		{"tab delimiter", head551 + "0 @I1@ INDI\n1 NAME\tA /B/\n0 TRLR\n",
			[]string{"0 @I1@ INDI", `1 NAME "A /B/"`}},
		{"no final newline", head551 + "0 @I1@ INDI\n0 TRLR", []string{"0 @I1@ INDI"}},
		{"record without xref", head70 + "0 INDI\n1 NAME x\n0 TRLR\n", []string{"0 INDI", `1 NAME "x"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, recs, err := parse([]byte(c.in), &Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			diffLines(t, "records", c.want, flat(recs...))
			if r.WarningCount() != 0 {
				t.Errorf("warnings: %v", r.Warnings())
			}
		})
	}
}

// Malformed input: the warnings (with line numbers), what is still read, and the strict
// error.
func TestReadBadInput(t *testing.T) {
	cases := []struct {
		name, in string
		opts     Options
		want     []string // records read leniently
		warnings []string
	}{
		{"garbage line", head551 + "0 @I1@ INDI\n1 NAME A /B/\nthis is garbage\n1 SEX M\n0 @I2@ INDI\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", `1 NAME "A /B/"`, `1 SEX "M"`, "0 @I2@ INDI"},
			[]string{`line 8: no level number at the start of the line "this is garbage"; the line is ignored`}},
		{"level jump", head551 + "0 @I1@ INDI\n1 BIRT\n3 DATE 1900\n2 PLAC X\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", "1 BIRT", `2 DATE "1900"`, `2 PLAC "X"`},
			[]string{"line 8: level 3 follows level 1; read as level 2"}},
		{"level with no tag", head551 + "0 @I1@ INDI\n1\n1 SEX F\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", `1 SEX "F"`},
			[]string{"line 7: a level number with no tag; the line and the lines under it are ignored"}},
		{"bad line takes its subtree", head551 + "0 @I1@ INDI\n1 @X BIRT\n2 DATE 1900\n3 TIME 12:00\n1 SEX F\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", `1 SEX "F"`},
			[]string{`line 7: cross-reference identifier with no closing @ in "1 @X BIRT"; the line and the lines under it are ignored`}},
		{"bad record line takes its record", head551 + "0 @@ INDI\n1 NAME x\n0 @I2@ INDI\n0 TRLR\n", Options{},
			[]string{"0 @I2@ INDI"},
			[]string{`line 6: empty cross-reference identifier @@ in "0 @@ INDI"; the line and the lines under it are ignored`}},
		{"no space after level", head551 + "0 @I1@ INDI\n1NAME x\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI"},
			[]string{`line 7: no space after the level number in "1NAME x"; the line and the lines under it are ignored`}},
		{"xref without tag", head551 + "0 @I1@\n0 TRLR\n", Options{}, nil,
			[]string{"line 6: a cross-reference identifier with no tag; the line and the lines under it are ignored"}},
		{"tag starting with @", head551 + "0 @I1@ INDI\n1 @X@ @Y@\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI"},
			[]string{`line 7: a tag cannot start with @ in "1 @X@ @Y@"; the line and the lines under it are ignored`}},
		{"level too deep", head551 + "0 @I1@ INDI\n100 X y\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI"},
			[]string{`line 7: level "100" is deeper than 99; the line is ignored`}},
		{"odd tag kept", head551 + "0 @I1@ INDI\n1 NA-ME x\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", `1 NA-ME "x"`},
			[]string{`line 7: tag "NA-ME" has characters other than letters, digits and _`}},
		{"CONT under a pointer", head551 + "0 @I1@ INDI\n1 FAMC @F1@\n2 CONT text\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", "1 FAMC @F1@", `2 CONT "text"`},
			[]string{"line 8: CONT under a pointer line; kept as a line of its own"}},
		{"CONC in 7.0", head70 + "0 @N1@ SNOTE ab\n1 CONC cd\n0 TRLR\n", Options{},
			[]string{`0 @N1@ SNOTE "abcd"`},
			[]string{"line 5: CONC is not part of GEDCOM 7; joined anyway"}},
		{"CONT after substructures", head551 + "0 @N1@ NOTE a\n1 SOUR @S1@\n1 CONT b\n0 TRLR\n", Options{},
			[]string{`0 @N1@ NOTE "a\nb"`, "1 SOUR @S1@"},
			[]string{"line 8: CONT after the lines under NOTE; joined to its value anyway"}},
		{"xref on CONT", head551 + "0 @N1@ NOTE a\n1 @X@ CONT b\n0 TRLR\n", Options{},
			[]string{`0 @N1@ NOTE "a\nb"`},
			[]string{"line 7: a cross-reference identifier on CONT; ignored"}},
		{"CONT at level 0", head551 + "0 CONT x\n0 TRLR\n", Options{},
			[]string{`0 CONT "x"`},
			[]string{"line 6: CONT at level 0; read as a record"}},
		{"lines before any record", "1 FOO x\n" + head551 + "0 TRLR\n", Options{},
			nil,
			[]string{"line 1: a level 1 line before any record; ignored"}},
		{"no HEAD", "0 @I1@ INDI\n1 NAME x\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", `1 NAME "x"`},
			[]string{"line 1: the file does not start with a HEAD record"}},
		{"no TRLR", head551 + "0 @I1@ INDI\n", Options{},
			[]string{"0 @I1@ INDI"},
			[]string{"the file ends without TRLR; it may be cut short"}},
		{"records after TRLR", head551 + "0 TRLR\n0 @I1@ INDI\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI"},
			[]string{"line 7: records after TRLR; they are read too"}},
		{"TRLR with children", head551 + "0 TRLR\n1 NOTE x\n", Options{},
			nil,
			[]string{"line 6: TRLR has lines under it; they are ignored"}},
		{"invalid UTF-8", head551 + "0 @I1@ INDI\n1 NAME Jos\xe9 /X/\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", `1 NAME "José /X/"`},
			[]string{"line 7: bytes that are not valid UTF-8; read as ANSI (CP1252)"}},
		{"non-ASCII in ASCII", strings.Replace(head551, "UTF-8", "ASCII", 1) + "0 @I1@ INDI\n1 NAME Jos\xc3\xa9\n1 NOTE caf\xe9\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", `1 NAME "José"`, `1 NOTE "café"`},
			[]string{"line 7: non-ASCII characters in a file that says ASCII; read as UTF-8",
				"line 8: non-ASCII bytes in a file that says ASCII; read as ANSI (CP1252)"}},
		{"unassigned ANSEL byte", strings.Replace(head551, "UTF-8", "ANSEL", 1) + "0 @I1@ INDI\n1 NAME a\x80b\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", "1 NAME \"a\uFFFDb\""},
			[]string{"line 7: bytes that are not ANSEL characters; read as U+FFFD"}},
		{"unknown CHAR", strings.Replace(head551, "UTF-8", "EBCDIC", 1) + "0 @I1@ INDI\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI"},
			[]string{`unknown character set HEAD.CHAR "EBCDIC"; read as UTF-8`}},
		{"BOM against CHAR", "\xEF\xBB\xBF" + strings.Replace(head551, "UTF-8", "ANSEL", 1) + "0 @I1@ INDI\n1 NAME é\n0 TRLR\n", Options{},
			[]string{"0 @I1@ INDI", `1 NAME "é"`},
			[]string{`the file has a UTF-8 byte order mark but HEAD.CHAR says "ANSEL"; read as UTF-8`}},
		{"unknown version", "0 HEAD\n1 GEDC\n2 VERS 9.9\n1 CHAR UTF-8\n0 TRLR\n", Options{}, nil,
			[]string{`line 1: unknown GEDCOM version "9.9"; read as GEDCOM 5.5.1`}},
		{"line too long", head551 + "0 @N1@ NOTE " + strings.Repeat("x", 100) + "\n0 @I1@ INDI\n0 TRLR\n", Options{MaxLineBytes: 40},
			[]string{`0 @N1@ NOTE "` + strings.Repeat("x", 28) + `"`, "0 @I1@ INDI"},
			[]string{"line 6: line longer than 40 bytes; the rest of it is dropped"}},
		{"record too large", head551 + "0 @N1@ NOTE a\n1 CONT b\n1 CONT c\n1 CONT d\n1 CONT e\n1 CONT f\n2 SOUR x\n1 CONT g\n0 @I1@ INDI\n0 TRLR\n",
			Options{MaxRecordBytes: 1100}, // HEAD is 1057; the note's lines are 213, then 208 each
			[]string{`0 @N1@ NOTE "a\nb\nc\nd\ne"`, "0 @I1@ INDI"},
			[]string{"line 11: the record that starts on line 6 is larger than 1100 bytes; the rest of it is dropped"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, recs, err := parse([]byte(c.in), &c.opts)
			if err != nil {
				t.Fatalf("lenient: %v", err)
			}
			diffLines(t, "records", c.want, flat(recs...))
			diffLines(t, "warnings", c.warnings, warningStrings(r.Warnings()))
			if r.WarningCount() != len(c.warnings) {
				t.Errorf("WarningCount %d", r.WarningCount())
			}

			// Strict: the first warning is the error, with the same line number.
			strict := c.opts
			strict.Strict = true
			_, _, err = parse([]byte(c.in), &strict)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("strict: %v, want a SyntaxError", err)
			}
			if se.Warning.String() != c.warnings[0] {
				t.Errorf("strict: %q, want %q", se.Warning.String(), c.warnings[0])
			}
			if !strings.HasPrefix(err.Error(), "gedcom: ") {
				t.Errorf("error text %q", err.Error())
			}
		})
	}
}

// Line ends: LF, CR LF, CR and a mix read alike, with the same line numbers.
func TestReadLineEnds(t *testing.T) {
	base := head551 + "0 @I1@ INDI\n1 NAME a\n\n1 SEX M\n0 TRLR\n"
	var want []string
	for _, le := range []string{"\n", "\r\n", "\r", "mixed"} {
		in := base
		if le == "mixed" {
			in = strings.Replace(strings.Replace(base, "\n", "\r\n", 3), "\n\n", "\r\r", 1)
		} else {
			in = strings.ReplaceAll(base, "\n", le)
		}
		_, recs, err := parse([]byte(in), &Options{Strict: true})
		if err != nil {
			t.Fatalf("%q: %v", le, err)
		}
		got := flat(recs...)
		got = append(got, "line of SEX: "+itoaTest(recs[0].Child("SEX").LineNo))
		if want == nil {
			want = got
			if recs[0].Child("SEX").LineNo != 9 {
				t.Errorf("SEX on line %d, want 9", recs[0].Child("SEX").LineNo)
			}
		}
		diffLines(t, strings.ReplaceAll(le, "\r", `\r`), want, got)
	}
}

func itoaTest(n int) string { return Warning{Line: n}.String() }

// A long line split over scanner buffers, and an input that arrives a byte at a time.
func TestReadBuffering(t *testing.T) {
	long := strings.Repeat("abcdefghij", 20000) // 200 000 bytes, beyond one buffer
	in := head551 + "0 @N1@ NOTE " + long + "\r\n1 CONT x\r\n0 TRLR\r\n"
	_, recs, err := parse([]byte(in), &Options{Strict: true})
	if err != nil || len(recs) != 1 || recs[0].Value != long+"\nx" {
		t.Fatalf("long line: %v %d", err, len(recs))
	}
	r, err := NewReader(&oneByteReader{r: strings.NewReader(in)}, &Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	recs = readAllFrom(t, r)
	if len(recs) != 1 || recs[0].Value != long+"\nx" {
		t.Fatalf("one byte at a time: %d", len(recs))
	}
}

type oneByteReader struct{ r io.Reader }

func (o *oneByteReader) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("disk on fire")
	}
	s := head551 + "0 @I1@ INDI\n"
	n := copy(p, s[len(s)-f.n:])
	f.n -= n
	return n, nil
}

// Read errors end the read with an error (not io.EOF), also in lenient mode.
func TestReadIOError(t *testing.T) {
	r, err := NewReader(&failingReader{n: len(head551) + len("0 @I1@ INDI\n")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Next()
	if err == nil || errors.Is(err, io.EOF) || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("Next: %v", err)
	}
	if _, err2 := r.Next(); err2 == nil {
		t.Fatal("error not sticky")
	}
	if _, err := NewReader(&failingReader{}, nil); err == nil {
		t.Fatal("NewReader on a failing reader")
	}
}

// Warnings: the list is capped, the count is not, and the callback sees them all.
func TestWarningLimits(t *testing.T) {
	in := head551 + strings.Repeat("junk\n", 50) + "0 TRLR\n"
	seen := 0
	r, _, err := parse([]byte(in), &Options{MaxWarnings: 10, OnWarning: func(Warning) { seen++ }})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings()) != 10 || r.WarningCount() != 50 || seen != 50 {
		t.Errorf("kept %d, counted %d, seen %d", len(r.Warnings()), r.WarningCount(), seen)
	}
	r, _, _ = parse([]byte(in), &Options{MaxWarnings: -1})
	if len(r.Warnings()) != 0 || r.WarningCount() != 50 {
		t.Errorf("MaxWarnings -1: kept %d", len(r.Warnings()))
	}
}

func TestHeaderFields(t *testing.T) {
	in := "\xEF\xBB\xBF0 HEAD\n1 GEDC\n2 VERS 7.0.14\n1 SOUR LINEAGE\n2 VERS 1.2\n2 NAME Lineage\n1 SUBM @U1@\n1 LANG en\n" +
		"1 SCHMA\n2 TAG _SKYPEID http://xmlns.com/foaf/0.1/skypeID\n2 TAG _UID https://example.com/uid\n0 TRLR\n"
	r, _, err := parse([]byte(in), &Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	if h.Version != Version70 || h.VersionString != "7.0.14" || h.Source != "LINEAGE" || h.SourceName != "Lineage" ||
		h.SourceVersion != "1.2" || h.Submitter != "U1" || h.Language != "en" || !h.BOM || h.Encoding != UTF8 ||
		h.Schema["_SKYPEID"] != "http://xmlns.com/foaf/0.1/skypeID" || len(h.Schema) != 2 {
		t.Errorf("%+v", h)
	}
	for in, want := range map[string]Version{"5.5": Version55, "5.5.1": Version551, "5.5.5": Version551, "7.0": Version70, "7.0.3": Version70, "4.0": Version55} {
		if v, ok := ParseVersion(in); !ok || v != want {
			t.Errorf("ParseVersion(%q) = %v", in, v)
		}
	}
}

func TestLineHelpers(t *testing.T) {
	_, recs, err := parse([]byte(head551+"0 @I1@ INDI\n1 NAME A /B/\n2 GIVN A\n1 NAME C /D/\n1 FAMS @VOID@\n0 TRLR\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := recs[0]
	if rec.Path("NAME", "GIVN").Value != "A" || rec.ChildValue("NAME") != "A /B/" || len(rec.ChildrenWith("NAME")) != 2 ||
		rec.Child("NOPE") != nil || rec.Path("NAME", "NOPE") != nil || !rec.Child("FAMS").IsVoid() || rec.Count() != 5 {
		t.Error(rec)
	}
	c := rec.Clone()
	c.Children[0].Value = "changed"
	if rec.Children[0].Value != "A /B/" || c.Count() != 5 {
		t.Error("Clone shares")
	}
	var nilLine *Line
	if nilLine.Child("X") != nil || nilLine.ValueOrEmpty() != "" || nilLine.ChildrenWith("X") != nil {
		t.Error("nil line")
	}
	// Children slices are capped: appending to one does not overwrite a sibling's.
	n := rec.Children[0]
	n.Children = append(n.Children, &Line{Tag: "X"})
	if rec.Children[1].Tag != "NAME" || len(rec.Children[1].Children) != 0 {
		t.Error("append to Children overwrote another line")
	}
	if !strings.Contains(rec.String(), `1 NAME "A /B/"`) {
		t.Error(rec.String())
	}
}

// Records() stops at the end, and after an error.
func TestRecordsIterator(t *testing.T) {
	r, err := NewReader(strings.NewReader(head551+"0 @I1@ INDI\n0 @I2@ INDI\n0 TRLR\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rec, err := range r.Records() {
		if err != nil || rec == nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d records", n)
	}
	r, _ = NewReader(strings.NewReader(head551+"0 @I1@ INDI\njunk\n0 TRLR\n"), &Options{Strict: true})
	var errs int
	for _, err := range r.Records() {
		if err != nil {
			errs++
		}
	}
	if errs != 1 {
		t.Errorf("%d errors", errs)
	}
	if r.Offset() == 0 || r.Size() != -1 {
		t.Errorf("Offset %d, Size %d", r.Offset(), r.Size())
	}
	f := openConformance(t, "gedcom70/maximal70.ged", nil)
	readAllFrom(t, f)
	if st, err := os.Stat(filepath.Join(conformanceDir(t), "gedcom70/maximal70.ged")); err != nil || f.Size() != st.Size() || f.Offset() != f.Size() {
		t.Errorf("file: Offset %d, Size %d", f.Offset(), f.Size())
	}
}

func TestForcedEncoding(t *testing.T) {
	in := head551 + "0 @N1@ NOTE \x80\n0 TRLR\n"
	_, recs, err := parse([]byte(in), &Options{Encoding: CP1252, Strict: true})
	if err != nil || recs[0].Value != "€" {
		t.Fatalf("%v %v", err, flat(recs...))
	}
	le := utf16Bytes(head551+"0 @N1@ NOTE é\n0 TRLR\n", false, false)
	_, recs, err = parse(le, &Options{Encoding: UTF16LE, Strict: true})
	if err != nil || recs[0].Value != "é" {
		t.Fatalf("%v %v", err, flat(recs...))
	}
	_ = bytes.MinRead
}
