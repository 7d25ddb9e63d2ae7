package trees

import (
	"database/sql"
	"fmt"
	"strings"

	"lineage/internal/gendate"
	"lineage/internal/store"
)

// DateValue is a date as the API shows it (docs/trees.md).
type DateValue struct {
	Text     string `json:"text"`
	Earliest string `json:"earliest,omitempty"`
	Latest   string `json:"latest,omitempty"`
	Year     int    `json:"year,omitempty"`
}

// EventPlace is a summary's birth or death.
type EventPlace struct {
	Date  *DateValue `json:"date"`
	Place string     `json:"place"`
}

// PersonSummary is a person in lists (docs/trees.md).
type PersonSummary struct {
	ID       string      `json:"id"`
	Name     string      `json:"name"`
	Given    string      `json:"given"`
	Surname  string      `json:"surname"`
	Sex      string      `json:"sex"`
	Living   bool        `json:"living"`
	Birth    *EventPlace `json:"birth"`
	Death    *EventPlace `json:"death"`
	Pedigree string      `json:"pedigree,omitempty"`
	Family   string      `json:"family,omitempty"`

	treeID  int64
	pid     int64
	sortKey string
	birthLo sql.NullInt64
}

func isoDay(jdn int) string {
	y, m, d := gendate.JDNToGregorian(jdn)
	if y < 1 || y > 9999 {
		return ""
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

func dateValue(text string, lo, hi sql.NullInt64) *DateValue {
	if text == "" && !lo.Valid {
		return nil
	}
	d := &DateValue{Text: text}
	if lo.Valid && hi.Valid {
		d.Earliest, d.Latest = isoDay(int(lo.Int64)), isoDay(int(hi.Int64))
		y, _, _ := gendate.JDNToGregorian(int(lo.Int64 + (hi.Int64-lo.Int64)/2))
		d.Year = y
	}
	return d
}

func dateOf(e *eventInfo) *DateValue {
	if e.dateText == "" {
		return nil
	}
	var lo, hi sql.NullInt64
	if e.hasRange {
		lo, hi = sql.NullInt64{Int64: int64(e.lo), Valid: true}, sql.NullInt64{Int64: int64(e.hi), Valid: true}
	}
	return dateValue(e.dateText, lo, hi)
}

func eventPlace(text string, lo, hi sql.NullInt64, place string) *EventPlace {
	d := dateValue(text, lo, hi)
	if d == nil && place == "" {
		return nil
	}
	return &EventPlace{Date: d, Place: place}
}

const summaryCols = `tree_id, pid, xref, sex, living, name, given, surname, sort_key, birth_text, birth_lo, birth_hi, birth_place,
	death_text, death_lo, death_hi, death_place`

func scanSummary(r store.Row) (*PersonSummary, error) {
	p := &PersonSummary{}
	var living int64
	var bt, bpl, dt, dpl string
	var blo, bhi, dlo, dhi sql.NullInt64
	if err := r.Scan(&p.treeID, &p.pid, &p.ID, &p.Sex, &living, &p.Name, &p.Given, &p.Surname, &p.sortKey,
		&bt, &blo, &bhi, &bpl, &dt, &dlo, &dhi, &dpl); err != nil {
		return nil, err
	}
	p.Living = living != 0
	p.birthLo = blo
	p.Birth = eventPlace(bt, blo, bhi, bpl)
	p.Death = eventPlace(dt, dlo, dhi, dpl)
	return p, nil
}

// redact makes a summary 'Living' for a reader who may not see it.
func (p *PersonSummary) redact(priv bool) *PersonSummary {
	if !p.Living || priv {
		return p
	}
	p.Name, p.Given, p.Surname = LivingName, LivingName, ""
	p.Birth, p.Death = nil, nil
	return p
}

// LivingName is what a living person is called to those who may not see them.
const LivingName = "Living"

// lessSummary orders people by surname, given names, birth.
func lessSummary(a, b *PersonSummary) int {
	if c := strings.Compare(a.sortKey, b.sortKey); c != 0 {
		return c
	}
	switch {
	case a.birthLo.Valid && b.birthLo.Valid && a.birthLo.Int64 != b.birthLo.Int64:
		if a.birthLo.Int64 < b.birthLo.Int64 {
			return -1
		}
		return 1
	case a.birthLo.Valid != b.birthLo.Valid:
		if a.birthLo.Valid {
			return -1
		}
		return 1
	}
	if a.treeID != b.treeID {
		if a.treeID < b.treeID {
			return -1
		}
		return 1
	}
	if a.pid < b.pid {
		return -1
	}
	if a.pid > b.pid {
		return 1
	}
	return 0
}
