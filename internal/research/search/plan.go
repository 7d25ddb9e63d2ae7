package search

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"lineage/internal/gendate"
	"lineage/internal/names"
	"lineage/internal/research/gazetteer"
	"lineage/internal/research/index"
	"lineage/internal/store"
)

// Points of each field's match quality (package doc, "Ranking").
const (
	ptsSurnameExact    = 40
	ptsSurnameVariant  = 30
	ptsSurnamePhonetic = 20
	ptsGivenExact      = 20
	ptsGivenVariant    = 15
	ptsGivenInitial    = 10
	ptsYearExact       = 15
	ptsYearNear        = 10
	ptsYearLoose       = 6
	ptsPlaceIn         = 15
	ptsPlaceBroader    = 7
)

// plan is a query resolved against the dictionaries and the gazetteer: every
// condition is a set of small integers, checked the same way by SQL (where) and Go
// (match).
type plan struct {
	q     *Query
	empty bool // a condition matches nothing

	surname bool
	sPts    map[int64]int // surname id → points
	sFolded map[int64]string

	given bool
	gPts  map[int64]int // given-names id → points; id 0 (none recorded) scores 0

	year       bool
	lo, hi     int // days a record's range must overlap
	exLo, exHi int // the year asked for itself (exLo > exHi: no such level)

	place      bool
	inPlaces   map[int64]bool
	inCounties map[int64]bool
	broader    map[int64]bool
	// estCounties are the counties the place's records can be in (for estimates from
	// name_facets); nil when the place is not within counties.
	estCounties map[int64]bool

	colls, types, roles []int64 // nil: any
	// recordCollections are the collections a search without a surname reads: the
	// chosen ones, or every collection of records.
	recordCollections []int64

	rel       bool
	relS      map[int64]bool // relative's surname ids (nil: not asked)
	relG      map[int64]bool // relative's given-names ids (nil: not asked)
	relEither bool           // one word: the relative's surname or given name
	relRoles  []int64        // nil: any role

	// paywall is set for a requester who is not a member: the persons teasers
	// withhold are not matched (paywall.go).
	paywall *paywall

	SearchTables bool // SQLite's search tables are built (keysFrom)
	byGiven      bool // candidates are read in the given-names order (givenOrderPays)
}

// keyRow is one row of search_keys.
type keyRow struct {
	id                                  int64
	surname, given, place, county, coll int64
	typ, role                           int64
	span, dq                            int
	lo, hi                              int
}

func (r *keyRow) record() int64 { return r.id / index.MaxKeyWidth }
func (r *keyRow) seq() int      { return int(r.id % index.MaxKeyWidth) }

// keyRowCols selects a search_keys row packed into five integers: converting each
// column costs more than the arithmetic (ids are below 2^31, day numbers positive and
// below 2^31, collections below 2^23, types and roles below 2^16).
const keyRowCols = `k.id, k.surname_id * 4294967296 + k.given_id, k.place_id * 4294967296 + k.county_id, ` +
	`k.collection_id * 1099511627776 + k.type_id * 16777216 + k.role_id * 256 + k.span * 16 + k.dq, k.jdn_lo * 4294967296 + k.jdn_hi`

func scanKeyRow(rows *sql.Rows, r *keyRow) error {
	var sg, pc, m, lh int64
	if err := rows.Scan(&r.id, &sg, &pc, &m, &lh); err != nil {
		return err
	}
	r.surname, r.given = sg>>32, sg&0xffffffff
	r.place, r.county = pc>>32, pc&0xffffffff
	r.coll, r.typ, r.role = m>>40, (m>>24)&0xffff, (m>>8)&0xffff
	r.span, r.dq = int((m>>4)&0xf), int(m&0xf)
	r.lo, r.hi = int(lh>>32), int(lh&0xffffffff)
	return nil
}

// InvalidQuery is a problem with a query found while resolving it (an unknown place or
// collection), reported like a validation error.
type InvalidQuery struct{ Fields FieldErrors }

func (e *InvalidQuery) Error() string { return "query: " + FirstMessage(e.Fields) }

// FirstMessage is the message of the first field, by name, that has one.
func FirstMessage(f FieldErrors) string {
	for _, k := range slices.Sorted(maps.Keys(f)) {
		if len(f[k]) > 0 {
			return f[k][0]
		}
	}
	return "invalid query"
}

