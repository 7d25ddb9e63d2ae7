package research

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"lineage/internal/access"
	"lineage/internal/gendate"
)

// RecordDetail is a record as its page shows it. For a requester who is not a member,
// a members-only record is a teaser: the first person's name, the year and the
// collection; Date, Place, Transcript, Source, Images and the other persons are
// withheld.
type RecordDetail struct {
	ID              int64         `json:"id"`
	Collection      CollectionRef `json:"collection"`
	RecordType      string        `json:"record_type"`
	RecordTypeLabel string        `json:"record_type_label"`
	Key             *string       `json:"key"` // the source's record_id
	Date            *string       `json:"date"`
	Year            *int          `json:"year"`
	DateRange       *DateRange    `json:"date_range"`
	Place           *RecordPlace  `json:"place"`
	Persons         []Person      `json:"persons"`
	Transcript      *string       `json:"transcript"`
	Source          *string       `json:"source"`
	Images          []string      `json:"images"`
	Events          []RecordEvent `json:"events"`
	Access          string        `json:"access"`
	Teaser          bool          `json:"teaser"`
}

// CollectionRef names a record's collection.
type CollectionRef struct {
	Slug   string `json:"slug"`
	Title  string `json:"title"`
	Kind   string `json:"kind"`
	Access string `json:"access"`
}

// DateRange is the span a date may mean, as ISO dates (proleptic Gregorian).
type DateRange struct {
	Earliest string `json:"earliest"`
	Latest   string `json:"latest"`
}

// RecordPlace is a record's place as written and as the gazetteer knows it.
type RecordPlace struct {
	Text string   `json:"text"`
	ID   int64    `json:"id,omitempty"`
	Path string   `json:"path,omitempty"`
	Lat  *float64 `json:"lat,omitempty"`
	Lon  *float64 `json:"lon,omitempty"`
}

// RecordEvent is an event of a record: for now only the record's own (an index
// record has one type, date and place).
type RecordEvent struct {
	Type  string `json:"type"`
	Date  string `json:"date"`
	Place string `json:"place,omitempty"`
}

func isoDate(jdn int) string {
	y, m, d := gendate.JDNToGregorian(jdn)
	if y < 1 {
		return fmt.Sprintf("%05d-%02d-%02d", y, m, d)
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

// Record returns one record as the requester may see it.
func (s *Service) Record(ctx context.Context, id int64, scope []string) (*RecordDetail, error) {
	r, err := scanStoredRecord(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+storedRecordCols+` FROM records WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var c *Collection
	colls, err := s.collectionsByID(ctx)
	if err != nil {
		return nil, err
	}
	if c = colls[r.coll]; c == nil {
		return nil, ErrNotFound
	}
	var persons []Person
	if err := json.Unmarshal([]byte(r.persons), &persons); err != nil {
		return nil, err
	}
	d := &RecordDetail{
		ID:         r.id,
		Collection: CollectionRef{Slug: c.Slug, Title: c.Title, Kind: c.Kind, Access: c.Access},
		RecordType: s.types.slug(ctx, s.db, r.typ), RecordTypeLabel: s.types.labelOf(ctx, s.db, r.typ),
		Year:    statedYear(r.dateText),
		Persons: persons, Images: []string{}, Events: []RecordEvent{},
	}
	level := access.Within(c.level, recordLevel(r.access))
	d.Access = level.String()
	if !level.Opens(scope) {
		d.Teaser = true
		d.Persons = teaserPersons(persons)
		return d, nil
	}
	var key string
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT key FROM records WHERE id = ?`), id).Scan(&key); err != nil {
		return nil, err
	}
	d.Key = &key
	d.Date, d.Transcript, d.Source = &r.dateText, &r.transcript, &r.source
	if r.lo.Valid {
		d.DateRange = &DateRange{isoDate(int(r.lo.Int64)), isoDate(int(r.hi.Int64))}
	}
	if r.placeText != "" || r.placeID != 0 {
		d.Place = &RecordPlace{Text: r.placeText, ID: r.placeID}
		if r.placeID != 0 {
			pr := newPlaceResolver(s.db, nil)
			p, err := pr.get(ctx, r.placeID)
			if err == nil && pr.withAncestors(ctx, p) == nil {
				d.Place.Path, d.Place.Lat, d.Place.Lon = p.Path, p.Lat, p.Lon
			}
		}
	}
	if err := json.Unmarshal([]byte(r.images), &d.Images); err != nil {
		return nil, err
	}
	// The record's own event: its type, date and place.
	ev := RecordEvent{Type: d.RecordType, Date: r.dateText}
	if d.Place != nil {
		ev.Place = d.Place.Path
	}
	d.Events = append(d.Events, ev)
	return d, nil
}

// collectionSummary is the JSON of collections.summary: what a collection holds, for
// its page, refreshed at the end of every import into it.
type collectionSummary struct {
	RecordTypes map[string]int64 `json:"record_types"` // type id → records
	Decades     map[string]int64 `json:"decades"`      // decade → records ("0": undated)
	Counties    map[string]int64 `json:"counties"`     // county place id → records ("0": unknown)
	YearFrom    int              `json:"year_from,omitempty"`
	YearTo      int              `json:"year_to,omitempty"`
	// MembersOnly counts the records marked members-only; nil while an import runs
	// (forgetMembersOnly) or in a summary older than the count. Searches by visitors
	// skip looking up records' access in a public collection that counts none.
	MembersOnly *int64 `json:"members_only,omitempty"`
}

// refreshSummary recounts a collection's records by type, decade and county.
func (s *Service) refreshSummary(ctx context.Context, collID int64) error {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT type_id, jdn_lo, jdn_hi, county_id, access FROM records WHERE collection_id = ?`), collID)
	if err != nil {
		return err
	}
	sum := newCollectionSummary()
	var n int64
	for rows.Next() {
		var typ, county int64
		var lo, hi sql.NullInt64
		var access int
		if err := rows.Scan(&typ, &lo, &hi, &county, &access); err != nil {
			rows.Close()
			return err
		}
		n++
		sum.add(typ, lo.Valid, int(lo.Int64), int(hi.Int64), county, access)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	return s.storeSummary(ctx, collID, sum, n)
}

func newCollectionSummary() *collectionSummary {
	return &collectionSummary{RecordTypes: map[string]int64{}, Decades: map[string]int64{}, Counties: map[string]int64{}, MembersOnly: new(int64)}
}

// add counts one record (access is its own, records.access).
func (sum *collectionSummary) add(typ int64, hasDate bool, lo, hi int, county int64, access int) {
	if access == accessCode(AccessMembers) {
		*sum.MembersOnly++
	}
	sum.RecordTypes[strconv.FormatInt(typ, 10)]++
	dec := decadeOf(hasDate, lo, hi)
	sum.Decades[strconv.Itoa(dec)]++
	sum.Counties[strconv.FormatInt(county, 10)]++
	if dec != 0 {
		if sum.YearFrom == 0 || dec < sum.YearFrom {
			sum.YearFrom = dec
		}
		sum.YearTo = max(sum.YearTo, dec+9)
	}
}

// storeSummary writes a collection's summary and record count.
func (s *Service) storeSummary(ctx context.Context, collID int64, sum *collectionSummary, n int64) error {
	b, _ := json.Marshal(sum)
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE collections SET summary = ?, record_count = ?, updated_at = ? WHERE id = ?`),
		string(b), n, s.Now().Unix(), collID)
	return err
}

