package trees

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"strings"

	"lineage/internal/gedcom"
	"lineage/internal/store"
)

// NameView is one of a person's names.
type NameView struct {
	Full     string `json:"full"`
	Given    string `json:"given"`
	Surname  string `json:"surname"`
	Prefix   string `json:"prefix"`
	Suffix   string `json:"suffix"`
	Nickname string `json:"nickname"`
	Type     string `json:"type"`
}

// EventView is an event or attribute of a person or family.
type EventView struct {
	Tag   string     `json:"tag"`
	Label string     `json:"label"`
	Type  string     `json:"type"`
	Value string     `json:"value"`
	Date  *DateValue `json:"date"`
	Place string     `json:"place"`
	Age   string     `json:"age"`
	Cause string     `json:"cause"`
	Notes []string   `json:"notes"`
	// Position is the event's place in the person's timeline, their own events and
	// their families' together (timeline.go).
	Position int `json:"position"`

	lo, hi int
	dated  bool
}

// ParentFamily is a family the person is a child in.
type ParentFamily struct {
	Family   string           `json:"family"`
	Pedigree string           `json:"pedigree"`
	Partners []*PersonSummary `json:"partners"`
}

// FamilyView is a family the person is a partner in.
type FamilyView struct {
	ID       string           `json:"id"`
	Partner  *PersonSummary   `json:"partner"`
	Events   []EventView      `json:"events"`
	Children []*PersonSummary `json:"children"`
}

// SourceView is a source citation.
type SourceView struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Author      string `json:"author"`
	Publication string `json:"publication"`
	Page        string `json:"page"`
	Text        string `json:"text"`
}

// MediaView is a media link.
type MediaView struct {
	File   string `json:"file"`
	Format string `json:"format"`
	Title  string `json:"title"`
	URL    string `json:"url"`
}

// Person is a person's page (docs/trees.md).
type Person struct {
	Tree TreeRef `json:"tree"`
	*PersonSummary
	Names     []NameView       `json:"names"`
	Events    []EventView      `json:"events"`
	Parents   []ParentFamily   `json:"parents"`
	Siblings  []*PersonSummary `json:"siblings"`
	Families  []FamilyView     `json:"families"`
	Sources   []SourceView     `json:"sources"`
	Notes     []string         `json:"notes"`
	Media     []MediaView      `json:"media"`
	CanManage bool             `json:"can_manage"`
	// More names the lists cut from this answer and where their next page is (an
	// empty object when nothing was cut); Truncated says texts or inner lists were cut
	// (personpage.go).
	More      map[string]*More `json:"more"`
	Truncated bool             `json:"truncated"`
}

type link struct {
	pid      int64
	role     string
	fid      int64
	ord      int
	pedigree string
}

type famRow struct {
	fid                int64
	xref               string
	partner1, partner2 int64
}

