package gendate

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// gedcomDates reads the DATE values of a file among the shared GEDCOM conformance files,
// which live in shared/ beside the repository clone (here and on CI alike).
func gedcomDates(t *testing.T, rel string) []string {
	t.Helper()
	path := filepath.Join("..", "..", "..", "shared", "testdata", "gedcom", filepath.FromSlash(rel))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the GEDCOM conformance files must be in shared/ beside the repository clone: %v", err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(strings.TrimRight(line, "\r"), " ", 3)
		if len(f) == 3 && f[1] == "DATE" {
			out = append(out, f[2])
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no DATE lines", path)
	}
	return out
}

var (
	frenchComp = regexp.MustCompile(`FRENCH_R (\d+) COMP (\d+)`)
	hebrewADS  = regexp.MustCompile(`HEBREW (?:\d+ )?ADS (\d+)`)
)

// noSuchDay says, without the package's own arithmetic, whether a value names a day
// its calendar lacks: a complementary day after the fifth (sixth in sextile years III,
// VII, XI, …), or Adar II in a Hebrew year that is not 3rd, 6th, 8th, 11th, 14th, 17th
// or 19th of its 19-year cycle.
func noSuchDay(v string) bool {
	for _, m := range frenchComp.FindAllStringSubmatch(v, -1) {
		d, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		if d > 6 || (d == 6 && y%4 != 3) {
			return true
		}
	}
	for _, m := range hebrewADS.FindAllStringSubmatch(v, -1) {
		y, _ := strconv.Atoi(m[1])
		switch (y-1)%19 + 1 {
		case 3, 6, 8, 11, 14, 17, 19:
		default:
			return true
		}
	}
	return false
}

// TestGEDCOM70DateFile parses every DATE of the official GEDCOM 7 date examples. Each
// one parses, or is refused for a reason the test can confirm on its own: a calendar
// that cannot be placed on the day scale (the _UNKNOWN extension), a day the calendar
// does not have, or a range whose end comes before its start.
func TestGEDCOM70DateFile(t *testing.T) {
	counts := map[string]int{}
	for _, v := range gedcomDates(t, "gedcom70/date.ged") {
		d, err := Parse(v)
		switch {
		case strings.Contains(v, "_UNKNOWN"):
			if !errors.Is(err, ErrCalendar) {
				t.Errorf("%q: got %v, want ErrCalendar", v, err)
			}
			counts["unsupported calendar"]++
		case noSuchDay(v):
			if !errors.Is(err, ErrNoSuchDay) {
				t.Errorf("%q: got %v, want ErrNoSuchDay", v, err)
			}
			counts["no such day"]++
		case err == nil:
			if d.Range.Earliest > d.Range.Latest || d.Stated.Earliest > d.Stated.Latest {
				t.Errorf("%q: empty range %v", v, d.Range)
			}
			// The normal form names no default calendar; otherwise a GEDCOM 7 value
			// comes back as it was.
			if got, want := d.String(), strings.ReplaceAll(v, "GREGORIAN ", ""); got != want {
				t.Errorf("%q: String() = %q, want %q", v, got, want)
			}
			counts["parsed"]++
		case errors.Is(err, ErrReversed):
			// Confirm by parsing the two ends on their own.
			kw, sep := "BET ", " AND "
			if strings.HasPrefix(v, "FROM ") {
				kw, sep = "FROM ", " TO "
			}
			a, b, ok := strings.Cut(strings.TrimPrefix(v, kw), sep)
			first, err1 := Parse(a)
			second, err2 := Parse(b)
			if !ok || err1 != nil || err2 != nil || first.Stated.Earliest <= second.Stated.Latest {
				t.Errorf("%q: ErrReversed, but its ends are %v (%v) and %v (%v)", v, first.Stated, err1, second.Stated, err2)
			}
			counts["reversed"]++
		default:
			t.Errorf("%q: unexpected error %v", v, err)
		}
	}
	t.Logf("gedcom70/date.ged: %v", counts)
	if counts["parsed"] < 400 {
		t.Errorf("only %d values parsed", counts["parsed"])
	}
}

// A few values of date.ged checked to the day.
func TestGEDCOM70DateFileValues(t *testing.T) {
	g, j := GregorianToJDN, JulianToJDN
	tests := []struct {
		text string
		want Range
	}{
		{"12 AUG 1401 BCE", Range{g(-1400, 8, 12), g(-1400, 8, 12)}},
		{"JULIAN 12 AUG 1401", Range{j(1401, 8, 12), j(1401, 8, 12)}},
		{"JULIAN OCT 1401 BCE", Range{j(-1400, 10, 1), j(-1400, 10, 31)}},
		{"HEBREW 26 TVT 27", Range{hebrewToJDN(27, 4, 26), hebrewToJDN(27, 4, 26)}},
		{"FRENCH_R VEND 33", Range{frenchToJDN(33, 1, 1), frenchToJDN(33, 1, 30)}},
		{"BET 12 OCT 1950 BCE AND 22 JAN 92", Range{g(-1949, 10, 12), g(92, 1, 22)}},
		{"FROM JULIAN 30 JUN 730 BCE", Range{j(-729, 6, 30), AddYears(j(-729, 6, 30), OpenEndedYears)}},
	}
	for _, tt := range tests {
		d, err := Parse(tt.text)
		if err != nil || d.Range != tt.want {
			t.Errorf("%q: got %v %v, want %v", tt.text, d.Range, err, tt.want)
		}
	}
}

// TestGEDCOM551DualDates parses the valid dual dates of the GEDCOM 5.5.1 conversion
// tests; the companion file of invalid dual dates must all be refused.
func TestGEDCOM551DualDates(t *testing.T) {
	for _, v := range gedcomDates(t, "pairs/5/date-dual-valid.ged") {
		d, err := Parse(v)
		if err != nil {
			t.Errorf("%q: %v", v, err)
			continue
		}
		y, _, _ := JDNToGregorian(d.Stated.Earliest)
		if y != 1700 {
			t.Errorf("%q starts in %d, want New Style 1700", v, y)
		}
	}
	for _, v := range gedcomDates(t, "pairs/5/date-dual-invalid.ged") {
		if _, err := Parse(v); !errors.Is(err, ErrDualYear) {
			t.Errorf("%q: got %v, want ErrDualYear", v, err)
		}
	}
}
