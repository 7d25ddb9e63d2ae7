package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"lineage/internal/names"
	"lineage/internal/research"
	"lineage/internal/research/gazetteer"
)

// The demo generator writes plausible index records in the canonical CSV layout:
// parish baptisms, marriages and burials, wills, apprenticeships, census households,
// memorial cards and birth briefs, with surnames and given names drawn from skewed
// distributions (a few very common names, a long tail), clerks' spellings, Latin
// forms, abbreviations, initials, transcribers' marks and vague dates. The same seed
// gives the same records.

// Collection is one generated collection.
type Collection struct {
	Slug        string  `json:"slug"`
	Kind        string  `json:"kind"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Access      string  `json:"access"`
	Share       float64 `json:"-"` // of the records generated
	gen         func(g *demoGen, n int) demoRecord
}

// Collections lists the generated collections.
func Collections() []Collection {
	return []Collection{
		{"parish-baptisms", research.KindRecordSet, "Parish baptisms", "Baptisms transcribed from the parish registers of England and Wales, 1600–1920.", research.AccessPublic, 0.35, (*demoGen).baptism},
		{"parish-marriages", research.KindRecordSet, "Parish marriages", "Marriages from the parish registers, with witnesses where the register names them.", research.AccessPublic, 0.15, (*demoGen).marriage},
		{"parish-burials", research.KindRecordSet, "Parish burials", "Burials from the parish registers, with ages from 1813.", research.AccessPublic, 0.24, (*demoGen).burial},
		{"wills-index", research.KindIndex, "Index of wills", "Wills proved in the church courts and, from 1858, the Principal Probate Registry.", research.AccessMembers, 0.05, (*demoGen).will},
		{"apprentices-index", research.KindIndex, "Apprentices index", "Indentures of apprenticeship, with masters and their trades.", research.AccessPublic, 0.03, (*demoGen).apprenticeship},
		{"census-households", research.KindRecordSet, "Census households 1841–1911", "Households from the decennial censuses.", research.AccessMembers, 0.13, (*demoGen).census},
		{"memorial-cards", research.KindMemorialCards, "Memorial cards", "The society's collection of funeral and memorial cards.", research.AccessPublic, 0.04, (*demoGen).memorialCard},
		{"birth-briefs", research.KindBirthBriefs, "Birth briefs", "Members' birth briefs: three generations of ancestry on one sheet.", research.AccessMembers, 0.01, (*demoGen).birthBrief},
	}
}

type demoPerson struct {
	role, surname, given, sex, age string
}

type demoRecord struct {
	typ, date, place, transcript, source, image string
	persons                                     []demoPerson
}

// weighted picks from a list with cumulative weights.
type weighted struct {
	items []string
	cum   []float64
}

func newWeighted(items []string, weight func(i int) float64) *weighted {
	w := &weighted{items: items, cum: make([]float64, len(items))}
	total := 0.0
	for i := range items {
		total += weight(i)
		w.cum[i] = total
	}
	return w
}

func (w *weighted) pick(r *rand.Rand) string {
	x := r.Float64() * w.cum[len(w.cum)-1]
	i := sort.SearchFloat64s(w.cum, x)
	return w.items[min(i, len(w.items)-1)]
}

var demoSurnames = strings.Fields(`Smith Jones Williams Taylor Brown Davies Evans Wilson Thomas Johnson
Roberts Robinson Thompson Wright Walker White Edwards Hughes Green Hall Lewis Harris Clarke Jackson
Wood Turner Martin Cooper Hill Ward Morris Moore Clark Lee King Baker Harrison Morgan Allen James Scott
Phillips Watson Davis Parker Price Bennett Young Griffiths Mitchell Kelly Cook Carter Richardson Bailey
Collins Bell Shaw Murphy Miller Cox Richards Marshall Anderson Simpson Ellis Adams Wilkinson Foster
Chapman Powell Webb Rogers Gray Mason Hunt Campbell Matthews Owen Palmer Holmes Mills Barnes Knight
Lloyd Butler Russell Barker Fisher Stevens Jenkins Murray Dixon Harvey Graham Pearson Fletcher Walsh
Gibson Howard Andrews Stewart Elliott Reynolds Saunders Payne Fox Ford Pearce Day Brooks West Lawrence
Cole Atkinson Bradley Spencer Gill Dawson Ball Burton O'Brien Watts Rose Booth Perry Ryan Grant Wells
Armstrong Francis Rees Hayes Hart Hudson Newman Barrett Webster Hunter Gregory Carr Lowe Page Marsh
Riley Dunn Woods Parsons Berry Stone Reid Holland Hawkins Harding Porter Robertson Newton Oliver Reed
Kennedy Williamson Bird Gardner Dean Lane Cooke Bates Henderson Parry Burgess Bishop Walton Burns
Nicholson Shepherd Ross Cross Long Freeman Warren Nicholls Hamilton Byrne Sutton MacDonald Yates Hodgson
Robson Curtis Hopkins O'Connor Harper Coleman Watkins Moss McCarthy Chambers O'Neill Griffin Sharp Hardy
Wheeler Potter Osborne Johnston Gordon Doyle Wallace George Jordan Hutchinson Rowe Burke May Pritchard
Gilbert Willis Higgins Read Miles Stevenson Stephenson Hammond Arnold Buckley Walters Hewitt Barber
Nelson Slater Austin Sullivan Whitehead Mann Frost Lambert Stephens Blake Lynch Goodwin Barton Woodward
Thomson Cunningham Quinn Barnett Baxter Clayton Nash Greenwood Jennings Holt Kemp Poole Gallagher Bond
Stokes Tucker Davidson Fowler Heath Norman Middleton Lawson Banks French Stanley Jarvis Gibbs Ferguson
Hayward Carroll Atkins Ramsey Müller Schmidt Cohen Levy Jacobs MacKenzie MacLeod St. John Fitzgerald
Vaughan Pugh Jenkin Bevan Llewellyn Meredith Kirby Sykes Pickering Ackroyd Haworth Crowther Greaves`)

var (
	surnamePrefixes = strings.Fields(`Ash Black Brad Bram Brook Broad Cald Carl Chad Chis Clif Cold Cress Dal Dun Eld Fair Farn Fen Ford Gar Glad Golds Gos Green Ham Hart Haw Heath Hol Hunt Kings Lang Lin Mar Mid Mill Mor New Nor Oak Old Pen Rad Rams Red Rock Rod Rush Salt Sand Shel Shir Stan Stock Sud Swin Thorn Tun Under Wal War Wat Wes Whit Wil Win Wood Wor`)
	surnameSuffixes = strings.Fields(`ley ton field worth wood well by combe more ham hurst stead wick ford bury well den don thwaite shaw cliffe bridge holme low church gate lake more wright er man ing land brook`)
	maleNames       = strings.Fields(`William John Thomas James George Henry Charles Joseph Richard Robert Edward Samuel Francis Benjamin Daniel David Alfred Frederick Arthur Walter Albert Edwin Ernest Harry Peter Matthew Stephen Isaac Abraham Jacob Michael Patrick Hugh Evan Owen Ralph Nicholas Christopher Philip Jonathan Herbert Sidney Percy Leonard Edmund Andrew Simon Luke Mark Timothy Anthony Lewis Moses Aaron Job Josiah Jeremiah Tobias Humphrey Roger Walter Gilbert Lawrence Martin Oliver Nathaniel Jesse Reuben Levi Caleb`)
	femaleNames     = strings.Fields(`Mary Elizabeth Ann Sarah Jane Margaret Hannah Susannah Martha Catherine Emma Ellen Alice Eliza Harriet Charlotte Frances Emily Louisa Caroline Maria Fanny Rebecca Esther Ruth Agnes Isabella Annie Florence Edith Ada Rose Lucy Dorothy Grace Bridget Joan Judith Kate Amelia Phoebe Rachel Lydia Betty Matilda Clara Julia Helen Eleanor Alice Priscilla Dinah Keziah Sophia Jemima Mercy Prudence Abigail Hester Winifred Gertrude Mabel Ethel Beatrice Lilian Violet Nellie`)
	abbreviations   = map[string]string{"William": "Wm", "John": "Jno", "Thomas": "Thos", "Charles": "Chas", "James": "Jas", "Richard": "Richd",
		"Robert": "Robt", "George": "Geo", "Joseph": "Jos", "Edward": "Edw", "Elizabeth": "Eliz", "Margaret": "Margt", "Christopher": "Xpher",
		"Samuel": "Saml", "Benjamin": "Benj", "Henry": "Hy", "Catherine": "Cath", "Frederick": "Fredk", "Alexander": "Alexr"}
	latinNames = map[string]string{"William": "Gulielmus", "John": "Johannes", "James": "Jacobus", "Mary": "Maria", "Elizabeth": "Elizabetha",
		"Ann": "Anna", "Margaret": "Margareta", "Richard": "Ricardus", "Robert": "Robertus", "Henry": "Henricus", "Charles": "Carolus",
		"George": "Georgius", "Edward": "Edwardus", "Joseph": "Josephus", "Catherine": "Katherina", "Thomas": "Thomas", "Jane": "Johanna"}
	trades   = strings.Fields(`cordwainer weaver carpenter blacksmith tailor baker butcher mason cooper wheelwright saddler glover tanner chandler draper joiner plumber printer`)
	saints   = strings.Fields(`Mary Michael Peter Andrew John Nicholas Margaret Giles Martin Lawrence James Paul Botolph Leonard Helen`)
	months   = strings.Fields(`Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec`)
	censuses = []string{"6 Jun 1841", "30 Mar 1851", "7 Apr 1861", "2 Apr 1871", "3 Apr 1881", "5 Apr 1891", "31 Mar 1901", "2 Apr 1911"}
)

type demoGen struct {
	r        *rand.Rand
	surnames *weighted
	male     *weighted
	female   *weighted
	places   *weighted // "Town, County"
	variants *names.SurnameVariants
	seq      int
}

func newDemoGen(seed uint64) *demoGen {
	g := &demoGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), variants: names.DefaultSurnameVariants()}
	// A head of common surnames (about a third of all people) and a long tail of
	// rarer ones built from English name parts.
	var all []string
	all = append(all, demoSurnames...)
	for _, p := range surnamePrefixes {
		for _, s := range surnameSuffixes {
			all = append(all, p+s)
		}
	}
	head := float64(len(demoSurnames))
	g.surnames = newWeighted(all, func(i int) float64 {
		if float64(i) < head {
			return 0.35 / math.Log((head+10)/10) / float64(i+10)
		}
		j := float64(i) - head
		return 0.65 / math.Log(float64(len(all))-head+30) / (j + 30)
	})
	g.male = newWeighted(maleNames, func(i int) float64 { return 1 / math.Pow(float64(i+2), 1.1) })
	g.female = newWeighted(femaleNames, func(i int) float64 { return 1 / math.Pow(float64(i+2), 1.1) })
	lines, _ := gazetteer.Parse(bytes.NewReader(gazetteer.Shipped), "gazetteer.txt")
	var places []string
	for _, l := range lines {
		if l.Kind == gazetteer.PlacePlace && len(l.Parents) == 2 {
			places = append(places, l.Name+", "+l.Parents[0])
		}
	}
	g.places = newWeighted(places, func(i int) float64 { return 1 + float64((i*7919)%13) })
	return g
}

func (g *demoGen) chance(p float64) bool { return g.r.Float64() < p }

// surname returns a surname as a clerk might have written it.
func (g *demoGen) surname() string {
	s := g.surnames.pick(g.r)
	return g.spell(s)
}

func (g *demoGen) spell(s string) string {
	switch x := g.r.Float64(); {
	case x < 0.05:
		if c := g.variants.Cluster(s); len(c) > 1 {
			v := c[g.r.IntN(len(c))]
			s = strings.ToUpper(v[:1]) + v[1:]
		}
	case x < 0.08:
		s = misspell(g.r, s)
	case x < 0.083:
		// a letter the transcriber could not read
		rs := []rune(s)
		if len(rs) > 3 {
			i := 1 + g.r.IntN(len(rs)-2)
			mark := []string{"?", "_", "*"}[g.r.IntN(3)]
			s = string(rs[:i]) + mark + string(rs[i+1:])
		}
	}
	switch x := g.r.Float64(); {
	case x < 0.04:
		s = strings.ToUpper(s)
	case x < 0.045:
		s = strings.ToLower(s)
	}
	return s
}

// misspell makes one clerk's change: a doubled or undoubled letter, i for y, a final
// e added or dropped.
func misspell(r *rand.Rand, s string) string {
	switch r.IntN(4) {
	case 0:
		if strings.HasSuffix(s, "e") {
			return s[:len(s)-1]
		}
		return s + "e"
	case 1:
		if strings.Contains(s, "y") {
			return strings.Replace(s, "y", "i", 1)
		}
		return strings.Replace(s, "i", "y", 1)
	case 2:
		for i := 1; i < len(s)-1; i++ {
			if s[i] == s[i+1] {
				return s[:i] + s[i+1:]
			}
		}
		if len(s) > 3 {
			i := 1 + r.IntN(len(s)-2)
			if c := s[i]; c >= 'a' && c <= 'z' && !strings.ContainsRune("aeiou", rune(c)) {
				return s[:i] + string(c) + s[i:]
			}
		}
	}
	return s
}

// given returns given names for a year, as written then.
func (g *demoGen) given(sex string, year int) string {
	w := g.male
	if sex == "F" {
		w = g.female
	}
	n := w.pick(g.r)
	switch x := g.r.Float64(); {
	case x < 0.05:
		if a, ok := abbreviations[n]; ok {
			n = a
		}
	case x < 0.07:
		n = n[:1] + "."
	case x < 0.22 && year < 1733:
		if l, ok := latinNames[n]; ok {
			n = l
		}
	}
	if year > 1800 && g.chance(0.18) {
		n += " " + w.pick(g.r)
	}
	return n
}

// date returns a date of the year as a register or index gives it.
func (g *demoGen) date(year int) string {
	m, d := 1+g.r.IntN(12), 1+g.r.IntN(28)
	switch x := g.r.Float64(); {
	case x < 0.02:
		return ""
	case x < 0.08:
		return strconv.Itoa(year)
	case x < 0.12:
		return "ABT " + strconv.Itoa(year)
	case x < 0.14:
		return "BET " + strconv.Itoa(year) + " AND " + strconv.Itoa(year+1+g.r.IntN(4))
	case x < 0.17 && year > 1837:
		return []string{"Mar", "Jun", "Sep", "Dec"}[g.r.IntN(4)] + " Q " + strconv.Itoa(year)
	case year < 1752 && (m < 3 || (m == 3 && d <= 24)):
		return strconv.Itoa(d) + " " + months[m-1] + " " + strconv.Itoa(year-1) + "/" + strconv.Itoa(year%10)
	}
	return strconv.Itoa(d) + " " + months[m-1] + " " + strconv.Itoa(year)
}

// year draws a year between from and to, weighted towards the nineteenth century
// where most surviving records are.
func (g *demoGen) year(from, to int) int {
	for {
		y := from + g.r.IntN(to-from+1)
		if g.r.Float64() < 0.25+0.75*float64(y-from)/float64(to-from+1) {
			return y
		}
	}
}

func (g *demoGen) place() string {
	p := g.places.pick(g.r)
	switch x := g.r.Float64(); {
	case x < 0.35:
		town, _, _ := strings.Cut(p, ",")
		return "St " + saints[g.r.IntN(len(saints))] + ", " + town + ", " + p[len(town)+2:]
	case x < 0.38:
		return ""
	case x < 0.42:
		_, county, _ := strings.Cut(p, ", ")
		return county
	}
	return p
}

func (g *demoGen) image(coll string) string {
	if g.chance(0.2) {
		return fmt.Sprintf("images/%s/%06d.jpg", coll, g.r.IntN(1_000_000))
	}
	return ""
}

func sexOf(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		return "M"
	}
	return "F"
}

func (g *demoGen) baptism(n int) demoRecord {
	y := g.year(1600, 1920)
	sex := sexOf(g.r)
	sur := g.surname()
	child := demoPerson{role: research.RolePrincipal, surname: sur, given: g.given(sex, y), sex: sex}
	if g.chance(0.15) {
		child.surname = ""
	}
	rec := demoRecord{typ: "baptism", date: g.date(y), place: g.place(), source: fmt.Sprintf("Register %d, p. %d", 1+n/5000, 1+n%300)}
	rec.persons = append(rec.persons, child)
	if !g.chance(0.05) {
		father := demoPerson{role: research.RoleFather, surname: g.spell(strings.Trim(sur, "?_*")), given: g.given("M", y-28), sex: "M"}
		if g.chance(0.6) {
			father.surname = sur
		}
		rec.persons = append(rec.persons, father)
	}
	if g.chance(0.85) {
		mother := demoPerson{role: research.RoleMother, given: g.given("F", y-26), sex: "F"}
		if g.chance(0.4) {
			mother.surname = sur
		}
		rec.persons = append(rec.persons, mother)
	}
	if g.chance(0.3) {
		rec.transcript = fmt.Sprintf("%s %s of %s and %s", child.given, map[string]string{"M": "son", "F": "daughter"}[sex], rec.persons[min(1, len(rec.persons)-1)].given, rec.persons[len(rec.persons)-1].given)
	}
	rec.image = g.image("baptisms")
	return rec
}

func (g *demoGen) marriage(n int) demoRecord {
	y := g.year(1600, 1920)
	rec := demoRecord{typ: "marriage", date: g.date(y), place: g.place(), source: fmt.Sprintf("Marriage register %d, entry %d", 1+n/3000, 1+n%500)}
	rec.persons = append(rec.persons,
		demoPerson{role: "groom", surname: g.surname(), given: g.given("M", y-25), sex: "M"},
		demoPerson{role: "bride", surname: g.surname(), given: g.given("F", y-23), sex: "F"})
	if y > 1754 {
		for i := 0; i < 2 && g.chance(0.6); i++ {
			sex := sexOf(g.r)
			rec.persons = append(rec.persons, demoPerson{role: research.RoleWitness, surname: g.surname(), given: g.given(sex, y-30), sex: sex})
		}
	}
	rec.image = g.image("marriages")
	return rec
}

func (g *demoGen) burial(n int) demoRecord {
	y := g.year(1600, 1920)
	sex := sexOf(g.r)
	age := g.r.IntN(90)
	rec := demoRecord{typ: "burial", date: g.date(y), place: g.place(), source: fmt.Sprintf("Burial register %d, p. %d", 1+n/4000, 1+n%200)}
	p := demoPerson{role: research.RolePrincipal, surname: g.surname(), given: g.given(sex, y-age), sex: sex}
	if y >= 1813 {
		p.age = strconv.Itoa(age)
	}
	rec.persons = append(rec.persons, p)
	if age < 5 && g.chance(0.7) {
		rec.persons = append(rec.persons, demoPerson{role: research.RoleFather, surname: p.surname, given: g.given("M", y-30), sex: "M"})
	}
	if g.chance(0.1) {
		rec.transcript = "Buried in the churchyard, north side"
	}
	return rec
}

func (g *demoGen) will(n int) demoRecord {
	y := g.year(1650, 1920)
	sex := "M"
	if g.chance(0.2) {
		sex = "F"
	}
	rec := demoRecord{typ: "will", date: g.date(y), place: g.place(), source: fmt.Sprintf("Probate %d/%d", y, 1+n%900)}
	testator := demoPerson{role: research.RolePrincipal, surname: g.surname(), given: g.given(sex, y-60), sex: sex}
	rec.persons = append(rec.persons, testator)
	if g.chance(0.5) {
		rec.persons = append(rec.persons, demoPerson{role: "executor", surname: testator.surname, given: g.given("M", y-35), sex: "M"})
	}
	rec.transcript = fmt.Sprintf("Will of %s %s, %s", testator.given, testator.surname, trades[g.r.IntN(len(trades))])
	rec.image = g.image("wills")
	return rec
}

func (g *demoGen) apprenticeship(n int) demoRecord {
	y := g.year(1700, 1850)
	trade := trades[g.r.IntN(len(trades))]
	rec := demoRecord{typ: "apprenticeship", date: g.date(y), place: g.place(), source: fmt.Sprintf("Indentures book %d", 1+n/2000),
		transcript: "Apprenticed to a " + trade}
	app := demoPerson{role: research.RolePrincipal, surname: g.surname(), given: g.given("M", y-14), sex: "M", age: "14"}
	rec.persons = append(rec.persons, app, demoPerson{role: "master", surname: g.surname(), given: g.given("M", y-40), sex: "M"})
	if g.chance(0.5) {
		rec.persons = append(rec.persons, demoPerson{role: research.RoleFather, surname: app.surname, given: g.given("M", y-40), sex: "M"})
	}
	return rec
}

func (g *demoGen) census(n int) demoRecord {
	date := censuses[g.r.IntN(len(censuses))]
	y, _ := strconv.Atoi(date[len(date)-4:])
	sur := g.surname()
	rec := demoRecord{typ: "census", date: date, place: g.place(), source: fmt.Sprintf("Piece %d folio %d", 1000+n%4000, 1+n%120)}
	headAge := 22 + g.r.IntN(50)
	rec.persons = append(rec.persons, demoPerson{role: "head", surname: sur, given: g.given("M", y-headAge), sex: "M", age: strconv.Itoa(headAge)})
	if g.chance(0.8) {
		a := headAge - 3 + g.r.IntN(6)
		rec.persons = append(rec.persons, demoPerson{role: "wife", surname: sur, given: g.given("F", y-a), sex: "F", age: strconv.Itoa(a)})
	}
	kids := g.r.IntN(6)
	for i := 0; i < kids; i++ {
		sex := sexOf(g.r)
		a := g.r.IntN(max(1, min(headAge-18, 20)))
		rec.persons = append(rec.persons, demoPerson{role: map[string]string{"M": "son", "F": "daughter"}[sex], surname: sur, given: g.given(sex, y-a), sex: sex, age: strconv.Itoa(a)})
	}
	return rec
}

func (g *demoGen) memorialCard(n int) demoRecord {
	y := g.year(1850, 1960)
	sex := sexOf(g.r)
	age := 1 + g.r.IntN(95)
	p := demoPerson{role: research.RolePrincipal, surname: g.surname(), given: g.given(sex, y-age), sex: sex, age: strconv.Itoa(age)}
	return demoRecord{typ: "memorial_card", date: g.date(y), place: g.place(), persons: []demoPerson{p},
		transcript: fmt.Sprintf("In loving memory of %s %s, who died aged %d", p.given, p.surname, age), source: fmt.Sprintf("Card %d", n+1), image: g.image("cards")}
}

func (g *demoGen) birthBrief(n int) demoRecord {
	y := g.year(1880, 1960)
	sex := sexOf(g.r)
	sur := g.surname()
	mother := g.surname()
	rec := demoRecord{typ: "birth_brief", date: g.date(y), place: g.place(), source: fmt.Sprintf("Birth brief %d", n+1)}
	rec.persons = append(rec.persons,
		demoPerson{role: research.RolePrincipal, surname: sur, given: g.given(sex, y), sex: sex},
		demoPerson{role: research.RoleFather, surname: sur, given: g.given("M", y-30), sex: "M"},
		demoPerson{role: research.RoleMother, surname: mother, given: g.given("F", y-28), sex: "F"},
		demoPerson{role: "paternal_grandfather", surname: sur, given: g.given("M", y-60), sex: "M"},
		demoPerson{role: "paternal_grandmother", surname: g.surname(), given: g.given("F", y-58), sex: "F"},
		demoPerson{role: "maternal_grandfather", surname: mother, given: g.given("M", y-60), sex: "M"},
		demoPerson{role: "maternal_grandmother", surname: g.surname(), given: g.given("F", y-58), sex: "F"})
	return rec
}

// demoShares splits n records among the collections.
func demoShares(n int) []int {
	cs := Collections()
	out := make([]int, len(cs))
	left := n
	for i, c := range cs {
		out[i] = int(math.Round(float64(n) * c.Share))
		if i == len(cs)-1 || out[i] > left {
			out[i] = left
		}
		left -= out[i]
	}
	return out
}

var csvHeader = []string{"record_id", "record_type", "date", "place", "role", "surname", "given_names", "sex", "age", "transcript", "source", "access", "image"}

// WriteCSV writes n records of a demo collection in the canonical layout.
func WriteCSV(w io.Writer, c Collection, n int, seed uint64) error {
	g := newDemoGen(seed ^ uint64(len(c.Slug))*0x100000001b3 ^ hashString(c.Slug))
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := csv.NewWriter(bw)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	prefix := strings.ToUpper(c.Slug[:1]) + strings.ToUpper(c.Slug[strings.LastIndex(c.Slug, "-")+1:][:1])
	row := make([]string, len(csvHeader))
	for i := 0; i < n; i++ {
		rec := c.gen(g, i)
		id := prefix + strconv.Itoa(i+1)
		for j, p := range rec.persons {
			row[0], row[1], row[2], row[3] = id, rec.typ, rec.date, rec.place
			row[4], row[5], row[6], row[7], row[8] = p.role, p.surname, p.given, p.sex, p.age
			row[9], row[10], row[11], row[12] = "", "", "", ""
			if j == 0 {
				row[9], row[10], row[12] = rec.transcript, rec.source, rec.image
			}
			if p.surname == "" && p.given == "" {
				continue
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

func hashString(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// Write writes records CSV files of every demo collection into dir, with
// collections.json describing them, and returns the files written.
func Write(dir string, records int, seed uint64) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	shares := demoShares(records)
	var files []string
	var manifest []string
	for i, c := range Collections() {
		path := filepath.Join(dir, c.Slug+".csv")
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		if err := WriteCSV(f, c, shares[i], seed); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		files = append(files, path)
		manifest = append(manifest, fmt.Sprintf(`  {"slug": %q, "kind": %q, "title": %q, "access": %q, "file": %q, "records": %d}`,
			c.Slug, c.Kind, c.Title, c.Access, c.Slug+".csv", shares[i]))
	}
	m := "[\n" + strings.Join(manifest, ",\n") + "\n]\n"
	return files, os.WriteFile(filepath.Join(dir, "collections.json"), []byte(m), 0o644)
}

// Load generates records of every demo collection straight into the store, with
// a small library and archive catalogue. progress may be nil.
func Load(ctx context.Context, s *research.Service, records int, seed uint64, progress func(collection string, rep *research.ImportReport)) error {
	shares := demoShares(records)
	for i, c := range Collections() {
		if shares[i] == 0 {
			continue
		}
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(WriteCSV(pw, c, shares[i], seed)) }()
		rep, err := s.ImportRecords(ctx, pr, nil, research.ImportOptions{Collection: c.Slug, Kind: c.Kind, Title: c.Title, Access: c.Access}, int64(shares[i])*400)
		pr.Close()
		if err != nil {
			return fmt.Errorf("demo %s: %w", c.Slug, err)
		}
		if _, err := s.DB().ExecContext(ctx, s.DB().Rebind(`UPDATE collections SET description = ? WHERE slug = ? AND description = ''`), c.Description, c.Slug); err != nil {
			return err
		}
		if progress != nil {
			progress(c.Slug, rep)
		}
	}
	return loadCatalogue(ctx, s, seed)
}

// loadCatalogue adds a small library and archive catalogue.
func loadCatalogue(ctx context.Context, s *research.Service, seed uint64) error {
	g := newDemoGen(seed + 7)
	if _, _, err := s.EnsureCollection(ctx, research.NewCollection{Slug: "society-library", Kind: research.KindLibrary, Title: "The society's library",
		Description: "Printed books, journals and parish register transcripts on the library's shelves."}); err != nil {
		return err
	}
	subjects := []string{"Parish registers", "Genealogy — handbooks", "Local history", "Heraldry", "Palaeography", "Census", "Probate", "Emigration", "Occupations", "Surnames"}
	var counties []string
	for _, p := range g.places.items {
		_, county, _ := strings.Cut(p, ", ")
		if !slices.Contains(counties, county) {
			counties = append(counties, county)
		}
	}
	for i := 0; i < 240; i++ {
		county := counties[g.r.IntN(len(counties))]
		subject := subjects[g.r.IntN(len(subjects))]
		var title string
		switch i % 4 {
		case 0:
			title = county + " parish registers: " + []string{"baptisms", "marriages", "burials"}[g.r.IntN(3)] + " " + strconv.Itoa(1600+g.r.IntN(200)) + "–" + strconv.Itoa(1800+g.r.IntN(100))
		case 1:
			title = "The " + g.surnames.pick(g.r) + " family of " + strings.Split(g.places.pick(g.r), ",")[0]
		case 2:
			title = "A guide to " + strings.ToLower(subject)
		default:
			title = "Journal of the " + county + " Family History Society, volume " + strconv.Itoa(1+g.r.IntN(40))
		}
		author := g.given("M", 1900) + " " + g.surnames.pick(g.r)
		if err := s.AddLibraryItem(ctx, "society-library", research.LibraryItem{Key: fmt.Sprintf("L%04d", i+1), Title: title, Authors: author,
			Year: 1890 + g.r.IntN(130), Publisher: county + " Record Society", Subjects: subject + "; " + county, Shelfmark: fmt.Sprintf("%s/%03d", strings.ToUpper(county[:3]), i+1)}); err != nil {
			return err
		}
	}
	if _, _, err := s.EnsureCollection(ctx, research.NewCollection{Slug: "society-archive", Kind: research.KindArchive, Title: "The society's archive",
		Description: "Deposited family papers, pedigrees and research notes."}); err != nil {
		return err
	}
	for f := 0; f < 12; f++ {
		family := g.surnames.pick(g.r)
		fonds := fmt.Sprintf("D/%s", strings.ToUpper(strings.ReplaceAll(strings.ReplaceAll(family, "'", ""), " ", "")[:3])+strconv.Itoa(f+1))
		if err := s.AddArchiveItem(ctx, "society-archive", research.ArchiveItem{Reference: fonds, Title: "Papers of the " + family + " family", Level: "fonds",
			Date: fmt.Sprintf("BET %d AND %d", 1700+g.r.IntN(100), 1850+g.r.IntN(100)), Description: "Deeds, letters and pedigrees of the " + family + " family of " + g.places.pick(g.r) + "."}); err != nil {
			return err
		}
		for sIdx := 0; sIdx < 3; sIdx++ {
			series := fmt.Sprintf("%s/%d", fonds, sIdx+1)
			kind := []string{"Deeds", "Correspondence", "Pedigrees and notes"}[sIdx]
			if err := s.AddArchiveItem(ctx, "society-archive", research.ArchiveItem{Reference: series, Parent: fonds, Title: kind, Level: "series",
				Description: kind + " of the " + family + " family."}); err != nil {
				return err
			}
			for it := 0; it < 6; it++ {
				y := 1700 + g.r.IntN(220)
				if err := s.AddArchiveItem(ctx, "society-archive", research.ArchiveItem{Reference: fmt.Sprintf("%s/%d", series, it+1), Parent: series,
					Title: fmt.Sprintf("%s: %s %s", strings.TrimSuffix(kind, "s"), g.given("M", y), family), Level: "item", Date: strconv.Itoa(y),
					Description: "Concerning " + g.places.pick(g.r) + "."}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
