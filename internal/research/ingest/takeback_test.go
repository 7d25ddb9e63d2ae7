package ingest_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"lineage/internal/research"
	"lineage/internal/research/researchtest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

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
		before := researchtest.Fingerprint(t, db)
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
		if after := researchtest.Fingerprint(t, db); after != before {
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
		before := researchtest.Fingerprint(t, db)
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
		if researchtest.Fingerprint(t, db) == before {
			t.Fatal("the change changed nothing")
		}
		rep, err := s.ImportRecords(ctx, bytes.NewReader(snap.Bytes()), nil, research.ImportOptions{Collection: "surrey"}, 0)
		if err != nil || rep.ErrorCount > 0 || rep.Updated != 3 {
			t.Fatalf("put back: %+v %v", rep, err)
		}
		if after := researchtest.Fingerprint(t, db); after != before {
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
