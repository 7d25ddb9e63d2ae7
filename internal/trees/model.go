package trees

import (
	"slices"
	"strings"

	"lineage/internal/gedcom"
	"lineage/internal/gendate"
	"lineage/internal/names"
)

// Tags of events and attributes, with English labels (docs/trees.md: Person.events).
var eventLabels = map[string]string{
	// individual events
	"BIRT": "Birth", "CHR": "Christening", "DEAT": "Death", "BURI": "Burial", "CREM": "Cremation",
	"ADOP": "Adoption", "BAPM": "Baptism", "BARM": "Bar mitzvah", "BASM": "Bat mitzvah",
	"BLES": "Blessing", "CHRA": "Adult christening", "CONF": "Confirmation",
	"FCOM": "First communion", "ORDN": "Ordination", "NATU": "Naturalisation",
	"EMIG": "Emigration", "IMMI": "Immigration", "CENS": "Census", "PROB": "Probate",
	"WILL": "Will", "GRAD": "Graduation", "RETI": "Retirement", "EVEN": "Event",
	// attributes
	"CAST": "Caste", "DSCR": "Physical description", "EDUC": "Education",
	"IDNO": "Identity number", "NATI": "Nationality", "NCHI": "Number of children",
	"NMR": "Number of marriages", "OCCU": "Occupation", "PROP": "Property",
	"RELI": "Religion", "RESI": "Residence", "SSN": "Social security number",
	"TITL": "Title", "FACT": "Fact",
	// LDS ordinances
	"BAPL": "Baptism (LDS)", "CONL": "Confirmation (LDS)", "ENDL": "Endowment (LDS)",
	"INIL": "Initiatory (LDS)", "SLGC": "Sealing to parents (LDS)", "SLGS": "Sealing to spouse (LDS)",
	// family events
	"ANUL": "Annulment", "DIV": "Divorce", "DIVF": "Divorce filed", "ENGA": "Engagement",
	"MARB": "Marriage banns", "MARC": "Marriage contract", "MARR": "Marriage",
	"MARL": "Marriage licence", "MARS": "Marriage settlement",
}

// restrictedBy reports whether a structure carries RESN confidential or privacy
// (GEDCOM 5.5.1 lower case, 7.0 upper case and comma lists): it is shown to the tree's
// owner, editors and admins only.
func restrictedBy(l *gedcom.Line) bool {
	for _, c := range l.Children {
		if c.Tag == "RESN" {
			v := strings.ToLower(c.Value)
			if strings.Contains(v, "confidential") || strings.Contains(v, "privacy") {
				return true
			}
		}
	}
	return false
}

// isEventTag reports whether a tag under INDI or FAM is an event or attribute.
func isEventTag(tag string) bool {
	_, ok := eventLabels[tag]
	return ok
}

type nameInfo struct {
	full, given, surname, prefix, suffix, nickname, typ string
}

type eventInfo struct {
	tag, typ, value, place string
	dateText               string
	hasRange               bool
	lo, hi                 int
	kind                   gendate.Kind
	restricted             bool // RESN confidential or privacy on the event
}

// personInfo is what the importer keeps of an INDI record until the whole file is read.
type personInfo struct {
	pid        int
	xref       string
	sex        string
	dead       bool // DEAT, BURI or CREM present
	restricted bool // RESN confidential or privacy
	names      []nameInfo
	events     []eventInfo
	famc       []famcRef
	fams       []string
	living     bool
}

type famcRef struct {
	xref, pedigree string
}

type familyInfo struct {
	restricted bool // RESN confidential or privacy on the family
	fid        int
	xref       string
	partners   []string // HUSB, WIFE pointers in file order
	children   []string // CHIL pointers in order
	events     []eventInfo
}

// parseName reads a NAME structure.
func parseName(l *gedcom.Line) nameInfo {
	v := l.Value
	n := nameInfo{typ: strings.ToLower(strings.TrimSpace(l.ChildValue("TYPE")))}
	if t := l.Child("TYPE"); t != nil && n.typ == "other" {
		if ph := strings.TrimSpace(t.ChildValue("PHRASE")); ph != "" {
			n.typ = strings.ToLower(ph) // GEDCOM 7: TYPE OTHER with the 5.5.1 value as PHRASE
		}
	}
	if i := strings.IndexByte(v, '/'); i >= 0 {
		n.given = strings.TrimSpace(v[:i])
		rest := v[i+1:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			n.surname = strings.TrimSpace(rest[:j])
			n.suffix = strings.TrimSpace(rest[j+1:])
		} else {
			n.surname = strings.TrimSpace(rest)
		}
	} else {
		n.given = strings.TrimSpace(v)
	}
	if g := l.ChildValue("GIVN"); n.given == "" && g != "" {
		n.given = strings.TrimSpace(g)
	}
	if s := l.ChildValue("SURN"); n.surname == "" && s != "" {
		n.surname = strings.TrimSpace(s)
	}
	n.prefix = strings.TrimSpace(l.ChildValue("NPFX"))
	if s := strings.TrimSpace(l.ChildValue("NSFX")); s != "" {
		n.suffix = s
	}
	n.nickname = strings.TrimSpace(l.ChildValue("NICK"))
	n.full = joinName(n.given, n.surname)
	if n.suffix != "" {
		n.full = strings.TrimSpace(n.full + " " + n.suffix)
	}
	return n
}

func joinName(given, surname string) string {
	return strings.TrimSpace(strings.Join(strings.Fields(given+" "+surname), " "))
}

