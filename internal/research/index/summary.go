package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
)

// CollectionSummary is the JSON of collections.summary: what a collection holds, for
// its page, refreshed at the end of every import into it.
type CollectionSummary struct {
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

// RefreshSummary recounts a collection's records by type, decade and county.
func (x *Index) RefreshSummary(ctx context.Context, collID int64) error {
	rows, err := x.DB.QueryContext(ctx, x.DB.Rebind(`SELECT type_id, jdn_lo, jdn_hi, county_id, access FROM records WHERE collection_id = ?`), collID)
	if err != nil {
		return err
	}
	sum := NewCollectionSummary()
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
		sum.Add(typ, lo.Valid, int(lo.Int64), int(hi.Int64), county, access)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	return x.StoreSummary(ctx, collID, sum, n)
}

func NewCollectionSummary() *CollectionSummary {
	return &CollectionSummary{RecordTypes: map[string]int64{}, Decades: map[string]int64{}, Counties: map[string]int64{}, MembersOnly: new(int64)}
}

// Add counts one record (access is its own, records.access).
func (sum *CollectionSummary) Add(typ int64, hasDate bool, lo, hi int, county int64, access int) {
	if access == AccessCode(AccessMembers) {
		*sum.MembersOnly++
	}
	sum.RecordTypes[strconv.FormatInt(typ, 10)]++
	dec := DecadeOf(hasDate, lo, hi)
	sum.Decades[strconv.Itoa(dec)]++
	sum.Counties[strconv.FormatInt(county, 10)]++
	if dec != 0 {
		if sum.YearFrom == 0 || dec < sum.YearFrom {
			sum.YearFrom = dec
		}
		sum.YearTo = max(sum.YearTo, dec+9)
	}
}

// StoreSummary writes a collection's summary and record count.
func (x *Index) StoreSummary(ctx context.Context, collID int64, sum *CollectionSummary, n int64) error {
	b, _ := json.Marshal(sum)
	_, err := x.DB.ExecContext(ctx, x.DB.Rebind(`UPDATE collections SET summary = ?, record_count = ?, updated_at = ? WHERE id = ?`),
		string(b), n, x.Now().Unix(), collID)
	return err
}

// forgetMembersOnly marks a collection's summary as not knowing how many of its
// records are members-only, before an import writes to it: searches then look the
// records up until the import stores the new count.
func (x *Index) ForgetMembersOnly(ctx context.Context, collID int64) error {
	var raw string
	if err := x.DB.QueryRowContext(ctx, x.DB.Rebind(`SELECT summary FROM collections WHERE id = ?`), collID).Scan(&raw); err != nil {
		return err
	}
	var sum map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &sum) != nil || sum == nil {
		sum = map[string]json.RawMessage{}
	}
	if _, ok := sum["members_only"]; !ok {
		return nil
	}
	delete(sum, "members_only")
	b, _ := json.Marshal(sum)
	_, err := x.DB.ExecContext(ctx, x.DB.Rebind(`UPDATE collections SET summary = ? WHERE id = ?`), string(b), collID)
	return err
}
