package search_test

import (
	"context"
	"errors"
	rsearch "lineage/internal/research/search"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"

	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// sorted returns keys in sorted order, for comparing sets.
func sorted(ss []string) []string {
	out := slices.Clone(ss)
	sort.Strings(out)
	return out
}

// TestSearchSemantics runs the tricky-names fixture (testdata/tricky.csv,
// burials.csv) through every kind of condition, on SQLite and PostgreSQL. want is
// the set of records found; order, when given, is their exact order.
func TestSearchSemantics(t *testing.T) {
	tests := []struct {
		name   string
		params string
		want   []string // as a set
		order  []string // exact order, when it matters
	}{
		// Surname modes.
		{"exact folds case", "surname=smith&surname_mode=exact", []string{"B1", "B4", "B5", "B6", "B19", "B20", "B21", "B22", "D1"}, nil},
		{"exact is not variants", "surname=Smyth&surname_mode=exact", []string{"B2"}, nil},
		{"variants; ABT 1849 reaches 1851", "surname=Smith&surname_mode=variants&year=1851", []string{"B2", "B3", "B4", "D1"}, []string{"D1", "B2", "B4", "B3"}},
		{"variants from a variant", "surname=Smyth&year=1849&year_pm=2", []string{"B1", "B2", "B3", "B4", "B6", "B20", "B21", "B22", "D1"}, nil},
		{"soundex adds Schmidt and the unreadable Sm?th", "surname=Smith&surname_mode=soundex&year=1850&place=Guildford", []string{"B1", "B3", "B4", "B7", "B14", "B20", "B21", "B22"}, nil},
		{"phonetic: Daitch–Mokotoff joins Schmidt", "surname=Smith&surname_mode=phonetic&given=Johann", []string{"B3", "B4", "B7"}, nil},
		{"wildcard *", "surname=Sm*th", []string{"B1", "B2", "B4", "B5", "B6", "B14", "B19", "B20", "B21", "B22", "D1"}, nil},
		{"wildcard ?", "surname=Sm?th", []string{"B1", "B2", "B4", "B5", "B6", "B19", "B20", "B21", "B22", "D1"}, nil},
		{"wildcard in the middle", "surname=Th*son&surname_mode=wildcard", []string{"B17", "B18"}, nil},

		// Accents, prefixes, apostrophes.
		{"Müller = Muller", "surname=Muller&surname_mode=exact", []string{"B8"}, nil},
		{"Mueller is a variant of Müller", "surname=Müller", []string{"B8", "B9"}, []string{"B8", "B9"}},
		{"Mc = Mac = M'", "surname=McDonald&surname_mode=exact", []string{"B10", "B11"}, nil},
		{"O'Brien = O Brien", "surname=OBrien&surname_mode=exact", []string{"B12", "B13"}, nil},
		{"St. John = Saint John", "surname=St John&surname_mode=exact", []string{"B15", "B16"}, nil},
		{"Thomson is a variant of Thompson", "surname=Thompson", []string{"B17", "B18"}, []string{"B17", "B18"}},

		// Given names: variants, diminutives, Latin, initials.
		{"Jno. and J. for John", "surname=Smith&given=John&year=1850&year_pm=1", []string{"B1", "B2", "B3", "B4", "B6", "B20", "B22", "D1"}, nil},
		{"Wm and Bill for William", "surname=Saint John&given=William", []string{"B15", "B16"}, nil},
		{"Gulielmus for William", "surname=Smith&surname_mode=soundex&given=William&place=Guildford&year=1850", []string{"B1", "B4", "B14", "B21"}, nil},
		{"Kate for Catherine", "surname=MacDonald&given=Catherine", []string{"B10", "B11"}, []string{"B10", "B11"}},
		{"Katherine and Kathryn", "surname=Thompson&given=Catherine", []string{"B17", "B18"}, nil},
		{"an initial asked matches full names", "surname=Smith&given=W&year=1850", []string{"B1", "B4", "B21"}, nil},
		{"a second given name in order", "surname=Smith&given=John William", []string{"B20", "B2", "B3", "B4", "B1", "B5", "B6", "B22", "D1"}, nil},
		{"the first given name must match the first", "surname=Smith&given=William&year=1850&place=Guildford", []string{"B1", "B4", "B21"}, nil},

		// Dates.
		{"year ± 0", "surname=Smith&surname_mode=exact&year=1851", []string{"B4", "D1"}, nil},
		{"year ± 1", "surname=Smith&year=1851&year_pm=1&surname_mode=exact", []string{"B1", "B4", "B6", "B20", "B21", "B22", "D1"}, nil},
		{"ABT 1849 reaches 1851", "surname=Smithe&surname_mode=exact&year=1851", []string{"B3"}, nil},
		{"ABT 1849 does not reach 1852", "surname=Smithe&surname_mode=exact&year=1852", nil, nil},
		{"dual date 1731/2 is 1732", "surname=Smith&surname_mode=exact&year=1732", []string{"B4", "B19"}, nil},
		{"not 1731", "surname=Smith&surname_mode=exact&year=1731", []string{"B4"}, nil},
		{"a quarter is its year", "surname=Thomson&surname_mode=exact&year=1850", []string{"B18"}, nil},
		{"BET … AND … covers its range", "surname=Thompson&surname_mode=exact&year=1855", []string{"B17"}, nil},
		{"decade", "surname=Smith&surname_mode=exact&decade=1790", []string{"B4", "B5"}, nil},

		// Places.
		{"a town, its parishes, its county, or no place", "surname=Smith&place=Guildford", []string{"B1", "B2", "B3", "B4", "B19", "B20", "B21", "B22"}, nil},
		{"a county", "surname=Smith&surname_mode=exact&place=Surrey", []string{"B1", "B4", "B5", "B19", "B20", "B21", "B22"}, nil},
		{"a place with its county", "surname=Smith&surname_mode=exact&place=Guildford, Surrey", []string{"B1", "B4", "B19", "B20", "B21", "B22"}, nil},
		{"a parish, the town around it, or no place", "surname=Smith&surname_mode=exact&place=St Mary, Guildford", []string{"B1", "B4", "B19", "B20", "B21", "B22"}, nil},
		{"another county", "surname=Smith&surname_mode=exact&place=Sussex", []string{"B4", "B6"}, nil},
		{"London holds Stepney", "surname=Cohen&place=London", []string{"D2"}, nil},

		// Filters.
		{"role", "surname=Smith&role=father", []string{"B1", "B22"}, nil},
		{"record type", "surname=Smith&record_type=burial", []string{"D1"}, nil},
		{"record type as transcribers write it", "surname=Smith&record_type=Bapt.&year=1851", []string{"B2", "B3", "B4"}, nil},
		{"collection", "surname=Smith&collection=london-burials", []string{"D1"}, nil},
		{"two collections", "surname=Cohen&collection=london-burials,surrey-baptisms", []string{"D2"}, nil},
		{"relative: father William", "surname=Smith&given=John&relative=William&relative_role=father", []string{"B1"}, nil},
		{"relative: any role, one word", "surname=Smith&relative=Mary", []string{"B1"}, nil},
		{"relative: Surname, Given", "surname=Smith&given=Henry&relative=Smith, John", []string{"B22"}, nil},
		{"relative not there", "surname=Smith&relative=Zebedee", nil, nil},

		// Without a surname.
		{"collection alone", "collection=london-burials", []string{"D1", "D2"}, []string{"D1", "D2"}},
		{"given name alone in a collection", "given=Rachel&collection=london-burials", []string{"D2"}, nil},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := fixture(t, db, 1000)
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				res := search(t, s, tc.params+"&limit=100", true)
				got := keys(t, s, res)
				if !slices.Equal(sorted(got), sorted(tc.want)) {
					t.Errorf("%s\n got %v\nwant %v", tc.params, got, tc.want)
				}
				if tc.order != nil && !slices.Equal(got, tc.order) {
					t.Errorf("%s: order\n got %v\nwant %v", tc.params, got, tc.order)
				}
				if int(res.Total) != len(got) || !res.TotalExact {
					t.Errorf("%s: total %d (exact %v), %d results", tc.params, res.Total, res.TotalExact, len(got))
				}
			})
		}
	})
}

