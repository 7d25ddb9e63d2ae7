package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"lineage/internal/research/demo"
	"lineage/internal/research/ingest"
	"os"
	"slices"
	"strings"
	"testing"

	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

const header = "record_id,record_type,date,place,role,surname,given_names,sex,age,transcript,source,access,image\n"

// TestImportBadRows: every bad row is reported with its line; a record with a bad row
// is skipped whole; the good records around it are imported.
func TestImportBadRows(t *testing.T) {
	tests := []struct {
		name  string
		rows  string
		lines []int  // lines reported, in order
		msg   string // part of the first message
		good  int    // records imported
		skip  int    // records skipped
	}{
		{"empty record_id: the records on both sides may own the row", ",baptism,1850,Guildford,principal,Badrow,John,,,,,,\n", []int{2, 3, 4}, "record_id is empty", 0, 3},
		{"empty record_type", "X1,,1850,Guildford,principal,Badrow,John,,,,,,\n", []int{3}, "record_type is empty", 2, 1},
		{"bad sex", "X1,baptism,1850,Guildford,principal,Badrow,John,Q,,,,,\n", []int{3}, `sex "Q"`, 2, 1},
		{"bad access", "X1,baptism,1850,Guildford,principal,Badrow,John,,,,,secret,\n", []int{3}, `access "secret"`, 2, 1},
		{"too few fields", "X1,baptism,1850,Guildford,principal,Badrow\n", []int{3}, "has 6 fields, the header has 13", 2, 1},
		{"no name", "X1,baptism,1850,Guildford,principal,,,,,,,,\n", []int{3}, "neither surname nor given names", 2, 1},
		{"a name of marks only", "X1,baptism,1850,Guildford,principal,---,...,,,,,,\n", []int{3}, "has no letters", 2, 1},
		{"too long", "X1,baptism,1850,Guildford,principal," + strings.Repeat("a", 201) + ",John,,,,,,\n", []int{3}, "longer than 200", 2, 1},
		{"not UTF-8", "X1,baptism,1850,Guildford,principal,Bad\xffrow,John,,,,,,\n", []int{3}, "UTF-8", 2, 1},
		{"NUL", "X1,baptism,1850,Guildford,principal,Bad\x00row,John,,,,,,\n", []int{3}, "NUL", 2, 1},
		{"two dates in one record: the whole record goes",
			"X1,baptism,1850,Guildford,principal,Badrow,John,,,,,,\nX1,baptism,1851,,father,Badrow,William,,,,,,\nX1,baptism,,,mother,Badrow,Mary,,,,,,\n",
			[]int{3, 4, 5}, "skipped with the rest of its record", 2, 1},
		{"a bad person: the whole record goes",
			"X1,baptism,1850,Guildford,principal,Badrow,John,,,,,,\nX1,baptism,,,father,Badrow,William,Z,,,,,\n",
			[]int{3, 4}, "skipped with the rest of its record", 2, 1},
		{"an unclosed quote: its record alone is skipped, the later ones are read",
			"X1,baptism,1850,\"Guildford,principal,Badrow,John,,,,,,\nG3,baptism,1851,Guildford,principal,Goodrow,Mary,F,,,,,\n",
			[]int{3}, "a quoted field begins on this line and is not closed before the end of the file", 3, 1},
		{"an unclosed quote that meets a quoted field later",
			"X1,baptism,1850,Guildford,principal,Badrow,\"John,,,,,,\nG3,baptism,1851,\"Guildford, Surrey\",principal,Goodrow,Mary,F,,,,,\n",
			[]int{3}, "past a quote that is not doubled, so it is taken as not closed", 3, 1},
		{"record_id used again later", "X1,baptism,1850,Guildford,principal,Other,Person,,,,,,\nG1,baptism,1851,Guildford,principal,Badrow,John,,,,,,\n", []int{4}, "used for another record", 3, 1},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		for i, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				slug := "bad-" + strings.Repeat("x", i+1)
				csv := header +
					"G1,baptism,1850,Guildford,principal,Goodrow,Anne,F,,,,,\n" +
					tc.rows +
					"G2,baptism,1850,Guildford,principal,Goodrow,Jane,F,,,,,\n"
				rep, err := importString(t, s, csv, nil, research.ImportOptions{Collection: slug})
				if err != nil {
					t.Fatal(err)
				}
				var lines []int
				for _, e := range rep.Errors {
					lines = append(lines, e.Line)
				}
				if !slices.Equal(lines, tc.lines) {
					t.Errorf("lines %v, want %v (%v)", lines, tc.lines, rep.Errors)
				}
				found := false
				for _, e := range rep.Errors {
					if strings.Contains(e.Message, tc.msg) {
						found = true
					}
				}
				if !found {
					t.Errorf("no message containing %q in %v", tc.msg, rep.Errors)
				}
				if rep.Added != tc.good || rep.Skipped != tc.skip {
					t.Errorf("added %d skipped %d, want %d and %d", rep.Added, rep.Skipped, tc.good, tc.skip)
				}
				// Nothing of the bad record is searchable.
				res := search(t, s, "surname=Badrow&surname_mode=exact&collection="+slug, true)
				if res.Total != 0 {
					t.Errorf("a skipped record was imported: %v", keys(t, s, res))
				}
			})
		}
	})
}

