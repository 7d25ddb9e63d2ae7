package ingest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"lineage/internal/research/demo"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestImportBatchBoundaries: however the file is cut into batches, an import finds
// the same records, counts the same summary and statistics, re-imports as unchanged,
// and reports a record_id used again in a later batch with its line.
func TestImportBatchBoundaries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		ctx := context.Background()
		queries := []string{"surname=Smith&surname_mode=variants", "surname=Smith&surname_mode=exact&place=Sussex", "surname=Smyth&surname_mode=soundex&year=1851&year_pm=2"}
		var want [][]string
		var wantDetail *research.CollectionDetail
		for _, size := range []int{2000, 1, 3, 7} {
			slug := fmt.Sprintf("batch-%d", size)
			rep := importFile(t, s, "tricky.csv", research.ImportOptions{Collection: slug, BatchSize: size})
			if rep.Added != 22 || rep.Skipped != 0 {
				t.Fatalf("batch %d: %+v", size, rep)
			}
			var got [][]string
			for _, q := range queries {
				got = append(got, keys(t, s, search(t, s, q+"&collection="+slug, true)))
			}
			d, err := s.Collection(ctx, slug, 0, 10)
			if err != nil {
				t.Fatal(err)
			}
			d.Collection = nil
			if want == nil {
				want, wantDetail = got, d
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("batch %d: %v, want %v", size, got, want)
			}
			if !reflect.DeepEqual(d, wantDetail) {
				t.Errorf("batch %d: summary %+v, want %+v", size, d, wantDetail)
			}
			rep = importFile(t, s, "tricky.csv", research.ImportOptions{Collection: slug, BatchSize: size})
			if rep.Added != 0 || rep.Updated != 0 || rep.Unchanged != 22 {
				t.Errorf("batch %d: re-import %+v", size, rep)
			}
		}
		checkStats(t, db)

		// A change and its undoing: the second import recounts the summary from the
		// store, which must agree with the one the first import counted as it went.
		data, _ := os.ReadFile(testdata("tricky.csv"))
		changed := strings.Replace(string(data), "B2,bapt.,1851,", "B2,bapt.,1791,", 1)
		for _, csv := range []string{changed, string(data)} {
			rep, err := importString(t, s, csv, nil, research.ImportOptions{Collection: "batch-3", BatchSize: 3})
			if err != nil || rep.Updated != 1 || rep.Unchanged != 21 {
				t.Fatalf("%v %+v", err, rep)
			}
		}
		d, err := s.Collection(ctx, "batch-3", 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		d.Collection = nil
		if !reflect.DeepEqual(d, wantDetail) {
			t.Errorf("recounted summary %+v, want %+v", d, wantDetail)
		}

		// A record_id used again two batches later.
		csv := header +
			"D1,baptism,1850,Guildford,principal,Dupont,Anne,F,,,,,\n" +
			"D2,baptism,1850,Guildford,principal,Dupont,Jane,F,,,,,\n" +
			"D3,baptism,1850,Guildford,principal,Dupont,Mary,F,,,,,\n" +
			"D1,baptism,1851,Guildford,principal,Dupont,Other,F,,,,,\n"
		rep, err := importString(t, s, csv, nil, research.ImportOptions{Collection: "dups", BatchSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Added != 3 || rep.Skipped != 1 || len(rep.Errors) != 1 || rep.Errors[0].Line != 5 || !strings.Contains(rep.Errors[0].Message, "earlier in the file") {
			t.Errorf("%+v", rep)
		}
		if got := keys(t, s, search(t, s, "surname=Dupont&surname_mode=exact&given=Other", true)); len(got) != 0 {
			t.Errorf("the second D1 was stored: %v", got)
		}
		checkStats(t, db)
	})
}

// TestImportDeferredIndexes: imports with BulkDefer leave the search indexes (and
// SQLite's search tables) out; BuildSearchIndexes builds them once, and an ordinary
// import builds any missing.
func TestImportDeferredIndexes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		ctx := context.Background()
		rep := importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "surrey-baptisms", Bulk: research.BulkDefer})
		if !rep.Bulk || !rep.IndexDeferred || rep.Added != 22 {
			t.Fatalf("%+v", rep)
		}
		importFile(t, s, "burials.csv", research.ImportOptions{Collection: "london-burials", Bulk: research.BulkDefer})
		if n := countIndexes(t, db); n != keptByBulk(db) {
			t.Errorf("%d search indexes after deferred imports", n)
		}
		// Searches answer meanwhile, only slower.
		if got := keys(t, s, search(t, s, "surname=Smith&surname_mode=exact&place=Sussex", true)); !slices.Equal(got, []string{"B6", "B4"}) {
			t.Errorf("without indexes: %v", got)
		}
		built, err := s.BuildSearchIndexes(ctx)
		if err != nil || !built {
			t.Fatalf("build: %v %v", built, err)
		}
		if n := countIndexes(t, db); n != 3 {
			t.Errorf("%d search indexes after the build", n)
		}
		if built, err := s.BuildSearchIndexes(ctx); err != nil || built {
			t.Errorf("second build: %v %v", built, err)
		}
		if got := keys(t, s, search(t, s, "surname=Smith&surname_mode=exact&place=Sussex", true)); !slices.Equal(got, []string{"B6", "B4"}) {
			t.Errorf("after the build: %v", got)
		}
		checkStats(t, db)

		importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "deferred-again", Bulk: research.BulkDefer})
		rep = importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "ordinary", Bulk: research.BulkOff})
		if rep.Bulk || rep.IndexDeferred {
			t.Errorf("%+v", rep)
		}
		if n := countIndexes(t, db); n != 3 {
			t.Errorf("an ordinary import left %d search indexes", n)
		}
		checkStats(t, db)
	})
}

