package names_test

import (
	"fmt"

	"lineage/internal/names"
)

func ExampleSurnameKeys() {
	k := names.SurnameKeys("M'Donald")
	fmt.Println(k.Folded, k.Variant, k.Soundex, k.DM, k.MetaphonePrimary, k.MetaphoneAlt)
	// Output: macdonald macdonald M235 [643683 653683] MKTN MKTN
}

func ExampleGivenNames_Match() {
	g := names.DefaultGivenNames()
	fmt.Println(g.Match("Wm.", "Bill"), g.Match("J", "Jno"), g.Match("Peggy", "Margaret"), g.Match("Kate", "Mary"))
	fmt.Println(g.Groups("Nell"))
	// Output:
	// true true true false
	// [eleanor ellen helen]
}
