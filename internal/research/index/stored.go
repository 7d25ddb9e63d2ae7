package index

import (
	"database/sql"

	"lineage/internal/gendate"
	"lineage/internal/store"
)

// StoredRecord is what results and record pages read of a record.
type StoredRecord struct {
	ID, Coll, Type  int64
	DateText        string
	Lo, Hi          sql.NullInt64
	PlaceID         int64
	PlaceText       string
	Transcript      string
	Source          string
	Access          int    // the record's own mark (records.access)
	Images, Persons string // JSON arrays
}

// StoredRecordCols are the columns ScanStoredRecord reads, in its order.
const StoredRecordCols = `id, collection_id, type_id, date_text, jdn_lo, jdn_hi, place_id, place_text, transcript, source, access, images, persons`

// ScanStoredRecord reads a row of StoredRecordCols.
func ScanStoredRecord(row store.Row) (*StoredRecord, error) {
	r := &StoredRecord{}
	err := row.Scan(&r.ID, &r.Coll, &r.Type, &r.DateText, &r.Lo, &r.Hi, &r.PlaceID, &r.PlaceText, &r.Transcript, &r.Source, &r.Access, &r.Images, &r.Persons)
	return r, err
}

// StatedYear is the year a record's date is shown under: the first year of what was
// written (1850 for ABT 1850 and for BET 1850 AND 1855); nil when it has none.
func StatedYear(text string) *int {
	d, err := gendate.Parse(text)
	if err != nil || !d.HasRange() {
		return nil
	}
	y, _, _ := gendate.JDNToGregorian(d.Stated.Earliest)
	return &y
}

// TeaserSeq is the position in its record of the one person a teaser shows.
const TeaserSeq = 0

// TeaserPersons is the part of a record's persons that a teaser shows: the first
// person's role and name.
func TeaserPersons(persons []Person) []Person {
	if len(persons) <= TeaserSeq {
		return []Person{}
	}
	p := persons[TeaserSeq]
	return []Person{{Role: p.Role, Surname: p.Surname, GivenNames: p.GivenNames}}
}