func countIndexes(t *testing.T, db *store.DB) int {
	t.Helper()
	q := `SELECT COUNT(*) FROM sqlite_master WHERE type IN ('index', 'table') AND name IN ('search_keys_surname', 'search_keys_given', 'records_browse')`
	if db.Dialect == store.Postgres {
		q = `SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname IN ('search_keys_surname', 'search_keys_given', 'records_browse')`
	}
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestImportStoresTextExactly: what the import writes (through compiled statements
// on SQLite) reads back byte for byte: quotes, commas, accents, emoji, long text,
// empty and missing fields.
func TestImportStoresTextExactly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		long := strings.Repeat("Ælfrida's \"long\" transcript, ", 400) + "end"
		csv := header +
			`T1,baptism,3 Mar 1850,Guildford,principal,O'Brien,Seán,M,,"He said ""hello"", then left 🙂",PR 1/2,,img/a.jpg` + "\n" +
			`T1,baptism,,,father,O'Brien,Pádraig,,,,,,` + "\n" +
			`T2,burial,,,principal,Müller,,,,"` + strings.ReplaceAll(long, `"`, `""`) + `",,,` + "\n"
		rep, err := importString(t, s, csv, nil, research.ImportOptions{Collection: "texts"})
		if err != nil || rep.Added != 2 || rep.ErrorCount != 0 {
			t.Fatalf("%v %+v", err, rep)
		}
		res := search(t, s, "surname=O'Brien&surname_mode=exact", true)
		if len(res.Results) != 1 {
			t.Fatalf("%+v", res)
		}
		r, err := s.Record(context.Background(), res.Results[0].ID, memberScope)
		if err != nil {
			t.Fatal(err)
		}
		if *r.Transcript != `He said "hello", then left 🙂` || *r.Source != "PR 1/2" || *r.Date != "3 Mar 1850" || *r.Key != "T1" {
			t.Errorf("%q %q %q %q", *r.Transcript, *r.Source, *r.Date, *r.Key)
		}
		if len(r.Persons) != 2 || r.Persons[0].GivenNames != "Seán" || r.Persons[1].GivenNames != "Pádraig" || r.Persons[1].Surname != "O'Brien" {
			t.Errorf("%+v", r.Persons)
		}
		if len(r.Images) != 1 || r.Images[0] != "img/a.jpg" {
			t.Errorf("%v", r.Images)
		}
		res = search(t, s, "surname=Muller&surname_mode=exact", true)
		if len(res.Results) != 1 {
			t.Fatalf("%+v", res)
		}
		r, err = s.Record(context.Background(), res.Results[0].ID, memberScope)
		if err != nil {
			t.Fatal(err)
		}
		if *r.Transcript != long || *r.Date != "" || r.DateRange != nil || r.Persons[0].GivenNames != "" || len(r.Images) != 0 {
			t.Errorf("%q %+v %+v", *r.Date, r.DateRange, r.Persons)
		}
	})
}

// TestImportCancelled: an import whose context is cancelled while it writes stops
// with the context's error, leaves only whole batches behind (never rows written
// outside a transaction), and the store takes the same file again afterwards.
func TestImportCancelled(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		c := demo.Collections()[0]
		var buf bytes.Buffer
		if err := demo.WriteCSV(&buf, c, 3000, 5); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		batches := 0
		opts := research.ImportOptions{Collection: c.Slug, BatchSize: 100, Progress: func(research.ImportProgress) {
			batches++
			if batches == 2 {
				// Cancel while the next batch is being written.
				go func() { time.Sleep(time.Millisecond); cancel() }()
			}
		}}
		rep, err := s.ImportRecords(ctx, bytes.NewReader(buf.Bytes()), nil, opts, 0)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, report %+v", err, rep)
		}
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM records`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 || n%100 != 0 || n >= 3000 {
			t.Errorf("%d records after the cancelled import: want whole batches of 100", n)
		}
		var keys int
		if err := db.QueryRow(`SELECT COUNT(DISTINCT id / 256) FROM search_keys`).Scan(&keys); err != nil || keys != n {
			t.Errorf("search_keys of %d records, %d records (%v)", keys, n, err)
		}
		opts.Progress = nil
		rep, err = s.ImportRecords(context.Background(), bytes.NewReader(buf.Bytes()), nil, opts, 0)
		if err != nil || rep.Added+rep.Unchanged != 3000 || rep.Unchanged != n {
			t.Fatalf("again: %v %+v", err, rep)
		}
		checkStats(t, db)
	})
}

// TestLargeRecordIDs: records whose ids pass 8 388 607 (search_keys ids past 2³¹)
// import and are found, relatives included (found at ten million records).
func TestLargeRecordIDs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		q := `INSERT INTO sqlite_sequence (name, seq) VALUES ('records', 9000000)`
		if db.Dialect == store.Postgres {
			q = `ALTER TABLE records ALTER COLUMN id RESTART WITH 9000001`
		}
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
		importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "surrey-baptisms"})
		res := search(t, s, "surname=Smith&given=John&relative=William", true)
		if len(res.Results) == 0 || res.Results[0].ID <= 9000000 {
			t.Fatalf("%+v", res)
		}
		if got := keys(t, s, search(t, s, "surname=Smith&surname_mode=exact&place=Sussex", true)); !slices.Equal(got, []string{"B6", "B4"}) {
			t.Errorf("%v", got)
		}
	})
}
