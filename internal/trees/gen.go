package trees

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"lineage/internal/gedcom"
)

// Generated trees: plausible families for the demo and the benchmark, descended from a
// few founding couples of the late 18th century, generation after generation until the
// 2010s. Everyone born before 1925 has died; of those born later most are living. The
// same seed gives the same file.

var genSurnames = []string{"Ashworth", "Howarth", "Butterworth", "Kershaw", "Schofield", "Lord", "Taylor", "Holt",
	"Whitworth", "Ormerod", "Haworth", "Crossley", "Greenwood", "Sutcliffe", "Barker", "Clegg", "Fielden", "Hartley",
	"Pickup", "Stott", "Chadwick", "Ogden", "Mills", "Brierley", "Wolfenden", "Entwistle", "Nuttall", "Duckworth"}

var genMale = []string{"John", "James", "William", "Thomas", "Joseph", "George", "Robert", "Samuel", "Henry", "Edward",
	"Richard", "Charles", "Abraham", "Edmund", "Jonathan", "Arthur", "Frederick", "Albert", "Harold", "Walter", "Peter", "David", "Michael"}

var genFemale = []string{"Mary", "Ann", "Elizabeth", "Sarah", "Alice", "Jane", "Betty", "Hannah", "Martha", "Susannah",
	"Margaret", "Ellen", "Emma", "Harriet", "Esther", "Alice", "Edith", "Annie", "Florence", "Doris", "Susan", "Karen", "Helen"}

var genPlaces = []string{"Rochdale, Lancashire, England", "Bury, Lancashire, England", "Todmorden, Yorkshire, England",
	"Littleborough, Lancashire, England", "Heywood, Lancashire, England", "Oldham, Lancashire, England",
	"Manchester, Lancashire, England", "Halifax, Yorkshire, England", "Bacup, Lancashire, England",
	"Whitworth, Lancashire, England", "Milnrow, Lancashire, England", "Toronto, Ontario, Canada"}

var genJobs = []string{"Weaver", "Cotton spinner", "Farmer", "Wool comber", "Coal miner", "Labourer", "Clogger",
	"Overlooker", "Dressmaker", "Schoolmistress", "Grocer", "Engine fitter", "Clerk", "Teacher", "Nurse"}

var genMonths = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}

type genPerson struct {
	id           int
	given, sur   string
	sex          byte
	birth        int // year
	month, day   int
	place        string
	death        int // 0: living
	famc         int
	fams         []int
	job          string
	adopted      bool
	confidential bool
}

type genFamily struct {
	id, husb, wife int
	children       []int
	marr           int
	place          string
}

type generator struct {
	r        *rand.Rand
	people   []*genPerson
	families []*genFamily
	max      int
}

func (g *generator) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *generator) person(sur string, sex byte, birth int) *genPerson {
	p := &genPerson{id: len(g.people) + 1, sur: sur, sex: sex, birth: birth, month: 1 + g.r.IntN(12), day: 1 + g.r.IntN(28), place: g.pick(genPlaces)}
	if sex == 'M' {
		p.given = g.pick(genMale)
	} else {
		p.given = g.pick(genFemale)
	}
	if g.r.IntN(3) == 0 {
		if sex == 'M' {
			p.given += " " + g.pick(genMale)
		} else {
			p.given += " " + g.pick(genFemale)
		}
	}
	switch {
	case birth < 1925:
		p.death = birth + 1 + g.r.IntN(85)
	case g.r.IntN(5) == 0:
		p.death = min(birth+20+g.r.IntN(60), 2025)
	}
	if birth >= 1840 && birth < 1930 {
		p.job = g.pick(genJobs)
	}
	g.people = append(g.people, p)
	return p
}

// grow gives a person a partner and children; the children are queued to grow in
// turn, so that the generations fill evenly.
func (g *generator) grow(p *genPerson) []*genPerson {
	if len(g.people) >= g.max || p.death != 0 && p.death-p.birth < 20 || p.birth > 2000 || g.r.IntN(8) == 0 {
		return nil
	}
	married := p.birth + 20 + g.r.IntN(10)
	if married > 2024 {
		return nil
	}
	other := byte('F')
	if p.sex == 'F' {
		other = 'M'
	}
	sp := g.person(g.pick(genSurnames), other, p.birth-3+g.r.IntN(7))
	f := &genFamily{id: len(g.families) + 1, marr: married, place: p.place}
	if p.sex == 'M' {
		f.husb, f.wife = p.id, sp.id
	} else {
		f.husb, f.wife = sp.id, p.id
	}
	g.families = append(g.families, f)
	p.fams = append(p.fams, f.id)
	sp.fams = append(sp.fams, f.id)
	sur := g.people[f.husb-1].sur
	n := 2 + g.r.IntN(5)
	if married > 1920 {
		n = 1 + g.r.IntN(3)
	}
	var kids []*genPerson
	for i := 0; i < n && len(g.people) < g.max; i++ {
		born := married + 1 + 2*i + g.r.IntN(2)
		if born > 2022 {
			break
		}
		sex := byte('M')
		if g.r.IntN(2) == 0 {
			sex = 'F'
		}
		c := g.person(sur, sex, born)
		c.famc = f.id
		c.adopted = g.r.IntN(60) == 0
		c.confidential = born > 1940 && g.r.IntN(20) == 0
		f.children = append(f.children, c.id)
		kids = append(kids, c)
	}
	return kids
}