// TestRanking checks the score rules: exact beats variant beats phonetic, other
// things equal; a missing field scores less than a matching one; a conflicting one
// excludes.
func TestRanking(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := fixture(t, db, 1000)
		res := search(t, s, "surname=Smith&surname_mode=phonetic&year=1850&place=Guildford&given=John&limit=100", true)
		score := map[string]int{}
		ks := keys(t, s, res)
		for i, k := range ks {
			score[k] = res.Results[i].Score
		}
		want := map[string]int{
			"B1":  40 + 20 + 15 + 15, // exact everything (John is the principal)
			"B20": 40 + 20 + 15 + 15, // John William: the first name matches exactly
			"B22": 40 + 20 + 15 + 15, // the father John
			"B4":  40,                // no given name, date or place: nothing more
			"B3":  30 + 10 + 6 + 7,   // Smithe, J., ABT 1849, Surrey
		}
		for k, n := range want {
			if score[k] != n {
				t.Errorf("%s: score %d, want %d (all: %v)", k, score[k], n, score)
			}
		}
		for _, excluded := range []string{"B2" /* 1851 */, "B5" /* 1790, Farnham */, "B6" /* Sussex */, "B21" /* William John */, "B7" /* Johann is not in John's group */} {
			if _, ok := score[excluded]; ok {
				t.Errorf("%s should be excluded: %v", excluded, score)
			}
		}
		for i := 1; i < len(res.Results); i++ {
			if res.Results[i].Score > res.Results[i-1].Score {
				t.Errorf("results not in score order: %v", ks)
			}
		}
		// Exact, variant, phonetic: Smith, Smyth, Schmidt all baptised in Guildford
		// in 1850/1851 with the same other fields.
		res = search(t, s, "surname=Smith&surname_mode=phonetic&year=1850&year_pm=1&place=Guildford", true)
		pos := map[string]int{}
		for i, k := range keys(t, s, res) {
			pos[k] = i
		}
		if !(pos["B1"] < pos["B2"] && pos["B2"] < pos["B7"]) {
			t.Errorf("want Smith (B1) before Smyth (B2) before Schmidt (B7): %v", keys(t, s, res))
		}
	})
}

