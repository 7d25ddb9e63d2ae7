package gendate

import "testing"

func TestGregorianAndJulianDayNumbers(t *testing.T) {
	tests := []struct {
		name             string
		julian           bool
		year, month, day int
		want             int
	}{
		{"J2000 epoch day", false, 2000, 1, 1, 2451545},
		{"last Julian day in Rome", true, 1582, 10, 4, 2299160},
		{"first Gregorian day in Rome", false, 1582, 10, 15, 2299161},
		{"British change: 2 Sep 1752 Julian", true, 1752, 9, 2, 2361221},
		{"British change: 14 Sep 1752 Gregorian", false, 1752, 9, 14, 2361222},
		{"day zero: 1 Jan 4713 BC Julian", true, -4712, 1, 1, 0},
		{"1 Jan 1 AD Gregorian", false, 1, 1, 1, 1721426},
		{"1 Jan 1 BC Julian (year 0)", true, 0, 1, 1, 1721058},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got int
			if tt.julian {
				got = JulianToJDN(tt.year, tt.month, tt.day)
			} else {
				got = GregorianToJDN(tt.year, tt.month, tt.day)
			}
			if got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func TestDayNumberRoundTrip(t *testing.T) {
	for j := -800000; j < 4000000; j += 37 {
		y, m, d := JDNToGregorian(j)
		if got := GregorianToJDN(y, m, d); got != j {
			t.Fatalf("Gregorian %d → %d-%d-%d → %d", j, y, m, d, got)
		}
		y, m, d = JDNToJulian(j)
		if got := JulianToJDN(y, m, d); got != j {
			t.Fatalf("Julian %d → %d-%d-%d → %d", j, y, m, d, got)
		}
	}
}

func TestHebrewCalendar(t *testing.T) {
	g := GregorianToJDN
	checkToJDN(t, hebrewToJDN, []toJDNCase{
		{"Rosh Hashanah 5758", 5758, 1, 1, g(1997, 10, 2)},
		{"2 Tevet 5758 (the torture test's INT date)", 5758, 4, 2, g(1997, 12, 31)},
		{"Rosh Hashanah 5783", 5783, 1, 1, g(2022, 9, 26)},
		{"Rosh Hashanah 5784", 5784, 1, 1, g(2023, 9, 16)},
		{"Purim 5784, in Adar II of a leap year", 5784, 7, 14, g(2024, 3, 24)},
		{"Passover 5784", 5784, 8, 15, g(2024, 4, 23)},
		{"Rosh Hashanah 5785", 5785, 1, 1, g(2024, 10, 3)},
		{"Yom Kippur 5785", 5785, 1, 10, g(2024, 10, 12)},
		{"Hanukkah 5785", 5785, 3, 25, g(2024, 12, 26)},
		{"epoch, 1 Tishri AM 1", 1, 1, 1, JulianToJDN(-3760, 10, 7)},
	})
	// Every year has one of the six lawful lengths, and the months add up to it.
	for y := 1; y <= 6000; y++ {
		n := hebrewYearLength(y)
		switch n {
		case 353, 354, 355, 383, 384, 385:
		default:
			t.Fatalf("year %d has %d days", y, n)
		}
		sum := 0
		for m := 1; m <= 13; m++ {
			sum += hebrewMonthLength(y, m)
		}
		if sum != n {
			t.Fatalf("year %d: months add up to %d, year has %d", y, sum, n)
		}
		if leap := hebrewLeap(y); leap != (n > 380) {
			t.Fatalf("year %d: leap %v but %d days", y, leap, n)
		}
	}
}

func TestFrenchRepublicanCalendar(t *testing.T) {
	g := GregorianToJDN
	checkToJDN(t, frenchToJDN, []toJDNCase{
		{"1 Vendémiaire I", 1, 1, 1, g(1792, 9, 22)},
		{"9 Thermidor II", 2, 11, 9, g(1794, 7, 27)},
		{"18 Brumaire VIII", 8, 2, 18, g(1799, 11, 9)},
		{"6th complementary day of sextile year III", 3, 13, 6, g(1795, 9, 22)},
		{"1 Vendémiaire XII", 12, 1, 1, g(1803, 9, 24)},
		{"1 Vendémiaire XIV", 14, 1, 1, g(1805, 9, 23)},
		{"10 Nivôse XIV, the calendar's last day", 14, 4, 10, g(1805, 12, 31)},
	})
}

func TestAddYears(t *testing.T) {
	g := GregorianToJDN
	if got, want := AddYears(g(1852, 2, 29), -2), g(1850, 2, 28); got != want {
		t.Errorf("29 Feb 1852 − 2 years: got %d, want %d", got, want)
	}
	if got, want := AddYears(g(1850, 3, 12), 100), g(1950, 3, 12); got != want {
		t.Errorf("12 Mar 1850 + 100 years: got %d, want %d", got, want)
	}
}

// toJDNCase is a date of a calendar and its Julian Day Number.
type toJDNCase struct {
	name             string
	year, month, day int
	want             int
}

// checkToJDN checks a calendar's conversion to Julian Day Numbers against the cases.
func checkToJDN(t *testing.T, toJDN func(year, month, day int) int, tests []toJDNCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toJDN(tt.year, tt.month, tt.day); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}
