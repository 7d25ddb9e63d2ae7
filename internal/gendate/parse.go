package gendate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The reasons Parse gives for text it will not turn into days. Test with errors.Is.
var (
	ErrSyntax    = errors.New("not a date")
	ErrNoSuchDay = errors.New("no such day")
	ErrCalendar  = errors.New("unsupported calendar")
	ErrReversed  = errors.New("range ends before it starts")
	ErrDualYear  = errors.New("impossible dual year")
)

// ParseError is the error Parse returns: the text, what is wrong with it, and one of
// the Err values above.
type ParseError struct {
	Text   string
	Reason string
	Err    error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("gendate: %q: %s", e.Text, e.Reason)
}

func (e *ParseError) Unwrap() error { return e.Err }

// MaxYear is the largest year Parse accepts in any calendar.
const MaxYear = 9999

// Parse reads a genealogical date. It accepts GEDCOM 5.5.1 and 7 date values and the
// forms people type and transcribe:
//
//   - exact dates: 12 MAR 1850, 12 March 1850, 12th March 1850, March 12, 1850,
//     1850-03-12 (ISO), 12/03/1850, 12.03.1850 and 12-03-1850 (always day first, the
//     British order), MAR 1850, 3/1850, 1850-03, 1850; register abbreviations (Jany,
//     Feby, 7ber, Xber) and Latin month names (Martii, Decembris);
//   - approximate dates: ABT, ABOUT, C, CA, CIRCA; CAL; EST;
//   - open and closed ranges: BEF, BEFORE, AFT, AFTER, BET … AND … (or &), FROM … TO …,
//     FROM …, TO …;
//   - dual years: 1731/2, 1731/32, 11 FEB 1731/32, all meaning New Style 1732; a dual
//     year is only possible from 1 January to 24 March;
//   - registration quarters: Mar Q 1850, MAR QTR 1850, Q1 1850, 1850 Q1 (the GRO's
//     Mar quarter is January–March);
//   - calendars: @#DGREGORIAN@, @#DJULIAN@, @#DHEBREW@, @#DFRENCH R@ (GEDCOM 5.5.1) and
//     GREGORIAN, JULIAN, HEBREW, FRENCH_R (GEDCOM 7), each converted to day numbers;
//   - BCE, BC, B.C. after the year (Gregorian and Julian);
//   - INT date (phrase), a (phrase) alone, and a (phrase) after any date.
//
// Keywords and month names are case-insensitive. A day-first numeric date is never
// read month first: 03/12/1850 is 3 December. Text that is not one of these forms is
// not guessed at: Parse returns a Date of Kind Invalid holding the text, and a
// *ParseError saying why. Empty text is a Date of Kind Empty and no error.
func Parse(text string) (Date, error) {
	d := Date{Text: text}
	if err := d.parse(); err != nil {
		d = Date{Text: text, Kind: Invalid}
		return d, err
	}
	return d, nil
}

func (d *Date) fail(err error, format string, args ...any) error {
	return &ParseError{Text: d.Text, Reason: fmt.Sprintf(format, args...), Err: err}
}

