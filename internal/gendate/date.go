package gendate

import (
	"strconv"
	"strings"
)

// Calendar is the calendar a date is written in.
type Calendar uint8

const (
	Gregorian Calendar = iota // the default, proleptic before 1582 (as GEDCOM 7 says)
	Julian
	Hebrew
	FrenchRepublican
)

func (c Calendar) String() string {
	switch c {
	case Julian:
		return "JULIAN"
	case Hebrew:
		return "HEBREW"
	case FrenchRepublican:
		return "FRENCH_R"
	}
	return "GREGORIAN"
}

// Kind says what a date's text claims about when the event happened.
type Kind uint8

const (
	Empty       Kind = iota // no date at all (empty text): HasRange is false
	Exact                   // one date, to the day, month, quarter or year
	About                   // ABT: near the date
	Calculated              // CAL: worked out from other facts (an age, say)
	Estimated               // EST: guessed from the context
	Before                  // BEF: no later than the date
	After                   // AFT: no earlier than the date
	Between                 // BET … AND …: some time in the range
	Period                  // FROM … TO …: a state that lasted the whole range
	From                    // FROM …: a state that began then
	To                      // TO …: a state that ended then
	Interpreted             // INT … (phrase): a date read from the phrase
	Phrase                  // (phrase) alone: text only, HasRange is false
	Invalid                 // text that is not a date: Parse reported why
)

