package gedcom

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func write(t *testing.T, h *Header, opts *WriterOptions, recs ...*Line) string {
	t.Helper()
	return string(writeAll(t, h, recs, opts))
}

func TestWriteMinimal(t *testing.T) {
	if got := write(t, nil, nil); got != "0 HEAD\n1 GEDC\n2 VERS 7.0\n0 TRLR\n" {
		t.Errorf("7.0:\n%s", got)
	}
	if got := write(t, nil, &WriterOptions{Version: Version551}); got != "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR UTF-8\n0 TRLR\n" {
		t.Errorf("5.5.1:\n%s", got)
	}
	if got := write(t, nil, &WriterOptions{Version: Version55, LineEnding: "\r\n", Encoding: ANSEL}); got != "0 HEAD\r\n1 GEDC\r\n2 VERS 5.5\r\n2 FORM LINEAGE-LINKED\r\n1 CHAR ANSEL\r\n0 TRLR\r\n" {
		t.Errorf("5.5 ANSEL CRLF:\n%q", got)
	}
	if got := write(t, nil, &WriterOptions{BOM: true, LineEnding: "\r"}); got != "\uFEFF0 HEAD\r1 GEDC\r2 VERS 7.0\r0 TRLR\r" {
		t.Errorf("BOM CR: %q", got)
	}
}

