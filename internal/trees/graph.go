package trees

import (
	"context"
	"database/sql"
	"errors"
	"slices"

	"lineage/internal/gendate"
	"lineage/internal/store"
)

// Graph limits.
const (
	MaxGraphPeople      = 2000
	MaxGraphGenerations = 10
)

// Graph kinds.
var graphKinds = []string{"pedigree", "descendants", "hourglass"}

// GraphDate is topola's JsonDate.
type GraphDate struct {
	Qualifier string `json:"qualifier,omitempty"`
	Day       int    `json:"day,omitempty"`
	Month     int    `json:"month,omitempty"`
	Year      int    `json:"year,omitempty"`
	Text      string `json:"text,omitempty"`
}

// GraphEvent is topola's JsonEvent.
type GraphEvent struct {
	Date  *GraphDate `json:"date,omitempty"`
	Place string     `json:"place,omitempty"`
}

// GraphIndi is topola's JsonIndi, plus name and living.
type GraphIndi struct {
	ID        string      `json:"id"`
	FirstName string      `json:"firstName"`
	LastName  string      `json:"lastName"`
	Sex       string      `json:"sex,omitempty"`
	Famc      string      `json:"famc,omitempty"`
	Fams      []string    `json:"fams"`
	Birth     *GraphEvent `json:"birth,omitempty"`
	Death     *GraphEvent `json:"death,omitempty"`
	Name      string      `json:"name"`
	Living    bool        `json:"living"`
}

// GraphFam is topola's JsonFam.
type GraphFam struct {
	ID       string      `json:"id"`
	Husb     string      `json:"husb,omitempty"`
	Wife     string      `json:"wife,omitempty"`
	Children []string    `json:"children"`
	Marriage *GraphEvent `json:"marriage,omitempty"`
}

// Graph is the chart data around one person (docs/trees.md).
type Graph struct {
	Start       string      `json:"start"`
	Kind        string      `json:"kind"`
	Generations int         `json:"generations"`
	Truncated   bool        `json:"truncated"`
	Indis       []GraphIndi `json:"indis"`
	Fams        []GraphFam  `json:"fams"`
}

// ValidGraphKind reports whether k is a chart kind.
func ValidGraphKind(k string) bool { return slices.Contains(graphKinds, k) }