// GenerateGEDCOM writes a generated tree of about people persons as GEDCOM 5.5.1.
func GenerateGEDCOM(out io.Writer, people int, seed uint64) error {
	g := &generator{r: rand.New(rand.NewPCG(seed, seed^0x5bd1e995)), max: people}
	for len(g.people) < people {
		sur := g.pick(genSurnames)
		if len(g.people) == 0 {
			sur = genSurnames[0]
		}
		queue := []*genPerson{g.person(sur, 'M', 1760+g.r.IntN(40))}
		for len(queue) > 0 && len(g.people) < people {
			p := queue[0]
			queue = append(queue[1:], g.grow(p)...)
		}
	}
	w, err := gedcom.NewWriter(out, &gedcom.Header{Source: "LINEAGE", SourceName: "Lineage demo generator"},
		&gedcom.WriterOptions{Version: gedcom.Version551})
	if err != nil {
		return err
	}
	line := func(tag, value string, kids ...*gedcom.Line) *gedcom.Line {
		return &gedcom.Line{Tag: tag, Value: value, Children: kids}
	}
	ptr := func(tag, x string, kids ...*gedcom.Line) *gedcom.Line {
		return &gedcom.Line{Tag: tag, Pointer: x, Children: kids}
	}
	date := func(d, m, y int) string {
		if d == 0 {
			return strconv.Itoa(y)
		}
		return fmt.Sprintf("%d %s %d", d, genMonths[m-1], y)
	}
	for _, s := range []*gedcom.Line{
		{Xref: "S1", Tag: "SOUR", Children: []*gedcom.Line{line("TITL", "Parish registers of St Chad, Rochdale"), line("AUTH", "Church of England")}},
		{Xref: "S2", Tag: "SOUR", Children: []*gedcom.Line{line("TITL", "Census of England and Wales")}},
		{Xref: "S3", Tag: "SOUR", Children: []*gedcom.Line{line("TITL", "General Register Office indexes of births, marriages and deaths")}},
		{Xref: "N1", Tag: "NOTE", Value: "The family worked in the cotton and woollen trades of the Rossendale and Roch valleys."},
		{Xref: "O1", Tag: "OBJE", Children: []*gedcom.Line{line("FILE", "https://example.org/lineage/ashworth-mill.jpg", line("FORM", "jpg"), line("TITL", "The family mill"))}},
	} {
		if err := w.Write(s); err != nil {
			return err
		}
	}
	for _, p := range g.people {
		rec := &gedcom.Line{Xref: "I" + strconv.Itoa(p.id), Tag: "INDI"}
		add := func(l *gedcom.Line) { rec.Children = append(rec.Children, l) }
		add(line("NAME", p.given+" /"+p.sur+"/", line("GIVN", p.given), line("SURN", p.sur)))
		add(line("SEX", string(p.sex)))
		if p.confidential {
			add(line("RESN", "confidential"))
		}
		birt := line("BIRT", "", line("DATE", date(p.day, p.month, p.birth)), line("PLAC", p.place))
		if p.birth < 1837 {
			birt.Children = append(birt.Children, ptr("SOUR", "S1", line("PAGE", "Baptisms "+strconv.Itoa(p.birth))))
		} else {
			birt.Children = append(birt.Children, ptr("SOUR", "S3"))
		}
		add(birt)
		if p.birth < 1837 {
			add(line("CHR", "", line("DATE", date(0, 0, p.birth)), line("PLAC", p.place)))
		}
		if p.job != "" {
			add(line("OCCU", p.job, line("DATE", "ABT "+strconv.Itoa(p.birth+30))))
		}
		if p.birth < 1901 && p.birth+30 > 1841 {
			y := p.birth + 30 - (p.birth+30-1841)%10
			add(line("RESI", "", line("DATE", strconv.Itoa(y)), line("PLAC", p.place), ptr("SOUR", "S2", line("PAGE", strconv.Itoa(y)+" census"))))
		}
		if p.death != 0 {
			add(line("DEAT", "", line("DATE", date(1+g.r.IntN(28), 1+g.r.IntN(12), p.death)), line("PLAC", p.place)))
			if p.id%3 == 0 {
				add(line("BURI", "", line("DATE", strconv.Itoa(p.death)), line("PLAC", p.place)))
			}
		}
		if p.id%40 == 1 {
			add(ptr("NOTE", "N1"))
		}
		if p.id%97 == 5 {
			add(line("NOTE", p.given+" is remembered in the family as a great teller of stories."))
		}
		if p.id%150 == 3 {
			add(ptr("OBJE", "O1"))
		}
		if p.famc != 0 {
			l := ptr("FAMC", "F"+strconv.Itoa(p.famc))
			if p.adopted {
				l.Children = append(l.Children, line("PEDI", "adopted"))
			}
			add(l)
		}
		for _, f := range p.fams {
			add(ptr("FAMS", "F"+strconv.Itoa(f)))
		}
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	for _, f := range g.families {
		rec := &gedcom.Line{Xref: "F" + strconv.Itoa(f.id), Tag: "FAM"}
		rec.Children = append(rec.Children, ptr("HUSB", "I"+strconv.Itoa(f.husb)), ptr("WIFE", "I"+strconv.Itoa(f.wife)))
		for _, c := range f.children {
			rec.Children = append(rec.Children, ptr("CHIL", "I"+strconv.Itoa(c)))
		}
		rec.Children = append(rec.Children, line("MARR", "", line("DATE", strconv.Itoa(f.marr)), line("PLAC", f.place)))
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	return w.Close()
}