func TestImportFileErrors(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		for name, csv := range map[string]string{
			"empty file":       "",
			"missing columns":  "record_id,surname\nA,Smith\n",
			"duplicate column": "record_id,record_type,date,place,role,surname,given_names,Surname\n",
		} {
			if _, err := importString(t, s, csv, nil, research.ImportOptions{Collection: "files"}); err == nil {
				t.Errorf("%s: no error", name)
			}
		}
		if _, err := importString(t, s, header, nil, research.ImportOptions{Collection: "Not A Slug"}); err == nil {
			t.Error("a bad slug: no error")
		}
	})
}

// TestImportCollectionDeleted: a collection deleted while records are being imported
// into it stops the import, and no record is left without its collection (on SQLite
// the import's connection checks once a batch, with foreign keys off).
func TestImportCollectionDeleted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		csv := header + "D1,baptism,1850,Guildford,principal,Smith,John,,,,,,\n" +
			"D2,baptism,1851,Guildford,principal,Smith,Mary,,,,,,\n" +
			"D3,baptism,1852,Guildford,principal,Smith,Anne,,,,,,\n"
		deleted := false
		opts := research.ImportOptions{Collection: "doomed", BatchSize: 1, Progress: func(research.ImportProgress) {
			if !deleted {
				deleted = true
				if _, err := db.Exec(`DELETE FROM collections WHERE slug = 'doomed'`); err != nil {
					t.Error(err)
				}
			}
		}}
		_, err := importString(t, s, csv, nil, opts)
		if err == nil {
			t.Fatal("the import went on into a deleted collection")
		}
		if db.Dialect == store.SQLite && !strings.Contains(err.Error(), `collection "doomed" was deleted during the import`) {
			t.Errorf("error: %v", err)
		}
		var orphans int
		if err := db.QueryRow(`SELECT COUNT(*) FROM records WHERE collection_id NOT IN (SELECT id FROM collections)`).Scan(&orphans); err != nil || orphans != 0 {
			t.Errorf("%d records without a collection: %v", orphans, err)
		}
	})
}

