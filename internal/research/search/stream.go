package search

import (
	"cmp"
	"container/heap"
	"context"
	"slices"
	"strconv"
	"strings"

	"lineage/internal/research/index"
	"lineage/internal/store"
)

// The broad path: when a search has more candidates than Options.Cap, its results
// are read in ranking order instead of being ranked in memory.
//
// Each score level of each field is a condition on search_keys (plan.score agrees),
// so a "class" — one level per field — has one score, and its rows can be read in
// date order from search_keys_surname, one range per surname id and span. Classes
// are taken in descending score; the classes of one score are merged by date. A
// record is shown at the row of its key person (best score, then first in the
// record), which is checked against all the record's rows.

const streamChunk = 64

func i64toa(n int64) string { return strconv.FormatInt(n, 10) }

// subStream reads one index range in (jdn_lo, id) order, a chunk at a time.
type subStream struct {
	base    string // SELECT … WHERE …, without the keyset condition and order
	missing int    // 1 for the undated span
	// records streams (streamRecords) order by the record's date: their own keyset
	// condition and order.
	after     func(jdn int, id int64) string
	order     string
	lastJDN   int
	lastID    int64
	started   bool
	buf       []keyRow
	pos       int
	exhausted bool // nothing after buf in the database
}

// head returns the next row without taking it, or nil at the end.
func (st *subStream) head(ctx context.Context, s *Engine) (*keyRow, error) {
	if st.pos < len(st.buf) {
		return &st.buf[st.pos], nil
	}
	if st.exhausted {
		return nil, nil
	}
	st.buf, st.pos = st.buf[:0], 0
	q := st.base
	switch {
	case !st.started:
	case st.after != nil:
		q += st.after(st.lastJDN, st.lastID)
	default:
		q += " AND (k.jdn_lo, k.id) > (" + itoa(st.lastJDN) + ", " + i64toa(st.lastID) + ")"
	}
	if st.order != "" {
		q += " ORDER BY " + st.order + " LIMIT " + itoa(streamChunk)
	} else {
		q += " ORDER BY k.jdn_lo, k.id LIMIT " + itoa(streamChunk)
	}
	rows, err := s.q().QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r keyRow
		if err := scanKeyRow(rows, &r); err != nil {
			return nil, err
		}
		st.buf = append(st.buf, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(st.buf) < streamChunk {
		st.exhausted = true
	}
	if len(st.buf) == 0 {
		return nil, nil
	}
	last := st.buf[len(st.buf)-1]
	st.lastJDN, st.lastID, st.started = last.lo, last.id, true
	return &st.buf[0], nil
}

// startAfter positions a stream after a cursor's date and id.
func (st *subStream) startAfter(k *sortKey) {
	switch {
	case k == nil || st.missing > k.Missing:
	case st.missing < k.Missing:
		st.exhausted = true
	default:
		st.lastJDN, st.lastID, st.started = k.JDN, k.ID, true
	}
}

// merger yields the rows of several streams in (missing, jdn, id) order.
type merger struct {
	ctx   context.Context
	s     *Engine
	heads []*subStream
	err   error
}

func (m *merger) Len() int { return len(m.heads) }
func (m *merger) Less(i, j int) bool {
	a, b := &m.heads[i].buf[m.heads[i].pos], &m.heads[j].buf[m.heads[j].pos]
	ma, mb := m.heads[i].missing, m.heads[j].missing
	if ma != mb {
		return ma < mb
	}
	if a.lo != b.lo {
		return a.lo < b.lo
	}
	return a.id < b.id
}
func (m *merger) Swap(i, j int) { m.heads[i], m.heads[j] = m.heads[j], m.heads[i] }
func (m *merger) Push(x any)    { m.heads = append(m.heads, x.(*subStream)) }
func (m *merger) Pop() any {
	x := m.heads[len(m.heads)-1]
	m.heads = m.heads[:len(m.heads)-1]
	return x
}

func newMerger(ctx context.Context, s *Engine, streams []*subStream) (*merger, error) {
	m := &merger{ctx: ctx, s: s}
	for _, st := range streams {
		h, err := st.head(ctx, s)
		if err != nil {
			return nil, err
		}
		if h != nil {
			m.heads = append(m.heads, st)
		}
	}
	heap.Init(m)
	return m, nil
}

// next takes the next row, or returns nil at the end.
func (m *merger) next() (*keyRow, error) {
	if len(m.heads) == 0 {
		return nil, nil
	}
	st := m.heads[0]
	r := st.buf[st.pos]
	st.pos++
	h, err := st.head(m.ctx, m.s)
	if err != nil {
		return nil, err
	}
	if h == nil {
		heap.Pop(m)
	} else {
		heap.Fix(m, 0)
	}
	return &r, nil
}

// level is one score level of one field: its points and its SQL condition.
type level struct {
	pts  int
	cond string
	ids  []int64 // surname levels: the ids, one stream each; given-names levels: the ids cond names
}

// classGroup is the classes of one score.
type classGroup struct {
	score   int
	classes [][4]level // surname, given, year, place
}

// yearLevel is a year level with the spans its rows can have.
type yearLevel struct {
	level
	spans []int
}

func (p *plan) surnameLevels() []level {
	byPts := map[int][]int64{}
	for id, n := range p.sPts {
		byPts[n] = append(byPts[n], id)
	}
	var out []level
	for n, ids := range byPts {
		slices.Sort(ids)
		out = append(out, level{pts: n, ids: ids})
	}
	slices.SortFunc(out, func(a, b level) int { return cmp.Compare(b.pts, a.pts) })
	return out
}

func (p *plan) givenLevels() []level {
	if !p.given {
		return []level{{}}
	}
	var out []level
	for _, n := range []int{ptsGivenExact, ptsGivenVariant, ptsGivenInitial} {
		ids := ptsIDs(p.gPts, func(x int) bool { return x == n })
		if len(ids) > 0 {
			out = append(out, level{pts: n, cond: inList("k.given_id", ids), ids: ids})
		}
	}
	return append(out, level{pts: 0, cond: "k.given_id = 0", ids: []int64{0}})
}

// yearLevels: exact dates always have span 0 (they cover at most a year).
func (p *plan) yearLevels() []yearLevel {
	if !p.year {
		return []yearLevel{{spans: []int{index.SpanShort, index.SpanLong, index.SpanNone}}}
	}
	inYear := "k.jdn_lo >= " + itoa(p.exLo) + " AND k.jdn_hi <= " + itoa(p.exHi)
	var out []yearLevel
	if p.exLo <= p.exHi {
		out = append(out, yearLevel{level{pts: ptsYearExact, cond: "k.dq = 1 AND " + inYear}, []int{index.SpanShort}})
		out = append(out, yearLevel{level{pts: ptsYearNear, cond: "k.dq = 1 AND NOT (" + inYear + ")"}, []int{index.SpanShort}})
	} else {
		out = append(out, yearLevel{level{pts: ptsYearNear, cond: "k.dq = 1"}, []int{index.SpanShort}})
	}
	out = append(out, yearLevel{level{pts: ptsYearLoose, cond: "k.dq = 2"}, []int{index.SpanShort, index.SpanLong}})
	return append(out, yearLevel{level{pts: 0}, []int{index.SpanNone}})
}

func (p *plan) placeLevels() []level {
	if !p.place {
		return []level{{}}
	}
	return []level{
		{pts: ptsPlaceIn, cond: p.placeSQL(ptsPlaceIn)},
		{pts: ptsPlaceBroader, cond: p.placeSQL(ptsPlaceBroader)},
		{pts: 0, cond: "k.place_id = 0"},
	}
}

// filterConds are the conditions that are not levels: collection, type, role (the
// relative is checked by accept).
func (p *plan) filterConds() []string {
	c := p.columnConds()
	if w := p.paywallSQL(); w != "" {
		c = append(c, w)
	}
	return c
}

// streamsFor builds the streams of a class (relevance) or of the whole query (date:
// levels nil).
func (p *plan) streamsFor(sur level, gl level, yl yearLevel, pl level, yearAny bool) []*subStream {
	var out []*subStream
	for _, id := range sur.ids {
		for _, span := range yl.spans {
			c := []string{"k.surname_id = " + i64toa(id), "k.span = " + itoa(span)}
			if p.year {
				c = append(c, p.overlapSQL(span))
			}
			if !yearAny {
				for _, x := range []string{gl.cond, yl.cond, pl.cond} {
					if x != "" {
						c = append(c, x)
					}
				}
			} else {
				// Date order: all levels at once.
				if p.given {
					c = append(c, inList("k.given_id", append([]int64{0}, ptsIDs(p.gPts, func(int) bool { return true })...)))
				}
				if p.place {
					c = append(c, "("+p.placeSQL(ptsPlaceIn)+" OR "+p.placeSQL(ptsPlaceBroader)+" OR k.place_id = 0)")
				}
			}
			c = append(c, p.filterConds()...)
			missing := 0
			if span == index.SpanNone {
				missing = 1
			}
			// One given-names id: the class is one range of the given-names order, in
			// date order; otherwise the surname's range, filtered.
			byGiven := !yearAny && len(gl.ids) == 1
			out = append(out, &subStream{base: "SELECT " + keyRowCols + " FROM " + p.keysFrom(byGiven) + " WHERE " + strings.Join(c, " AND "), missing: missing})
		}
	}
	return out
}

// groups enumerates the score classes of a relevance search, best first.
func (p *plan) groups() []classGroup {
	byScore := map[int]*classGroup{}
	var scores []int
	for _, sl := range p.surnameLevels() {
		for _, gl := range p.givenLevels() {
			for _, yl := range p.yearLevels() {
				for _, pl := range p.placeLevels() {
					n := sl.pts + gl.pts + yl.pts + pl.pts
					g := byScore[n]
					if g == nil {
						g = &classGroup{score: n}
						byScore[n] = g
						scores = append(scores, n)
					}
					g.classes = append(g.classes, [4]level{sl, gl, yl.level, pl})
				}
			}
		}
	}
	slices.Sort(scores)
	slices.Reverse(scores)
	out := make([]classGroup, len(scores))
	for i, n := range scores {
		out[i] = *byScore[n]
	}
	return out
}

// yearLevelOf finds the spans of a year level by its points and condition.
func (p *plan) yearLevelOf(l level) yearLevel {
	for _, yl := range p.yearLevels() {
		if yl.pts == l.pts && yl.cond == l.cond {
			return yl
		}
	}
	return yearLevel{level: l, spans: []int{index.SpanShort, index.SpanLong, index.SpanNone}}
}

// stream answers one page of a broad search in ranking order.
func (s *Engine) stream(ctx context.Context, p *plan, after *sortKey) ([]hit, *sortKey, error) {
	want := p.q.Limit + 1
	var page []hit
	take := func(m *merger, score int) error {
		pending := make([]keyRow, 0, streamChunk)
		flush := func() error {
			hits, err := s.accept(ctx, p, pending)
			if err != nil {
				return err
			}
			for _, h := range hits {
				if len(page) < want {
					page = append(page, h)
				}
			}
			pending = pending[:0]
			return nil
		}
		for len(page) < want {
			r, err := m.next()
			if err != nil {
				return err
			}
			if r == nil {
				break
			}
			pending = append(pending, *r)
			if len(pending) == cap(pending) || len(page)+len(pending) >= want*2 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return flush()
	}
	switch p.q.Sort {
	case SortRelevance:
		for _, g := range p.groups() {
			if after != nil && g.score > after.Score {
				continue
			}
			var streams []*subStream
			for _, c := range g.classes {
				for _, st := range p.streamsFor(c[0], c[1], p.yearLevelOf(c[2]), c[3], false) {
					if after != nil && g.score == after.Score {
						st.startAfter(after)
					}
					streams = append(streams, st)
				}
			}
			m, err := newMerger(ctx, s, streams)
			if err != nil {
				return nil, nil, err
			}
			if err := take(m, g.score); err != nil {
				return nil, nil, err
			}
			if len(page) >= want {
				break
			}
		}
	case SortDate:
		all := level{ids: ptsIDs(p.sPts, func(int) bool { return true })}
		streams := p.streamsFor(all, level{}, yearLevel{spans: []int{index.SpanShort, index.SpanLong, index.SpanNone}}, level{}, true)
		for _, st := range streams {
			st.startAfter(after)
		}
		m, err := newMerger(ctx, s, streams)
		if err != nil {
			return nil, nil, err
		}
		if err := take(m, 0); err != nil {
			return nil, nil, err
		}
	case SortName:
		return s.streamByName(ctx, p, after)
	}
	var next *sortKey
	if len(page) > p.q.Limit {
		page = page[:p.q.Limit]
		next = &page[len(page)-1].key
	}
	return page, next, nil
}

// accept keeps the candidates that are their record's key person, in order.
func (s *Engine) accept(ctx context.Context, p *plan, cands []keyRow) ([]hit, error) {
	if len(cands) == 0 {
		return nil, nil
	}
	var recs []int64
	for _, c := range cands {
		if !slices.Contains(recs, c.record()) {
			recs = append(recs, c.record())
		}
	}
	byRec, err := s.recordRows(ctx, recs)
	if err != nil {
		return nil, err
	}
	if err := s.lookupMembersRecords(ctx, p, cands); err != nil {
		return nil, err
	}
	var out []hit
	for _, c := range cands {
		rows := byRec[c.record()]
		var best *keyRow
		bestPts := -1
		for i := range rows {
			r := &rows[i]
			pts, ok := p.score(r)
			if !ok || !p.relativeOK(r, rows) {
				continue
			}
			if pts > bestPts {
				best, bestPts = r, pts
			}
		}
		if best != nil && best.id == c.id {
			out = append(out, hit{row: c, score: bestPts, key: rowKey(&c, bestPts)})
		}
	}
	return out, nil
}

// recordRows reads every search_keys row of the records, by record: one range of the
// primary key per record, joined from a list of the record ids.
func (s *Engine) recordRows(ctx context.Context, recs []int64) (map[int64][]keyRow, error) {
	return s.recordRowsWhere(ctx, recs, "")
}

// recordRowsWhere reads the rows of the records that pass a condition on k ("": all).
// The condition's columns must not be indexable (written +k.col): SQLite would
// otherwise build an automatic index over the whole table for them.
func (s *Engine) recordRowsWhere(ctx context.Context, recs []int64, cond string) (map[int64][]keyRow, error) {
	out := map[int64][]keyRow{}
	add := func(query string, args ...any) error {
		rows, err := s.q().QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r keyRow
			if err := scanKeyRow(rows, &r); err != nil {
				return err
			}
			out[r.record()] = append(out[r.record()], r)
		}
		return rows.Err()
	}
	switch {
	case len(recs) == 0:
	case s.DB.Dialect == store.Postgres:
		// One statement for every record, their ids as an array; the join in a fence
		// (OFFSET 0) with the condition outside: PostgreSQL cannot estimate the range
		// join, and with the condition beside it chose to read the whole table.
		q := "SELECT " + keyRowCols + " FROM (SELECT k.* FROM unnest($1::bigint[]) AS v (rec) JOIN search_keys k ON k.id >= v.rec * 256 AND k.id < v.rec * 256 + 256 OFFSET 0) k"
		if cond != "" {
			q += " WHERE " + cond
		}
		if err := add(q, recs); err != nil {
			return nil, err
		}
	default:
		for i := 0; i < len(recs); i += 1000 {
			if err := add(sqliteRecordRowsSQL(recs[i:min(i+1000, len(recs))], cond)); err != nil {
				return nil, err
			}
		}
	}
	for _, rows := range out {
		slices.SortFunc(rows, func(a, b keyRow) int { return cmp.Compare(a.id, b.id) })
	}
	return out, nil
}

// sqliteRecordRowsSQL selects the rows of records (at most a thousand) that pass a
// condition ("": all), one range of the primary key per record.
func sqliteRecordRowsSQL(recs []int64, cond string) string {
	var b strings.Builder
	b.WriteString("SELECT " + keyRowCols + " FROM (VALUES ")
	for j, rec := range recs {
		if j > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(" + i64toa(rec) + ")")
	}
	b.WriteString(") AS v JOIN search_keys k ON k.id >= v.column1 * 256 AND k.id < v.column1 * 256 + 256")
	if cond != "" {
		b.WriteString(" WHERE " + cond)
	}
	return b.String()
}

// streamByName answers a broad search sorted by name: surname by surname in
// alphabetical order, each surname's records ranked in memory. One surname with more
// than Cap candidates is too broad to sort by name.
func (s *Engine) streamByName(ctx context.Context, p *plan, after *sortKey) ([]hit, *sortKey, error) {
	ids := ptsIDs(p.sPts, func(int) bool { return true })
	slices.SortFunc(ids, func(a, b int64) int { return cmp.Or(cmp.Compare(p.sFolded[a], p.sFolded[b]), cmp.Compare(a, b)) })
	want := p.q.Limit + 1
	var page []hit
	for _, id := range ids {
		if after != nil && p.sFolded[id] < after.SF {
			continue
		}
		one := *p
		one.sPts = map[int64]int{id: p.sPts[id]}
		rows, complete, err := s.candidates(ctx, &one)
		if err != nil {
			return nil, nil, err
		}
		if !complete {
			return nil, nil, &ErrTooBroad{"Too many records to sort by name: add a given name, a year or a place, or sort by relevance or date."}
		}
		hits, err := s.accept(ctx, p, rows)
		if err != nil {
			return nil, nil, err
		}
		if err := s.nameKeys(ctx, p, hits); err != nil {
			return nil, nil, err
		}
		slices.SortFunc(hits, func(a, b hit) int { return compareKeys(SortName, &a.key, &b.key) })
		for _, h := range hits {
			if after != nil && compareKeys(SortName, &h.key, after) <= 0 {
				continue
			}
			page = append(page, h)
			if len(page) == want {
				break
			}
		}
		if len(page) == want {
			break
		}
	}
	var next *sortKey
	if len(page) > p.q.Limit {
		page = page[:p.q.Limit]
		next = &page[len(page)-1].key
	}
	return page, next, nil
}

// recordConds are a search's conditions on records (rec): collection, type, year,
// place. ids are the collections to read.
func (p *plan) recordConds() []string {
	var c []string
	if p.types != nil {
		c = append(c, inList("rec.type_id", p.types))
	}
	if p.year {
		c = append(c, "(rec.jdn_lo IS NULL OR (rec.jdn_lo <= "+itoa(p.hi)+" AND rec.jdn_hi >= "+itoa(p.lo)+"))")
	}
	if p.place {
		in := strings.ReplaceAll(p.placeSQL(ptsPlaceIn), "k.", "rec.")
		broader := strings.ReplaceAll(p.placeSQL(ptsPlaceBroader), "k.", "rec.")
		c = append(c, "("+in+" OR "+broader+" OR rec.place_id = 0)")
	}
	return c
}

// streamRecords answers a broad search without a surname: the records of the chosen
// collections (all, when none is chosen) in date order through records_browse, their
// persons checked against the rest of the search. Such a search is in date order
// whatever its sort.
func (s *Engine) streamRecords(ctx context.Context, p *plan, after *sortKey) ([]hit, *sortKey, error) {
	colls := p.colls
	if colls == nil {
		all, err := s.Collections(ctx)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range all {
			if c.Kind != index.KindLibrary && c.Kind != index.KindArchive {
				colls = append(colls, c.ID)
			}
		}
	}
	person := p.conds()
	var streams []*subStream
	for _, coll := range colls {
		for _, undated := range []bool{false, true} {
			c := []string{"rec.collection_id = " + i64toa(coll)}
			if undated {
				c = append(c, "rec.jdn_lo IS NULL")
			} else {
				c = append(c, "rec.jdn_lo IS NOT NULL")
			}
			c = append(c, p.recordConds()...)
			c = append(c, person...)
			if p.year {
				c = append(c, "("+p.overlapSQL(index.SpanShort)+" OR "+p.overlapSQL(index.SpanLong)+" OR k.span = 2)")
			}
			st := &subStream{base: `SELECT ` + keyRowCols + ` FROM records rec JOIN search_keys k ON k.id >= rec.id * 256 AND k.id < rec.id * 256 + 256 WHERE ` + strings.Join(c, " AND ")}
			if undated {
				st.missing = 1
				st.after = func(_ int, id int64) string { return " AND k.id > " + i64toa(id) }
				st.order = "rec.id, k.id"
			} else {
				st.after = func(jdn int, id int64) string {
					return " AND (rec.jdn_lo > " + itoa(jdn) + " OR (rec.jdn_lo = " + itoa(jdn) + " AND k.id > " + i64toa(id) + "))"
				}
				st.order = "rec.jdn_lo, rec.id, k.id"
			}
			if after != nil {
				k := *after
				st.startAfter(&k)
			}
			streams = append(streams, st)
		}
	}
	m, err := newMerger(ctx, s, streams)
	if err != nil {
		return nil, nil, err
	}
	want := p.q.Limit + 1
	var page []hit
	for len(page) < want {
		var cands []keyRow
		for len(cands) < streamChunk {
			r, err := m.next()
			if err != nil {
				return nil, nil, err
			}
			if r == nil {
				break
			}
			cands = append(cands, *r)
		}
		if len(cands) == 0 {
			break
		}
		hits, err := s.accept(ctx, p, cands)
		if err != nil {
			return nil, nil, err
		}
		for _, h := range hits {
			h.key.Score = 0 // date order
			if len(page) < want {
				page = append(page, h)
			}
		}
	}
	var next *sortKey
	if len(page) > p.q.Limit {
		page = page[:p.q.Limit]
		next = &page[len(page)-1].key
	}
	return page, next, nil
}
