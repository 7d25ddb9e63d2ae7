package search

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"lineage/internal/research/index"
	"lineage/internal/store"
)

// SearchResult is the answer of /api/research/search (docs/research.md).
type SearchResult struct {
	Total int64 `json:"total"`
	// TotalExact is false when the search was too broad to count exactly: Total is
	// then an estimate (from name statistics) or a lower bound.
	TotalExact  bool     `json:"total_exact"`
	Results     []Result `json:"results"`
	Facets      Facets   `json:"facets"`
	FacetsExact bool     `json:"facets_exact"`
	Next        *string  `json:"next"`
}

// Facets count the matching records by collection, record type, decade and county.
type Facets struct {
	Collection []FacetValue `json:"collection"`
	RecordType []FacetValue `json:"record_type"`
	Decade     []FacetValue `json:"decade"`
	County     []FacetValue `json:"county"`
}

// FacetValue is one value of a facet: Value is what the matching query parameter
// takes (collection slug, record type, decade year, county place id).
type FacetValue struct {
	Value string `json:"value"`
	Label string `json:"label"`
	Count int64  `json:"count"`
}

// ErrBadCursor is returned for an `after` cursor that does not belong to the query.
var ErrBadCursor = errors.New("the cursor does not belong to this search")

// ErrTooBroad is returned for a search that cannot be answered without reading too
// much: the message says how to narrow it.
type ErrTooBroad struct{ Message string }

func (e *ErrTooBroad) Error() string { return e.Message }

// hit is a matching record: the row of its key person (the best-scoring one, then the
// first in the record) and the sort key of that row.
type hit struct {
	row   keyRow
	score int
	key   sortKey
}

// sortKey orders hits: by score (relevance only), names (name only), then undated
// last, day, and row id (record id, then position).
type sortKey struct {
	Score   int    `json:"s,omitempty"`
	SF      string `json:"a,omitempty"`
	GF      string `json:"b,omitempty"`
	Missing int    `json:"m,omitempty"`
	JDN     int    `json:"j,omitempty"`
	ID      int64  `json:"i"`
}

