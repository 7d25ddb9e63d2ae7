package gedcom

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"
)

// The pairs' char_* files all carry the same note text in a different encoding.
func TestConformanceCharFiles(t *testing.T) {
	const text = "¶ ☺ 𒍅"
	cases := map[string]string{
		"pairs/5/char_utf8-1.ged":    "UTF-8 without BOM: " + text,
		"pairs/5/char_utf8-2.ged":    "UTF-8 without BOM mislabeled as UNICODE: " + text,
		"pairs/5/char_utf8-3.ged":    "UTF-8 with BOM: " + text,
		"pairs/5/char_utf16le-1.ged": "UTF-16LE without BOM: " + text,
		"pairs/5/char_utf16le-2.ged": "UTF-16LE with BOM: " + text,
		"pairs/5/char_utf16be-1.ged": "UTF-16BE without BOM: " + text,
		"pairs/5/char_utf16be-2.ged": "UTF-16BE with BOM: " + text,
		"pairs/7/char_utf16le-1.ged": "UTF-16LE without BOM: " + text,
		"pairs/7/char_utf8-1.ged":    "UTF-8 without BOM: " + text,
	}
	for rel, want := range cases {
		r := openConformance(t, rel, nil)
		readAllFrom(t, r)
		if got := r.Header().Record.ChildValue("NOTE"); got != want {
			t.Errorf("%s: HEAD.NOTE %q, want %q", rel, got, want)
		}
	}
	// The ASCII pair: plain ASCII under CHAR ASCII and CHAR LATIN1.
	for _, rel := range []string{"pairs/5/char_ascii_1.ged", "pairs/5/char_ascii_2.ged"} {
		r := openConformance(t, rel, nil)
		recs := readAllFrom(t, r)
		if len(recs) != 1 || recs[0].ChildValue("NAME") != "Luther Tychonievich" {
			t.Errorf("%s: %v", rel, flat(recs...))
		}
	}
}

// The torture test's ANSEL notes list every special character with its name.
func TestConformanceANSEL(t *testing.T) {
	r := openConformance(t, "torture55/TGC55C.ged", nil)
	var special, accented string
	for _, rec := range readAllFrom(t, r) {
		switch rec.Xref {
		case "N25":
			special = rec.Value
		case "N24":
			accented = rec.Value
		}
	}
	for _, want := range []string{
		"A1 slash l - uppercase (Ł)", "A2 slash o - uppercase (Ø)", "A3 slash d - uppercase (Đ)",
		"A4 thorn - uppercase (Þ)", "A5 ligature ae - uppercase (Æ)", "A6 ligature oe - uppercase (Œ)",
		"A8 middle dot (·)", "A9 musical flat (♭)", "AA registered sign (®)", "AB plus-or-minus (±)",
		"AC hook o - uppercase (Ơ)", "AD hook u - uppercase (Ư)", "B1 slash l - lowercase (ł)",
		"B8 dotless i - lowercase (ı)", "B9 british pound (£)", "BA eth (ð)", "BE empty box - LDS extension (□)",
		"BF black box - LDS extensions (■)", "CO degree sign (°)", "C1 script l (ℓ)",
		"C2 phonograph copyright mark (℗)", "C3 copyright symbol (©)", "C4 musical sharp (♯)",
		"C5 inverted question mark (¿)", "C6 inverted exclamation mark (¡)", "CF es zet (ß)",
	} {
		if !strings.Contains(special, want) {
			t.Errorf("N25 lacks %q", want)
		}
	}
	// Combining marks come after their letter and compose (NFC) where Unicode can.
	for _, want := range []string{
		"ÀB̀C̀D̀ÈF̀G̀H̀ÌJ̀K̀L̀M̀", // E1 grave
		"áb́ćd́éf́ǵh́íj́ḱĺḿ",      // E2 acute
		"ÄB̈C̈D̈ËF̈G̈ḦÏJ̈K̈L̈M̈",  // E8 diaeresis
		"A̧B̧ÇḐȨF̧ĢḨI̧J̧ĶĻM̧",     // F0 cedilla
	} {
		if !strings.Contains(accented, want) {
			t.Errorf("N24 lacks %q", want)
		}
	}
	if !norm.NFC.IsNormalString(accented) {
		t.Errorf("N24 is not NFC")
	}
}