func TestWriteRecordShapes(t *testing.T) {
	rec := &Line{Xref: "I1", Tag: "INDI", Level: 7, Children: []*Line{
		{Tag: "NAME", Value: "John /Doe/", Children: []*Line{{Tag: "GIVN", Value: "John"}}},
		{Tag: "FAMS", Pointer: "VOID"},
		{Tag: "FAMC", Pointer: "f1"},
		{Tag: "BIRT"},
		{Tag: "_UID", Value: "abc"},
		{Tag: "NOTE", Value: "line one\r\nline two\rline three\n\n@line five"},
	}}
	want := "0 @I1@ INDI\n1 NAME John /Doe/\n2 GIVN John\n1 FAMS @VOID@\n1 FAMC @F1@\n1 BIRT\n1 _UID abc\n" +
		"1 NOTE line one\n2 CONT line two\n2 CONT line three\n2 CONT\n2 CONT @@line five\n"
	got := write(t, nil, nil, rec)
	if !strings.Contains(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriteEscapes(t *testing.T) {
	rec := &Line{Xref: "N1", Tag: "NOTE", Value: "@x a@b @@ c", Children: []*Line{
		{Tag: "DATE", Value: "@#DJULIAN@ 1 JAN 1700"},
		{Tag: "NOTE", Value: "@I1@"},
		{Tag: "NOTE", Value: "@#open escape"},
	}}
	got55 := write(t, nil, &WriterOptions{Version: Version551}, rec)
	want55 := "0 @N1@ NOTE @@x a@@b @@@@ c\n1 DATE @#DJULIAN@ 1 JAN 1700\n1 NOTE @@I1@@\n1 NOTE @@#open escape\n"
	if !strings.Contains(got55, want55) {
		t.Errorf("5.5.1:\n%s", got55)
	}
	got70 := write(t, nil, nil, rec)
	// GEDCOM 7 has no @#…@ escapes: a leading @ is text and is doubled.
	want70 := "0 @N1@ NOTE @@x a@b @@ c\n1 DATE @@#DJULIAN@ 1 JAN 1700\n1 NOTE @@I1@\n1 NOTE @@#open escape\n"
	if !strings.Contains(got70, want70) {
		t.Errorf("7.0:\n%s", got70)
	}
	for _, out := range []string{got55, got70} {
		_, recs, err := parse([]byte(out), &Options{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		diffLines(t, "re-read", flat(rec), flat(recs...))
	}
}

func TestWriteIdentifiers(t *testing.T) {
	rec := &Line{Xref: "NoTe ref", Tag: "NOTE", Value: "x", Children: []*Line{{Tag: "SOUR", Pointer: "s@1"}, {Tag: "REFN", Pointer: "VOID"}}}
	if got := write(t, nil, nil, rec); !strings.Contains(got, "0 @NOTE_20REF@ NOTE x\n1 SOUR @S_401@\n1 REFN @VOID@\n") {
		t.Errorf("7.0:\n%s", got)
	}
	if got := write(t, nil, &WriterOptions{Version: Version551}, rec); !strings.Contains(got, "0 @NOTE REF@ NOTE x\n1 SOUR @S_1@\n") {
		t.Errorf("5.5.1:\n%s", got)
	}
}

// Long 5.5.1 values are split with CONC: lines within the limit, not next to a space when
// avoidable, never inside @@ or @#…@ or before a combining mark; the text reads back the
// same.
func TestWriteConcSplit(t *testing.T) {
	words := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)
	values := map[string]string{
		"words":    words,
		"at signs": strings.Repeat("@", 300) + strings.Repeat("a@b", 100),
		"escapes":  strings.Repeat("x @#DJULIAN@ ", 40),
		"marks":    strings.Repeat("e\u0301\u0323", 150),
		"no space": strings.Repeat("abcdefghij", 50),
		"spaces":   strings.Repeat(" ", 300) + "x",
		"unicode":  strings.Repeat("Łódź 𒍅 ", 60),
	}
	for name, v := range values {
		t.Run(name, func(t *testing.T) {
			const max = 60
			rec := &Line{Xref: "N1", Tag: "NOTE", Value: v + "\n" + v}
			out := write(t, nil, &WriterOptions{Version: Version551, MaxLineLength: max}, rec)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			for i, line := range lines {
				if n := utf8.RuneCountInString(line); n > max {
					t.Errorf("%d characters: %q", n, line)
				}
				if rest, ok := strings.CutPrefix(line, "1 CONC "); ok {
					r, _ := utf8.DecodeRuneInString(rest)
					if unicode.Is(unicode.Mn, r) {
						t.Errorf("CONC starts with a combining mark: %q", line)
					}
					if name == "words" && (strings.HasPrefix(rest, " ") || strings.HasSuffix(lines[i-1], " ")) {
						t.Errorf("split at a space: %q / %q", lines[i-1], line)
					}
				}
			}
			_, recs, err := parse([]byte(out), &Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0].Value != rec.Value {
				t.Errorf("read back differs:\n%q\n%q", recs[0].Value, rec.Value)
			}
			if !strings.Contains(out, "1 CONC") {
				t.Error("no CONC")
			}
		})
	}
	// 7.0 never splits.
	long := strings.Repeat("x", 5000)
	out := write(t, nil, &WriterOptions{MaxLineLength: 60}, &Line{Tag: "NOTE", Xref: "N1", Value: long})
	if strings.Contains(out, "CONC") || !strings.Contains(out, long) {
		t.Error("7.0 split a line")
	}
}

func TestWriteHeaderFromFields(t *testing.T) {
	h := &Header{Source: "LINEAGE", SourceName: "Lineage", SourceVersion: "1.0", Submitter: "U1",
		Language: "en", Filename: "x.ged", Schema: map[string]string{"_B": "https://b", "_A": "https://a"}}
	got := write(t, h, nil)
	want := "0 HEAD\n1 GEDC\n2 VERS 7.0\n1 SOUR LINEAGE\n2 NAME Lineage\n2 VERS 1.0\n1 SUBM @U1@\n1 FILE x.ged\n1 LANG en\n" +
		"1 SCHMA\n2 TAG _A https://a\n2 TAG _B https://b\n0 TRLR\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = write(t, h, &WriterOptions{Version: Version551})
	if !strings.HasPrefix(got, "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR UTF-8\n1 SOUR LINEAGE\n") || strings.Contains(got, "SCHMA") {
		t.Errorf("5.5.1:\n%s", got)
	}
}

// A HEAD record converted between versions: GEDC.VERS, FORM and CHAR follow the output;
// everything else stays.
func TestWriteHeaderFromRecord(t *testing.T) {
	in := "0 HEAD\n1 SOUR X\n1 GEDC\n2 VERS 5.5\n2 FORM LINEAGE-LINKED\n1 CHAR ANSEL\n2 VERS ANSI Z39.47-1985\n1 _EXT y\n0 TRLR\n"
	r, _, err := parse([]byte(in), &Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := write(t, r.Header(), nil); got != "0 HEAD\n1 SOUR X\n1 GEDC\n2 VERS 7.0\n1 _EXT y\n0 TRLR\n" {
		t.Errorf("to 7.0:\n%s", got)
	}
	if got := write(t, r.Header(), &WriterOptions{Version: Version551, Encoding: ANSEL}); got != "0 HEAD\n1 SOUR X\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR ANSEL\n2 VERS ANSI Z39.47-1985\n1 _EXT y\n0 TRLR\n" {
		t.Errorf("to 5.5.1 ANSEL:\n%s", got)
	}
	if got := write(t, r.Header(), &WriterOptions{Version: Version551}); got != "0 HEAD\n1 SOUR X\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR UTF-8\n1 _EXT y\n0 TRLR\n" {
		t.Errorf("to 5.5.1 UTF-8:\n%s", got)
	}
	// The caller's header is not changed.
	if r.Header().Record.Path("GEDC", "VERS").Value != "5.5" || r.Header().Record.Child("CHAR") == nil {
		t.Error("Header.Record modified")
	}
	// Header without GEDC gets one first; 7.0.x minor versions are kept.
	r, _, _ = parse([]byte("0 HEAD\n1 GEDC\n2 VERS 7.0.14\n0 TRLR\n"), nil)
	if got := write(t, r.Header(), nil); got != "0 HEAD\n1 GEDC\n2 VERS 7.0.14\n0 TRLR\n" {
		t.Errorf("7.0.14:\n%s", got)
	}
	if got := write(t, &Header{Record: &Line{Tag: "HEAD", Children: []*Line{{Tag: "NOTE", Value: "n"}}}}, &WriterOptions{Version: Version551}); got != "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR UTF-8\n1 NOTE n\n0 TRLR\n" {
		t.Errorf("no GEDC:\n%s", got)
	}
}

type failWriter struct{ after int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.after -= len(p); f.after < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, rec := range map[string]*Line{
		"nil": nil, "empty tag": {Tag: ""}, "space in tag": {Tag: "A B"}, "@ tag": {Tag: "@X"},
		"HEAD": {Tag: "HEAD"}, "TRLR": {Tag: "TRLR"}, "pointer and value": {Tag: "NOTE", Pointer: "N1", Value: "x"},
		"bad child": {Tag: "INDI", Children: []*Line{{Tag: "NA\nME"}}},
	} {
		w, _ := NewWriter(new(bytes.Buffer), nil, nil)
		if err := w.Write(rec); !errors.Is(err, ErrBadLine) {
			t.Errorf("%s: %v", name, err)
		}
	}
	deep := &Line{Tag: "X"}
	for l, i := deep, 0; i < 120; i++ {
		c := &Line{Tag: "X"}
		l.Children = []*Line{c}
		l = c
	}
	if err := w.Write(deep); !errors.Is(err, ErrBadLine) {
		t.Errorf("too deep: %v", err)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a failed Write")
	}
	w, _ = NewWriter(&buf, nil, nil)
	w.Close()
	if err := w.Write(&Line{Tag: "INDI"}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	for _, o := range []WriterOptions{{Version: Version(9)}, {Encoding: CP437, Version: Version551}, {LineEnding: "\t"}, {Encoding: UTF16LE}} {
		if _, err := NewWriter(&buf, nil, &o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	// Errors of the underlying writer come back from Write or Close.
	w, err = NewWriter(&failWriter{after: 100}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var werr error
	for i := 0; i < 10000 && werr == nil; i++ {
		werr = w.Write(&Line{Tag: "NOTE", Xref: "N1", Value: strings.Repeat("x", 100)})
	}
	if werr == nil {
		werr = w.Close()
	}
	if werr == nil || !strings.Contains(werr.Error(), "disk full") {
		t.Errorf("underlying error: %v", werr)
	}
}
