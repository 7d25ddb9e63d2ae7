package gendate_test

import (
	"fmt"

	"lineage/internal/gendate"
)

func ExampleParse() {
	for _, text := range []string{"ABT 1850", "11 FEB 1731/32", "Mar Q 1850", "BET 1850 AND 1840"} {
		d, err := gendate.Parse(text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		y1, m1, d1 := gendate.JDNToGregorian(d.Range.Earliest)
		y2, m2, d2 := gendate.JDNToGregorian(d.Range.Latest)
		fmt.Printf("%s: %v, %d-%02d-%02d to %d-%02d-%02d, GEDCOM 7 %q\n", text, d.Kind, y1, m1, d1, y2, m2, d2, d.String())
	}
	// Output:
	// ABT 1850: about, 1848-01-01 to 1852-12-31, GEDCOM 7 "ABT 1850"
	// 11 FEB 1731/32: exact, 1732-02-11 to 1732-02-11, GEDCOM 7 "11 FEB 1732"
	// Mar Q 1850: exact, 1850-01-01 to 1850-03-31, GEDCOM 7 "BET JAN 1850 AND MAR 1850"
	// gendate: "BET 1850 AND 1840": the second date is before the first
}