// parseEvent reads an event or attribute structure.
func parseEvent(l *gedcom.Line) eventInfo {
	e := eventInfo{tag: l.Tag, typ: strings.TrimSpace(l.ChildValue("TYPE")), value: strings.TrimSpace(l.Value), restricted: restrictedBy(l)}
	if e.tag == "DEAT" || e.tag == "BIRT" || e.tag == "CHR" || e.tag == "MARR" || e.tag == "BURI" {
		if strings.EqualFold(e.value, "Y") {
			e.value = ""
		}
	}
	e.place = strings.TrimSpace(l.Path("PLAC").ValueOrEmpty())
	if d := l.Child("DATE"); d != nil {
		e.dateText = strings.TrimSpace(d.Value)
		if ph := strings.TrimSpace(d.ChildValue("PHRASE")); e.dateText == "" && ph != "" {
			e.dateText = "(" + ph + ")" // GEDCOM 7's phrase-only date, as 5.5.1 writes it
		}
		if e.dateText != "" {
			if gd, err := gendate.Parse(e.dateText); err == nil && gd.HasRange() {
				e.hasRange, e.lo, e.hi, e.kind = true, gd.Range.Earliest, gd.Range.Latest, gd.Kind
			}
		}
	}
	return e
}

// readPerson extracts what the tables and the living rule need from an INDI record.
func readPerson(rec *gedcom.Line) *personInfo {
	p := &personInfo{xref: rec.Xref, sex: "U"}
	for _, c := range rec.Children {
		switch c.Tag {
		case "NAME":
			n := parseName(c)
			p.names = append(p.names, n)
			for _, t := range c.Children {
				switch t.Tag {
				case "TRAN", "ROMN", "FONE":
					tn := parseName(t)
					if tn.typ == "" {
						tn.typ = map[string]string{"TRAN": "translation", "ROMN": "romanised", "FONE": "phonetic"}[t.Tag]
					}
					p.names = append(p.names, tn)
				}
			}
		case "SEX":
			switch v := strings.ToUpper(strings.TrimSpace(c.Value)); {
			case strings.HasPrefix(v, "M"):
				p.sex = "M"
			case strings.HasPrefix(v, "F"):
				p.sex = "F"
			case strings.HasPrefix(v, "X"):
				p.sex = "X"
			}
		case "RESN":
			p.restricted = restrictedBy(rec)
		case "FAMC":
			if c.Pointer != "" && !c.IsVoid() {
				pedi := strings.ToLower(strings.TrimSpace(c.ChildValue("PEDI")))
				if pedi == "" {
					pedi = "birth"
				}
				p.famc = append(p.famc, famcRef{xref: c.Pointer, pedigree: pedi})
			}
		case "FAMS":
			if c.Pointer != "" && !c.IsVoid() {
				p.fams = append(p.fams, c.Pointer)
			}
		default:
			if isEventTag(c.Tag) {
				if c.Tag == "DEAT" || c.Tag == "BURI" || c.Tag == "CREM" {
					p.dead = true
				}
				p.events = append(p.events, parseEvent(c))
			}
		}
	}
	return p
}

func readFamily(rec *gedcom.Line) *familyInfo {
	f := &familyInfo{xref: rec.Xref, restricted: restrictedBy(rec)}
	for _, c := range rec.Children {
		switch c.Tag {
		case "HUSB", "WIFE":
			if c.Pointer != "" && !c.IsVoid() && !slices.Contains(f.partners, c.Pointer) {
				f.partners = append(f.partners, c.Pointer)
			}
		case "CHIL":
			if c.Pointer != "" && !c.IsVoid() && !slices.Contains(f.children, c.Pointer) {
				f.children = append(f.children, c.Pointer)
			}
		default:
			if isEventTag(c.Tag) {
				f.events = append(f.events, parseEvent(c))
			}
		}
	}
	return f
}

// birthEvent is the event that stands for a birth: BIRT, else CHR or BAPM.
func birthEvent(evs []eventInfo) *eventInfo { return firstOf(evs, "BIRT", "CHR", "BAPM") }

// deathEvent is DEAT, else BURI or CREM.
func deathEvent(evs []eventInfo) *eventInfo { return firstOf(evs, "DEAT", "BURI", "CREM") }

func firstOf(evs []eventInfo, tags ...string) *eventInfo {
	for _, t := range tags {
		for i := range evs {
			if evs[i].tag == t && (evs[i].dateText != "" || evs[i].place != "") {
				return &evs[i]
			}
		}
	}
	for _, t := range tags {
		for i := range evs {
			if evs[i].tag == t {
				return &evs[i]
			}
		}
	}
	return nil
}

// displayName is the person's first name, or "(unknown)".
func (p *personInfo) display() (name, given, surname string) {
	if len(p.names) > 0 {
		n := p.names[0]
		if n.full != "" {
			return n.full, n.given, n.surname
		}
	}
	return "(unknown)", "", ""
}

func sortKey(given, surname string) string {
	return names.SurnameKey(surname) + " " + names.Fold(given)
}

// safeID writes an xref as an id safe in a URL path segment (docs/trees.md).
func safeID(xref string) string {
	ok := true
	for i := 0; i < len(xref); i++ {
		if !idByte(xref[i]) {
			ok = false
			break
		}
	}
	if ok {
		return xref
	}
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(xref); i++ {
		c := xref[i]
		if idByte(c) && c != '_' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

func idByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c >= 'a' && c <= 'z'
}
