package research_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"lineage/internal/httpx"
	"lineage/internal/research"
	"lineage/internal/research/researchtest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// paywallCSV: BB2's only Whyte is its mother, whom the record's teaser withholds.
const paywallBriefs = `record_id,record_type,date,place,role,surname,given_names,sex
BB1,birth brief,1890,"Guildford, Surrey",principal,Whyte,John,M
BB1,,,,father,Whyte,George,M
BB1,,,,mother,Whyte,Mabel,F
BB2,birth brief,1891,"Guildford, Surrey",principal,Brown,Ann,F
BB2,,,,father,Brown,Henry,M
BB2,,,,mother,Whyte,Mabel,F
`

// paywallBaptisms: a public collection in which the import marked P1 members-only.
const paywallBaptisms = `record_id,record_type,date,place,role,surname,given_names,sex,access
P1,baptism,1850,"Guildford, Surrey",principal,Green,Tom,M,members
P1,,,,mother,Whyte,Mabel,F,
P2,baptism,1851,"Guildford, Surrey",principal,Green,Sally,F,public
P2,,,,mother,Whyte,Mabel,F,
`

func paywallFixture(t *testing.T, db *store.DB, cap int) *research.Service {
	t.Helper()
	s := newService(t, db, cap)
	for _, imp := range []struct {
		csv  string
		opts research.ImportOptions
	}{
		{paywallBriefs, research.ImportOptions{Collection: "birth-briefs", Kind: research.KindBirthBriefs, Access: research.AccessMembers}},
		{paywallBaptisms, research.ImportOptions{Collection: "baptisms"}},
	} {
		rep, err := importString(t, s, imp.csv, nil, imp.opts)
		if err != nil || rep.ErrorCount > 0 {
			t.Fatalf("import %s: %v %v", imp.opts.Collection, err, rep.Errors)
		}
	}
	return s
}

// probe is what a search answers, reduced to what a visitor could compare: the
// records (by source key), the total and the facets.
type probe struct {
	keys   []string
	total  float64
	count  float64
	facets string
	body   string
}

func runProbe(t *testing.T, s *research.Service, srv *httptest.Server, params string, member bool) probe {
	t.Helper()
	r := get(t, srv, "/api/research/search?"+params, member)
	if r.status != 200 {
		t.Fatalf("%s: %d %s", params, r.status, r.body)
	}
	m := r.obj(t)
	var pr probe
	pr.body = string(r.body)
	pr.total = m["total"].(float64)
	f, _ := json.Marshal(m["facets"])
	pr.facets = string(f)
	for _, x := range m["results"].([]any) {
		res := x.(map[string]any)
		id := int64(res["id"].(float64))
		d, err := s.Record(context.Background(), id, memberScope)
		if err != nil {
			t.Fatal(err)
		}
		pr.keys = append(pr.keys, *d.Key)
		// The result shows exactly what the record's own page shows.
		page := get(t, srv, fmt.Sprintf("/api/research/records/%d", id), member).obj(t)
		a, _ := json.Marshal(res["persons"])
		b, _ := json.Marshal(page["persons"])
		if res["teaser"] != page["teaser"] || string(a) != string(b) {
			t.Errorf("%s (member %v): result %s teaser %v persons %s, record page teaser %v persons %s",
				params, member, *d.Key, res["teaser"], a, page["teaser"], b)
		}
		if res["teaser"] == true && res["match"].(float64) != 0 {
			t.Errorf("%s: a teaser's match is %v", params, res["match"])
		}
	}
	c := get(t, srv, "/api/research/count?"+params, member).obj(t)
	pr.count = c["total"].(float64)
	if pr.count != pr.total {
		t.Errorf("%s (member %v): count %v, search total %v", params, member, pr.count, pr.total)
	}
	return pr
}