// plan resolves a parsed query.
func (s *Engine) plan(ctx context.Context, q *Query) (*plan, error) {
	p := &plan{q: q, exLo: 1, exHi: 0}
	errs := FieldErrors{}
	var err error
	if p.SearchTables, err = s.HaveSearchTables(ctx); err != nil {
		return nil, err
	}
	if q.Surname != "" {
		p.surname = true
		if p.sPts, p.sFolded, err = s.resolveSurname(ctx, q.SurnameMode, q.Surname); err != nil {
			return nil, err
		}
		if len(p.sPts) == 0 {
			p.empty = true
		}
	}
	if q.Given != "" {
		p.given = true
		if p.gPts, err = s.resolveGiven(ctx, q.Given); err != nil {
			return nil, err
		}
	}
	switch {
	case q.Year != 0:
		p.year = true
		r := gendate.Years(q.Year-q.YearPM, q.Year+q.YearPM)
		ex := gendate.Years(q.Year, q.Year)
		p.lo, p.hi, p.exLo, p.exHi = r.Earliest, r.Latest, ex.Earliest, ex.Latest
	case q.Decade != 0:
		p.year = true
		r := gendate.Years(q.Decade, q.Decade+9)
		p.lo, p.hi = r.Earliest, r.Latest
	}
	if q.Place != "" {
		p.place = true
		if err := s.resolvePlace(ctx, p, q.Place); err != nil {
			var ep *InvalidQuery
			if errors.As(err, &ep) {
				for k, v := range ep.Fields {
					errs[k] = v
				}
			} else {
				return nil, err
			}
		}
	}
	if len(q.Collections) > 0 {
		byslug := map[string]int64{}
		all, err := s.Collections(ctx)
		if err != nil {
			return nil, err
		}
		for _, c := range all {
			byslug[c.Slug] = c.ID
		}
		for _, slug := range q.Collections {
			id, ok := byslug[slug]
			if !ok {
				errs.Add("collection", "There is no collection %q.", slug)
				continue
			}
			p.colls = append(p.colls, id)
		}
	}
	vocabIDs := func(v *index.Vocab, slugs []string) ([]int64, error) {
		out := []int64{}
		for _, slug := range slugs {
			id, err := v.ID(ctx, s.DB, slug)
			if err != nil {
				return nil, err
			}
			if id != 0 {
				out = append(out, id)
			}
		}
		if len(out) == 0 {
			p.empty = true
		}
		return out, nil
	}
	if len(q.RecordTypes) > 0 {
		if p.types, err = vocabIDs(s.Types, q.RecordTypes); err != nil {
			return nil, err
		}
	}
	if len(q.Roles) > 0 {
		if p.roles, err = vocabIDs(s.Roles, q.Roles); err != nil {
			return nil, err
		}
	}
	if q.Relative != "" {
		p.rel = true
		if err := s.resolveRelative(ctx, p, q.Relative, q.RelativeRole); err != nil {
			return nil, err
		}
	}
	if len(errs) > 0 {
		return nil, &InvalidQuery{errs}
	}
	if !p.surname {
		p.recordCollections = p.colls
		if p.colls == nil {
			all, err := s.Collections(ctx)
			if err != nil {
				return nil, err
			}
			for _, c := range all {
				if c.Kind != index.KindLibrary && c.Kind != index.KindArchive {
					p.recordCollections = append(p.recordCollections, c.ID)
				}
			}
		}
		if len(p.recordCollections) == 0 {
			p.empty = true
		}
	}
	if p.SearchTables && p.surname && p.given && !p.empty {
		if p.byGiven, err = s.givenOrderPays(ctx, p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// givenOrderRows is how many of a surname's records in a year range make reading
// them in the given-names order pay (byGiven): below it, one range of the surname
// order per span reads fewer rows than one range per given-names id. The threshold
// was measured on SQLite (docs/decisions/011-house-plan.md, "Figures").
var givenOrderRows = 4000.0

// givenOrderPays decides whether a search by surname and given names reads
// candidates in the given-names order (one range per surname, given-names id and
// span) rather than the surname order (one per surname and span, given names a
// filter). Without a year the given names narrow it most; with one, it depends on
// how many of the surname's records the years hold, as name_facets counts them.
func (s *Engine) givenOrderPays(ctx context.Context, p *plan) (bool, error) {
	if !p.year {
		return true, nil
	}
	decLo, decHi, share := p.yearDecades()
	var n int64
	err := s.q().QueryRowContext(ctx, `SELECT COALESCE(SUM(records), 0) FROM name_facets WHERE `+
		inList("surname_id", ptsIDs(p.sPts, func(int) bool { return true }))+
		` AND facet = `+itoa(index.FacetDecade)+` AND value BETWEEN `+itoa(decLo)+` AND `+itoa(decHi)).Scan(&n)
	return float64(n)*share > givenOrderRows, err
}

// yearDecades are the first and last decades the year range touches (name_facets'
// decade values) and the share of those decades' years the range asks for.
func (p *plan) yearDecades() (decLo, decHi int, share float64) {
	y1, _, _ := gendate.JDNToGregorian(p.lo)
	y2, _, _ := gendate.JDNToGregorian(p.hi)
	decLo, decHi = index.FloorDiv(y1, 10)*10, index.FloorDiv(y2, 10)*10
	return decLo, decHi, float64(y2-y1+1) / float64(decHi+10-decLo)
}

// resolveSurname finds the dictionary's surnames a mode accepts, with their points.
func (s *Engine) resolveSurname(ctx context.Context, mode, text string) (map[int64]int, map[int64]string, error) {
	pts, folded := map[int64]int{}, map[int64]string{}
	collect := func(q string, args []any, score func(f, variant, soundex string) int) error {
		rows, err := s.q().QueryContext(ctx, s.DB.Rebind(q), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var f, v, sx string
			if err := rows.Scan(&id, &f, &v, &sx); err != nil {
				return err
			}
			if n := score(f, v, sx); n > pts[id] {
				pts[id], folded[id] = n, f
			}
		}
		return rows.Err()
	}
	if mode == names.ModeWildcard {
		pat := names.FoldPattern(text)
		prefix := pat
		if i := strings.IndexAny(pat, "*?"); i >= 0 {
			prefix = pat[:i]
		}
		q, args := `SELECT id, folded, variant, soundex FROM surnames`, []any{}
		if prefix != "" {
			q += ` WHERE folded >= ? AND folded < ?`
			args = append(args, prefix, index.PrefixEnd(prefix))
		}
		return pts, folded, collect(q, args, func(f, _, _ string) int {
			if names.GlobMatch(pat, f) {
				return ptsSurnameExact
			}
			return 0
		})
	}
	k := s.Variants.Keys(text)
	score := func(f, v, sx string) int {
		switch {
		case f == k.Folded:
			return ptsSurnameExact
		case v == k.Variant && mode != names.ModeExact:
			return ptsSurnameVariant
		case mode == names.ModeSoundex && sx == k.Soundex:
			return ptsSurnamePhonetic
		case mode == names.ModePhonetic:
			return ptsSurnamePhonetic // only reached for rows found by code
		}
		return 0
	}
	cols := `SELECT id, folded, variant, soundex FROM surnames`
	var err error
	switch mode {
	case names.ModeExact:
		err = collect(cols+` WHERE folded = ?`, []any{k.Folded}, score)
	case names.ModeVariants:
		err = collect(cols+` WHERE folded = ? OR variant = ?`, []any{k.Folded, k.Variant}, score)
	case names.ModeSoundex:
		err = collect(cols+` WHERE folded = ? OR variant = ? OR soundex = ?`, []any{k.Folded, k.Variant, k.Soundex}, score)
	case names.ModePhonetic:
		if err = collect(cols+` WHERE folded = ? OR variant = ?`, []any{k.Folded, k.Variant}, score); err != nil {
			break
		}
		codes := k.Codes()
		if len(codes) == 0 {
			break
		}
		args := make([]any, len(codes))
		for i, c := range codes {
			args[i] = c
		}
		err = collect(`SELECT s.id, s.folded, s.variant, s.soundex FROM surname_codes c JOIN surnames s ON s.id = c.surname_id
			WHERE c.code IN (`+store.Placeholders(len(codes))+`)`, args, score)
	}
	for id, n := range pts {
		if n == 0 {
			delete(pts, id)
			delete(folded, id)
		}
	}
	return pts, folded, err
}

// givenPairPoints is the quality of one matched pair of given names.
func givenPairPoints(a, b string) int {
	switch {
	case a == b:
		return ptsGivenExact
	case len(a) == 1 || len(b) == 1:
		return ptsGivenInitial
	}
	return ptsGivenVariant
}

// matchGiven compares the given names a searcher typed with the ones recorded (both
// folded, split into names). The first names must match (the same, variants, or an
// initial); each later name searched for must match a later recorded name in order,
// or the record must have run out of names (a missing middle name scores as an
// initial). It returns the points of the worst pair.
func matchGiven(g *names.GivenNames, query, recorded []string) (int, bool) {
	if len(query) == 0 {
		return 0, true
	}
	if len(recorded) == 0 || !g.Match(query[0], recorded[0]) {
		return 0, false
	}
	pts := givenPairPoints(query[0], recorded[0])
	j := 1
	for _, qn := range query[1:] {
		k := j
		for k < len(recorded) && !g.Match(qn, recorded[k]) {
			k++
		}
		switch {
		case k < len(recorded):
			pts = min(pts, givenPairPoints(qn, recorded[k]))
			j = k + 1
		case j >= len(recorded):
			pts = min(pts, ptsGivenInitial)
		default:
			return 0, false
		}
	}
	return pts, true
}

// resolveGiven finds the dictionary's given names that match, with their points.
func (s *Engine) resolveGiven(ctx context.Context, text string) (map[int64]int, error) {
	query := strings.Fields(names.Fold(text))
	out := map[int64]int{}
	if len(query) == 0 {
		return out, nil
	}
	q0 := query[0]
	var rows *sql.Rows
	var err error
	if len(q0) == 1 {
		rows, err = s.q().QueryContext(ctx, s.DB.Rebind(`SELECT id, folded FROM given_names WHERE inits LIKE ? OR first = ?`), "%"+q0+"%", q0)
	} else {
		firsts := s.Given.Variants(q0)
		firsts = append(firsts, q0[:1])
		for _, k := range s.Given.Groups(q0) {
			if !slices.Contains(firsts, k[:1]) {
				firsts = append(firsts, k[:1])
			}
		}
		args := make([]any, len(firsts))
		for i, f := range firsts {
			args[i] = f
		}
		rows, err = s.q().QueryContext(ctx, s.DB.Rebind(`SELECT id, folded FROM given_names WHERE first IN (`+store.Placeholders(len(firsts))+`)`), args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var f string
		if err := rows.Scan(&id, &f); err != nil {
			return nil, err
		}
		if pts, ok := matchGiven(s.Given, query, strings.Fields(f)); ok {
			out[id] = pts
		}
	}
	return out, rows.Err()
}

// resolvePlace fills the place sets of p, or reports an unknown place.
func (s *Engine) resolvePlace(ctx context.Context, p *plan, text string) error {
	pr := gazetteer.NewResolver(s.DB, nil)
	found, err := pr.FindPlaces(ctx, text)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		return &InvalidQuery{FieldErrors{"place": {"No place called " + strconv.Quote(text) + " is known. Try the town or county alone."}}}
	}
	p.inPlaces, p.inCounties, p.broader = map[int64]bool{}, map[int64]bool{}, map[int64]bool{}
	p.estCounties = map[int64]bool{}
	for _, q := range found {
		switch {
		case q.Kind == gazetteer.PlaceCounty:
			p.estCounties[q.ID] = true
		case q.Kind == gazetteer.PlacePlace && q.CountyID != 0 && p.estCounties != nil:
			p.estCounties[q.CountyID] = true
		default:
			p.estCounties = nil // a country, or a place in no county: no bound
		}
		if err := pr.WithAncestors(ctx, q); err != nil {
			return err
		}
		for _, a := range q.Ancestors {
			p.broader[a] = true
		}
		switch q.Kind {
		case gazetteer.PlaceCounty:
			p.inCounties[q.ID] = true
		case gazetteer.PlaceCountry:
			rows, err := s.q().QueryContext(ctx, s.DB.Rebind(`SELECT id FROM places WHERE kind = 'county' AND country_id = ?`), q.ID)
			if err != nil {
				return err
			}
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return err
				}
				p.inCounties[id] = true
			}
			rows.Close()
			desc, err := pr.Descendants(ctx, q.ID)
			if err != nil {
				return err
			}
			// Places under the country but in no county.
			for _, id := range desc {
				d, err := pr.Get(ctx, id)
				if err != nil {
					return err
				}
				if d.CountyID == 0 && d.Kind != gazetteer.PlaceCounty {
					p.inPlaces[id] = true
				}
			}
		default:
			desc, err := pr.Descendants(ctx, q.ID)
			if err != nil {
				return err
			}
			for _, id := range desc {
				p.inPlaces[id] = true
			}
		}
	}
	for id := range p.inPlaces {
		delete(p.broader, id)
	}
	if p.estCounties != nil {
		for id := range p.inCounties {
			p.estCounties[id] = true
		}
	}
	return nil
}

// resolveRelative fills the relative's name sets: "Given Surname", "Surname, Given",
// or one word that may be either.
func (s *Engine) resolveRelative(ctx context.Context, p *plan, text, role string) error {
	var surname, given string
	if a, b, ok := strings.Cut(text, ","); ok {
		surname, given = strings.TrimSpace(a), strings.TrimSpace(b)
	} else {
		words := strings.Fields(text)
		switch len(words) {
		case 0:
		case 1:
			surname, given, p.relEither = words[0], words[0], true
		default:
			surname, given = words[len(words)-1], strings.Join(words[:len(words)-1], " ")
		}
	}
	if index.SurnameKey(surname) != "" {
		pts, _, err := s.resolveSurname(ctx, names.ModeVariants, surname)
		if err != nil {
			return err
		}
		p.relS = map[int64]bool{}
		for id := range pts {
			p.relS[id] = true
		}
	}
	if names.Fold(given) != "" {
		pts, err := s.resolveGiven(ctx, given)
		if err != nil {
			return err
		}
		p.relG = map[int64]bool{}
		for id := range pts {
			p.relG[id] = true
		}
	}
	if role != "" {
		p.relRoles = []int64{}
		for _, r := range index.RelativeRoles[role] {
			id, err := s.Roles.ID(ctx, s.DB, r)
			if err != nil {
				return err
			}
			if id != 0 {
				p.relRoles = append(p.relRoles, id)
			}
		}
	}
	return nil
}

// --- SQL -------------------------------------------------------------------------

// inList writes "col IN (…)" with literal integers ("1 = 0" for an empty set).
func inList(col string, ids []int64) string {
	if len(ids) == 0 {
		return "1 = 0"
	}
	if len(ids) == 1 {
		return col + " = " + strconv.FormatInt(ids[0], 10)
	}
	var b strings.Builder
	b.WriteString(col)
	b.WriteString(" IN (")
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte(')')
	return b.String()
}

func setIDs(m map[int64]bool) []int64 {
	out := make([]int64, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func ptsIDs(m map[int64]int, want func(int) bool) []int64 {
	out := []int64{}
	for id, n := range m {
		if want(n) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// overlapSQL is the year condition for one span class ("" when the class cannot
// match).
func (p *plan) overlapSQL(span int) string {
	switch span {
	case index.SpanShort:
		return "k.span = 0 AND k.jdn_lo >= " + itoa(p.lo-index.ShortDays) + " AND k.jdn_lo <= " + itoa(p.hi) + " AND k.jdn_hi >= " + itoa(p.lo)
	case index.SpanLong:
		return "k.span = 1 AND k.jdn_lo <= " + itoa(p.hi) + " AND k.jdn_hi >= " + itoa(p.lo)
	}
	return "k.span = 2"
}

// columnConds are the conditions on the collection, the record type and the role.
func (p *plan) columnConds() []string {
	var c []string
	if p.colls != nil {
		c = append(c, inList("k.collection_id", p.colls))
	}
	if p.types != nil {
		c = append(c, inList("k.type_id", p.types))
	}
	if p.roles != nil {
		c = append(c, inList("k.role_id", p.roles))
	}
	return c
}

// conds are the conditions besides the surname and the year, joined by AND. The
// relative's condition is not among them: it concerns the other rows of a record, and
// PostgreSQL's planner cannot estimate a correlated range over the primary key (it
// guesses thousands of rows for a record's 256 ids, and compiles the query to machine
// code for the imagined cost). It is checked in Go on the candidates' records
// (relativeOK), the same way on both databases.
func (p *plan) conds() []string {
	c := p.columnConds()
	if p.given {
		c = append(c, inList("k.given_id", append([]int64{0}, ptsIDs(p.gPts, func(int) bool { return true })...)))
	}
	if p.place {
		c = append(c, "("+p.placeSQL(ptsPlaceIn)+" OR "+p.placeSQL(ptsPlaceBroader)+" OR k.place_id = 0)")
	}
	if w := p.paywallSQL(); w != "" {
		c = append(c, w)
	}
	return c
}

// placeSQL is the condition of one place level.
func (p *plan) placeSQL(level int) string {
	switch level {
	case ptsPlaceIn:
		var or []string
		if len(p.inCounties) > 0 {
			or = append(or, inList("k.county_id", setIDs(p.inCounties)))
		}
		if len(p.inPlaces) > 0 {
			or = append(or, inList("k.place_id", setIDs(p.inPlaces)))
		}
		if len(or) == 0 {
			return "1 = 0"
		}
		return "(" + strings.Join(or, " OR ") + ")"
	case ptsPlaceBroader:
		return inList("k.place_id", setIDs(p.broader))
	}
	return "k.place_id = 0"
}

// --- Go ------------------------------------------------------------------------------

// score checks a row against every condition except the relative's and returns its
// points; it agrees with the SQL conditions exactly (TestBroadAgreesWithBounded).
func (p *plan) score(r *keyRow) (int, bool) {
	if p.withholds(r) {
		return 0, false
	}
	pts := 0
	if p.surname {
		n, ok := p.sPts[r.surname]
		if !ok {
			return 0, false
		}
		pts += n
	}
	if p.colls != nil && !slices.Contains(p.colls, r.coll) {
		return 0, false
	}
	if p.types != nil && !slices.Contains(p.types, r.typ) {
		return 0, false
	}
	if p.roles != nil && !slices.Contains(p.roles, r.role) {
		return 0, false
	}
	if p.given && r.given != 0 {
		n, ok := p.gPts[r.given]
		if !ok {
			return 0, false
		}
		pts += n
	}
	if p.year {
		n, ok := p.yearPoints(r)
		if !ok {
			return 0, false
		}
		pts += n
	}
	if p.place {
		n, ok := p.placePoints(r)
		if !ok {
			return 0, false
		}
		pts += n
	}
	return pts, true
}

func (p *plan) yearPoints(r *keyRow) (int, bool) {
	switch {
	case r.span == index.SpanNone:
		return 0, true
	case r.lo > p.hi || r.hi < p.lo:
		return 0, false
	case r.dq == index.DQExact && r.lo >= p.exLo && r.hi <= p.exHi:
		return ptsYearExact, true
	case r.dq == index.DQExact:
		return ptsYearNear, true
	}
	return ptsYearLoose, true
}

func (p *plan) placePoints(r *keyRow) (int, bool) {
	switch {
	case p.inCounties[r.county] || p.inPlaces[r.place]:
		return ptsPlaceIn, true
	case p.broader[r.place]:
		return ptsPlaceBroader, true
	case r.place == 0:
		return 0, true
	}
	return 0, false
}

// relativeSQL is the condition a row must meet to be the relative asked for (the
// rows relativeOK looks at), "1 = 0" when none can. Its columns are written +k.col,
// not indexable, for recordRowsWhere.
func (p *plan) relativeSQL() string {
	var c []string
	if p.relRoles != nil {
		c = append(c, inList("+k.role_id", p.relRoles))
	}
	var sur, giv string
	if p.relS != nil {
		sur = inList("+k.surname_id", setIDs(p.relS))
	}
	if p.relG != nil {
		giv = inList("+k.given_id", setIDs(p.relG))
	}
	switch {
	case sur == "" && giv == "":
		return "1 = 0"
	case p.relEither:
		if sur == "" {
			sur = "1 = 0"
		}
		if giv == "" {
			giv = "1 = 0"
		}
		c = append(c, "("+sur+" OR "+giv+")")
	default:
		if sur != "" {
			c = append(c, sur)
		}
		if giv != "" {
			c = append(c, giv)
		}
	}
	return strings.Join(c, " AND ")
}

// relativeOK checks the relative condition of row r against the rows of its record.
func (p *plan) relativeOK(r *keyRow, recordRows []keyRow) bool {
	if !p.rel {
		return true
	}
	for i := range recordRows {
		o := &recordRows[i]
		if o.id == r.id || p.withholds(o) {
			continue
		}
		if p.relRoles != nil && !slices.Contains(p.relRoles, o.role) {
			continue
		}
		sOK, gOK := p.relS != nil && p.relS[o.surname], p.relG != nil && p.relG[o.given]
		var ok bool
		switch {
		case p.relEither:
			ok = sOK || gOK
		default:
			ok = (p.relS == nil || sOK) && (p.relG == nil || gOK) && (p.relS != nil || p.relG != nil)
		}
		if ok {
			return true
		}
	}
	return false
}

// keysFrom is the table a search reads search_keys rows from, as k: on SQLite the
// table in the order the search needs (byGiven: ranges of a surname and given-names
// ids) while the tables are built, else search_keys, whose indexes PostgreSQL chooses
// among.
func (p *plan) keysFrom(byGiven bool) string {
	if !p.SearchTables {
		return "search_keys k"
	}
	if byGiven {
		return "search_keys_given k"
	}
	return "search_keys_surname k"
}
