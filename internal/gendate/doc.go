// Package gendate reads genealogical dates — GEDCOM 5.5.1 and 7 date values and the
// forms transcribers type — into ranges of day numbers, so that every date in Lineage,
// however vague, can be stored in two indexed integer columns and compared with any
// other (ARCHITECTURE.md §4). It has no dependencies and no state; the search engine,
// record import and GEDCOM import call Parse.
//
// # The day scale
//
// Day numbers are Julian Day Numbers (1 January 2000 Gregorian is 2451545). Dates in
// the Julian, Hebrew and French Republican calendars are converted, so JULIAN 25 DEC
// 1700 is 5 January 1701 on the common scale, and a year search in Gregorian years
// treats it as such. Dates without a calendar are Gregorian (proleptic before 1582, as
// GEDCOM says), which is also how English registers before 1752 are indexed in
// practice: as written. Years is the range of whole Gregorian years a year search uses.
//
// # What a date keeps
//
// A Date keeps its original Text always, its Kind, the Points as written, the Phrase,
// and two ranges: Stated, the days the written date(s) cover, and Range, the days a
// search should treat as possible. The choices that make search correct:
//
//   - ABT widens by AboutYears (2) either side, EST by EstimatedYears (2), CAL by
//     CalculatedYears (1): "ABT 1850" is found by a search for 1852 ± 0. The search
//     engine ranks by Kind, so an exact 1850 still beats it.
//   - BEF, AFT, FROM and TO are open on one side; the open side reaches
//     OpenEndedYears (100) from the stated bound: "BEF 1850" is 31 Dec 1750 – 31 Dec
//     1850. BEF and TO include the whole of their date; AFT and FROM start at its first
//     day.
//   - BET a AND b and FROM a TO b run from the first day of a to the last day of b; an
//     end before the start is ErrReversed, not silently swapped.
//   - Dual years are the New Style year: 11 FEB 1731/32 is 11 February 1732, and a bare
//     "1731/2" is 1 January – 24 March 1732, the only days that carried two years. A
//     dual year on any other day is ErrDualYear.
//   - Quarters are registration quarters as in the GRO indexes: Mar Q 1850 (or Q1 1850)
//     is January–March 1850. The event itself may be earlier; a search with a year
//     tolerance finds it.
//   - Numeric dates are day first (British): 03/12/1850 is 3 December 1850. Two-digit
//     years in numeric dates are refused; GEDCOM-form years are taken as written.
//   - Calendars that cannot be converted (ROMAN, UNKNOWN, GEDCOM 7 extension calendars
//     such as _UNKNOWN) are ErrCalendar; a month or day the calendar lacks (30 FEB,
//     Adar II in a common Hebrew year) is ErrNoSuchDay; anything else that is not a date
//     is ErrSyntax. The Date returned with an error has Kind Invalid and keeps the text.
//
// Date.String writes GEDCOM 7; forms GEDCOM 7 lacks (quarters, bare dual years) become
// the nearest GEDCOM 7 value that covers the same days.
//
// The Hebrew calendar is the fixed arithmetic calendar with its postponement rules; the
// French Republican calendar uses the four-year cycle of its years of use (I–XIV),
// continued beyond them.
package gendate