const sample = "Müller Łódź € “quoted” £5 é"

func header(char string) string {
	return "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR " + char + "\n"
}

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var b []byte
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// Each encoding the issue names, built by hand, reads to the same text.
func TestEncodings(t *testing.T) {
	rec := "0 @N1@ NOTE "
	utf8File := header("UTF-8") + rec + sample + "\n0 TRLR\n"
	cases := []struct {
		name  string
		input []byte
		want  string
		enc   Encoding
		bom   bool
	}{
		{"UTF-8", []byte(utf8File), sample, UTF8, false},
		{"UTF-8 BOM", append([]byte("\xEF\xBB\xBF"), utf8File...), sample, UTF8, true},
		{"UTF-16LE BOM", utf16Bytes(strings.Replace(utf8File, "UTF-8", "UNICODE", 1), false, true), sample, UTF16LE, true},
		{"UTF-16BE BOM", utf16Bytes(strings.Replace(utf8File, "UTF-8", "UNICODE", 1), true, true), sample, UTF16BE, true},
		{"UTF-16LE", utf16Bytes(strings.Replace(utf8File, "UTF-8", "UNICODE", 1), false, false), sample, UTF16LE, false},
		{"UTF-16BE", utf16Bytes(strings.Replace(utf8File, "UTF-8", "UNICODE", 1), true, false), sample, UTF16BE, false},
		{"ANSI", []byte(header("ANSI") + rec + "M\xFCller \x80 \x93quoted\x94 \xA35 \xE9\n0 TRLR\n"), "Müller € “quoted” £5 é", CP1252, false},
		{"WINDOWS-1252", []byte(header("WINDOWS-1252") + rec + "\x80\n0 TRLR\n"), "€", CP1252, false},
		{"ISO-8859-1", []byte(header("ISO-8859-1") + rec + "caf\xE9\n0 TRLR\n"), "café", CP1252, false},
		{"IBM PC", []byte(header("IBMPC") + rec + "M\x81ller \x9C5 \x82 \x84\n0 TRLR\n"), "Müller £5 é ä", CP437, false},
		{"IBM PC spaced", []byte(header("IBM PC") + rec + "M\x81ller\n0 TRLR\n"), "Müller", CP437, false},
		{"MACINTOSH", []byte(header("MACINTOSH") + rec + "M\x9Fller \x8E\n0 TRLR\n"), "Müller é", MacRoman, false},
		{"ASCII", []byte(header("ASCII") + rec + "Muller\n0 TRLR\n"), "Muller", ASCII, false},
		{"ANSEL", []byte(header("ANSEL") + rec + "M\xE8uller \xA1\xE2od\xE2z \xC8 \xB95 \xE2e\n0 TRLR\n"), "Müller Łódź € £5 é", ANSEL, false},
		{"ANSEL two marks", []byte(header("ANSEL") + rec + "\xE3\xE2a \xF2\xE6a\n0 TRLR\n"), "ấ ặ", ANSEL, false},
		{"ANSEL CRLF", []byte(strings.ReplaceAll(header("ANSEL")+rec+"caf\xE2e\n0 TRLR\n", "\n", "\r\n")), "café", ANSEL, false},
		{"ANSEL CR", []byte(strings.ReplaceAll(header("ANSEL")+rec+"caf\xE2e\n0 TRLR\n", "\n", "\r")), "café", ANSEL, false},
		{"GEDCOM 7 is UTF-8 whatever CHAR says", []byte("0 HEAD\n1 GEDC\n2 VERS 7.0\n1 CHAR ANSEL\n" + rec + "é\n0 TRLR\n"), "é", UTF8, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, recs, err := parse(c.input, &Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0].Value != c.want {
				t.Fatalf("got %v, want %q", flat(recs...), c.want)
			}
			if h := r.Header(); h.Encoding != c.enc || h.BOM != c.bom {
				t.Errorf("encoding %v BOM %v, want %v %v", h.Encoding, h.BOM, c.enc, c.bom)
			}
		})
	}
}

