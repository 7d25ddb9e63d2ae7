package ingest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"lineage/internal/research"
	"lineage/internal/research/index"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// fingerprint is everything an import writes that searches and pages read, as text:
// records (but the hash and run that say which import wrote them), the search index,
// the name statistics, and the collections' counts and summaries.
func fingerprint(t *testing.T, db *store.DB) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	dump := func(q string) {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%v|", v)
			}
			b.WriteByte('\n')
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	dump(`SELECT c.slug, r.id, r.key, r.type_id, r.date_text, r.jdn_lo, r.jdn_hi, r.date_kind, r.place_id, r.county_id, r.place_text,
		r.transcript, r.source, r.access, r.images, r.persons FROM records r JOIN collections c ON c.id = r.collection_id ORDER BY c.slug, r.key`)
	dump(`SELECT * FROM search_keys ORDER BY id`)
	dump(`SELECT surname_id, collection_id, type_id, facet, value, records FROM name_facets ORDER BY surname_id, collection_id, type_id, facet, value`)
	dump(`SELECT slug, record_count, summary FROM collections ORDER BY slug`)
	if db.Dialect == store.SQLite {
		for _, st := range index.SearchTables {
			dump(`SELECT * FROM ` + st.Name + ` ORDER BY id`)
		}
	}
	return b.String()
}

const more = header +
	"N1,burial,3 Apr 1861,Guildford,principal,Quennell,Amos,M,70,,,,\n" +
	"N2,marriage,1862,Godalming,groom,Tidy,Jabez,M,,,,,\n" +
	"N2,marriage,,,bride,Quennell,Hephzibah,F,,,,,\n"

// TestRemoveRecordsTakesBackAnImport: removing the records an import added leaves
// the store as it was before that import, search index and statistics included.
func TestRemoveRecordsTakesBackAnImport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db, 0)
		importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "surrey"})
		before := fingerprint(t, db)
		if _, err := importString(t, s, more, nil, research.ImportOptions{Collection: "surrey"}); err != nil {
			t.Fatal(err)
		}
		if res := search(t, s, "surname=Quennell", false); res.Total == 0 {
			t.Fatal("the added records are not found")
		}
		n, err := s.RemoveRecords(ctx, "surrey", []string{"N1", "N2", "not-there"})
		if err != nil || n != 2 {
			t.Fatalf("removed %d, %v", n, err)
		}
		if after := fingerprint(t, db); after != before {
			t.Errorf("the store differs from before the import:\n--- before\n%s\n--- after\n%s", before, after)
		}
		if res := search(t, s, "surname=Quennell", false); res.Total != 0 {
			t.Errorf("removed records still found: %d", res.Total)
		}
	})
}

// TestWriteCanonicalPutsRecordsBack: the canonical CSV of records, imported again
// over changed versions of them, puts them back as they were.
func TestWriteCanonicalPutsRecordsBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db, 0)
		importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "surrey"})
		importFile(t, s, "burials.csv", research.ImportOptions{Collection: "london", Access: research.AccessMembers})
		if _, err := importString(t, s, header+
			"M1,baptism,1850,Guildford,principal,Marked,Ann,F,,\"a transcript\nover two lines\",PR 2,members,a.jpg|b.jpg\n",
			nil, research.ImportOptions{Collection: "surrey"}); err != nil {
			t.Fatal(err)
		}
		before := fingerprint(t, db)
		var snap bytes.Buffer
		keys := []string{"B1", "B2", "M1"}
		n, err := s.WriteCanonical(ctx, "surrey", keys, &snap)
		if err != nil || n != 3 {
			t.Fatalf("wrote %d, %v", n, err)
		}
		// Change them: other names, another date, no persons' sexes.
		if _, err := importString(t, s, header+
			"B1,burial,1900,Leeds,principal,Other,Name,,,,,,\n"+
			"B2,burial,1901,Leeds,principal,Other,Name,,,,,,\n"+
			"M1,burial,1902,Leeds,principal,Other,Name,,,,,,\n", nil, research.ImportOptions{Collection: "surrey"}); err != nil {
			t.Fatal(err)
		}
		if fingerprint(t, db) == before {
			t.Fatal("the change changed nothing")
		}
		rep, err := s.ImportRecords(ctx, bytes.NewReader(snap.Bytes()), nil, research.ImportOptions{Collection: "surrey"}, 0)
		if err != nil || rep.ErrorCount > 0 || rep.Updated != 3 {
			t.Fatalf("put back: %+v %v", rep, err)
		}
		if after := fingerprint(t, db); after != before {
			t.Errorf("not put back:\n--- before\n%s\n--- after\n%s", before, after)
		}
	})
}

// TestDeleteEmptyCollection: only a collection without records is deleted.
func TestDeleteEmptyCollection(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db, 0)
		if _, err := importString(t, s, more, nil, research.ImportOptions{Collection: "new-one"}); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteEmptyCollection(ctx, "new-one"); !errors.Is(err, research.ErrNotEmpty) {
			t.Fatalf("deleting a collection with records: %v", err)
		}
		if _, err := s.RemoveRecords(ctx, "new-one", []string{"N1", "N2"}); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteEmptyCollection(ctx, "new-one"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CollectionBySlug(ctx, "new-one"); err == nil {
			t.Error("the collection is still there")
		}
		if err := s.DeleteEmptyCollection(ctx, "new-one"); err == nil {
			t.Error("deleting a collection twice succeeded")
		}
	})
}
