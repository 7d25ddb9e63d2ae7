package search

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"lineage/internal/access"
	"lineage/internal/research/index"
)

// Result is one record in a search's results. For a requester who is not a member, a
// members-only record is a teaser: Date, Place and every person but the teaser's
// (TeaserPersons, the same as on the record's page) are withheld.
type Result struct {
	ID              int64          `json:"id"`
	RecordType      string         `json:"record_type"`
	RecordTypeLabel string         `json:"record_type_label"`
	Collection      string         `json:"collection"`
	CollectionTitle string         `json:"collection_title"`
	Date            *string        `json:"date"`
	Year            *int           `json:"year"`
	Place           *string        `json:"place"`
	Persons         []index.Person `json:"persons"`
	Match           int            `json:"match"` // index in Persons of the person the search matched
	Score           int            `json:"score"`
	Access          string         `json:"access"`
	Teaser          bool           `json:"teaser"`
}

// results turns hits into the API's results, in order.
func (s *Engine) results(ctx context.Context, hits []hit, scope []string) ([]Result, error) {
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.row.record()
	}
	recs := map[int64]*index.StoredRecord{}
	rows, err := s.q().QueryContext(ctx, `SELECT `+index.StoredRecordCols+` FROM records WHERE `+inList("id", ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		r, err := index.ScanStoredRecord(rows)
		if err != nil {
			return nil, err
		}
		recs[r.ID] = r
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	colls, err := s.CollectionsByID(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(hits))
	for _, h := range hits {
		r := recs[h.row.record()]
		if r == nil {
			continue // deleted meanwhile
		}
		c := colls[r.Coll]
		if c == nil {
			continue
		}
		var persons []index.Person
		if err := json.Unmarshal([]byte(r.Persons), &persons); err != nil {
			return nil, err
		}
		res := Result{
			ID: r.ID, RecordType: s.Types.Slug(ctx, s.DB, r.Type), RecordTypeLabel: s.Types.LabelOf(ctx, s.DB, r.Type),
			Collection: c.Slug, CollectionTitle: c.Title, Year: index.StatedYear(r.DateText),
			Persons: persons, Match: h.row.seq(), Score: h.score,
		}
		level := access.Within(c.Level, index.RecordLevel(r.Access))
		res.Access = level.String()
		if res.Match >= len(persons) {
			res.Match = 0
		}
		if !level.Opens(scope) {
			res.Teaser = true
			res.Persons, res.Match = index.TeaserPersons(persons), 0
		} else {
			date, place := r.DateText, r.PlaceText
			res.Date, res.Place = &date, &place
		}
		out = append(out, res)
	}
	return out, nil
}

// facetsOf counts the hits' records by collection, type, decade and county.
func (s *Engine) facetsOf(ctx context.Context, hits []hit) (Facets, error) {
	counts := facetCounts{}
	for _, h := range hits {
		r := &h.row
		counts[facetKey{0, r.coll}]++
		counts[facetKey{1, r.typ}]++
		counts[facetKey{2, int64(index.DecadeOf(r.span != index.SpanNone, r.lo, r.hi))}]++
		counts[facetKey{3, r.county}]++
	}
	return s.countedFacets(ctx, counts)
}

// facetKey is one value of one facet, numbered as FacetValues numbers them.
type facetKey struct {
	facet int
	id    int64
}

// facetCounts are counts of facet values, estimates among them (fractions).
type facetCounts map[facetKey]float64

// countedFacets labels and orders facet counts, rounded; values that round to nothing
// are left out.
func (s *Engine) countedFacets(ctx context.Context, counts facetCounts) (Facets, error) {
	return s.FacetValues(ctx, func(yield func(int, int64, int64)) {
		for k, n := range counts {
			if c := int64(n + 0.5); c > 0 {
				yield(k.facet, k.id, c)
			}
		}
	})
}

// FacetValues labels and orders facet counts given as (facet, id, count): facet 0
// collection, 1 record type, 2 decade, 3 county.
func (s *Engine) FacetValues(ctx context.Context, each func(func(facet int, id int64, n int64))) (Facets, error) {
	f := emptyFacets()
	colls, err := s.CollectionsByID(ctx)
	if err != nil {
		return f, err
	}
	var counties []int64
	each(func(facet int, id int64, n int64) {
		if facet == 3 && id != 0 {
			counties = append(counties, id)
		}
	})
	countyNames, err := s.namesByID(ctx, "places", "name", counties)
	if err != nil {
		return f, err
	}
	each(func(facet int, id int64, n int64) {
		switch facet {
		case 0:
			if c := colls[id]; c != nil {
				f.Collection = append(f.Collection, FacetValue{c.Slug, c.Title, n})
			}
		case 1:
			f.RecordType = append(f.RecordType, FacetValue{s.Types.Slug(ctx, s.DB, id), s.Types.LabelOf(ctx, s.DB, id), n})
		case 2:
			if id == 0 {
				f.Decade = append(f.Decade, FacetValue{"", "No date", n})
			} else {
				f.Decade = append(f.Decade, FacetValue{strconv.FormatInt(id, 10), strconv.FormatInt(id, 10) + "s", n})
			}
		case 3:
			if id == 0 {
				f.County = append(f.County, FacetValue{"", "No county", n})
			} else {
				f.County = append(f.County, FacetValue{strconv.FormatInt(id, 10), countyNames[id], n})
			}
		}
	})
	byCount := func(a, b FacetValue) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Label, b.Label), cmp.Compare(a.Value, b.Value))
	}
	slices.SortFunc(f.Collection, byCount)
	slices.SortFunc(f.RecordType, byCount)
	slices.SortFunc(f.County, byCount)
	slices.SortFunc(f.Decade, func(a, b FacetValue) int {
		if (a.Value == "") != (b.Value == "") {
			if a.Value == "" {
				return 1
			}
			return -1
		}
		ai, _ := strconv.Atoi(a.Value)
		bi, _ := strconv.Atoi(b.Value)
		return cmp.Compare(ai, bi)
	})
	return f, nil
}