func compareKeys(sort string, a, b *sortKey) int {
	switch sort {
	case SortRelevance:
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
	case SortName:
		if c := cmp.Compare(a.SF, b.SF); c != 0 {
			return c
		}
		if c := cmp.Compare(a.GF, b.GF); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(a.Missing, b.Missing); c != 0 {
		return c
	}
	if c := cmp.Compare(a.JDN, b.JDN); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

func rowKey(r *keyRow, score int) sortKey {
	k := sortKey{Score: score, ID: r.id, JDN: r.lo}
	if r.span == index.SpanNone {
		k.Missing, k.JDN = 1, 0
	}
	return k
}

type cursor struct {
	F string  `json:"f"`
	K sortKey `json:"k"`
}

func encodeCursor(q *Query, k sortKey) string {
	b, _ := json.Marshal(cursor{F: strconv.FormatUint(q.fingerprint(), 36), K: k})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(q *Query) (*sortKey, error) {
	if q.After == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(q.After)
	if err != nil {
		return nil, ErrBadCursor
	}
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil || c.F != strconv.FormatUint(q.fingerprint(), 36) {
		return nil, ErrBadCursor
	}
	return &c.K, nil
}

// Search runs a query for a requester holding scope (nil: anonymous); the records
// their scope does not open are teasers (paywall.go).
func (s *Engine) Search(ctx context.Context, q *Query, scope []string) (*SearchResult, error) {
	s, done, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	out, err := s.execute(ctx, q, scope, true)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{Total: out.total, TotalExact: out.totalExact, Facets: out.facets, FacetsExact: out.facetsExact, Results: []Result{}}
	if len(out.page) > 0 {
		if res.Results, err = s.results(ctx, out.page, scope); err != nil {
			return nil, err
		}
	}
	if out.next != nil {
		c := encodeCursor(q, *out.next)
		res.Next = &c
	}
	return res, nil
}

// Count answers how many records a query finds, cheaply: no results, no facets.
// A requester's count is of what their search finds (scope as for Search).
func (s *Engine) Count(ctx context.Context, q *Query, scope []string) (total int64, exact bool, err error) {
	out, err := s.execute(ctx, q, scope, false)
	if err != nil {
		return 0, false, err
	}
	return out.total, out.totalExact, nil
}

type outcome struct {
	total       int64
	totalExact  bool
	facets      Facets
	facetsExact bool
	page        []hit
	next        *sortKey
}

func emptyFacets() Facets {
	return Facets{Collection: []FacetValue{}, RecordType: []FacetValue{}, Decade: []FacetValue{}, County: []FacetValue{}}
}

// q is where a search sends its queries: its session's connection on PostgreSQL,
// the pool on SQLite.
func (s *Engine) q() index.Queryer {
	if s.conn != nil {
		return s.conn
	}
	return s.DB
}

// session gives a PostgreSQL search one connection with just-in-time compilation
// off: the planner's costs for index range scans over millions of rows cross
// jit_above_cost, and compiling a query takes longer than running it. The search
// runs on the copy of the engine it returns, whose queries all go to that
// connection; done gives it back.
func (s *Engine) session(ctx context.Context) (_ *Engine, done func(), _ error) {
	if s.conn != nil || s.DB.Dialect != store.Postgres {
		return s, func() {}, nil
	}
	c, err := s.DB.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	if _, err := c.ExecContext(ctx, `SET jit = off`); err != nil {
		c.Close()
		return nil, nil, err
	}
	on := *s
	on.conn = c
	return &on, func() { c.Close() }, nil
}

func (s *Engine) execute(ctx context.Context, q *Query, scope []string, full bool) (*outcome, error) {
	after, err := decodeCursor(q)
	if err != nil {
		return nil, err
	}
	s, done, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	p, err := s.plan(ctx, q)
	if err != nil {
		return nil, err
	}
	if err := s.applyPaywall(ctx, p, scope); err != nil {
		return nil, err
	}
	out := &outcome{totalExact: true, facetsExact: true, facets: emptyFacets()}
	if p.empty {
		return out, nil
	}
	// A surname search that name_facets counts: when it finds more records than Cap,
	// it has more rows than that too (each record has a person of the name), and the
	// counting below is skipped.
	var statsTotal int64
	var statsCounts facetCounts
	statsDone := false
	if statsEligible(p) {
		if statsTotal, statsCounts, err = s.statsCounts(ctx, p); err != nil {
			return nil, err
		}
		statsDone = true
	}
	// Otherwise count first (index only): reading rows into memory is the expensive
	// part, and a broad search would read Cap of them for nothing. A search whose
	// records name_facets counted within Cap is read at once.
	complete := statsDone && statsTotal <= int64(s.cap)
	if !statsDone {
		n, err := s.countRows(ctx, p, s.cap+1)
		if err != nil {
			return nil, err
		}
		complete = n <= s.cap
	}
	var rows []keyRow
	if complete {
		var err error
		if rows, complete, err = s.candidates(ctx, p); err != nil {
			return nil, err
		}
		if complete {
			if err := s.lookupMembersRecords(ctx, p, rows); err != nil {
				return nil, err
			}
		}
		if complete && p.rel {
			if rows, err = s.withRelative(ctx, p, rows); err != nil {
				return nil, err
			}
		}
	}
	if complete {
		hits := s.bestPerRecord(p, rows)
		out.total = int64(len(hits))
		if !full {
			return out, nil
		}
		if out.facets, err = s.facetsOf(ctx, hits); err != nil {
			return nil, err
		}
		if q.Sort == SortName {
			if err := s.nameKeys(ctx, p, hits); err != nil {
				return nil, err
			}
		}
		out.page, out.next = pageOf(q.Sort, hits, after, q.Limit)
		return out, nil
	}

	// Broad: too many candidates to score in memory.
	out.totalExact, out.facetsExact = false, false
	if !p.surname {
		if out.total, out.facets, out.totalExact, out.facetsExact, err = s.browseTotals(ctx, p); err != nil {
			return nil, err
		}
	} else if statsDone {
		out.total = statsTotal
		if full { // a count (See N results) shows no facets
			if out.facets, err = s.countedFacets(ctx, statsCounts); err != nil {
				return nil, err
			}
		}
		// One spelling: exact. Several: a record holding two of them counts twice.
		// name_facets counts every person, those a visitor's teasers withhold too: for
		// a visitor it is an upper bound wherever members-only records may be.
		out.totalExact = len(p.sPts) == 1
		if out.totalExact && p.paywall != nil {
			mixed := map[int64]bool{}
			if p.paywall.marksClose {
				if mixed, err = s.collectionsWithMembersRecords(ctx); err != nil {
					return nil, err
				}
			}
			for id := range p.paywall.closedColls {
				mixed[id] = true
			}
			for id := range mixed {
				if p.colls == nil || slices.Contains(p.colls, id) {
					out.totalExact = false
				}
			}
		}
		out.facetsExact = out.totalExact
	} else if out.total, out.facets, err = s.estimate(ctx, p); err != nil {
		return nil, err
	}
	if !full {
		return out, nil
	}
	if !p.surname {
		if q.Sort == SortName {
			return nil, &ErrTooBroad{fmt.Sprintf("More than %d records match: enter a surname to sort them by name.", s.cap)}
		}
		if after != nil && after.Score != 0 {
			return nil, ErrBadCursor
		}
		page, next, err := s.streamRecords(ctx, p, after)
		if err != nil {
			return nil, err
		}
		out.page, out.next = page, next
		return out, nil
	}
	page, next, err := s.stream(ctx, p, after)
	if err != nil {
		return nil, err
	}
	out.page, out.next = page, next
	return out, nil
}

// pageOf picks the page after the cursor from unsorted hits: only the page is sorted.
func pageOf(sort string, hits []hit, after *sortKey, limit int) ([]hit, *sortKey) {
	var rest []int
	for i := range hits {
		if after == nil || compareKeys(sort, &hits[i].key, after) > 0 {
			rest = append(rest, i)
		}
	}
	// A max-heap of the limit+1 smallest keys.
	top := make([]int, 0, limit+1)
	less := func(a, b int) bool { return compareKeys(sort, &hits[a].key, &hits[b].key) < 0 }
	for _, i := range rest {
		if len(top) < limit+1 {
			top = append(top, i)
			for c := len(top) - 1; c > 0; {
				p := (c - 1) / 2
				if !less(top[p], top[c]) {
					break
				}
				top[p], top[c] = top[c], top[p]
				c = p
			}
			continue
		}
		if !less(i, top[0]) {
			continue
		}
		top[0] = i
		for p := 0; ; {
			c := 2*p + 1
			if c >= len(top) {
				break
			}
			if c+1 < len(top) && less(top[c], top[c+1]) {
				c++
			}
			if !less(top[p], top[c]) {
				break
			}
			top[p], top[c] = top[c], top[p]
			p = c
		}
	}
	slices.SortFunc(top, func(a, b int) int { return compareKeys(sort, &hits[a].key, &hits[b].key) })
	var next *sortKey
	if len(top) > limit {
		top = top[:limit]
		next = &hits[top[limit-1]].key
	}
	page := make([]hit, len(top))
	for i, j := range top {
		page[i] = hits[j]
	}
	return page, next
}

// statsEligible reports whether name_facets can count a query: a surname with at most
// collection and record-type filters.
func statsEligible(p *plan) bool {
	return p.surname && !p.given && !p.year && !p.place && p.roles == nil && !p.rel
}

// candidateSQL selects proj from every matching search_keys row (k): one index range
// per surname id and span when there is a surname, else the records of the chosen
// collections, types, dates and places joined to their persons.
func candidateSQL(p *plan, proj string) string {
	var selects []string
	conds := p.conds()
	where := func(extra ...string) string {
		c := append(slices.Clone(extra), conds...)
		if len(c) == 0 {
			return ""
		}
		return " WHERE " + strings.Join(c, " AND ")
	}
	if p.surname {
		sur := inList("k.surname_id", ptsIDs(p.sPts, func(int) bool { return true }))
		from := p.keysFrom(p.byGiven)
		if p.year {
			for _, span := range []int{index.SpanShort, index.SpanLong, index.SpanNone} {
				selects = append(selects, `SELECT `+proj+` FROM `+from+where(sur, p.overlapSQL(span)))
			}
		} else {
			selects = append(selects, `SELECT `+proj+` FROM `+from+where(sur))
		}
		return strings.Join(selects, " UNION ALL ")
	}
	// The collections, all of them when none is chosen, so that records_browse
	// (collection, date) finds the records one collection at a time.
	rc := []string{inList("rec.collection_id", p.recordCollections)}
	if p.types != nil {
		rc = append(rc, inList("rec.type_id", p.types))
	}
	if p.year {
		rc = append(rc, "("+p.overlapSQL(index.SpanShort)+" OR "+p.overlapSQL(index.SpanLong)+" OR k.span = 2)")
	}
	join := `SELECT ` + proj + ` FROM records rec JOIN search_keys k ON k.id >= rec.id * 256 AND k.id < rec.id * 256 + 256`
	if all := append(rc, conds...); len(all) > 0 {
		join += " WHERE " + strings.Join(all, " AND ")
	}
	return join
}

// countRows counts matching search_keys rows, stopping at limit, without reading them.
func (s *Engine) countRows(ctx context.Context, p *plan, limit int) (int, error) {
	var n int
	err := s.q().QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+candidateSQL(p, "1 AS one")+` LIMIT `+itoa(limit)+`) c`).Scan(&n)
	return n, err
}

// candidates reads up to Cap+1 matching rows (the relative not checked); complete is
// false when there are more.
func (s *Engine) candidates(ctx context.Context, p *plan) ([]keyRow, bool, error) {
	return s.candidatesLimit(ctx, p, s.cap)
}

func (s *Engine) candidatesLimit(ctx context.Context, p *plan, limit int) ([]keyRow, bool, error) {
	query := candidateSQL(p, keyRowCols)
	if strings.Contains(query, " UNION ALL ") {
		query = `SELECT * FROM (` + query + `) u`
	}
	rows, err := s.q().QueryContext(ctx, query+` LIMIT `+itoa(limit+1))
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []keyRow
	for rows.Next() {
		var r keyRow
		if err := scanKeyRow(rows, &r); err != nil {
			return nil, false, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	return out, len(out) <= limit, nil
}

// withRelative keeps the rows whose record has the relative asked for.
func (s *Engine) withRelative(ctx context.Context, p *plan, rows []keyRow) ([]keyRow, error) {
	var recs []int64
	seen := map[int64]bool{}
	for _, r := range rows {
		if !seen[r.record()] {
			seen[r.record()] = true
			recs = append(recs, r.record())
		}
	}
	// Only the records' rows that could be the relative: relativeOK looks for one
	// other than the candidate among them.
	byRec, err := s.recordRowsWhere(ctx, recs, p.relativeSQL())
	if err != nil {
		return nil, err
	}
	out := rows[:0:0]
	for i := range rows {
		if p.relativeOK(&rows[i], byRec[rows[i].record()]) {
			out = append(out, rows[i])
		}
	}
	return out, nil
}

// browseTotals counts a broad search without a surname from the collections'
// summaries: exactly when it filters by collection (and record type) only, otherwise
// estimated from a count of the matching records and a sample of their persons.
func (s *Engine) browseTotals(ctx context.Context, p *plan) (int64, Facets, bool, bool, error) {
	all, err := s.Collections(ctx)
	if err != nil {
		return 0, emptyFacets(), false, false, err
	}
	counts := facetCounts{}
	var total float64
	for _, c := range all {
		if c.Kind == index.KindLibrary || c.Kind == index.KindArchive || (p.colls != nil && !slices.Contains(p.colls, c.ID)) {
			continue
		}
		var raw string
		if err := s.q().QueryRowContext(ctx, s.DB.Rebind(`SELECT summary FROM collections WHERE id = ?`), c.ID).Scan(&raw); err != nil {
			return 0, emptyFacets(), false, false, err
		}
		var sum index.CollectionSummary
		if err := json.Unmarshal([]byte(raw), &sum); err != nil {
			return 0, emptyFacets(), false, false, err
		}
		var n, all float64
		for t, x := range sum.RecordTypes {
			id, _ := strconv.ParseInt(t, 10, 64)
			all += float64(x)
			if p.types == nil || slices.Contains(p.types, id) {
				n += float64(x)
				counts[facetKey{1, id}] += float64(x)
			}
		}
		if all == 0 {
			continue
		}
		share := n / all // the record-type filter's share, for the other facets
		total += n
		counts[facetKey{0, c.ID}] += n
		for d, x := range sum.Decades {
			id, _ := strconv.ParseInt(d, 10, 64)
			counts[facetKey{2, id}] += float64(x) * share
		}
		for k, x := range sum.Counties {
			id, _ := strconv.ParseInt(k, 10, 64)
			counts[facetKey{3, id}] += float64(x) * share
		}
	}
	totalExact := !p.given && !p.year && !p.place && p.roles == nil && !p.rel
	facetsExact := totalExact && p.types == nil
	if !totalExact && total > 0 {
		// Records that pass the record-level conditions, then the share of a sample
		// whose persons pass the rest.
		var recs int64
		q := `SELECT COUNT(*) FROM (SELECT 1 FROM records rec WHERE ` + strings.Join(append([]string{"1 = 1"}, append(p.recordCondsColls(all), p.recordConds()...)...), " AND ") + ` LIMIT ` + itoa(50*s.cap) + `) c`
		if err := s.q().QueryRowContext(ctx, q).Scan(&recs); err != nil {
			return 0, emptyFacets(), false, false, err
		}
		est := float64(recs)
		if p.given || p.roles != nil || p.rel {
			// The share of a sample of those records that has a matching person.
			ids, err := s.sampleRecords(ctx, `SELECT rec.id FROM records rec WHERE `+strings.Join(append([]string{"1 = 1"}, append(p.recordCondsColls(all), p.recordConds()...)...), " AND ")+` LIMIT 500`)
			if err != nil {
				return 0, emptyFacets(), false, false, err
			}
			byRec, err := s.recordRows(ctx, ids)
			if err != nil {
				return 0, emptyFacets(), false, false, err
			}
			var sampled []keyRow
			for _, rows := range byRec {
				sampled = append(sampled, rows...)
			}
			if err := s.lookupMembersRecords(ctx, p, sampled); err != nil {
				return 0, emptyFacets(), false, false, err
			}
			passing := 0
			for _, id := range ids {
				rows := byRec[id]
				for i := range rows {
					if _, ok := p.score(&rows[i]); ok && p.relativeOK(&rows[i], rows) {
						passing++
						break
					}
				}
			}
			if len(ids) > 0 {
				est *= float64(passing) / float64(len(ids))
			}
		}
		scale := est / total
		for k := range counts {
			counts[k] *= scale
		}
		total = est
	}
	f, err := s.countedFacets(ctx, counts)
	return int64(total + 0.5), f, totalExact, facetsExact, err
}

// sampleRecords reads record ids.
func (s *Engine) sampleRecords(ctx context.Context, query string) ([]int64, error) {
	rows, err := s.q().QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// recordCondsColls restricts records to the chosen collections.
func (p *plan) recordCondsColls(all []*index.Collection) []string {
	if p.colls != nil {
		return []string{inList("rec.collection_id", p.colls)}
	}
	return nil
}

// estimate guesses the total and facets of a broad search that name_facets cannot
// count exactly: the matching persons are counted (up to a limit) in the index, turned
// into records by the records-per-person ratio of a sample, and spread over facets as
// name_facets spreads the surnames' records.
func (s *Engine) estimate(ctx context.Context, p *plan) (int64, Facets, error) {
	if p.surname && !p.given && p.roles == nil && !p.rel {
		return s.statsTotals(ctx, p)
	}
	rows, err := s.countRows(ctx, p, 50*s.cap)
	if err != nil {
		return 0, emptyFacets(), err
	}
	var sampleRows, sampleRecs int64
	if err := s.q().QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT rid) FROM (`+candidateSQL(p, "k.id / 256 AS rid")+` LIMIT 2000) c`).Scan(&sampleRows, &sampleRecs); err != nil {
		return 0, emptyFacets(), err
	}
	total := int64(rows)
	if sampleRows > 0 {
		total = int64(float64(rows) * float64(sampleRecs) / float64(sampleRows))
	}
	if p.rel {
		// The share of a sample that has the relative.
		sample, _, err := s.candidatesLimit(ctx, p, 1000)
		if err != nil {
			return 0, emptyFacets(), err
		}
		if err := s.lookupMembersRecords(ctx, p, sample); err != nil {
			return 0, emptyFacets(), err
		}
		kept, err := s.withRelative(ctx, p, sample)
		if err != nil {
			return 0, emptyFacets(), err
		}
		if len(sample) > 0 {
			total = int64(float64(total) * float64(len(kept)) / float64(len(sample)))
		}
	}
	if !p.surname {
		return total, emptyFacets(), nil
	}
	statsTotal, f, err := s.statsTotals(ctx, p)
	if err != nil || statsTotal == 0 {
		return total, emptyFacets(), err
	}
	scale := float64(total) / float64(statsTotal)
	for _, list := range []*[]FacetValue{&f.Collection, &f.RecordType, &f.Decade, &f.County} {
		kept := (*list)[:0]
		for _, v := range *list {
			if v.Count = int64(float64(v.Count)*scale + 0.5); v.Count > 0 {
				kept = append(kept, v)
			}
		}
		*list = kept
	}
	return total, f, nil
}

// bestPerRecord keeps each record's key person: the best score, then the first in
// the record. The rows passed every SQL condition.
func (s *Engine) bestPerRecord(p *plan, rows []keyRow) []hit {
	best := map[int64]int{}
	var hits []hit
	for _, r := range rows {
		if p.withholds(&r) {
			continue // a row of a members-only record SQL cannot tell (paywall.go)
		}
		pts, ok := p.score(&r)
		if !ok {
			s.log.Error("research: a row the SQL conditions accepted fails the Go ones", "row", r.id, "query", p.q.Values().Encode())
			continue
		}
		rec := r.record()
		i, seen := best[rec]
		if seen {
			h := &hits[i]
			if pts < h.score || (pts == h.score && r.id > h.row.id) {
				continue
			}
			h.row, h.score, h.key = r, pts, rowKey(&r, pts)
			continue
		}
		best[rec] = len(hits)
		hits = append(hits, hit{row: r, score: pts, key: rowKey(&r, pts)})
	}
	return hits
}

// nameKeys fills the surname and given-name sort keys of hits.
func (s *Engine) nameKeys(ctx context.Context, p *plan, hits []hit) error {
	sids, gids := map[int64]bool{}, map[int64]bool{}
	for _, h := range hits {
		if _, ok := p.sFolded[h.row.surname]; !ok && h.row.surname != 0 {
			sids[h.row.surname] = true
		}
		if h.row.given != 0 {
			gids[h.row.given] = true
		}
	}
	sf, err := s.namesByID(ctx, "surnames", "folded", setIDs(sids))
	if err != nil {
		return err
	}
	for id, f := range p.sFolded {
		sf[id] = f
	}
	gf, err := s.namesByID(ctx, "given_names", "folded", setIDs(gids))
	if err != nil {
		return err
	}
	for i := range hits {
		hits[i].key.SF, hits[i].key.GF = sf[hits[i].row.surname], gf[hits[i].row.given]
		if hits[i].row.surname == 0 {
			hits[i].key.SF = "\U0010FFFF" // no surname sorts last
		}
	}
	return nil
}

// namesByID reads the names (column col: a dictionary's folded names, a place's name)
// of a table's rows by id, a thousand ids a query.
func (s *Engine) namesByID(ctx context.Context, table, col string, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	for i := 0; i < len(ids); i += 1000 {
		rows, err := s.q().QueryContext(ctx, `SELECT id, `+col+` FROM `+table+` WHERE `+inList("id", ids[i:min(i+1000, len(ids))]))
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var f string
			if err := rows.Scan(&id, &f); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = f
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