// TestPaywallSameTeaserEverywhere: a visitor's search must not
// show, match, count or filter on a person the record's teaser withholds.
func TestPaywallSameTeaserEverywhere(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		// Cap 1 sends the same searches down the broad (streaming) path.
		for _, cap := range []int{1000, 1} {
			t.Run(fmt.Sprintf("cap %d", cap), func(t *testing.T) {
				s := paywallFixture(t, db, cap)
				srv := httptest.NewServer(httpx.Serve(researchtest.Room(s, nil, quietLog())))
				defer srv.Close()
				visitor := func(params string) probe { return runProbe(t, s, srv, params, false) }
				member := func(params string) probe { return runProbe(t, s, srv, params, true) }

				// The probe: the mother's name does not appear.
				const whyte = "surname=Whyte&collection=birth-briefs&surname_mode=exact"
				v := visitor(whyte)
				if strings.Contains(v.body, "Mabel") || !slices.Equal(v.keys, []string{"BB1"}) {
					t.Errorf("visitor: %v %s", v.keys, v.body)
				}
				switch {
				case cap > 1 && (v.total != 1 || !strings.Contains(v.facets, `{"count":1,"label":"birth-briefs","value":"birth-briefs"}`)):
					t.Errorf("visitor's total and facets count BB2: %v %s", v.total, v.facets)
				case cap == 1 && !strings.Contains(v.body, `"total_exact":false`):
					// Beyond the cap the total comes from statistics of every person.
					t.Errorf("visitor's broad total is not marked as an estimate: %s", v.body)
				}
				if m := member(whyte); !slices.Equal(m.keys, []string{"BB1", "BB2"}) || !strings.Contains(m.body, "Mabel") {
					t.Errorf("member: %v", m.keys)
				}

				// The relative filter answers the same for a real hidden person and a
				// made-up one; a member's finds the real one.
				for _, base := range []string{"collection=birth-briefs", "surname=Brown&collection=birth-briefs", "surname=Whyte", "year=1890&year_pm=2"} {
					real := visitor(base + "&relative=Mabel+Whyte&relative_role=mother")
					madeUp := visitor(base + "&relative=Mabel+Smith&relative_role=mother")
					if !slices.Equal(real.keys, madeUp.keys) || real.total != madeUp.total || real.facets != madeUp.facets {
						t.Errorf("%s: the relative filter tells a hidden mother apart: %v %v ≠ %v %v", base, real.keys, real.total, madeUp.keys, madeUp.total)
					}
					for _, k := range real.keys {
						if k != "P2" {
							t.Errorf("%s: a visitor's relative filter matches members-only %s", base, k)
						}
					}
				}
				if m := member("collection=birth-briefs&relative=Mabel+Whyte&relative_role=mother"); !slices.Equal(m.keys, []string{"BB1", "BB2"}) {
					t.Errorf("member's relative filter: %v", m.keys)
				}
				// In a public collection the relative filter works for everyone, but not
				// on the record the import marked members-only.
				if v := visitor("collection=baptisms&relative=Mabel+Whyte&relative_role=mother"); !slices.Equal(v.keys, []string{"P2"}) {
					t.Errorf("visitor's relative filter on public records: %v", v.keys)
				}
				if m := member("collection=baptisms&relative=Mabel+Whyte&relative_role=mother"); !slices.Equal(m.keys, []string{"P1", "P2"}) {
					t.Errorf("member's relative filter on public records: %v", m.keys)
				}

				// Filters on a withheld person's given names or role, and a name only
				// a withheld person has, find nothing members-only.
				for params, want := range map[string][]string{
					"surname=Whyte&given=Mabel":                           {"P2"},
					"surname=Whyte&role=mother":                           {"P2"},
					"surname=Whyte&role=mother&collection=birth-briefs":   nil,
					"surname=Whyte&sort=name":                             {"BB1", "P2"},
					"surname=Whyte&sort=date":                             {"P2", "BB1"},
					"surname=Brown&given=Henry":                           nil,
					"collection=birth-briefs&given=Henry&sort=date":       nil,
					"collection=baptisms&role=mother&sort=date":           {"P2"},
					"record_type=baptism&given=Mabel&year=1850&year_pm=1": {"P2"},
				} {
					if cap == 1 && strings.Contains(params, "sort=name") {
						continue // too broad to sort by name
					}
					v := visitor(params)
					if !slices.Equal(v.keys, want) || (cap > 1 && v.total != float64(len(want))) {
						t.Errorf("visitor %s: %v (total %v), want %v", params, v.keys, v.total, want)
					}
					if strings.Contains(v.body, "Henry") || strings.Contains(v.body, "George") {
						t.Errorf("visitor %s: a withheld name: %s", params, v.body)
					}
				}
				if m := member("surname=Whyte&given=Mabel"); !slices.Equal(m.keys, []string{"P1", "P2", "BB1", "BB2"}) {
					t.Errorf("member, Mabel Whyte: %v", m.keys)
				}

				// The global search.
				g := get(t, srv, "/api/search?q="+url.QueryEscape("Mabel Whyte"), false)
				var gr struct {
					Index struct {
						Total   int64             `json:"total"`
						Results []research.Result `json:"results"`
					} `json:"index"`
				}
				if err := json.Unmarshal(g.body, &gr); err != nil {
					t.Fatal(err)
				}
				for _, r := range gr.Index.Results {
					if r.Teaser {
						t.Errorf("global search: a visitor matches withheld Mabel Whyte in %d", r.ID)
					}
				}
				if len(gr.Index.Results) != 1 || (cap > 1 && gr.Index.Total != 1) {
					t.Errorf("global search: %s", g.body)
				}
			})
		}
	})
}