// statsTotals counts a broad surname search from name_facets: exactly when it filters
// by collection and record type only (statsEligible; with several spellings a record
// holding two of them counts twice). A year or a place makes it an estimate: within
// each collection and record type, the share of the records dated in the decades the
// years touch (scaled by the share of those decades' years asked for; the undated
// kept) times the share placed in the counties the place lies in (the unplaced
// kept), the two taken as independent.
func (s *Engine) statsTotals(ctx context.Context, p *plan) (int64, Facets, error) {
	total, counts, err := s.statsCounts(ctx, p)
	if err != nil {
		return 0, emptyFacets(), err
	}
	f, err := s.countedFacets(ctx, counts)
	return total, f, err
}

// statsCounts is statsTotals before the facet values are labelled.
func (s *Engine) statsCounts(ctx context.Context, p *plan) (int64, facetCounts, error) {
	q := `SELECT collection_id, type_id, facet, value, SUM(records) FROM name_facets WHERE ` + inList("surname_id", ptsIDs(p.sPts, func(int) bool { return true }))
	if p.colls != nil {
		q += ` AND ` + inList("collection_id", p.colls)
	}
	if p.types != nil {
		q += ` AND ` + inList("type_id", p.types)
	}
	q += ` GROUP BY collection_id, type_id, facet, value`
	decLo, decHi, share := 0, 0, 1.0
	if p.year {
		decLo, decHi, share = p.yearDecades()
	}
	countyBound := p.place && p.estCounties != nil
	type group struct{ coll, typ int64 }
	type side struct {
		all, kept float64
		values    map[int64]float64 // kept values only
	}
	type cell struct{ decades, counties side }
	cells := map[group]*cell{}
	rows, err := s.q().QueryContext(ctx, q)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var g group
		var facet int
		var value, n int64
		if err := rows.Scan(&g.coll, &g.typ, &facet, &value, &n); err != nil {
			return 0, nil, err
		}
		c := cells[g]
		if c == nil {
			c = &cell{side{values: map[int64]float64{}}, side{values: map[int64]float64{}}}
			cells[g] = c
		}
		x := float64(n)
		switch facet {
		case index.FacetDecade:
			c.decades.all += x
			switch {
			case value == 0 || !p.year:
			case int(value) >= decLo && int(value) <= decHi:
				x *= share
			default:
				continue
			}
			c.decades.kept += x
			c.decades.values[value] += x
		case index.FacetCounty:
			c.counties.all += x
			if countyBound && value != 0 && !p.estCounties[value] {
				continue
			}
			c.counties.kept += x
			c.counties.values[value] += x
		}
	}
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	counts := facetCounts{}
	var total float64
	for g, c := range cells {
		if c.decades.all == 0 || c.counties.all == 0 {
			continue
		}
		dShare, cShare := c.decades.kept/c.decades.all, c.counties.kept/c.counties.all
		n := c.decades.all * dShare * cShare
		total += n
		counts[facetKey{0, g.coll}] += n
		counts[facetKey{1, g.typ}] += n
		for v, x := range c.decades.values {
			counts[facetKey{2, v}] += x * cShare
		}
		for v, x := range c.counties.values {
			counts[facetKey{3, v}] += x * dShare
		}
	}
	return int64(total + 0.5), counts, nil
}
