package research_test

import (
	"context"
	"strings"
	"testing"

	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// accessRecord is one record whose teaser shows its principal (Ames) and withholds
// its mother (Zed); mark is the record's own access column.
func accessRecord(mark string) string {
	return "record_id,record_type,date,place,role,surname,given_names,sex,access\n" +
		"A1,baptism,1850,\"Guildford, Surrey\",principal,Ames,Tom,M," + mark + "\n" +
		"A1,,,,mother,Zed,Mabel,F,\n"
}

// TestAccessLevels: each collection level opens for the scopes the rule says, in
// search (results, totals, matching a withheld person) and on the record's page.
func TestAccessLevels(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		// Cap 1 sends the searches down the broad (streaming) path.
		for _, cap := range []int{1000, 1} {
			testAccessLevels(t, newService(t, db, cap))
		}
	})
}

func testAccessLevels(t *testing.T, s *research.Service) {
	for _, c := range []struct{ slug, access, mark string }{
		{"open", "", ""},
		{"registered", "registered", ""},
		{"registered-marked", "registered", "members"},
		{"members", "members", ""},
		{"overseas", "scopes:member:overseas", ""},
		{"overseas-marked", "scopes:member:overseas", "members"},
	} {
		rep, err := importString(t, s, accessRecord(c.mark), nil, research.ImportOptions{Collection: c.slug, Access: c.access})
		if err != nil || rep.ErrorCount > 0 {
			t.Fatalf("import %s: %v %v", c.slug, err, rep.Errors)
		}
	}
	cs, err := s.Collections(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]string{}
	for _, c := range cs {
		stored[c.Slug] = c.Access
	}
	if stored["overseas"] != "scopes:member:overseas" || stored["members"] != "members" || stored["registered"] != "registered" || stored["open"] != "public" {
		t.Errorf("collections' access: %v", stored)
	}

	anon := []string(nil)
	registered := []string{"registered"}
	member := []string{"registered", "member"}
	overseas := []string{"registered", "member:overseas"}
	for _, c := range []struct {
		slug  string
		scope []string
		open  bool
	}{
		{"open", anon, true},
		{"registered", anon, false},
		{"registered", registered, true},
		{"registered-marked", registered, false},
		{"registered-marked", member, true},
		{"members", anon, false},
		{"members", registered, false},
		{"members", overseas, false},
		{"members", member, true},
		{"overseas", member, false},
		{"overseas", registered, false},
		{"overseas", overseas, true},
		{"overseas-marked", overseas, true},
	} {
		res, err := s.Search(context.Background(), mustQuery(t, "surname=Ames&surname_mode=exact&collection="+c.slug), c.scope)
		if err != nil || len(res.Results) != 1 {
			t.Fatalf("%s as %v: %v %+v", c.slug, c.scope, err, res)
		}
		r := res.Results[0]
		if r.Teaser == c.open {
			t.Errorf("%s as %v: teaser %v, want %v", c.slug, c.scope, r.Teaser, !c.open)
		}
		d, err := s.Record(context.Background(), r.ID, c.scope)
		if err != nil {
			t.Fatal(err)
		}
		if d.Teaser == c.open || (d.Key != nil) != c.open || len(d.Persons) != map[bool]int{true: 2, false: 1}[c.open] {
			t.Errorf("%s as %v: record teaser %v key %v persons %v", c.slug, c.scope, d.Teaser, d.Key, d.Persons)
		}
		// The withheld mother is found only by those the record opens for.
		zed, err := s.Search(context.Background(), mustQuery(t, "surname=Zed&surname_mode=exact&collection="+c.slug), c.scope)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int64{true: 1, false: 0}[c.open]; zed.Total != want || int64(len(zed.Results)) != want {
			t.Errorf("%s as %v: the withheld person matches %d (total %d), want %d", c.slug, c.scope, len(zed.Results), zed.Total, want)
		}
	}
}

// TestAccessLevelBad: a collection's level is validated when it is created, with an
// error that names the levels, and nothing is written.
func TestAccessLevelBad(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		for _, bad := range []string{"gold", "member", "scopes:", "scopes:a b"} {
			_, err := importString(t, s, accessRecord(""), nil, research.ImportOptions{Collection: "bad", Access: bad})
			if err == nil || !strings.Contains(err.Error(), "access") {
				t.Errorf("access %q: %v", bad, err)
			}
		}
		if _, err := s.CollectionBySlug(context.Background(), "bad"); err != research.ErrNotFound {
			t.Errorf("a collection was written: %v", err)
		}
	})
}