func TestEncodingFromCharset(t *testing.T) {
	for in, want := range map[string]Encoding{
		"UTF-8": UTF8, "utf8": UTF8, "UNICODE": UTF16LE, "UTF-16BE": UTF16BE, "ANSEL": ANSEL,
		"ASCII": ASCII, "US-ASCII": ASCII, "ANSI": CP1252, "Windows-1252": CP1252, "ISO-8859-1": CP1252,
		"LATIN1": CP1252, "IBMPC": CP437, "IBM PC": CP437, "IBM-PC": CP437, "MS-DOS": CP437,
		"MACINTOSH": MacRoman, "IBM WINDOWS": CP1252,
	} {
		if got, ok := EncodingFromCharset(in); !ok || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, ok, want)
		}
	}
	if _, ok := EncodingFromCharset("KLINGON"); ok {
		t.Error("KLINGON known")
	}
}

// The Writer's encodings read back to the same text; ANSEL and ASCII substitute what
// they cannot express.
func TestWriterEncodings(t *testing.T) {
	text := "Müller Łódź £5 é Ơ ặ ß ©"
	rec := &Line{Tag: "NOTE", Xref: "N1", Value: text + "\nsecond line"}
	for _, c := range []struct {
		enc   Encoding
		want  string
		subst int
	}{
		{UTF8, text, 0},
		{UTF16LE, text, 0},
		{UTF16BE, text, 0},
		{ANSEL, text, 0},
		{ASCII, "M?ller ??d? ?5 ? ? ? ? ?", 10},
	} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, nil, &WriterOptions{Version: Version551, Encoding: c.enc})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, recs, err := parse(buf.Bytes(), &Options{Strict: true})
		if err != nil {
			t.Fatalf("%v: %v", c.enc, err)
		}
		if r.Header().Encoding != c.enc || recs[0].Value != c.want+"\nsecond line" {
			t.Errorf("%v: read back as %v: %q", c.enc, r.Header().Encoding, recs[0].Value)
		}
		if w.Substitutions() != c.subst {
			t.Errorf("%v: %d substitutions, want %d", c.enc, w.Substitutions(), c.subst)
		}
	}
	if _, err := NewWriter(new(bytes.Buffer), nil, &WriterOptions{Version: Version70, Encoding: ANSEL}); err == nil {
		t.Error("7.0 in ANSEL allowed")
	}
	if _, err := NewWriter(new(bytes.Buffer), nil, &WriterOptions{Version: Version551, Encoding: CP437}); err == nil {
		t.Error("5.5.1 in CP437 allowed")
	}
}

// Every ANSEL character survives decode → encode, and every character ANSEL can express
// survives encode → decode.
func TestANSELTables(t *testing.T) {
	for b := 0x80; b < 0x100; b++ {
		r := anselDecode[b-0x80]
		if r == 0 {
			continue
		}
		var in []byte
		if anselIsComb[b-0x80] {
			in = []byte{byte(b), 'a'}
		} else {
			in = []byte{byte(b)}
		}
		dec, bad := decodeANSEL(nil, in)
		if bad != 0 {
			t.Errorf("%#x: bad", b)
		}
		enc, subst := encodeANSEL(nil, string(dec))
		if subst != 0 {
			t.Errorf("%#x → %q: %d substitutions", b, dec, subst)
		}
		back, _ := decodeANSEL(nil, enc)
		if string(back) != string(dec) {
			t.Errorf("%#x: %q → % x → %q", b, dec, enc, back)
		}
	}
	if dec, bad := decodeANSEL(nil, []byte{0x80, 'x', 0xFF}); bad != 2 || string(dec) != "\uFFFDx\uFFFD" {
		t.Errorf("unassigned bytes: %q %d", dec, bad)
	}
	// A mark at the end of a line has no letter: it is kept after a space.
	if dec, _ := decodeANSEL(nil, []byte{'a', 0xE2}); string(dec) != "a \u0301" {
		t.Errorf("trailing mark: %q", dec)
	}
	if enc, _ := encodeANSEL(nil, "a \u0301"); string(enc) != "a\xE2 " {
		t.Errorf("lone mark: % x", enc)
	}
}