// person reads the whole of a person's page with privacy applied; Person and
// PersonSection give it in bounded parts.
func (s *Service) person(ctx context.Context, slug, id string) (*Person, error) {
	v := s.viewerOf(ctx)
	t, err := s.openTree(ctx, slug, v)
	if err != nil {
		return nil, err
	}
	priv := t.CanManage
	sum, err := scanSummary(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+summaryCols+` FROM tree_people WHERE tree_id = ? AND xref = ?`), t.ID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	hidden := sum.Living && !priv
	p := &Person{Tree: TreeRef{t.Slug, t.Title}, PersonSummary: sum.redact(priv), CanManage: priv,
		Names: []NameView{}, Events: []EventView{}, Parents: []ParentFamily{}, Siblings: []*PersonSummary{},
		Families: []FamilyView{}, Sources: []SourceView{}, Notes: []string{}, Media: []MediaView{}}

	// Relatives.
	own, err := s.links(ctx, t.ID, `pid = ?`, sum.pid)
	if err != nil {
		return nil, err
	}
	var fids []int64
	for _, l := range own {
		fids = append(fids, l.fid)
	}
	fams, err := s.families(ctx, t.ID, fids)
	if err != nil {
		return nil, err
	}
	var members []link
	if len(fids) > 0 {
		if members, err = s.links(ctx, t.ID, `fid IN (`+int64List(fids)+`)`); err != nil {
			return nil, err
		}
	}
	var keys []personKey
	for _, m := range members {
		keys = append(keys, personKey{t.ID, m.pid})
	}
	rel, err := s.summaries(ctx, keys)
	if err != nil {
		return nil, err
	}
	relative := func(pid int64, extra func(*PersonSummary)) *PersonSummary {
		r := rel[personKey{t.ID, pid}]
		if r == nil {
			return nil
		}
		c := *r
		c.redact(priv)
		if extra != nil {
			extra(&c)
		}
		return &c
	}
	seenSib := map[int64]bool{}
	var famRecs []string
	for _, l := range own {
		f := fams[l.fid]
		if f == nil {
			continue
		}
		switch l.role {
		case "C":
			pf := ParentFamily{Family: f.xref, Pedigree: l.pedigree, Partners: []*PersonSummary{}}
			for _, m := range members {
				if m.fid != l.fid {
					continue
				}
				if m.role == "P" {
					if r := relative(m.pid, nil); r != nil {
						pf.Partners = append(pf.Partners, r)
					}
				} else if m.pid != sum.pid && !seenSib[m.pid] {
					seenSib[m.pid] = true
					if r := relative(m.pid, func(c *PersonSummary) { c.Family = f.xref }); r != nil {
						p.Siblings = append(p.Siblings, r)
					}
				}
			}
			p.Parents = append(p.Parents, pf)
		case "P":
			fv := FamilyView{ID: f.xref, Events: []EventView{}, Children: []*PersonSummary{}}
			showEvents := !hidden
			for _, m := range members {
				if m.fid != l.fid {
					continue
				}
				if m.role == "P" && m.pid != sum.pid {
					fv.Partner = relative(m.pid, nil)
					if r := rel[personKey{t.ID, m.pid}]; r != nil && r.Living && !priv {
						showEvents = false
					}
				} else if m.role == "C" {
					ped := m.pedigree
					if r := relative(m.pid, func(c *PersonSummary) { c.Pedigree = ped }); r != nil {
						fv.Children = append(fv.Children, r)
					}
				}
			}
			if showEvents {
				famRecs = append(famRecs, f.xref)
			}
			p.Families = append(p.Families, fv)
		}
	}
	if hidden {
		return p, nil
	}

	// The person's own record, and the records it and its families point to.
	rec, err := s.rawRecord(ctx, t.ID, "INDI", sum.ID, sum.pid)
	if err != nil {
		return nil, err
	}
	famLines := map[string]*gedcom.Line{}
	for i, fv := range p.Families {
		if !slices.Contains(famRecs, fv.ID) {
			continue
		}
		var fid int64
		for _, l := range own {
			if l.role == "P" && fams[l.fid] != nil && fams[l.fid].xref == fv.ID {
				fid = l.fid
			}
		}
		fr, err := s.rawRecord(ctx, t.ID, "FAM", fv.ID, fid)
		if err != nil {
			return nil, err
		}
		famLines[fv.ID] = fr
		_ = i
	}
	refs, err := s.pointed(ctx, t.ID, append([]*gedcom.Line{rec}, mapValues(famLines)...))
	if err != nil {
		return nil, err
	}
	for _, c := range rec.Children {
		switch c.Tag {
		case "NAME":
			p.Names = append(p.Names, nameView(parseName(c)))
			for _, tr := range c.Children {
				if tr.Tag == "TRAN" || tr.Tag == "ROMN" || tr.Tag == "FONE" {
					n := parseName(tr)
					if n.typ == "" {
						n.typ = map[string]string{"TRAN": "translation", "ROMN": "romanised", "FONE": "phonetic"}[tr.Tag]
					}
					p.Names = append(p.Names, nameView(n))
				}
			}
		case "NOTE", "SNOTE":
			if n := noteText(c, refs); n != "" {
				p.Notes = append(p.Notes, n)
			}
		case "OBJE":
			p.Media = append(p.Media, mediaView(c, refs))
		default:
			if isEventTag(c.Tag) && (priv || !restrictedBy(c)) {
				p.Events = append(p.Events, eventView(c, refs))
			}
		}
	}
	famEvents := make([][]EventView, len(p.Families))
	for i := range p.Families {
		if fr := famLines[p.Families[i].ID]; fr != nil && (priv || !restrictedBy(fr)) {
			for _, c := range fr.Children {
				if isEventTag(c.Tag) && (priv || !restrictedBy(c)) {
					p.Families[i].Events = append(p.Families[i].Events, eventView(c, refs))
				}
			}
		}
		famEvents[i] = p.Families[i].Events
	}
	orderTimeline(p.Events, famEvents)
	rec.Walk(func(l *gedcom.Line) bool {
		if l.Level > 0 && !priv && restrictedBy(l) {
			return false
		}
		if l.Tag == "SOUR" && l.Level > 0 {
			p.Sources = append(p.Sources, sourceView(l, refs))
			return false
		}
		return true
	})
	return p, nil
}