var kindNames = [...]string{"empty", "exact", "about", "calculated", "estimated", "before",
	"after", "between", "period", "from", "to", "interpreted", "phrase", "invalid"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Tolerances, in years, by which Range widens an approximate date, and the horizon
// given to the open side of BEF, AFT, FROM and TO. Search filters on Range, so these
// decide which records a year search can find: ABT 1850 is found by a search for
// 1848–1852, BEF 1850 by one for any year from 1750 to 1850. The search engine can
// rank by Kind (an exact date beats an approximate one) without losing the record.
const (
	AboutYears      = 2
	CalculatedYears = 1
	EstimatedYears  = 2
	OpenEndedYears  = 100
)

// Range is an inclusive span of day numbers (Julian Day Numbers; see GregorianToJDN).
type Range struct {
	Earliest, Latest int
}

// Contains reports whether day lies in r.
func (r Range) Contains(day int) bool { return r.Earliest <= day && day <= r.Latest }

// Overlaps reports whether r and o share at least one day.
func (r Range) Overlaps(o Range) bool { return r.Earliest <= o.Latest && o.Earliest <= r.Latest }

// Years returns the span of whole Gregorian years from..to (astronomical years), for a
// search by year: Years(1848, 1852) for "1850 ± 2".
func Years(from, to int) Range {
	return Range{GregorianToJDN(from, 1, 1), GregorianToJDN(to, 12, 31)}
}

// Point is one calendar date as written, to whatever precision the text gave.
type Point struct {
	Calendar Calendar
	// Year as written, counted from 1 in its calendar's era; BCE marks years before
	// Christ (Gregorian and Julian only). For a dual date (1731/32) it is the later,
	// New Style year.
	Year    int
	BCE     bool
	Month   int  // 1–12, or 1–13 for the Hebrew and French calendars; 0 if not given
	Day     int  // 0 if not given
	Quarter int  // 1–4 for a registration quarter (Mar Q = 1: January–March); 0 if none
	Dual    bool // written with a dual year, Old Style/New Style
}

func (p Point) astronomicalYear() int {
	if p.BCE {
		return 1 - p.Year
	}
	return p.Year
}

// span returns the first and last day the point can mean.
func (p Point) span() (first, last int, err error) {
	y := p.astronomicalYear()
	switch p.Calendar {
	case Gregorian, Julian:
		toJDN := GregorianToJDN
		if p.Calendar == Julian {
			toJDN = JulianToJDN
		}
		switch {
		case p.Day > 0:
			if p.Month < 1 || p.Month > 12 || p.Day > daysInMonth(p.Calendar, y, p.Month) {
				return 0, 0, ErrNoSuchDay
			}
			j := toJDN(y, p.Month, p.Day)
			return j, j, nil
		case p.Quarter > 0:
			return toJDN(y, 3*p.Quarter-2, 1), toJDN(y, 3*p.Quarter, daysInMonth(p.Calendar, y, 3*p.Quarter)), nil
		case p.Month > 0:
			if p.Month > 12 {
				return 0, 0, ErrNoSuchDay
			}
			return toJDN(y, p.Month, 1), toJDN(y, p.Month, daysInMonth(p.Calendar, y, p.Month)), nil
		case p.Dual:
			// Only 1 January – 24 March carried two years: 25 March was New Year's Day.
			return toJDN(y, 1, 1), toJDN(y, 3, 24), nil
		}
		return toJDN(y, 1, 1), toJDN(y, 12, 31), nil
	case Hebrew, FrenchRepublican:
		toJDN, monthLength := hebrewToJDN, hebrewMonthLength
		if p.Calendar == FrenchRepublican {
			toJDN, monthLength = frenchToJDN, frenchMonthLength
		}
		if p.Month > 0 {
			n := monthLength(y, p.Month) // 0: a month the year lacks (Adar II outside a leap year)
			if n == 0 || p.Day > n {
				return 0, 0, ErrNoSuchDay
			}
			if p.Day > 0 {
				j := toJDN(y, p.Month, p.Day)
				return j, j, nil
			}
			j := toJDN(y, p.Month, 1)
			return j, j + n - 1, nil
		}
		return toJDN(y, 1, 1), toJDN(y+1, 1, 1) - 1, nil
	}
	return 0, 0, ErrCalendar
}

// Date is a parsed genealogical date: what the text said, and the days it can mean.
type Date struct {
	Text string // the original text, always kept
	Kind Kind
	// Start is the date of every kind with a single date, and the first date of
	// Between and Period; End is the second date of Between and Period, and the date
	// of To.
	Start, End Point
	Phrase     string // the text of a "(phrase)", without the parentheses
	// Stated is the span the written date(s) cover: for ABT 1850 the year 1850, for
	// BEF 1850 also the year 1850, for BET 1840 AND 1845 all six years.
	Stated Range
	// Range is the span a search should treat as possible: Stated widened by the
	// tolerances for approximate dates and by OpenEndedYears on an open side.
	Range Range
}

// HasRange reports whether the date has day numbers (false for empty, phrase-only and
// invalid dates).
func (d Date) HasRange() bool {
	return d.Kind != Empty && d.Kind != Phrase && d.Kind != Invalid
}

// Approximate reports whether the date is ABT, CAL or EST.
func (d Date) Approximate() bool {
	return d.Kind == About || d.Kind == Calculated || d.Kind == Estimated
}

// Open reports whether the date is bounded on one side only (BEF, AFT, FROM, TO).
func (d Date) Open() bool {
	return d.Kind == Before || d.Kind == After || d.Kind == From || d.Kind == To
}

// String returns the date as a GEDCOM 7 DateValue: keywords and month codes in upper
// case, the calendar named only when it is not Gregorian, dual years written as their
// New Style year. Forms GEDCOM 7 has no words for become the nearest form that covers
// them: a quarter "Mar Q 1850" is "BET JAN 1850 AND MAR 1850", and a bare dual year
// "1731/2" is "BET 1 JAN 1732 AND 24 MAR 1732" (ABT 1731/2 becomes ABT 1732). The
// phrase is not part of a DateValue (GEDCOM 7 gives it its own PHRASE line): see
// Phrase. Empty, phrase-only and invalid dates give "".
func (d Date) String() string {
	switch d.Kind {
	case Exact:
		if d.Start.isUnit() {
			return d.Start.unitText()
		}
		return "BET " + d.Start.startText() + " AND " + d.Start.endText()
	case About:
		return "ABT " + d.Start.approxText()
	case Calculated:
		return "CAL " + d.Start.approxText()
	case Estimated:
		return "EST " + d.Start.approxText()
	case Interpreted:
		return d.Start.approxText()
	case Before:
		return "BEF " + d.Start.endText()
	case After:
		return "AFT " + d.Start.startText()
	case Between:
		return "BET " + d.Start.startText() + " AND " + d.End.endText()
	case Period:
		return "FROM " + d.Start.startText() + " TO " + d.End.endText()
	case From:
		return "FROM " + d.Start.startText()
	case To:
		return "TO " + d.End.endText()
	}
	return ""
}

var gedcomMonths = map[Calendar][]string{
	Gregorian:        {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"},
	Julian:           {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"},
	Hebrew:           {"TSH", "CSH", "KSL", "TVT", "SHV", "ADR", "ADS", "NSN", "IYR", "SVN", "TMZ", "AAV", "ELL"},
	FrenchRepublican: {"VEND", "BRUM", "FRIM", "NIVO", "PLUV", "VENT", "GERM", "FLOR", "PRAI", "MESS", "THER", "FRUC", "COMP"},
}

// isUnit reports whether GEDCOM 7 can write the point as one date.
func (p Point) isUnit() bool {
	return p.Quarter == 0 && !(p.Dual && p.Month == 0)
}

func (p Point) format(day, month int) string {
	var b strings.Builder
	if p.Calendar != Gregorian {
		b.WriteString(p.Calendar.String())
		b.WriteByte(' ')
	}
	if day > 0 {
		b.WriteString(strconv.Itoa(day))
		b.WriteByte(' ')
	}
	if month > 0 {
		b.WriteString(gedcomMonths[p.Calendar][month-1])
		b.WriteByte(' ')
	}
	b.WriteString(strconv.Itoa(p.Year))
	if p.BCE {
		b.WriteString(" BCE")
	}
	return b.String()
}

func (p Point) unitText() string { return p.format(p.Day, p.Month) }

func (p Point) approxText() string {
	if p.isUnit() {
		return p.unitText()
	}
	return p.format(0, 0)
}

func (p Point) startText() string {
	switch {
	case p.Quarter > 0:
		return p.format(0, 3*p.Quarter-2)
	case p.Dual && p.Month == 0:
		return p.format(1, 1)
	}
	return p.unitText()
}

func (p Point) endText() string {
	switch {
	case p.Quarter > 0:
		return p.format(0, 3*p.Quarter)
	case p.Dual && p.Month == 0:
		return p.format(24, 3)
	}
	return p.unitText()
}
