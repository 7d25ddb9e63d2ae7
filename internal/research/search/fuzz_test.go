package search_test

import (
	"net/url"
	"slices"
	"testing"

	"lineage/internal/research"
)

// FuzzParseQuery: the query parser never panics, what it accepts is in range, and a
// query written back with Values parses to the same search.
func FuzzParseQuery(f *testing.F) {
	for _, s := range agreementQueries {
		f.Add(s)
	}
	f.Add("surname=Sm%3Fth&year_pm=40&year=1&limit=100&sort=name&relative_role=any&relative=x")
	f.Add("collection=a,b,,c&collection=d&record_type=Bapt.&role=&decade=1850")
	f.Add("surname=%FF&given=%00")
	f.Add("surname=Whyte&collection=birth-briefs&surname_mode=exact&relative=Mabel+Whyte&relative_role=mother")
	f.Add("collection=x&relative=Smith,+John&relative_role=Spouse")
	f.Add("year=1850&relative=%2C&relative_role=wife")
	f.Add("surname=a&relative_role=any")
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, errs := research.ParseQuery(v)
		if errs != nil {
			if q != nil || len(errs) == 0 {
				t.Fatalf("errors and a query: %v %+v", errs, q)
			}
			return
		}
		if q.Limit < 1 || q.Limit > research.MaxLimit || !slices.Contains(research.Modes, q.SurnameMode) ||
			!slices.Contains([]string{research.SortRelevance, research.SortDate, research.SortName}, q.Sort) ||
			!slices.Contains(research.YearTolerances, q.YearPM) ||
			!slices.Contains([]string{"", research.RoleFather, research.RoleMother, research.RoleSpouse}, q.RelativeRole) ||
			(q.RelativeRole != "" && q.Relative == "") {
			t.Fatalf("out of range: %+v", q)
		}
		again, errs := research.ParseQuery(q.Values())
		if errs != nil {
			t.Fatalf("Values() of %q does not parse: %v (%s)", raw, errs, q.Values().Encode())
		}
		q.Limit, again.Limit, q.After, again.After = 0, 0, "", ""
		if a, b := q.Values().Encode(), again.Values().Encode(); a != b {
			t.Fatalf("round trip: %s ≠ %s", a, b)
		}
	})
}
