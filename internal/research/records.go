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
	"lineage/internal/research/gazetteer"
	"lineage/internal/research/index"
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
	r, err := index.ScanStoredRecord(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+index.StoredRecordCols+` FROM records WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var c *Collection
	colls, err := s.idx.CollectionsByID(ctx)
	if err != nil {
		return nil, err
	}
	if c = colls[r.Coll]; c == nil {
		return nil, ErrNotFound
	}
	var persons []Person
	if err := json.Unmarshal([]byte(r.Persons), &persons); err != nil {
		return nil, err
	}
	d := &RecordDetail{
		ID:         r.ID,
		Collection: CollectionRef{Slug: c.Slug, Title: c.Title, Kind: c.Kind, Access: c.Access},
		RecordType: s.idx.Types.Slug(ctx, s.db, r.Type), RecordTypeLabel: s.idx.Types.LabelOf(ctx, s.db, r.Type),
		Year:    index.StatedYear(r.DateText),
		Persons: persons, Images: []string{}, Events: []RecordEvent{},
	}
	level := access.Within(c.Level, index.RecordLevel(r.Access))
	d.Access = level.String()
	if !level.Opens(scope) {
		d.Teaser = true
		d.Persons = index.TeaserPersons(persons)
		return d, nil
	}
	var key string
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT key FROM records WHERE id = ?`), id).Scan(&key); err != nil {
		return nil, err
	}
	d.Key = &key
	d.Date, d.Transcript, d.Source = &r.DateText, &r.Transcript, &r.Source
	if r.Lo.Valid {
		d.DateRange = &DateRange{isoDate(int(r.Lo.Int64)), isoDate(int(r.Hi.Int64))}
	}
	if r.PlaceText != "" || r.PlaceID != 0 {
		d.Place = &RecordPlace{Text: r.PlaceText, ID: r.PlaceID}
		if r.PlaceID != 0 {
			pr := gazetteer.NewResolver(s.db, nil)
			p, err := pr.Get(ctx, r.PlaceID)
			if err == nil && pr.WithAncestors(ctx, p) == nil {
				d.Place.Path, d.Place.Lat, d.Place.Lon = p.Path, p.Lat, p.Lon
			}
		}
	}
	if err := json.Unmarshal([]byte(r.Images), &d.Images); err != nil {
		return nil, err
	}
	// The record's own event: its type, date and place.
	ev := RecordEvent{Type: d.RecordType, Date: r.DateText}
	if d.Place != nil {
		ev.Place = d.Place.Path
	}
	d.Events = append(d.Events, ev)
	return d, nil
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
	var sum index.CollectionSummary
	if err := json.Unmarshal([]byte(raw), &sum); err != nil {
		return nil, err
	}
	d := &CollectionDetail{Collection: c, Items: []any{}}
	f, err := s.search.FacetValues(ctx, func(yield func(int, int64, int64)) {
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