func TestFacetsAndCount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := fixture(t, db, 1000)
		res := search(t, s, "surname=Smith&surname_mode=variants", true)
		if res.Total != 11 || !res.TotalExact || !res.FacetsExact {
			t.Fatalf("total %d exact %v %v", res.Total, res.TotalExact, res.FacetsExact)
		}
		want := map[string][]research.FacetValue{
			"collection":  {{Value: "surrey-baptisms", Label: "Surrey baptisms", Count: 10}, {Value: "london-burials", Label: "London burials", Count: 1}},
			"record_type": {{Value: "baptism", Label: "Baptism", Count: 10}, {Value: "burial", Label: "Burial", Count: 1}},
			"decade": {{Value: "1730", Label: "1730s", Count: 1}, {Value: "1790", Label: "1790s", Count: 1}, {Value: "1840", Label: "1840s", Count: 1},
				{Value: "1850", Label: "1850s", Count: 7}, {Value: "", Label: "No date", Count: 1}},
		}
		got := map[string][]research.FacetValue{"collection": res.Facets.Collection, "record_type": res.Facets.RecordType, "decade": res.Facets.Decade}
		for k, w := range want {
			if !slices.Equal(got[k], w) {
				t.Errorf("facet %s:\n got %v\nwant %v", k, got[k], w)
			}
		}
		var counties []string
		for _, c := range res.Facets.County {
			counties = append(counties, c.Label)
		}
		if !slices.Equal(counties, []string{"Surrey", "Middlesex", "No county", "Sussex"}) {
			t.Errorf("county facet: %v", res.Facets.County)
		}
		total, exact, err := s.Count(context.Background(), mustQuery(t, "surname=Smith&surname_mode=variants"), memberScope)
		if err != nil || total != 11 || !exact {
			t.Errorf("count: %d %v %v", total, exact, err)
		}
	})
}

// TestBroadTotals: beyond the cap, totals come from name_facets (one spelling: exact)
// or are estimated, and say so.
func TestBroadTotals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fixture(t, db, 1000)
		broad := research.New(db, research.Options{Log: quietLog(), Cap: 2})
		res := search(t, broad, "surname=Smith&surname_mode=exact", true)
		if res.Total != 9 || !res.TotalExact || !res.FacetsExact {
			t.Errorf("exact spelling from name_facets: total %d exact %v facets %v", res.Total, res.TotalExact, res.FacetsExact)
		}
		if n := res.Facets.Collection; len(n) != 2 || n[0].Count != 8 || n[1].Count != 1 {
			t.Errorf("facets from name_facets: %v", n)
		}
		res = search(t, broad, "surname=Smith&surname_mode=variants", true)
		if res.Total != 11 || res.TotalExact {
			t.Errorf("several spellings: total %d exact %v (no record holds two of them, so the sum is right, but it is not promised)", res.Total, res.TotalExact)
		}
		res = search(t, broad, "surname=Smith&year=1850&year_pm=5", true)
		if res.TotalExact || res.Total < 3 {
			t.Errorf("estimate: total %d exact %v", res.Total, res.TotalExact)
		}
		if len(res.Results) == 0 {
			t.Error("a broad search still returns results")
		}
		// Without a surname: the collections' summaries.
		res = search(t, broad, "collection=surrey-baptisms", true)
		if res.Total != 22 || !res.TotalExact || !res.FacetsExact || len(res.Results) != 20 || res.Next == nil {
			t.Errorf("browse a collection: total %d exact %v %v, %d results", res.Total, res.TotalExact, res.FacetsExact, len(res.Results))
		}
		res = search(t, broad, "collection=surrey-baptisms&given=John", true)
		if res.TotalExact || res.Total == 0 {
			t.Errorf("browse with a given name: total %d exact %v", res.Total, res.TotalExact)
		}
	})
}