func TestImportStrict(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		data, err := os.ReadFile(testdata("tricky.csv"))
		if err != nil {
			t.Fatal(err)
		}
		bad := string(data) + "B99,baptism,1850,Guildford,principal,Smith,John,X,,,,,\nB1,baptism,1850,,principal,Again,Dup,,,,,,\n"
		rep, err := s.ImportRecords(context.Background(), strings.NewReader(bad), nil, research.ImportOptions{Collection: "strict", Strict: true}, 0)
		if !errors.Is(err, research.ErrStrict) {
			t.Fatalf("err %v", err)
		}
		if rep.ErrorCount != 2 || rep.Errors[0].Line != 28 || rep.Errors[1].Line != 29 {
			t.Errorf("errors %v", rep.Errors)
		}
		if _, err := s.CollectionBySlug(context.Background(), "strict"); !errors.Is(err, research.ErrNotFound) {
			t.Errorf("a strict import that failed created its collection: %v", err)
		}
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM records`).Scan(&n); err != nil || n != 0 {
			t.Errorf("records after a refused strict import: %d %v", n, err)
		}
		// An unclosed quote stops a strict import, named by its line.
		unclosed := string(data) + "B99,baptism,1850,\"Guildford,principal,Smith,John,,,,,,\nB98,baptism,1850,Guildford,principal,Smith,Jo,,,,,,\n"
		rep, err = s.ImportRecords(context.Background(), strings.NewReader(unclosed), nil, research.ImportOptions{Collection: "strict", Strict: true}, 0)
		if !errors.Is(err, research.ErrStrict) || rep.ErrorCount != 1 || rep.Errors[0].Line != 28 || !strings.Contains(rep.Errors[0].Message, "not closed") {
			t.Errorf("unclosed quote, strict: %v %v", err, rep.Errors)
		}
		// The same file without the bad rows imports.
		rep, err = s.ImportRecords(context.Background(), strings.NewReader(string(data)), nil, research.ImportOptions{Collection: "strict", Strict: true}, 0)
		if err != nil || rep.Added != 22 {
			t.Fatalf("%v %+v", err, rep)
		}
	})
}

// TestImportIdempotent: importing the same file again changes nothing; a changed
// record is updated in place, and name_facets stays equal to a recount.
func TestImportIdempotent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := fixture(t, db, 1000)
		before := search(t, s, "surname=Smyth&surname_mode=exact", true).Results[0].ID
		rep := importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "surrey-baptisms"})
		if rep.Added != 0 || rep.Updated != 0 || rep.Unchanged != 22 {
			t.Errorf("re-import: %+v", rep)
		}
		data, _ := os.ReadFile(testdata("tricky.csv"))
		changed := strings.Replace(string(data), "B2,bapt.,1851,", "B2,bapt.,1852,", 1)
		changed = strings.Replace(changed, "B4,baptism,,,principal,Smith,,", "B4,baptism,,,principal,Smithson,Abel,", 1)
		rep, err := importString(t, s, changed, nil, research.ImportOptions{Collection: "surrey-baptisms"})
		if err != nil || rep.Updated != 2 || rep.Unchanged != 20 || rep.Added != 0 {
			t.Fatalf("changed: %v %+v", err, rep)
		}
		res := search(t, s, "surname=Smyth&surname_mode=exact&year=1852", true)
		if len(res.Results) != 1 || res.Results[0].ID != before {
			t.Errorf("the changed record keeps its id and is found by its new date: %+v", res.Results)
		}
		if n := search(t, s, "surname=Smyth&surname_mode=exact&year=1851", true).Total; n != 0 {
			t.Errorf("found by its old date: %d", n)
		}
		if got := keys(t, s, search(t, s, "surname=Smithson&surname_mode=exact", true)); len(got) != 1 || got[0] != "B4" {
			t.Errorf("new surname: %v", got)
		}
		c, _ := s.CollectionBySlug(context.Background(), "surrey-baptisms")
		if c.Count != 22 {
			t.Errorf("count %d", c.Count)
		}
		checkStats(t, db)
	})
}

// checkStats recounts name_facets from the index and the records: a surname's
// records by collection and type, by decade (facet 0) and by county (facet 1).
func checkStats(t *testing.T, db *store.DB) {
	t.Helper()
	checkSearchTables(t, db)
	type cell struct {
		s, c, ty, facet, value int64
	}
	want := map[cell]int64{}
	rows, err := db.Query(`SELECT DISTINCT k.surname_id, r.collection_id, r.type_id, r.jdn_lo, r.jdn_hi, r.county_id, r.id
		FROM search_keys k JOIN records r ON r.id = k.id / 256 WHERE k.surname_id <> 0`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var c cell
		var lo, hi *int64
		var id, county int64
		if err := rows.Scan(&c.s, &c.c, &c.ty, &lo, &hi, &county, &id); err != nil {
			t.Fatal(err)
		}
		byDecade := c
		if lo != nil {
			byDecade.value = ingest.DecadeOf(*lo, *hi)
		}
		byCounty := c
		byCounty.facet, byCounty.value = 1, county
		want[byDecade]++
		want[byCounty]++
	}
	rows.Close()
	got := map[cell]int64{}
	rows, err = db.Query(`SELECT surname_id, collection_id, type_id, facet, value, records FROM name_facets`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c cell
		var n int64
		if err := rows.Scan(&c.s, &c.c, &c.ty, &c.facet, &c.value, &n); err != nil {
			t.Fatal(err)
		}
		got[c] = n
	}
	if len(got) != len(want) {
		t.Errorf("name_facets has %d cells, a recount %d", len(got), len(want))
	}
	for c, n := range want {
		if got[c] != n {
			t.Errorf("name_facets %+v = %d, a recount says %d", c, got[c], n)
		}
	}
}

func TestImportMapping(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		wide := "Entry;Date of baptism;Parish;County;Child;Sex;Surname;Father;Mother;Notes\n" +
			"1;12 Mar 1850;St Mary;Surrey;John;M;Smith;William;Mary;son of a labourer\n" +
			"2;xiij Jan 1851;Holy Trinity;Surrey;Ann;F;Jones;;Sarah;base born\n"
		m, err := research.ParseMapping(strings.NewReader(`{
			"delimiter": ";",
			"fields": {"record_id": "Entry", "record_type": {"value": "baptism"}, "date": "Date of baptism",
			           "place": {"columns": ["Parish", "County"], "join": ", "}, "transcript": "Notes"},
			"persons": [
				{"role": {"value": "principal"}, "given_names": "Child", "surname": "Surname", "sex": "Sex"},
				{"role": {"value": "father"}, "given_names": "Father", "surname": "Surname", "sex": {"value": "M"}},
				{"role": {"value": "mother"}, "given_names": "Mother"}
			]}`))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := importString(t, s, wide, m, research.ImportOptions{Collection: "wide"})
		if err != nil || rep.Added != 2 || rep.ErrorCount != 0 {
			t.Fatalf("%v %+v", err, rep)
		}
		if len(rep.Notes) != 1 || rep.Notes[0].Line != 3 || !strings.Contains(rep.Notes[0].Message, "xiij Jan 1851") {
			t.Errorf("the unreadable date is kept and noted: %+v", rep.Notes)
		}
		res := search(t, s, "surname=Smith&given=John&relative=William&relative_role=father&place=Surrey&year=1850", true)
		if len(res.Results) != 1 || *res.Results[0].Place != "St Mary, Surrey" || len(res.Results[0].Persons) != 3 {
			t.Fatalf("%+v", res.Results)
		}
		res = search(t, s, "surname=Jones", true)
		if len(res.Results) != 1 || *res.Results[0].Date != "xiij Jan 1851" || res.Results[0].Year != nil {
			t.Errorf("kept as text, no year: %+v", res.Results)
		}
		if n := search(t, s, "surname=Jones&year=1851", true).Total; n != 1 {
			t.Errorf("an undated record is kept by a year search (lower score): %d", n)
		}
		// One row per person with renamed columns.
		m, err = research.ParseMapping(strings.NewReader(`{"fields": {"record_id": "Ref", "surname": "Family name", "given_names": "Forenames", "record_type": {"value": "burial"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		rep, err = importString(t, s, "Ref,Family name,Forenames,Role,Date\nA1,Brown,Ann,,1 Jan 1800\nA1,Brown,Tom,father,\n", m, research.ImportOptions{Collection: "renamed"})
		if err != nil || rep.Added != 1 {
			t.Fatalf("%v %+v", err, rep)
		}
		if res := search(t, s, "surname=Brown&role=father&record_type=burial", true); len(res.Results) != 1 {
			t.Errorf("renamed columns: %+v", res)
		}
		// A mapping naming a column the file lacks.
		m, _ = research.ParseMapping(strings.NewReader(`{"fields": {"record_id": "Ref", "surname": "Nope", "record_type": {"value": "x"}}}`))
		if _, err := importString(t, s, "Ref,Family name\nA1,Brown\n", m, research.ImportOptions{Collection: "renamed"}); err == nil || !strings.Contains(err.Error(), `"Nope"`) {
			t.Errorf("missing column: %v", err)
		}
	})
}

func TestParseMappingErrors(t *testing.T) {
	for name, js := range map[string]string{
		"not JSON":             `{`,
		"unknown top key":      `{"colums": {}}`,
		"unknown field":        `{"fields": {"surnme": "X"}}`,
		"person field at top":  `{"fields": {"surname": "X"}, "persons": [{"given_names": "Y"}]}`,
		"two sources":          `{"fields": {"surname": {"column": "X", "value": "Y"}}}`,
		"no source":            `{"fields": {"surname": {"default": "Y"}}}`,
		"nameless person":      `{"persons": [{"role": {"value": "x"}}]}`,
		"empty person":         `{"persons": [{}]}`,
		"bad delimiter":        `{"delimiter": "ab"}`,
		"quote delimiter":      `{"delimiter": "\""}`,
		"unknown spec key":     `{"fields": {"surname": {"colum": "X"}}}`,
		"two values":           `{} {}`,
		"empty column in list": `{"fields": {"place": {"columns": ["A", " "]}}}`,
	} {
		if _, err := research.ParseMapping(strings.NewReader(js)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestBulkImport: a bulk load rebuilds the indexes (SQLite's search tables among
// them) and finds the same records.
func TestBulkImport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		rep := importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "surrey-baptisms", Title: "Surrey baptisms", Bulk: research.BulkOn})
		if !rep.Bulk || rep.Added != 22 {
			t.Fatalf("%+v", rep)
		}
		if n := countIndexes(t, db); n != 3 {
			t.Errorf("%d search indexes after a bulk load", n)
		}
		if got := keys(t, s, search(t, s, "surname=Smith&surname_mode=exact&place=Sussex", true)); !slices.Equal(got, []string{"B6", "B4"}) {
			t.Errorf("after a bulk load: %v", got)
		}
		checkStats(t, db)
	})
}