func (d *Date) parse() error {
	s := strings.TrimSpace(d.Text)
	if s == "" {
		d.Kind = Empty
		return nil
	}
	if i := strings.IndexByte(s, '('); i >= 0 {
		j := strings.LastIndexByte(s, ')')
		if j < i {
			return d.fail(ErrSyntax, "an opening parenthesis without its closing one")
		}
		if strings.TrimSpace(s[j+1:]) != "" {
			return d.fail(ErrSyntax, "text after the closing parenthesis")
		}
		d.Phrase = strings.TrimSpace(s[i+1 : j])
		s = strings.TrimSpace(s[:i])
		if s == "" {
			d.Kind = Phrase
			return nil
		}
	} else if strings.IndexByte(s, ')') >= 0 {
		return d.fail(ErrSyntax, "a closing parenthesis without its opening one")
	}
	toks := tokenize(s)
	if len(toks) == 0 {
		return d.fail(ErrSyntax, "no date in it")
	}
	kind, rest := Exact, toks
	if k, ok := keywords[toks[0]]; ok {
		kind, rest = k, toks[1:]
	}
	d.Kind = kind
	var err error
	switch kind {
	case Between, From:
		sep := "AND"
		if kind == From {
			sep = "TO"
		}
		i := indexToken(rest, sep)
		if kind == Between && i < 0 {
			i = indexToken(rest, "&")
		}
		if i < 0 {
			if kind == Between {
				return d.fail(ErrSyntax, "BET without AND")
			}
			d.Start, err = d.point(rest)
			break
		}
		if kind == From {
			d.Kind = Period
		}
		if d.Start, err = d.point(rest[:i]); err != nil {
			return err
		}
		d.End, err = d.point(rest[i+1:])
	case To:
		d.End, err = d.point(rest)
	default:
		// INT without its phrase still means the date it gives; a phrase after any
		// other date is a note and the date stands.
		d.Start, err = d.point(rest)
	}
	if err != nil {
		return err
	}
	return d.compute()
}

// keywords maps the first word of a date to its kind.
var keywords = map[string]Kind{
	"INT": Interpreted, "INTERPRETED": Interpreted,
	"ABT": About, "ABOUT": About, "C": About, "CA": About, "CIRCA": About, "CIR": About,
	"APPROX": About, "APPROXIMATELY": About,
	"CAL": Calculated, "CALC": Calculated, "CALCULATED": Calculated,
	"EST": Estimated, "ESTD": Estimated, "ESTIMATED": Estimated,
	"BEF": Before, "BEFORE": Before,
	"AFT": After, "AFTER": After,
	"BET": Between, "BETWEEN": Between, "BTW": Between,
	"FROM": From,
	"TO":   To,
}

func indexToken(toks []string, t string) int {
	for i, x := range toks {
		if x == t {
			return i
		}
	}
	return -1
}

// tokenize splits a date into upper-case words. Commas separate words; full stops end
// abbreviations (ABT., Mar., B.C.) and are dropped, except inside numeric dates
// (12.03.1850); hyphens separate words that have letters (12-Mar-1850) but stay in
// numeric dates (1850-03-12). "c1850" and "c.1850" become "C 1850".
func tokenize(s string) []string {
	s = strings.ToUpper(s)
	s = strings.ReplaceAll(s, "@#DFRENCH R@", "@#DFRENCH_R@")
	s = strings.ReplaceAll(s, ",", " ")
	var out []string
	for _, f := range strings.Fields(s) {
		if isNumeric(f) {
			out = append(out, strings.TrimRight(f, "."))
			continue
		}
		f = strings.ReplaceAll(f, ".", " ")
		for _, g := range strings.Fields(strings.ReplaceAll(f, "-", " ")) {
			out = append(out, splitCirca(g)...)
		}
	}
	// "B C" (from "B. C.") is BC.
	for i := 0; i+1 < len(out); i++ {
		if out[i] == "B" && (out[i+1] == "C" || out[i+1] == "CE") {
			out[i] = "B" + out[i+1]
			out = append(out[:i+1], out[i+2:]...)
		}
	}
	return out
}

func isNumeric(f string) bool {
	digits := false
	for i := 0; i < len(f); i++ {
		switch c := f[i]; {
		case c >= '0' && c <= '9':
			digits = true
		case c == '.' || c == '-' || c == '/':
		default:
			return false
		}
	}
	return digits
}

