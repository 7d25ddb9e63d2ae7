package gendate

import (
	"errors"
	"fmt"
	"testing"
)

// day formats a day number as a Gregorian date, so failures read as dates.
func day(j int) string {
	y, m, d := JDNToGregorian(j)
	if y < 0 {
		return fmt.Sprintf("-%04d-%02d-%02d", -y, m, d)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

func span(r Range) string { return day(r.Earliest) + ".." + day(r.Latest) }

func TestParse(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		kind   Kind
		stated string // Gregorian first..last day
		rng    string // "" when equal to stated
		want   string // String(); "" when equal to text
	}{
		// Exact dates, to the day, month and year.
		{"GEDCOM day", "12 MAR 1850", Exact, "1850-03-12..1850-03-12", "", ""},
		{"month name in full", "12 March 1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"lower case", "12 mar 1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"ordinal day", "12th March 1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"ordinal day with of", "the 1st of May, 1850", Exact, "1850-05-01..1850-05-01", "", "1 MAY 1850"},
		{"month first with comma", "March 12, 1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"abbreviation with full stop", "12 Mar. 1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"hyphenated words", "12-Mar-1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"ISO", "1850-03-12", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"ISO month", "1850-03", Exact, "1850-03-01..1850-03-31", "", "MAR 1850"},
		{"British day first", "12/03/1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"day first is never month first", "03/12/1850", Exact, "1850-12-03..1850-12-03", "", "3 DEC 1850"},
		{"dotted day first", "12.03.1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"hyphenated day first", "12-03-1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"numeric month and year", "3/1850", Exact, "1850-03-01..1850-03-31", "", "MAR 1850"},
		{"month and year", "MAR 1850", Exact, "1850-03-01..1850-03-31", "", ""},
		{"February of a leap year", "FEB 1852", Exact, "1852-02-01..1852-02-29", "", ""},
		{"February 1900 is not leap", "FEB 1900", Exact, "1900-02-01..1900-02-28", "", ""},
		{"year", "1850", Exact, "1850-01-01..1850-12-31", "", ""},
		{"short GEDCOM year", "12 MAR 50", Exact, "0050-03-12..0050-03-12", "", ""},
		{"register abbreviation", "3 Feby 1760", Exact, "1760-02-03..1760-02-03", "", "3 FEB 1760"},
		{"7ber is September", "9 7ber 1701", Exact, "1701-09-09..1701-09-09", "", "9 SEP 1701"},
		{"Xber is December", "25 Xber 1701", Exact, "1701-12-25..1701-12-25", "", "25 DEC 1701"},
		{"Latin month", "12 Martii 1720", Exact, "1720-03-12..1720-03-12", "", "12 MAR 1720"},

		// Approximate dates widen by their tolerance.
		{"ABT", "ABT 1850", About, "1850-01-01..1850-12-31", "1848-01-01..1852-12-31", ""},
		{"about in words", "about March 1850", About, "1850-03-01..1850-03-31", "1848-03-01..1852-03-31", "ABT MAR 1850"},
		{"c.", "c. 1850", About, "1850-01-01..1850-12-31", "1848-01-01..1852-12-31", "ABT 1850"},
		{"c joined to the year", "c1850", About, "1850-01-01..1850-12-31", "1848-01-01..1852-12-31", "ABT 1850"},
		{"circa", "circa 1850", About, "1850-01-01..1850-12-31", "1848-01-01..1852-12-31", "ABT 1850"},
		{"CAL", "CAL 12 MAR 1850", Calculated, "1850-03-12..1850-03-12", "1849-03-12..1851-03-12", ""},
		{"EST", "EST 1850", Estimated, "1850-01-01..1850-12-31", "1848-01-01..1852-12-31", ""},

		// Open and closed ranges.
		{"BEF", "BEF 1850", Before, "1850-01-01..1850-12-31", "1750-12-31..1850-12-31", ""},
		{"before in words", "before 12 Mar 1850", Before, "1850-03-12..1850-03-12", "1750-03-12..1850-03-12", "BEF 12 MAR 1850"},
		{"AFT", "AFT 1850", After, "1850-01-01..1850-12-31", "1850-01-01..1950-01-01", ""},
		{"BET AND", "BET 1840 AND 1845", Between, "1840-01-01..1845-12-31", "", ""},
		{"between with ampersand", "between Jan 1840 & Mar 1840", Between, "1840-01-01..1840-03-31", "", "BET JAN 1840 AND MAR 1840"},
		{"BET of one day", "BET 12 MAR 1850 AND 12 MAR 1850", Between, "1850-03-12..1850-03-12", "", ""},
		{"FROM TO", "FROM 1840 TO 1845", Period, "1840-01-01..1845-12-31", "", ""},
		{"FROM", "FROM MAR 1840", From, "1840-03-01..1840-03-31", "1840-03-01..1940-03-01", ""},
		{"TO", "TO 1845", To, "1845-01-01..1845-12-31", "1745-12-31..1845-12-31", ""},

		// Dual dating: the New Style year.
		{"dual year, one digit", "1731/2", Exact, "1732-01-01..1732-03-24", "", "BET 1 JAN 1732 AND 24 MAR 1732"},
		{"dual year, two digits", "11 FEB 1731/32", Exact, "1732-02-11..1732-02-11", "", "11 FEB 1732"},
		{"dual year across a century", "8 JAN 1699/00", Exact, "1700-01-08..1700-01-08", "", "8 JAN 1700"},
		{"dual year in full", "JAN 1699/1700", Exact, "1700-01-01..1700-01-31", "", "JAN 1700"},
		{"dual year on 24 March", "24 MAR 1750/51", Exact, "1751-03-24..1751-03-24", "", "24 MAR 1751"},
		{"ABT dual year", "ABT 1731/2", About, "1732-01-01..1732-03-24", "1730-01-01..1734-03-24", "ABT 1732"},
		{"BEF dual year", "BEF 1731/2", Before, "1732-01-01..1732-03-24", "1632-03-24..1732-03-24", "BEF 24 MAR 1732"},
		{"BET dual years", "BET JAN 1699/00 AND FEB 1699/00", Between, "1700-01-01..1700-02-28", "", "BET JAN 1700 AND FEB 1700"},

		// Registration quarters.
		{"GRO Mar quarter", "Mar Q 1850", Exact, "1850-01-01..1850-03-31", "", "BET JAN 1850 AND MAR 1850"},
		{"Jun QTR", "JUN QTR 1850", Exact, "1850-04-01..1850-06-30", "", "BET APR 1850 AND JUN 1850"},
		{"Sep quarter in words", "Sep quarter 1850", Exact, "1850-07-01..1850-09-30", "", "BET JUL 1850 AND SEP 1850"},
		{"Q4", "Q4 1850", Exact, "1850-10-01..1850-12-31", "", "BET OCT 1850 AND DEC 1850"},
		{"year then quarter", "1850 Q1", Exact, "1850-01-01..1850-03-31", "", "BET JAN 1850 AND MAR 1850"},
		{"BEF a quarter", "BEF Q1 1850", Before, "1850-01-01..1850-03-31", "1750-03-31..1850-03-31", "BEF MAR 1850"},
		{"BET quarters", "BET Q1 1850 AND Q2 1850", Between, "1850-01-01..1850-06-30", "", "BET JAN 1850 AND JUN 1850"},

		// Calendars.
		{"GEDCOM 5.5.1 Julian escape", "@#DJULIAN@ 25 DEC 1700", Exact, "1701-01-05..1701-01-05", "", "JULIAN 25 DEC 1700"},
		{"GEDCOM 7 Julian", "JULIAN 2 SEP 1752", Exact, "1752-09-13..1752-09-13", "", ""},
		{"Julian leap day Gregorian lacks", "JULIAN 29 FEB 1700", Exact, "1700-03-11..1700-03-11", "", ""},
		{"Julian dual date", "JULIAN 11 FEB 1731/32", Exact, "1732-02-22..1732-02-22", "", "JULIAN 11 FEB 1732"},
		{"Gregorian escape", "@#DGREGORIAN@ 12 MAR 1850", Exact, "1850-03-12..1850-03-12", "", "12 MAR 1850"},
		{"Hebrew", "HEBREW 2 TVT 5758", Exact, "1997-12-31..1997-12-31", "", ""},
		{"Hebrew 5.5.1 escape, month", "@#DHEBREW@ NSN 5784", Exact, "2024-04-09..2024-05-08", "", "HEBREW NSN 5784"},
		{"Hebrew year", "HEBREW 5785", Exact, "2024-10-03..2025-09-22", "", ""},
		{"French Republican", "FRENCH_R 18 BRUM 8", Exact, "1799-11-09..1799-11-09", "", ""},
		{"French 5.5.1 escape with its space", "@#DFRENCH R@ 9 THER 2", Exact, "1794-07-27..1794-07-27", "", "FRENCH_R 9 THER 2"},
		{"French complementary days", "FRENCH_R COMP 3", Exact, "1795-09-17..1795-09-22", "", ""},
		{"BCE", "1401 BCE", Exact, "-1400-01-01..-1400-12-31", "", ""},
		{"B.C.", "5 MAY 0005 B.C.", Exact, "-0004-05-05..-0004-05-05", "", "5 MAY 5 BCE"},
		{"BC Julian", "JULIAN 44 BC", Exact, "-0044-12-30..-0043-12-29", "", "JULIAN 44 BCE"},
		{"AD is ignored", "1066 AD", Exact, "1066-01-01..1066-12-31", "", "1066"},

		// Phrases.
		{"INT with phrase", "INT 1995 (from estimated age)", Interpreted, "1995-01-01..1995-12-31", "", "1995"},
		{"INT Hebrew", "INT @#DHEBREW@ 2 TVT 5758 (interpreted Hebrew date)", Interpreted, "1997-12-31..1997-12-31", "", "HEBREW 2 TVT 5758"},
		{"date with a note", "ABT 1850 (family bible)", About, "1850-01-01..1850-12-31", "1848-01-01..1852-12-31", "ABT 1850"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse(tt.text)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.text, err)
			}
			if d.Text != tt.text {
				t.Errorf("Text = %q", d.Text)
			}
			if d.Kind != tt.kind {
				t.Errorf("Kind = %v, want %v", d.Kind, tt.kind)
			}
			if got := span(d.Stated); got != tt.stated {
				t.Errorf("Stated = %s, want %s", got, tt.stated)
			}
			wantRange := tt.rng
			if wantRange == "" {
				wantRange = tt.stated
			}
			if got := span(d.Range); got != wantRange {
				t.Errorf("Range = %s, want %s", got, wantRange)
			}
			want := tt.want
			if want == "" {
				want = tt.text
			}
			if got := d.String(); got != want {
				t.Errorf("String() = %q, want %q", got, want)
			}
			// The GEDCOM 7 form reads back to the same form, covering at least as much.
			back, err := Parse(d.String())
			if err != nil {
				t.Fatalf("Parse(String()) = %v", err)
			}
			if back.String() != d.String() {
				t.Errorf("String() is not stable: %q then %q", d.String(), back.String())
			}
			if back.Range.Earliest > d.Range.Earliest || back.Range.Latest < d.Range.Latest {
				t.Errorf("String() %q covers %s, less than %s", d.String(), span(back.Range), span(d.Range))
			}
		})
	}
}

func TestParseWithoutRange(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		kind   Kind
		phrase string
	}{
		{"empty", "", Empty, ""},
		{"blank", "   ", Empty, ""},
		{"phrase", "(Stillborn)", Phrase, "Stillborn"},
		{"phrase with spaces", "( in the reign of Queen Anne )", Phrase, "in the reign of Queen Anne"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if d.Kind != tt.kind || d.Phrase != tt.phrase || d.HasRange() || d.String() != "" {
				t.Errorf("got kind %v phrase %q HasRange %v String %q", d.Kind, d.Phrase, d.HasRange(), d.String())
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want error
	}{
		{"words", "sometime in spring", ErrSyntax},
		{"unknown month", "12 Smarch 1850", ErrSyntax},
		{"month without year", "MAR", ErrSyntax},
		{"day and year", "12 1850", ErrSyntax},
		{"too many words", "12 MAR 1850 1851", ErrSyntax},
		{"keyword alone", "ABT", ErrSyntax},
		{"BET without AND", "BET 1840 1845", ErrSyntax},
		{"AND without second date", "BET 1840 AND", ErrSyntax},
		{"two-digit numeric year", "12/03/50", ErrSyntax},
		{"ambiguous numeric", "12/03", ErrSyntax},
		{"mixed separators", "12/03-1850", ErrSyntax},
		{"unclosed phrase", "INT 1850 (from age", ErrSyntax},
		{"text after phrase", "(phrase) 1850", ErrSyntax},
		{"stray parenthesis", "1850)", ErrSyntax},
		{"quarter not a quarter month", "Apr Q 1850", ErrSyntax},
		{"Q5", "Q5 1850", ErrSyntax},
		{"BCE Hebrew", "HEBREW 100 BCE", ErrSyntax},
		{"five-digit year", "12345", ErrSyntax},
		{"Hebrew month without its calendar", "2 TVT 5758", ErrSyntax},
		{"30 February", "30 FEB 1850", ErrNoSuchDay},
		{"29 February of a common year", "29 FEB 1850", ErrNoSuchDay},
		{"29 February 1700 Gregorian", "29 FEB 1700", ErrNoSuchDay},
		{"day 32", "32 JAN 1850", ErrSyntax},
		{"month 13", "12/13/1850", ErrNoSuchDay},
		{"day 0", "00/03/1850", ErrNoSuchDay},
		{"year 0", "0", ErrNoSuchDay},
		{"year 0 BCE", "0 BCE", ErrNoSuchDay},
		{"Adar II in a common year", "HEBREW 1 ADS 5785", ErrNoSuchDay},
		{"7th complementary day", "FRENCH_R 7 COMP 3", ErrNoSuchDay},
		{"6th complementary day in a common year", "FRENCH_R 6 COMP 2", ErrNoSuchDay},
		{"31 Cheshvan", "HEBREW 31 CSH 5785", ErrNoSuchDay},
		{"Roman calendar", "@#DROMAN@ 28", ErrCalendar},
		{"unknown calendar escape", "@#DUNKNOWN@ 1850", ErrCalendar},
		{"GEDCOM 7 extension calendar", "_UNKNOWN 13 _MONTH 17", ErrCalendar},
		{"extension calendar inside BET", "BET 1850 AND _MAYAN 9", ErrCalendar},
		{"reversed BET", "BET 1850 AND 1840", ErrReversed},
		{"reversed FROM TO", "FROM 12 MAR 1850 TO 11 MAR 1850", ErrReversed},
		{"dual year not the next year", "1731/3", ErrDualYear},
		{"dual year going backwards", "1701/99", ErrDualYear},
		{"dual year in October", "27 OCT 1699/00", ErrDualYear},
		{"dual year on 25 March", "25 MAR 1731/32", ErrDualYear},
		{"dual year BCE", "1731/2 BCE", ErrDualYear},
		{"dual year Hebrew", "HEBREW 5731/2", ErrDualYear},
		{"dual year quarter", "Mar Q 1731/2", ErrDualYear},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse(tt.text)
			if err == nil {
				t.Fatalf("Parse(%q) = %v %s, want an error", tt.text, d.Kind, span(d.Range))
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Text != tt.text {
				t.Errorf("error %#v is not a *ParseError for the text", err)
			}
			if d.Kind != Invalid || d.Text != tt.text || d.HasRange() || d.String() != "" {
				t.Errorf("the invalid date lost its text or claims a range: %+v", d)
			}
		})
	}
}
