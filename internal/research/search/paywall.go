package search

import (
	"context"
	"encoding/json"

	"lineage/internal/access"
	"lineage/internal/research/index"
)

// The paywall (docs/research.md, "Paywall"). A requester whose scope does not open a
// record's access level (access.Within its collection's and its own) sees it as a
// teaser, and the teaser is the same wherever the record
// appears: TeaserPersons decides what it shows, and the search engine lets such a
// requester match a members-only record only on what the teaser shows, so that
// neither results, totals, facets nor filters tell a visitor anything about a
// withheld person.

// paywall is what a search of a requester who may not open every record needs to
// know to keep the persons that teasers withhold out of the search.
type paywall struct {
	// closedColls are the collections whose level the requester's scope does not open.
	closedColls map[int64]bool
	// inList is closedColls as SQL's "k.collection_id IN (…)", "" when empty.
	inList string
	// marksClose: records marked members-only are closed to the requester (in the
	// collections whose level leaves it to the record's mark: public and registered).
	marksClose bool
	// membersRecs are such records found marked members-only, and checked those
	// whose access was looked up (lookupMembersRecords).
	membersRecs, checked map[int64]bool
}

// withholds reports whether row r is a person the requester may not match: of a
// record closed to them, only the teaser's person.
func (p *plan) withholds(r *keyRow) bool {
	w := p.paywall
	return w != nil && r.seq() != index.TeaserSeq && (w.closedColls[r.coll] || w.membersRecs[r.record()])
}

// paywallSQL is withholds for the closed collections, as a condition on k ("" when
// there is none); records marked members-only in open collections are checked in Go (lookupMembersRecords), where the record's access is
// read.
func (p *plan) paywallSQL() string {
	if p.paywall == nil || p.paywall.inList == "" {
		return ""
	}
	return "(k.id % " + itoa(index.MaxKeyWidth) + " = " + itoa(index.TeaserSeq) + " OR NOT " + p.paywall.inList + ")"
}

// applyPaywall prepares a plan for a requester holding scope; it leaves p.paywall
// nil when the scope opens every record.
func (s *Engine) applyPaywall(ctx context.Context, p *plan, scope []string) error {
	all, err := s.Collections(ctx)
	if err != nil {
		return err
	}
	w := &paywall{closedColls: map[int64]bool{}, membersRecs: map[int64]bool{}, checked: map[int64]bool{},
		marksClose: !index.RecordLevel(index.AccessCode(index.AccessMembers)).Opens(scope)}
	var ids []int64
	for _, c := range all {
		if !c.Level.Opens(scope) {
			w.closedColls[c.ID] = true
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 && !w.marksClose {
		return nil
	}
	if len(ids) > 0 {
		w.inList = inList("k.collection_id", ids)
	}
	p.paywall = w
	return nil
}

// lookupMembersRecords finds which of the rows' records in open collections are
// marked members-only, for withholds, when such marks close records to the requester. Only collections whose summary does not say
// that none of their records is members-only are looked at: the summary is read
// here, after the rows, because an import forgets the count before it writes
// (forgetMembersOnly), so rows written by an import still running are looked up.
func (s *Engine) lookupMembersRecords(ctx context.Context, p *plan, rows []keyRow) error {
	w := p.paywall
	if w == nil || !w.marksClose || len(rows) == 0 {
		return nil
	}
	public := false
	for i := range rows {
		if !w.closedColls[rows[i].coll] {
			public = true
			break
		}
	}
	if !public {
		return nil
	}
	colls, err := s.collectionsWithMembersRecords(ctx)
	if err != nil || len(colls) == 0 {
		return err
	}
	var recs []int64
	for i := range rows {
		rec := rows[i].record()
		if colls[rows[i].coll] && !w.checked[rec] {
			w.checked[rec] = true
			recs = append(recs, rec)
		}
	}
	for i := 0; i < len(recs); i += 1000 {
		q := `SELECT id FROM records WHERE ` + inList("id", recs[i:min(i+1000, len(recs))]) + ` AND access = ` + itoa(index.AccessCode(index.AccessMembers))
		found, err := s.sampleRecords(ctx, q)
		if err != nil {
			return err
		}
		for _, id := range found {
			w.membersRecs[id] = true
		}
	}
	return nil
}

// collectionsWithMembersRecords are the collections whose records' marks count
// (public and registered ones: access.Within) that may hold records marked
// members-only: those whose summary counts some, or does not know.
func (s *Engine) collectionsWithMembersRecords(ctx context.Context) (map[int64]bool, error) {
	rows, err := s.q().QueryContext(ctx, `SELECT id, summary FROM collections WHERE access = 0 OR access_level = '`+access.Registered+`'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		var raw string
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, err
		}
		var sum struct {
			MembersOnly *int64 `json:"members_only"`
		}
		if json.Unmarshal([]byte(raw), &sum) != nil || sum.MembersOnly == nil || *sum.MembersOnly != 0 {
			out[id] = true
		}
	}
	return out, rows.Err()
}