// TestDemoGenerate: the generator's output imports without a bad row.
func TestDemoGenerate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		var reps []*research.ImportReport
		if err := demo.Load(context.Background(), s, 1500, 7, func(_ string, rep *research.ImportReport) { reps = append(reps, rep) }); err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, rep := range reps {
			if rep.ErrorCount != 0 {
				t.Errorf("%s: %v", rep.Collection, rep.Errors)
			}
			total += rep.Added
		}
		if total != 1500 {
			t.Errorf("%d records", total)
		}
		all, _ := s.Collections(context.Background())
		if len(all) != 10 {
			t.Errorf("%d collections", len(all))
		}
		g, err := s.Global(context.Background(), "parish registers", nil)
		if err != nil || g.Library.Total == 0 {
			t.Errorf("library: %v %+v", err, g.Library)
		}
		checkStats(t, db)
	})
}

// TestNameFacetsMigration: migration 00008 turns name_stats' joint cells into the two
// sides of name_facets, by decade and by county.
func TestNameFacetsMigration(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if err := db.MigrateTo(ctx, 7); err != nil {
			t.Fatal(err)
		}
		// Smith (1) in collection 1, type 2: 1850s Yorkshire 3, 1850s Lancashire 2,
		// undated Yorkshire 1; Jones (4): 1700s, no county, 5.
		for _, c := range [][6]int{{1, 1, 2, 1850, 10, 3}, {1, 1, 2, 1850, 11, 2}, {1, 1, 2, 0, 10, 1}, {4, 1, 2, 1700, 0, 5}} {
			if _, err := db.Exec(db.Rebind(`INSERT INTO name_stats (surname_id, collection_id, type_id, decade, county_id, records) VALUES (?, ?, ?, ?, ?, ?)`),
				c[0], c[1], c[2], c[3], c[4], c[5]); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		rows, err := db.Query(`SELECT surname_id, collection_id, type_id, facet, value, records FROM name_facets ORDER BY surname_id, facet, value`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got [][6]int
		for rows.Next() {
			var c [6]int
			if err := rows.Scan(&c[0], &c[1], &c[2], &c[3], &c[4], &c[5]); err != nil {
				t.Fatal(err)
			}
			got = append(got, c)
		}
		want := [][6]int{
			{1, 1, 2, 0, 0, 1}, {1, 1, 2, 0, 1850, 5}, {1, 1, 2, 1, 10, 4}, {1, 1, 2, 1, 11, 2},
			{4, 1, 2, 0, 1700, 5}, {4, 1, 2, 1, 0, 5},
		}
		if !slices.Equal(got, want) {
			t.Errorf("name_facets after the migration:\n got %v\nwant %v", got, want)
		}
	})
}

