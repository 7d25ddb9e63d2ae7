package gendate

import (
	"errors"
	"testing"
)

var parseSeeds = []string{
	"12 MAR 1850", "ABT 1850", "BEF 1731/2", "BET Q1 1850 AND Q2 1850", "Mar Q 1850",
	"FROM JULIAN 30 JUN 730 BCE TO HEBREW 22 TMZ 95", "@#DFRENCH R@ 9 THER 2", "12/03/1850",
	"INT 1995 (from estimated age)", "(phrase)", "c1850", "1850-03-12", "HEBREW 1 ADS 5784",
	"BET 1850 AND 1840", "_UNKNOWN 87", "12th of March, 1850", "FRENCH_R 6 COMP 3", "",
	"9999 BCE", "JULIAN 1 JAN 9999", "AFT 9999", "1699/1700", "B.C.",
}

// FuzzParse checks that Parse never panics, is deterministic, keeps the text, gives
// every date it accepts a non-empty range (Earliest ≤ Latest, Stated inside Range),
// and writes a GEDCOM 7 form that reads back to itself and covers the same days.
func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		again, err2 := Parse(s)
		if d != again || (err == nil) != (err2 == nil) {
			t.Fatalf("Parse(%q) is not deterministic", s)
		}
		if d.Text != s {
			t.Fatalf("Parse(%q) lost the text", s)
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || d.Kind != Invalid || d.HasRange() {
				t.Fatalf("Parse(%q): error %v with date %+v", s, err, d)
			}
			return
		}
		if !d.HasRange() {
			if d.String() != "" {
				t.Fatalf("Parse(%q): no range but String %q", s, d.String())
			}
			return
		}
		if d.Range.Earliest > d.Range.Latest || d.Stated.Earliest > d.Stated.Latest {
			t.Fatalf("Parse(%q): empty range %+v", s, d)
		}
		if d.Stated.Earliest < d.Range.Earliest || d.Stated.Latest > d.Range.Latest {
			t.Fatalf("Parse(%q): Stated %v outside Range %v", s, d.Stated, d.Range)
		}
		back, err := Parse(d.String())
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, d.String(), err)
		}
		if back.String() != d.String() {
			t.Fatalf("String of %q not stable: %q then %q", s, d.String(), back.String())
		}
		if back.Range.Earliest > d.Range.Earliest || back.Range.Latest < d.Range.Latest {
			t.Fatalf("String of %q = %q covers %v, less than %v", s, d.String(), back.Range, d.Range)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	texts := []string{"12 MAR 1850", "ABT 1850", "BET 1840 AND 1845", "Mar Q 1850",
		"11 FEB 1731/32", "@#DJULIAN@ 25 DEC 1700", "12/03/1850", "INT 1995 (from age)"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Parse(texts[i%len(texts)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseExactDay(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("12 MAR 1850"); err != nil {
			b.Fatal(err)
		}
	}
}