// CollectionDetail is a collection's page: what it holds, and for library and archive
// collections the first catalogue entries.
type CollectionDetail struct {
	Collection  *Collection  `json:"collection"`
	RecordTypes []FacetValue `json:"record_types"`
	Decades     []FacetValue `json:"decades"`
	Counties    []FacetValue `json:"counties"`
	YearFrom    *int         `json:"year_from"`
	YearTo      *int         `json:"year_to"`
	Items       []any        `json:"items"` // library or archive entries
	Next        *string      `json:"next"`
}

// Collection returns a collection's page; after and limit page its catalogue entries.
func (s *Service) Collection(ctx context.Context, slug string, after int64, limit int) (*CollectionDetail, error) {
	c, err := s.CollectionBySlug(ctx, slug)
	if err != nil {
		return nil, err
	}
	var raw string
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT summary FROM collections WHERE id = ?`), c.ID).Scan(&raw); err != nil {
		return nil, err
	}
	var sum collectionSummary
	if err := json.Unmarshal([]byte(raw), &sum); err != nil {
		return nil, err
	}
	d := &CollectionDetail{Collection: c, Items: []any{}}
	f, err := s.facetValues(ctx, func(yield func(int, int64, int64)) {
		for k, n := range sum.RecordTypes {
			id, _ := strconv.ParseInt(k, 10, 64)
			yield(1, id, n)
		}
		for k, n := range sum.Decades {
			id, _ := strconv.ParseInt(k, 10, 64)
			yield(2, id, n)
		}
		for k, n := range sum.Counties {
			id, _ := strconv.ParseInt(k, 10, 64)
			yield(3, id, n)
		}
	})
	if err != nil {
		return nil, err
	}
	d.RecordTypes, d.Decades, d.Counties = f.RecordType, f.Decade, f.County
	if sum.YearFrom != 0 {
		d.YearFrom, d.YearTo = &sum.YearFrom, &sum.YearTo
	}
	switch c.Kind {
	case KindLibrary, KindArchive:
		items, next, err := s.catalogue(ctx, c, after, limit)
		if err != nil {
			return nil, err
		}
		d.Items = items
		if next != 0 {
			n := strconv.FormatInt(next, 10)
			d.Next = &n
		}
	}
	return d, nil
}