// TestPaywallBroadAgreesWithBounded: a visitor's searches give the same pages through
// the broad path as through the bounded one.
func TestPaywallBroadAgreesWithBounded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		bounded := paywallFixture(t, db, 10_000)
		broad := researchtest.Broad(db)
		for _, q := range []string{
			"surname=Whyte", "surname=Whyte&sort=date", "surname=Whyte&given=Mabel", "surname=Whyte&role=mother",
			"surname=Brown&given=Henry", "surname=Whyte&relative=Mabel", "surname=Green&relative=Whyte&relative_role=mother",
			"collection=birth-briefs&sort=date", "collection=baptisms&given=Mabel&sort=date", "year=1890&year_pm=5&role=mother&sort=date",
			"collection=birth-briefs,baptisms&relative=Mabel+Whyte&sort=date",
		} {
			want, _, err := allPagesAs(t, bounded, q, 100, false)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			for _, limit := range []int{1, 2, 100} {
				for _, b := range broad {
					got, _, err := allPagesAs(t, b, q, limit, false)
					if err != nil {
						t.Fatalf("%s: %v", q, err)
					}
					if !slices.Equal(got, want) {
						t.Errorf("%s, %d a page: broad %v, bounded %v", q, limit, got, want)
					}
				}
			}
		}
	})
}

// TestPaywallMembersOnlyCount: a public collection's summary counts its records marked
// members-only; an import forgets the count while it writes, and a collection whose
// summary does not know it (an import under way, an older store) has its records
// looked up, so a visitor never matches P1's withheld mother.
func TestPaywallMembersOnlyCount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := paywallFixture(t, db, 1000)
		summary := func() string {
			var raw string
			if err := db.QueryRow(`SELECT summary FROM collections WHERE slug = 'baptisms'`).Scan(&raw); err != nil {
				t.Fatal(err)
			}
			return raw
		}
		if !strings.Contains(summary(), `"members_only":1`) {
			t.Errorf("summary: %s", summary())
		}
		visitorFinds := func() []string {
			return keys(t, s, search(t, s, "surname=Whyte&given=Mabel&collection=baptisms", false))
		}
		// While an import writes, the summary does not say.
		during := ""
		more := "P3,baptism,1852,Guildford,principal,Green,Kit,M,members\nP4,baptism,1853,Guildford,principal,Green,Lou,F,\n"
		rep, err := importString(t, s, strings.SplitN(paywallBaptisms, "\n", 2)[0]+"\n"+more, nil, research.ImportOptions{
			Collection: "baptisms", BatchSize: 1,
			Progress: func(research.ImportProgress) {
				if during == "" {
					during = summary()
				}
			}})
		if err != nil || rep.Added != 2 {
			t.Fatalf("%v %+v", err, rep)
		}
		if strings.Contains(during, "members_only") {
			t.Errorf("summary during the import: %s", during)
		}
		if !strings.Contains(summary(), `"members_only":2`) {
			t.Errorf("summary after the import: %s", summary())
		}
		// A summary without the count: the records are looked up.
		if _, err := db.Exec(`UPDATE collections SET summary = '{}' WHERE slug = 'baptisms'`); err != nil {
			t.Fatal(err)
		}
		if got := visitorFinds(); !slices.Equal(got, []string{"P2"}) {
			t.Errorf("visitor, summary without the count: %v", got)
		}
	})
}