func TestSortOrders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := fixture(t, db, 1000)
		got := keys(t, s, search(t, s, "surname=Smith&surname_mode=variants&sort=date&limit=100", true))
		want := []string{"B19", "B5", "B3", "B20", "B21", "B22", "B1", "B6", "B2", "D1", "B4"}
		if !slices.Equal(got, want) {
			t.Errorf("by date:\n got %v\nwant %v", got, want)
		}
		got = keys(t, s, search(t, s, "surname=Smith&surname_mode=variants&sort=name&year=1850&year_pm=1&limit=100", true))
		// Smith with no given name first, then Henry (B22: both persons score alike, so
		// the record sorts by its first, the child), John, John William, William John;
		// Smithe; Smyth.
		want = []string{"B4", "B22", "B1", "B6", "D1", "B20", "B21", "B3", "B2"}
		if !slices.Equal(got, want) {
			t.Errorf("by name:\n got %v\nwant %v", got, want)
		}
	})
}

func TestQueryErrors(t *testing.T) {
	bad := map[string]string{
		"":                                               "surname",
		"surname=Sm*":                                    "surname",
		"surname=S*h&surname_mode=wildcard":              "surname",
		"surname=Sm*th&surname_mode=exact":               "surname",
		"surname=Smith&surname_mode=fuzzy":               "surname_mode",
		"surname=Smith&year=1850&year_pm=3":              "year_pm",
		"surname=Smith&year_pm=2":                        "year_pm",
		"surname=Smith&year=18x0":                        "year",
		"surname=Smith&year=0":                           "year",
		"surname=Smith&decade=1855":                      "decade",
		"surname=Smith&decade=1850&year=1850":            "decade",
		"surname=Smith&sort=popularity":                  "sort",
		"surname=Smith&limit=0":                          "limit",
		"surname=Smith&limit=1000":                       "limit",
		"surname=Smith&relative_role=uncle&relative=Bob": "relative_role",
		"surname=Smith&relative_role=father":             "relative",
		"surname=!!!":                                    "surname",
		"surname=Smith&given=123":                        "given",
		"given=John":                                     "surname",
		"relative=William&role=father":                   "surname",
	}
	for params, field := range bad {
		v, _ := url.ParseQuery(params)
		_, errs := research.ParseQuery(v)
		if len(errs[field]) == 0 {
			t.Errorf("%q: want an error for %s, got %v", params, field, errs)
		}
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := fixture(t, db, 1000)
		_, err := s.Search(context.Background(), mustQuery(t, "surname=Smith&place=Atlantis"), nil)
		if err == nil || err.Error() == "" {
			t.Errorf("unknown place: %v", err)
		}
		_, err = s.Search(context.Background(), mustQuery(t, "surname=Smith&collection=nowhere"), nil)
		if err == nil {
			t.Error("unknown collection: no error")
		}
		q := mustQuery(t, "surname=Smith&limit=2")
		res, err := s.Search(context.Background(), q, nil)
		if err != nil || res.Next == nil {
			t.Fatal(err)
		}
		other := mustQuery(t, "surname=Smyth&limit=2")
		other.After = *res.Next
		if _, err := s.Search(context.Background(), other, nil); !errors.Is(err, research.ErrBadCursor) {
			t.Errorf("a cursor from another search: %v", err)
		}
		other.After = "garbage!"
		if _, err := s.Search(context.Background(), other, nil); !errors.Is(err, research.ErrBadCursor) {
			t.Errorf("a garbled cursor: %v", err)
		}
	})
}

// TestRelativeRowsPlan: the rows that could be a relative are read one record at a
// time by primary key. Left to itself SQLite indexed their condition's columns
// instead, building an automatic index over every person in the store.
func TestRelativeRowsPlan(t *testing.T) {
	db := storetest.SQLite(t)
	fixture(t, db, 1000)
	s := research.New(db, research.Options{Log: quietLog()})
	for _, params := range []string{
		"surname=Smith&given=John&relative=William&relative_role=father",
		"surname=Smith&relative=Mary",
		"surname=Smith&given=Henry&relative=Smith, John",
	} {
		v, _ := url.ParseQuery(params)
		q, errs := research.ParseQuery(v)
		if errs != nil {
			t.Fatal(errs)
		}
		plan, err := rsearch.RelativeRowsPlan(context.Background(), s.DB(), q)
		if err != nil {
			t.Fatal(err)
		}
		joined := strings.Join(plan, "; ")
		if !strings.Contains(joined, "SEARCH k USING INTEGER PRIMARY KEY") || strings.Contains(joined, "AUTOMATIC") {
			t.Errorf("%s: plan %q", params, joined)
		}
	}
}