// Graph walks the tree from a person: ancestors (pedigree), descendants with their
// partners (descendants), or both (hourglass).
func (s *Service) Graph(ctx context.Context, slug, id, kind string, generations int) (*Graph, error) {
	v := s.viewerOf(ctx)
	t, err := s.openTree(ctx, slug, v)
	if err != nil {
		return nil, err
	}
	priv := t.CanManage
	var startPid int64
	err = s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT pid FROM tree_people WHERE tree_id = ? AND xref = ?`), t.ID, id).Scan(&startPid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	g := &Graph{Start: id, Kind: kind, Generations: generations, Indis: []GraphIndi{}, Fams: []GraphFam{}}
	people := map[int64]bool{startPid: true}
	famSet := map[int64]bool{}
	full := func() bool {
		if len(people) >= MaxGraphPeople {
			g.Truncated = true
			return true
		}
		return false
	}
	// linksOf reads the links of pids (role "" both) and of the families they name.
	linksByPids := func(pids []int64, role string) ([]link, error) {
		if len(pids) == 0 {
			return nil, nil
		}
		cond := `pid IN (` + int64List(pids) + `)`
		if role != "" {
			cond += ` AND role = '` + role + `'`
		}
		return s.links(ctx, t.ID, cond)
	}
	linksByFids := func(fids []int64) ([]link, error) {
		if len(fids) == 0 {
			return nil, nil
		}
		return s.links(ctx, t.ID, `fid IN (`+int64List(fids)+`)`)
	}
	// walk goes from the start person generation by generation through the families
	// they are linked to as role: as a child ("C") up to the parents, who carry the walk
	// on; as a partner ("P") down to partners and children, and the children carry it on.
	// Going down, a family met before is read again for members the walk has not met.
	walk := func(role string) error {
		up := role == "C"
		gen := []int64{startPid}
		for i := 0; i < generations && len(gen) > 0 && !full(); i++ {
			ls, err := linksByPids(gen, role)
			if err != nil {
				return err
			}
			var fids []int64
			for _, l := range ls {
				if up && famSet[l.fid] {
					continue
				}
				famSet[l.fid] = true
				fids = append(fids, l.fid)
			}
			ms, err := linksByFids(fids)
			if err != nil {
				return err
			}
			var next []int64
			for _, m := range ms {
				if (up && m.role != "P") || people[m.pid] || full() {
					continue
				}
				people[m.pid] = true
				if m.role != role {
					next = append(next, m.pid)
				}
			}
			gen = next
		}
		return nil
	}
	if kind == "pedigree" || kind == "hourglass" {
		if err := walk("C"); err != nil {
			return nil, err
		}
	}
	if kind == "descendants" || kind == "hourglass" {
		if err := walk("P"); err != nil {
			return nil, err
		}
	}

	// Everything about the people and families in the walk.
	var pids, fids []int64
	for p := range people {
		pids = append(pids, p)
	}
	for f := range famSet {
		fids = append(fids, f)
	}
	slices.Sort(pids)
	slices.Sort(fids)
	keys := make([]personKey, len(pids))
	for i, p := range pids {
		keys[i] = personKey{t.ID, p}
	}
	sums, err := s.summaries(ctx, keys)
	if err != nil {
		return nil, err
	}
	fams, err := s.families(ctx, t.ID, fids)
	if err != nil {
		return nil, err
	}
	ms, err := linksByFids(fids)
	if err != nil {
		return nil, err
	}
	idOf := func(pid int64) string {
		if !people[pid] {
			return ""
		}
		if p := sums[personKey{t.ID, pid}]; p != nil {
			return p.ID
		}
		return ""
	}
	famc := map[int64]string{}
	famcPed := map[int64]string{}
	fams2 := map[int64][]string{}
	children := map[int64][]string{}
	livingFam := map[int64]bool{}
	for _, m := range ms {
		f := fams[m.fid]
		if f == nil || !people[m.pid] {
			continue
		}
		switch m.role {
		case "C":
			if _, ok := famc[m.pid]; !ok || (famcPed[m.pid] != "birth" && m.pedigree == "birth") {
				famc[m.pid], famcPed[m.pid] = f.xref, m.pedigree
			}
			children[m.fid] = append(children[m.fid], idOf(m.pid))
		case "P":
			fams2[m.pid] = append(fams2[m.pid], f.xref)
			if p := sums[personKey{t.ID, m.pid}]; p != nil && p.Living && !priv {
				livingFam[m.fid] = true
			}
		}
	}
	for _, pid := range pids {
		p := sums[personKey{t.ID, pid}]
		if p == nil {
			continue
		}
		hidden := p.Living && !priv
		gi := GraphIndi{ID: p.ID, FirstName: p.Given, LastName: p.Surname, Sex: p.Sex, Famc: famc[pid], Fams: fams2[pid], Name: p.Name, Living: p.Living}
		if gi.Fams == nil {
			gi.Fams = []string{}
		}
		if hidden {
			gi.FirstName, gi.LastName, gi.Name = LivingName, "", LivingName
		} else {
			gi.Birth, gi.Death = graphEvent(p.Birth), graphEvent(p.Death)
		}
		g.Indis = append(g.Indis, gi)
	}
	var marrXrefs []string
	for _, fid := range fids {
		if f := fams[fid]; f != nil && !livingFam[fid] {
			marrXrefs = append(marrXrefs, f.xref)
		}
	}
	marriages, err := s.marriages(ctx, t.ID, marrXrefs)
	if err != nil {
		return nil, err
	}
	for _, fid := range fids {
		f := fams[fid]
		if f == nil {
			continue
		}
		gf := GraphFam{ID: f.xref, Husb: idOf(f.partner1), Wife: idOf(f.partner2), Children: children[fid]}
		if gf.Children == nil {
			gf.Children = []string{}
		}
		if !livingFam[fid] {
			gf.Marriage = marriages[f.xref]
		}
		g.Fams = append(g.Fams, gf)
	}
	return g, nil
}

func graphEvent(e *EventPlace) *GraphEvent {
	if e == nil {
		return nil
	}
	ge := &GraphEvent{Place: e.Place}
	if e.Date != nil {
		ge.Date = graphDate(e.Date.Text)
	}
	return ge
}

func graphDate(text string) *GraphDate {
	if text == "" {
		return nil
	}
	gd := &GraphDate{Text: text}
	d, err := gendate.Parse(text)
	if err != nil || !d.HasRange() {
		return gd
	}
	switch d.Kind {
	case gendate.About:
		gd.Qualifier = "abt"
	case gendate.Before:
		gd.Qualifier = "bef"
	case gendate.After:
		gd.Qualifier = "aft"
	case gendate.Calculated:
		gd.Qualifier = "cal"
	case gendate.Estimated:
		gd.Qualifier = "est"
	}
	switch d.Kind {
	case gendate.Exact, gendate.About, gendate.Before, gendate.After, gendate.Calculated, gendate.Estimated:
		if d.Start.Calendar == gendate.Gregorian && d.Start.Quarter == 0 && !d.Start.BCE {
			gd.Year, gd.Month, gd.Day = d.Start.Year, d.Start.Month, d.Start.Day
		} else {
			y, _, _ := gendate.JDNToGregorian(d.Stated.Earliest)
			gd.Year = y
		}
	default:
		y, _, _ := gendate.JDNToGregorian(d.Stated.Earliest)
		gd.Year = y
	}
	return gd
}

// marriages reads the first MARR of each family record.
func (s *Service) marriages(ctx context.Context, treeID int64, xrefs []string) (map[string]*GraphEvent, error) {
	out := map[string]*GraphEvent{}
	var args []any
	for _, x := range xrefs {
		args = append(args, x, unescapeID(x))
	}
	for chunk := range slices.Chunk(args, 500) {
		rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT data FROM tree_records WHERE tree_id = ? AND tag = 'FAM' AND xref IN (`+store.Placeholders(len(chunk))+`)`),
			append([]any{treeID}, chunk...)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var d string
			if err := rows.Scan(&d); err != nil {
				rows.Close()
				return nil, err
			}
			rec, err := decodeRecord(d)
			if err != nil {
				rows.Close()
				return nil, err
			}
			if m := rec.Child("MARR"); m != nil && !restrictedBy(rec) && !restrictedBy(m) {
				e := parseEvent(m)
				ge := &GraphEvent{Place: e.place, Date: graphDate(e.dateText)}
				if ge.Place != "" || ge.Date != nil {
					out[safeID(rec.Xref)] = ge
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
