package gedcom

import (
	"bytes"
	"fmt"
	"io"
)

// peopleGen generates a GEDCOM 5.5.1 file of n people, as a stream: a family every two
// people, names, sex, birth, baptism and death with dates and places, an occupation, a
// note with CONT and CONC, a source citation, an extension tag. About 480 bytes a person.
type peopleGen struct {
	n, i int
	buf  bytes.Buffer
	done bool
}

func newPeopleGen(n int) *peopleGen {
	g := &peopleGen{n: n}
	g.buf.WriteString("0 HEAD\n1 SOUR LINEAGE-TEST\n2 NAME Lineage test generator\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR UTF-8\n1 SUBM @U1@\n")
	g.buf.WriteString("0 @U1@ SUBM\n1 NAME Test Society\n")
	for s := 1; s <= 20; s++ {
		fmt.Fprintf(&g.buf, "0 @S%d@ SOUR\n1 TITL Parish register of Town%d, baptisms and burials\n1 AUTH Church of England\n", s, s)
	}
	return g
}

var (
	genGiven   = []string{"John", "Mary", "William", "Elizabeth", "Thomas", "Ann", "James", "Sarah", "George", "Jane", "Łukasz", "Zoë"}
	genSurname = []string{"Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Robinson", "Wright", "Müller", "O'Brien"}
	genMonth   = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}
)

func (g *peopleGen) person(i int) {
	b := &g.buf
	given, sur := genGiven[i%len(genGiven)], genSurname[(i/7)%len(genSurname)]
	year := 1700 + i%250
	fmt.Fprintf(b, "0 @I%d@ INDI\n1 NAME %s /%s/\n2 GIVN %s\n2 SURN %s\n1 SEX %c\n", i, given, sur, given, sur, "MF"[i%2])
	fmt.Fprintf(b, "1 BIRT\n2 DATE %d %s %d\n2 PLAC Town%d, Countyshire, England\n", i%28+1, genMonth[i%12], year, i%400)
	fmt.Fprintf(b, "1 BAPM\n2 DATE ABT %d\n2 PLAC St Mary, Town%d\n2 SOUR @S%d@\n3 PAGE folio %d, entry %d\n", year, i%400, i%20+1, i%300, i%40)
	fmt.Fprintf(b, "1 DEAT\n2 DATE BET %d AND %d\n2 PLAC Town%d\n1 OCCU Labourer\n", year+40, year+70, (i+3)%400)
	fmt.Fprintf(b, "1 NOTE Mentioned in the vestry minutes of %d as a ratepayer; see also\n2 CONT the churchwardens' accounts, which name the fam\n2 CONC ily.\n", year+30)
	fmt.Fprintf(b, "1 FAMS @F%d@\n", (i+1)/2)
	if i > 2 {
		fmt.Fprintf(b, "1 FAMC @F%d@\n", i/4+1)
	}
	fmt.Fprintf(b, "1 _UID %08X%08X\n", i, i*2654435761)
	if i%2 == 0 {
		f := i / 2
		fmt.Fprintf(b, "0 @F%d@ FAM\n1 HUSB @I%d@\n1 WIFE @I%d@\n1 MARR\n2 DATE %d\n2 PLAC Town%d\n", f, i-1, i, year+25, i%400)
		for c := 0; c < 2; c++ {
			if k := 4*(f-1) + c; k > 2 && k <= g.n {
				fmt.Fprintf(b, "1 CHIL @I%d@\n", k)
			}
		}
	}
}

func (g *peopleGen) Read(p []byte) (int, error) {
	for g.buf.Len() < len(p) && !g.done {
		if g.i < g.n {
			g.i++
			g.person(g.i)
		} else {
			g.buf.WriteString("0 TRLR\n")
			g.done = true
		}
	}
	n, _ := g.buf.Read(p)
	if n == 0 && g.done {
		return 0, io.EOF
	}
	return n, nil
}

func genPeople(n int) []byte {
	b, err := io.ReadAll(newPeopleGen(n))
	if err != nil {
		panic(err)
	}
	return b
}