// TestImportLearnedIDs: batch by batch the reading goroutine learns the ids the writer
// resolved (names, places, types, roles) and fills them in itself; a file read one
// record per batch, where nearly every id after the first batches comes that way
// (and every row is written by a one-row INSERT), stores the same index rows as one
// read in a single batch, where the writer resolves every id (and writes the rows
// by multi-row INSERTs).
func TestImportLearnedIDs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "whole"})
		importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "one-by-one", BatchSize: 1})
		rows := func(slug string) []string {
			r, err := db.Query(db.Rebind(`SELECT r.key, k.id - r.id * 256, k.surname_id, k.given_id, k.place_id, k.county_id, k.type_id, k.role_id, k.span, k.jdn_lo, k.dq
				FROM records r JOIN collections c ON c.id = r.collection_id JOIN search_keys k ON k.id >= r.id * 256 AND k.id < r.id * 256 + 256
				WHERE c.slug = ? ORDER BY r.key, k.id`), slug)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var out []string
			for r.Next() {
				var key string
				var v [10]int64
				if err := r.Scan(&key, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]); err != nil {
					t.Fatal(err)
				}
				out = append(out, fmt.Sprint(key, v))
			}
			return out
		}
		whole, single := rows("whole"), rows("one-by-one")
		if len(whole) == 0 || !slices.Equal(whole, single) {
			t.Errorf("index rows differ:\n whole %v\nsingle %v", whole, single)
		}
		checkStats(t, db)
	})
}
