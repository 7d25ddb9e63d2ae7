package gedcom_test

import (
	"fmt"
	"os"
	"strings"

	"lineage/internal/gedcom"
)

func ExampleReader() {
	const file = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n" +
		"0 @i1@ INDI\n1 NAME John /Smith/\n1 NOTE Born at sea; see the log@@ship\n2 CONC 's papers\n2 CONT (two lines)\n1 FAMS @F1@\n" +
		"0 @F1@ FAM\n1 HUSB @I1@\n3 DATE 1850\n" +
		"0 TRLR\n"
	r, err := gedcom.NewReader(strings.NewReader(file), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("version", r.Header().Version, r.Header().Encoding)
	for rec, err := range r.Records() {
		if err != nil {
			panic(err)
		}
		fmt.Print(rec)
	}
	for _, w := range r.Warnings() {
		fmt.Println("warning:", w)
	}
	// Output:
	// version 5.5.1 UTF-8
	// 0 @I1@ INDI
	// 1 NAME "John /Smith/"
	// 1 NOTE "Born at sea; see the log@ship's papers\n(two lines)"
	// 1 FAMS @F1@
	// 0 @F1@ FAM
	// 1 HUSB @I1@
	// 2 DATE "1850"
	// warning: line 13: level 3 follows level 1; read as level 2
}

// CONC splits a word rather than at a space, which some readers would trim.
func ExampleWriter() {
	w, err := gedcom.NewWriter(os.Stdout, &gedcom.Header{Source: "LINEAGE"},
		&gedcom.WriterOptions{Version: gedcom.Version551, MaxLineLength: 40})
	if err != nil {
		panic(err)
	}
	w.Write(&gedcom.Line{Xref: "N1", Tag: "NOTE", Value: "Write to me@example.com about the Smiths of Little Snoring.\nThank you."})
	w.Close()
	// Output:
	// 0 HEAD
	// 1 GEDC
	// 2 VERS 5.5.1
	// 2 FORM LINEAGE-LINKED
	// 1 CHAR UTF-8
	// 1 SOUR LINEAGE
	// 0 @N1@ NOTE Write to me@@example.com abo
	// 1 CONC ut the Smiths of Little Snoring.
	// 1 CONT Thank you.
	// 0 TRLR
}
