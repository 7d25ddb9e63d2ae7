package gendate

// Day numbers are Julian Day Numbers (JDN): whole days counted from noon on 1 January
// 4713 BC in the proleptic Julian calendar, so 1 January 2000 (Gregorian) is 2451545.
// Every calendar converts to and from this one scale, which is what makes a Julian
// date, a Gregorian date and a Hebrew date comparable in one indexed column.

// floorDiv divides rounding towards minus infinity, so the conversion formulas hold
// for years before the epoch of the formula too.
func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// GregorianToJDN returns the day number of a date in the proleptic Gregorian calendar.
// year is astronomical: 1 BC is year 0, 2 BC is year -1.
func GregorianToJDN(year, month, day int) int {
	a := floorDiv(14-month, 12)
	y := year + 4800 - a
	m := month + 12*a - 3
	return day + floorDiv(153*m+2, 5) + 365*y + floorDiv(y, 4) - floorDiv(y, 100) + floorDiv(y, 400) - 32045
}

// JulianToJDN returns the day number of a date in the proleptic Julian calendar, with
// an astronomical year as for GregorianToJDN.
func JulianToJDN(year, month, day int) int {
	a := floorDiv(14-month, 12)
	y := year + 4800 - a
	m := month + 12*a - 3
	return day + floorDiv(153*m+2, 5) + 365*y + floorDiv(y, 4) - 32083
}

// JDNToGregorian is the inverse of GregorianToJDN (astronomical year).
func JDNToGregorian(jdn int) (year, month, day int) {
	a := jdn + 32044
	b := floorDiv(4*a+3, 146097)
	c := a - floorDiv(146097*b, 4)
	d := floorDiv(4*c+3, 1461)
	e := c - floorDiv(1461*d, 4)
	m := floorDiv(5*e+2, 153)
	day = e - floorDiv(153*m+2, 5) + 1
	month = m + 3 - 12*floorDiv(m, 10)
	year = 100*b + d - 4800 + floorDiv(m, 10)
	return year, month, day
}

// JDNToJulian is the inverse of JulianToJDN (astronomical year).
func JDNToJulian(jdn int) (year, month, day int) {
	c := jdn + 32082
	d := floorDiv(4*c+3, 1461)
	e := c - floorDiv(1461*d, 4)
	m := floorDiv(5*e+2, 153)
	day = e - floorDiv(153*m+2, 5) + 1
	month = m + 3 - 12*floorDiv(m, 10)
	year = d - 4800 + floorDiv(m, 10)
	return year, month, day
}

func gregorianLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }
func julianLeap(y int) bool    { return floorDiv(y, 4)*4 == y }

var monthDays = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// daysInMonth for the Gregorian or Julian calendar (astronomical year).
func daysInMonth(c Calendar, year, month int) int {
	if month == 2 {
		if (c == Julian && julianLeap(year)) || (c != Julian && gregorianLeap(year)) {
			return 29
		}
	}
	return monthDays[month]
}

// AddYears moves a day number by n Gregorian years (n may be negative), keeping the
// month and day, with 29 February becoming 28 February in a common year. It is how
// approximate dates are widened and open-ended ones given their horizon.
func AddYears(jdn, n int) int {
	y, m, d := JDNToGregorian(jdn)
	y += n
	if dim := daysInMonth(Gregorian, y, m); d > dim {
		d = dim
	}
	return GregorianToJDN(y, m, d)
}

// The Hebrew calendar, from the arithmetic rules of the fixed calendar (Hillel II): a
// 19-year cycle of leap years, months counted from the molad of Tishri, and the four
// postponement rules (dehiyyot). Months are numbered here as in GEDCOM: 1 Tishri,
// 2 Cheshvan, 3 Kislev, 4 Tevet, 5 Shevat, 6 Adar (Adar I in a leap year), 7 Adar II
// (leap years only), 8 Nisan, 9 Iyar, 10 Sivan, 11 Tammuz, 12 Av, 13 Elul.

// hebrewEpoch is the JDN of 1 Tishri AM 1 (7 October 3761 BC, Julian).
const hebrewEpoch = 347998

func hebrewLeap(y int) bool {
	r := (7*y + 1) % 19
	if r < 0 {
		r += 19
	}
	return r < 7
}

// hebrewElapsedDays counts the days from the epoch's molad reckoning to 1 Tishri of
// year y before the delays for the year's length are applied.
func hebrewElapsedDays(y int) int {
	months := floorDiv(235*y-234, 19)
	parts := 12084 + 13753*months
	day := 29*months + floorDiv(parts, 25920)
	if r := 3 * (day + 1); r-floorDiv(r, 7)*7 < 3 {
		day++
	}
	return day
}

func hebrewYearDelay(y int) int {
	ny0, ny1, ny2 := hebrewElapsedDays(y-1), hebrewElapsedDays(y), hebrewElapsedDays(y+1)
	switch {
	case ny2-ny1 == 356:
		return 2
	case ny1-ny0 == 382:
		return 1
	}
	return 0
}

// hebrewNewYear is the JDN of 1 Tishri of year y.
func hebrewNewYear(y int) int { return hebrewEpoch + hebrewElapsedDays(y) + hebrewYearDelay(y) }

func hebrewYearLength(y int) int { return hebrewNewYear(y+1) - hebrewNewYear(y) }

// hebrewMonthLength in GEDCOM month numbering; 0 for Adar II in a common year.
func hebrewMonthLength(y, m int) int {
	n := hebrewYearLength(y)
	switch m {
	case 1, 5, 8, 10, 12: // Tishri, Shevat, Nisan, Sivan, Av
		return 30
	case 4, 9, 11, 13: // Tevet, Iyar, Tammuz, Elul
		return 29
	case 2: // Cheshvan is long in a "complete" year
		if n%10 == 5 {
			return 30
		}
		return 29
	case 3: // Kislev is short in a "deficient" year
		if n%10 == 3 {
			return 29
		}
		return 30
	case 6: // Adar I (30) in a leap year, Adar (29) otherwise
		if hebrewLeap(y) {
			return 30
		}
		return 29
	case 7:
		if hebrewLeap(y) {
			return 29
		}
		return 0
	}
	return 0
}

// hebrewToJDN converts a Hebrew date (GEDCOM month numbering) to a day number.
func hebrewToJDN(y, m, d int) int {
	j := hebrewNewYear(y)
	for k := 1; k < m; k++ {
		j += hebrewMonthLength(y, k)
	}
	return j + d - 1
}

// The French Republican calendar: twelve months of 30 days from 1 Vendémiaire and five
// or six complementary days (month 13). Year I began on 22 September 1792. The
// calendar's years of civil use (I–XIV) had leap ("sextile") years III, VII and XI; the
// same four-year cycle is used beyond them, as most converters do, since the
// calendar's own equinox rule was never applied past XIV.

// frenchEpoch is the JDN of 1 Vendémiaire I (22 September 1792).
const frenchEpoch = 2375840

func frenchLeap(y int) bool { return y%4 == 3 }

func frenchMonthLength(y, m int) int {
	if m < 13 {
		return 30
	}
	if frenchLeap(y) {
		return 6
	}
	return 5
}

func frenchToJDN(y, m, d int) int {
	return frenchEpoch + 365*(y-1) + y/4 + 30*(m-1) + d - 1
}
