package research_test

import (
	"context"
	"strings"
	"testing"

	"lineage/internal/research/demo"
	researchsearch "lineage/internal/research/search"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestGlobalReadsTheExample: the global search's own example, "John Smith 1850", finds
// the demo's records, and the answer says how the text was read.
func TestGlobalReadsTheExample(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := newService(t, db, 5000)
		// The records `lineage serve --demo` loads (cmd/lineage: 3000, seed 1).
		if err := demo.Load(ctx, s, 3000, 1, nil); err != nil {
			t.Fatal(err)
		}
		g, err := s.Global(ctx, "John Smith 1850", nil)
		if err != nil {
			t.Fatal(err)
		}
		r := g.Reading
		if r == nil || r.Surname != "Smith" || r.Given != "John" || r.Year != 1850 {
			t.Fatalf("read as %+v", r)
		}
		if g.Index.Total == 0 || len(g.Index.Results) == 0 {
			t.Fatalf("the example finds no index record (read as %+v)", r)
		}
		// Nothing of John Smith within 1850 ± 2 in the demo: the year was widened, and
		// the answer says so.
		if r.Asked != "Smith, John, 1850 ± 2" || r.Text != "Smith, John, 1850 ± 10" || r.YearPM != 10 {
			t.Errorf("read as %+v", r)
		}
		for _, x := range g.Index.Results {
			rec := x.(researchsearch.Result)
			found := false
			for _, p := range rec.Persons {
				found = found || strings.HasPrefix(strings.ToLower(p.Surname), "smith")
			}
			if !found || rec.Year == nil || *rec.Year < 1840 || *rec.Year > 1860 {
				t.Errorf("%+v does not answer Smith, John, 1850 ± 10", rec)
			}
		}
		if !strings.Contains(g.Index.Search, "year_pm=10") {
			t.Errorf("the full search behind the group: %q", g.Index.Search)
		}

		// A reading that finds records as asked is not widened.
		g, err = s.Global(ctx, "Smith", nil)
		if err != nil {
			t.Fatal(err)
		}
		if g.Reading == nil || g.Reading.Text != "Smith" || g.Reading.Asked != "" || g.Index.Total < 40 {
			t.Errorf("Smith: read as %+v, %d records", g.Reading, g.Index.Total)
		}
		// A place the gazetteer knows is read as the place.
		g, err = s.Global(ctx, "Smith in Halifax", nil)
		if err != nil {
			t.Fatal(err)
		}
		if g.Reading == nil || g.Reading.Surname != "Smith" || g.Reading.Place != "Halifax" || g.Index.Total == 0 {
			t.Errorf("Smith in Halifax: read as %+v, %d records", g.Reading, g.Index.Total)
		}
		// Text that names nobody has no reading.
		if g, err = s.Global(ctx, "1850", nil); err != nil || g.Reading != nil {
			t.Errorf("1850: %v %+v", err, g.Reading)
		}
	})
}