func splitCirca(g string) []string {
	for _, p := range []string{"CA", "C"} {
		if len(g) > len(p) && strings.HasPrefix(g, p) && isDigits(g[len(p):]) {
			return []string{p, g[len(p):]}
		}
	}
	return []string{g}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// calendars maps the calendar escapes of GEDCOM 5.5.1 and the calendar names of
// GEDCOM 7 to calendars; known calendars we cannot convert are listed as unsupported.
var calendars = map[string]Calendar{
	"@#DGREGORIAN@": Gregorian, "GREGORIAN": Gregorian,
	"@#DJULIAN@": Julian, "JULIAN": Julian,
	"@#DHEBREW@": Hebrew, "HEBREW": Hebrew,
	"@#DFRENCH_R@": FrenchRepublican, "FRENCH_R": FrenchRepublican,
}

// monthWords maps month names of the Gregorian and Julian calendars: GEDCOM codes,
// English names and abbreviations as clerks wrote them, and the Latin genitive forms
// of Latin registers.
var monthWords = func() map[string]int {
	names := [12][]string{
		{"JAN", "JANUARY", "JANY", "JANRY", "JANUARII", "IANUARII", "JANUARIUS"},
		{"FEB", "FEBRUARY", "FEBY", "FEBRY", "FEBRUARII", "FEBRUARIUS"},
		{"MAR", "MARCH", "MARTII", "MARTIUS"},
		{"APR", "APRIL", "APL", "APRIL", "APRILIS"},
		{"MAY", "MAII", "MAIUS"},
		{"JUN", "JUNE", "JUNII", "IUNII", "JUNIUS"},
		{"JUL", "JULY", "JULII", "IULII", "JULIUS"},
		{"AUG", "AUGUST", "AUGT", "AUGUSTI", "AUGUSTUS"},
		{"SEP", "SEPT", "SEPTEMBER", "SEPR", "SEPTR", "7BER", "7BRIS", "SEPTEMBRIS"},
		{"OCT", "OCTOBER", "OCTR", "8BER", "8BRIS", "OCTOBRIS"},
		{"NOV", "NOVEMBER", "NOVR", "9BER", "9BRIS", "NOVEMBRIS"},
		{"DEC", "DECEMBER", "DECR", "10BER", "XBER", "XBRIS", "10BRIS", "DECEMBRIS"},
	}
	m := map[string]int{}
	for i, ns := range names {
		for _, n := range ns {
			m[n] = i + 1
		}
	}
	return m
}()

func monthOf(c Calendar, w string) int {
	switch c {
	case Gregorian, Julian:
		return monthWords[w]
	}
	for i, n := range gedcomMonths[c] {
		if n == w {
			return i + 1
		}
	}
	return 0
}

var quarterWords = map[string]bool{"Q": true, "QR": true, "QTR": true, "QUARTER": true}

// point reads one calendar date from its words.
func (d *Date) point(toks []string) (Point, error) {
	var p Point
	if len(toks) == 0 {
		return p, d.fail(ErrSyntax, "a date is missing")
	}
	if c, ok := calendars[toks[0]]; ok {
		p.Calendar, toks = c, toks[1:]
	} else if strings.HasPrefix(toks[0], "@#D") || strings.HasPrefix(toks[0], "_") ||
		toks[0] == "ROMAN" || toks[0] == "UNKNOWN" {
		return p, d.fail(ErrCalendar, "the calendar %s cannot be converted to days", toks[0])
	}
	if n := len(toks); n > 0 {
		switch toks[n-1] {
		case "BC", "BCE":
			if p.Calendar != Gregorian && p.Calendar != Julian {
				return p, d.fail(ErrSyntax, "BCE in the %s calendar", p.Calendar)
			}
			p.BCE, toks = true, toks[:n-1]
		case "AD", "CE":
			toks = toks[:n-1]
		}
	}
	// "12th of March": drop the filler words.
	var words []string
	for _, t := range toks {
		if t != "OF" && t != "THE" {
			words = append(words, t)
		}
	}
	toks = words
	bad := func() (Point, error) {
		return p, d.fail(ErrSyntax, "%q is not a date", strings.Join(toks, " "))
	}
	yearAt := func(i int) error { return d.year(&p, toks[i]) }
	western := p.Calendar == Gregorian || p.Calendar == Julian
	switch len(toks) {
	case 1:
		t := toks[0]
		if isDigits(t) || isDualYear(t) {
			if err := yearAt(0); err != nil {
				return p, err
			}
		} else if isNumeric(t) && western && !p.BCE {
			if err := d.numeric(&p, t); err != nil {
				return p, err
			}
		} else {
			return bad()
		}
	case 2:
		switch {
		case monthOf(p.Calendar, toks[0]) > 0:
			p.Month = monthOf(p.Calendar, toks[0])
			if err := yearAt(1); err != nil {
				return p, err
			}
		case western && quarterOf(toks[0]) > 0:
			p.Quarter = quarterOf(toks[0])
			if err := yearAt(1); err != nil {
				return p, err
			}
		case western && quarterOf(toks[1]) > 0:
			p.Quarter = quarterOf(toks[1])
			if err := yearAt(0); err != nil {
				return p, err
			}
		default:
			return bad()
		}
	case 3:
		switch {
		case dayOf(toks[0]) > 0 && monthOf(p.Calendar, toks[1]) > 0:
			p.Day, p.Month = dayOf(toks[0]), monthOf(p.Calendar, toks[1])
		case western && monthOf(p.Calendar, toks[0]) > 0 && dayOf(toks[1]) > 0:
			p.Month, p.Day = monthOf(p.Calendar, toks[0]), dayOf(toks[1])
		case western && quarterWords[toks[1]] && gedcomQuarter(toks[0]) > 0:
			p.Quarter = gedcomQuarter(toks[0])
		default:
			return bad()
		}
		if err := yearAt(2); err != nil {
			return p, err
		}
	default:
		return bad()
	}
	if p.Dual && (p.Quarter > 0 || p.Month > 3 || (p.Month == 3 && p.Day > 24)) {
		return p, d.fail(ErrDualYear, "a dual year only belongs to dates from 1 January to 24 March")
	}
	if p.Quarter > 0 && p.BCE {
		return p, d.fail(ErrSyntax, "a registration quarter before Christ")
	}
	return p, nil
}

// quarterOf reads Q1–Q4.
func quarterOf(t string) int {
	if len(t) == 2 && t[0] == 'Q' && t[1] >= '1' && t[1] <= '4' {
		return int(t[1] - '0')
	}
	return 0
}

// gedcomQuarter reads the month that names a GRO quarter: Mar, Jun, Sep, Dec.
func gedcomQuarter(t string) int {
	switch monthWords[t] {
	case 3:
		return 1
	case 6:
		return 2
	case 9:
		return 3
	case 12:
		return 4
	}
	return 0
}

// dayOf reads a day of the month: 1–31 with an optional ordinal suffix (1st, 22nd).
func dayOf(t string) int {
	for _, suf := range []string{"ST", "ND", "RD", "TH"} {
		if strings.HasSuffix(t, suf) {
			t = t[:len(t)-2]
			break
		}
	}
	if !isDigits(t) || len(t) > 2 {
		return 0
	}
	n, _ := strconv.Atoi(t)
	if n < 1 || n > 31 {
		return 0
	}
	return n
}

func isDualYear(t string) bool {
	i := strings.IndexByte(t, '/')
	return i >= 3 && isDigits(t[:i]) && isDigits(t[i+1:]) && len(t)-i-1 <= 4
}

// year reads a year, or a dual year Y/y where y is the following year written in full
// or by its last one to four digits (1731/2, 1731/32, 1699/00, 1699/1700).
func (d *Date) year(p *Point, t string) error {
	second := ""
	if i := strings.IndexByte(t, '/'); i >= 0 {
		t, second = t[:i], t[i+1:]
	}
	if !isDigits(t) || len(t) > 4 {
		return d.fail(ErrSyntax, "%q is not a year", t)
	}
	y, _ := strconv.Atoi(t)
	if y < 1 || y > MaxYear {
		return d.fail(ErrNoSuchDay, "no year %d", y)
	}
	p.Year = y
	if second != "" {
		if p.BCE || (p.Calendar != Gregorian && p.Calendar != Julian) {
			return d.fail(ErrDualYear, "a dual year outside the Julian and Gregorian calendars")
		}
		if !isDigits(second) || len(second) > 4 {
			return d.fail(ErrDualYear, "%q is not the year after %d", second, y)
		}
		n, _ := strconv.Atoi(second)
		mod := 1
		for range len(second) {
			mod *= 10
		}
		if (y+1)%mod != n {
			return d.fail(ErrDualYear, "%d/%s: the second year must be the one after the first", y, second)
		}
		p.Year, p.Dual = y+1, true
	}
	return nil
}

// numeric reads the all-digit forms: ISO 1850-03-12 and 1850-03, day-first
// 12/03/1850, 12.03.1850 and 12-03-1850, month and year 3/1850, and year-first
// 1850/03/12.
func (d *Date) numeric(p *Point, t string) error {
	var parts []string
	var sep byte
	for _, c := range []byte{'-', '/', '.'} {
		if strings.IndexByte(t, c) >= 0 {
			if sep != 0 {
				return d.fail(ErrSyntax, "%q mixes separators", t)
			}
			sep = c
		}
	}
	parts = strings.Split(t, string(sep))
	for _, x := range parts {
		if !isDigits(x) {
			return d.fail(ErrSyntax, "%q is not a date", t)
		}
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch {
	case len(parts) == 3 && len(parts[0]) == 4 && len(parts[1]) <= 2 && len(parts[2]) <= 2:
		p.Year, p.Month, p.Day = atoi(parts[0]), atoi(parts[1]), atoi(parts[2])
	case len(parts) == 3 && len(parts[0]) <= 2 && len(parts[1]) <= 2 && len(parts[2]) == 4:
		p.Day, p.Month, p.Year = atoi(parts[0]), atoi(parts[1]), atoi(parts[2])
	case len(parts) == 2 && len(parts[0]) == 4 && len(parts[1]) <= 2 && sep == '-':
		p.Year, p.Month = atoi(parts[0]), atoi(parts[1])
	case len(parts) == 2 && len(parts[0]) <= 2 && len(parts[1]) == 4:
		p.Month, p.Year = atoi(parts[0]), atoi(parts[1])
	default:
		return d.fail(ErrSyntax, "%q is not a date (numeric dates need a four-digit year)", t)
	}
	if p.Year < 1 || p.Month < 1 || p.Month > 12 || (len(parts) == 3 && p.Day < 1) {
		return d.fail(ErrNoSuchDay, "%q is not a day of the calendar", t)
	}
	return nil
}

// compute fills Stated and Range from the points.
func (d *Date) compute() error {
	span := func(p Point) (int, int, error) {
		a, b, err := p.span()
		if err != nil {
			return 0, 0, d.fail(err, "%s", err)
		}
		return a, b, nil
	}
	switch d.Kind {
	case Between, Period:
		a0, _, err := span(d.Start)
		if err != nil {
			return err
		}
		_, b1, err := span(d.End)
		if err != nil {
			return err
		}
		if b1 < a0 {
			return d.fail(ErrReversed, "the second date is before the first")
		}
		d.Stated = Range{a0, b1}
		d.Range = d.Stated
		return nil
	case To:
		a, b, err := span(d.End)
		if err != nil {
			return err
		}
		d.Stated = Range{a, b}
		d.Range = Range{AddYears(b, -OpenEndedYears), b}
		return nil
	}
	a, b, err := span(d.Start)
	if err != nil {
		return err
	}
	d.Stated = Range{a, b}
	switch d.Kind {
	case About:
		d.Range = Range{AddYears(a, -AboutYears), AddYears(b, AboutYears)}
	case Calculated:
		d.Range = Range{AddYears(a, -CalculatedYears), AddYears(b, CalculatedYears)}
	case Estimated:
		d.Range = Range{AddYears(a, -EstimatedYears), AddYears(b, EstimatedYears)}
	case Before:
		d.Range = Range{AddYears(b, -OpenEndedYears), b}
	case After, From:
		d.Range = Range{a, AddYears(a, OpenEndedYears)}
	default:
		d.Range = d.Stated
	}
	return nil
}
