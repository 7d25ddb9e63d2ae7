package trees_test

import (
	"context"
	"net/url"
	"slices"
	"testing"

	"lineage/internal/names"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

func searchIDs(t *testing.T, s *trees.Service, params string) ([]string, *trees.SearchResult) {
	t.Helper()
	v, _ := url.ParseQuery(params)
	q, errs := trees.ParsePeopleQuery(v, 20, 100)
	if errs != nil {
		t.Fatalf("%s: %v", params, errs)
	}
	res, err := s.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", params, err)
	}
	var ids []string
	for _, h := range res.Results {
		ids = append(ids, h.Tree.Slug+":"+h.Person.ID)
	}
	slices.Sort(ids)
	return ids, res
}

// The pedigree search matches surnames with the research search's modes and keys, and
// filters by given names, place and period.
func TestPedigreeSearch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		importPath(t, s, "testdata/search.ged", trees.ImportOptions{Slug: "one", Title: "One"})
		importPath(t, s, "testdata/search.ged", trees.ImportOptions{Slug: "two", Title: "Two"})
		importPath(t, s, "testdata/search.ged", trees.ImportOptions{Slug: "hidden", Published: published(false)})
		both := func(ids ...string) []string {
			var out []string
			for _, tr := range []string{"one", "two"} {
				for _, id := range ids {
					out = append(out, tr+":"+id)
				}
			}
			slices.Sort(out)
			return out
		}
		k := names.SurnameKeys
		sameVariant := k("Smith").Variant == k("Smyth").Variant
		variants := both("I1")
		if sameVariant {
			variants = both("I1", "I2")
		}
		soundex := both("I1", "I2", "I3") // Smith, Smyth and Schmidt are all S530
		for _, tc := range []struct {
			params string
			want   []string
		}{
			{"surname=smith&surname_mode=exact", both("I1")},
			{"surname=SMITH", variants},
			{"surname=smith&surname_mode=soundex", soundex},
			{"surname=mcdonald&surname_mode=exact", both("I5")},
			{"surname=donaldson&surname_mode=exact", both("I5")},
			{"surname=smi*&surname_mode=wildcard", both("I1", "I4")},
			{"surname=smith&surname_mode=exact&given=will", both("I1")},
			{"surname=smith&surname_mode=exact&given=john", nil},
			{"surname=smyth&surname_mode=exact&given=m a", both("I2")},
			{"place=rochdale", both("I1", "I4", "I5")},
			{"place=rochdale lancashire&year=1851&year_pm=0", both("I5")},
			{"place=heywood", both("I1", "I2")},
			{"surname=smith&surname_mode=soundex&year=1852&year_pm=0", both("I2")},
			{"surname=smith&surname_mode=exact&year=1700&year_pm=40", nil},
		} {
			got, _ := searchIDs(t, s, tc.params)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: %v, want %v", tc.params, got, tc.want)
			}
		}
		// Phonetic includes Schmidt (Daitch–Mokotoff) and everything soundex finds.
		got, _ := searchIDs(t, s, "surname=smith&surname_mode=phonetic")
		for _, id := range append(both("I3"), variants...) {
			if !slices.Contains(got, id) {
				t.Errorf("phonetic smith lacks %s: %v", id, got)
			}
		}
		// Trees with their matches, and paging.
		_, res := searchIDs(t, s, "place=rochdale&limit=2&offset=1")
		if res.Total != 6 || len(res.Results) != 2 || len(res.Trees) != 2 || res.Trees[0].Matches != 3 {
			t.Errorf("paging and trees: %+v", res)
		}
		// Not a search.
		v := url.Values{"given": {"john"}}
		q, _ := trees.ParsePeopleQuery(v, 20, 100)
		if _, err := s.Search(context.Background(), q); err == nil {
			t.Error("a search without surname or place was answered")
		}
		for _, bad := range []string{"surname_mode=fuzzy", "surname=a*&surname_mode=wildcard", "year=x", "year_pm=3", "limit=0", "limit=101", "surname=123"} {
			v, _ := url.ParseQuery(bad)
			if _, errs := trees.ParsePeopleQuery(v, 20, 100); errs == nil {
				t.Errorf("%s accepted", bad)
			}
		}
		// The people list of one tree uses the same matching.
		page, err := s.People(context.Background(), "one", &trees.PeopleQuery{Surname: "smith", SurnameMode: "soundex", Limit: 50})
		if err != nil || page.Total != 3 {
			t.Errorf("people list: %+v %v", page, err)
		}
		if _, err := s.People(context.Background(), "hidden", &trees.PeopleQuery{Limit: 50}); err == nil {
			t.Error("an unpublished tree listed to the public")
		}
	})
}

// The chart graph: the walk's people and families, every reference present (as
// topola requires), generations counted.
func TestGraph(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		if _, err := s.LoadDemo(context.Background(), "../../demo/trees/ashworth.ged"); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		check := func(g *trees.Graph) map[string]trees.GraphIndi {
			indis := map[string]trees.GraphIndi{}
			fams := map[string]bool{}
			for _, i := range g.Indis {
				indis[i.ID] = i
			}
			for _, f := range g.Fams {
				fams[f.ID] = true
			}
			if _, ok := indis[g.Start]; !ok {
				t.Errorf("start %s missing", g.Start)
			}
			for _, i := range g.Indis {
				if i.Famc != "" && !fams[i.Famc] {
					t.Errorf("%s famc %s missing", i.ID, i.Famc)
				}
				for _, f := range i.Fams {
					if !fams[f] {
						t.Errorf("%s fams %s missing", i.ID, f)
					}
				}
				if i.Living && (i.FirstName != "Living" || i.Birth != nil) {
					t.Errorf("living %s shown: %+v", i.ID, i)
				}
			}
			for _, f := range g.Fams {
				for _, x := range append([]string{f.Husb, f.Wife}, f.Children...) {
					if _, ok := indis[x]; x != "" && !ok {
						t.Errorf("family %s names %s, missing", f.ID, x)
					}
				}
			}
			return indis
		}
		g, err := s.Graph(ctx, trees.DemoSlug, "I3", "pedigree", 1)
		if err != nil {
			t.Fatal(err)
		}
		in := check(g)
		if len(g.Indis) != 3 || len(g.Fams) != 1 || in["I1"].ID == "" || in["I2"].ID == "" || in["I3"].Famc != "F1" {
			t.Errorf("pedigree of I3, 1 generation: %+v", g)
		}
		if b := in["I1"].Birth; b == nil || b.Date == nil || b.Date.Year != 1797 || b.Date.Month != 6 || b.Date.Day != 14 {
			t.Errorf("I1 birth: %+v", b)
		}
		d3, _ := s.Graph(ctx, trees.DemoSlug, "I1", "descendants", 3)
		check(d3)
		d4, _ := s.Graph(ctx, trees.DemoSlug, "I1", "descendants", 4)
		check(d4)
		if len(d4.Indis) <= len(d3.Indis) {
			t.Errorf("descendants: 3 generations %d people, 4 generations %d", len(d3.Indis), len(d4.Indis))
		}
		h, _ := s.Graph(ctx, trees.DemoSlug, "I394", "hourglass", 10)
		in = check(h)
		if _, ok := in["I1"]; !ok {
			t.Errorf("hourglass of I394 does not reach the founder")
		}
		if !in["I394"].Living {
			t.Errorf("I394 is not living: %+v", in["I394"])
		}
		if _, err := s.Graph(ctx, trees.DemoSlug, "NOBODY", "pedigree", 2); err == nil {
			t.Error("unknown person drawn")
		}
	})
}