func mapValues(m map[string]*gedcom.Line) []*gedcom.Line {
	out := make([]*gedcom.Line, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func nameView(n nameInfo) NameView {
	return NameView{Full: n.full, Given: n.given, Surname: n.surname, Prefix: n.prefix, Suffix: n.suffix, Nickname: n.nickname, Type: n.typ}
}

func eventView(l *gedcom.Line, refs map[string]*gedcom.Line) EventView {
	e := parseEvent(l)
	label := eventLabels[e.tag]
	if (e.tag == "EVEN" || e.tag == "FACT") && e.typ != "" {
		label = e.typ
	}
	ev := EventView{Tag: e.tag, Label: label, Type: e.typ, Value: e.value, Date: dateOf(&e), Place: e.place,
		Age: strings.TrimSpace(l.ChildValue("AGE")), Cause: strings.TrimSpace(l.ChildValue("CAUS")), Notes: []string{},
		lo: e.lo, hi: e.hi, dated: e.hasRange}
	for _, c := range l.Children {
		if c.Tag == "NOTE" || c.Tag == "SNOTE" {
			if n := noteText(c, refs); n != "" {
				ev.Notes = append(ev.Notes, n)
			}
		}
	}
	return ev
}

func noteText(l *gedcom.Line, refs map[string]*gedcom.Line) string {
	if l.Pointer != "" {
		if r := refs[l.Pointer]; r != nil {
			return r.Value
		}
		return ""
	}
	return l.Value
}

func sourceView(l *gedcom.Line, refs map[string]*gedcom.Line) SourceView {
	sv := SourceView{Page: strings.TrimSpace(l.ChildValue("PAGE")), Text: l.Path("DATA", "TEXT").ValueOrEmpty()}
	if l.Pointer != "" {
		sv.ID = safeID(l.Pointer)
		if r := refs[l.Pointer]; r != nil {
			sv.Title = strings.TrimSpace(r.ChildValue("TITL"))
			if sv.Title == "" {
				sv.Title = strings.TrimSpace(r.ChildValue("ABBR"))
			}
			if sv.Title == "" {
				// A 5.5.1 source described inline becomes, in 7.0, a record with the
				// description as its NOTE.
				sv.Title = strings.TrimSpace(r.ChildValue("NOTE"))
			}
			sv.Author = strings.TrimSpace(r.ChildValue("AUTH"))
			sv.Publication = strings.TrimSpace(r.ChildValue("PUBL"))
		}
	} else {
		sv.Title = l.Value
		if sv.Text == "" {
			sv.Text = l.ChildValue("TEXT")
		}
	}
	return sv
}

func mediaView(l *gedcom.Line, refs map[string]*gedcom.Line) MediaView {
	o := l
	if l.Pointer != "" {
		o = refs[l.Pointer]
		if o == nil {
			return MediaView{}
		}
	}
	m := MediaView{Title: strings.TrimSpace(o.ChildValue("TITL")), Format: strings.TrimSpace(o.ChildValue("FORM"))}
	if f := o.Child("FILE"); f != nil {
		m.File = strings.TrimSpace(f.Value)
		if x := strings.TrimSpace(f.ChildValue("FORM")); x != "" {
			m.Format = x
		}
		if x := strings.TrimSpace(f.ChildValue("TITL")); x != "" && m.Title == "" {
			m.Title = x
		}
	}
	if strings.HasPrefix(m.File, "http://") || strings.HasPrefix(m.File, "https://") {
		m.URL = m.File
	}
	return m
}

func (s *Service) links(ctx context.Context, treeID int64, cond string, args ...any) ([]link, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT pid, role, fid, ord, pedigree FROM tree_links WHERE tree_id = ? AND `+cond+
		` ORDER BY fid, role DESC, ord`), append([]any{treeID}, args...)...)
	return store.Collect(rows, err, func(row store.Row) (l link, err error) {
		err = row.Scan(&l.pid, &l.role, &l.fid, &l.ord, &l.pedigree)
		return l, err
	})
}

func (s *Service) families(ctx context.Context, treeID int64, fids []int64) (map[int64]*famRow, error) {
	out := map[int64]*famRow{}
	slices.Sort(fids)
	fids = slices.Compact(fids)
	for chunk := range slices.Chunk(fids, 500) {
		rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT fid, xref, partner1, partner2 FROM tree_families WHERE tree_id = ? AND fid IN (`+int64List(chunk)+`)`), treeID)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			f := &famRow{}
			if err := rows.Scan(&f.fid, &f.xref, &f.partner1, &f.partner2); err != nil {
				rows.Close()
				return nil, err
			}
			out[f.fid] = f
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// unescapeID reverses safeID for ids it escaped.
func unescapeID(id string) string {
	if !strings.Contains(id, "_") {
		return id
	}
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		if id[i] == '_' && i+2 < len(id) {
			if v, err := strconv.ParseUint(id[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(id[i])
	}
	return b.String()
}

// rawRecord reads the stored record of a person or family: by its identifier, or, for
// records without one, as the n-th record of its tag.
func (s *Service) rawRecord(ctx context.Context, treeID int64, tag, id string, n int64) (*gedcom.Line, error) {
	for _, x := range []string{id, unescapeID(id)} {
		rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT data FROM tree_records WHERE tree_id = ? AND xref = ? AND tag = ? ORDER BY seq`), treeID, x, tag)
		datas, err := store.Collect(rows, err, store.Scalar[string])
		if err != nil {
			return nil, err
		}
		if len(datas) > 0 && safeID(x) == id {
			return decodeRecord(datas[0])
		}
	}
	var d string
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT data FROM tree_records WHERE tree_id = ? AND tag = ? ORDER BY seq LIMIT 1 OFFSET ?`), treeID, tag, n-1).Scan(&d)
	if err != nil {
		return nil, err
	}
	return decodeRecord(d)
}

// pointed reads the records that SOUR, NOTE, SNOTE and OBJE lines of recs point to.
func (s *Service) pointed(ctx context.Context, treeID int64, recs []*gedcom.Line) (map[string]*gedcom.Line, error) {
	want := map[string]bool{}
	for _, r := range recs {
		r.Walk(func(l *gedcom.Line) bool {
			if l.Level > 0 && l.Pointer != "" && !l.IsVoid() {
				switch l.Tag {
				case "SOUR", "NOTE", "SNOTE", "OBJE":
					want[l.Pointer] = true
				}
			}
			return true
		})
	}
	out := map[string]*gedcom.Line{}
	var xs []any
	for x := range want {
		xs = append(xs, x)
	}
	for chunk := range slices.Chunk(xs, 500) {
		rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT xref, data FROM tree_records WHERE tree_id = ? AND xref IN (`+store.Placeholders(len(chunk))+`) ORDER BY seq`),
			append([]any{treeID}, chunk...)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var x, d string
			if err := rows.Scan(&x, &d); err != nil {
				rows.Close()
				return nil, err
			}
			if _, ok := out[x]; ok {
				continue
			}
			l, err := decodeRecord(d)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out[x] = l
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
