package search_test

import (
	"context"
	rsearch "lineage/internal/research/search"
	"strings"
	"testing"

	"lineage/internal/research"
	"lineage/internal/store/storetest"
)

// TestSearchTablesPlan: on SQLite a search reads the search table in the order it
// needs: by surname (and date), or by surname and given names when there is no year
// or the years hold many of the surname's records (givenOrderPays).
func TestSearchTablesPlan(t *testing.T) {
	db := storetest.SQLite(t)
	s := newService(t, db, 1000)
	importFile(t, s, "tricky.csv", research.ImportOptions{Collection: "c"})
	for params, want := range map[string]string{
		"surname=Smith&surname_mode=exact":             "SEARCH k USING PRIMARY KEY (surname_id=?)",
		"surname=Smith&surname_mode=exact&year=1850":   "SEARCH k USING PRIMARY KEY (surname_id=? AND span=? AND jdn_lo",
		"surname=Smith&surname_mode=exact&given=Mary":  "SEARCH k USING PRIMARY KEY (surname_id=? AND given_id=?)",
		"surname=Smith&surname_mode=variants&given=Wm": "SEARCH k USING PRIMARY KEY (surname_id=? AND given_id=?)",
		// With a year the surname order is one short range per span already.
		"surname=Smith&surname_mode=exact&given=Mary&year=1850": "SEARCH k USING PRIMARY KEY (surname_id=? AND span=? AND jdn_lo",
	} {
		checkPlan(t, s, params, want)
	}
	// Given names and a year whose years hold many of the surname's records: the
	// given-names order, one short range per given-names id.
	defer rsearch.SetGivenOrderRows(0)()
	checkPlan(t, s, "surname=Smith&surname_mode=exact&given=Mary&year=1850", "SEARCH k USING PRIMARY KEY (surname_id=? AND given_id=? AND span=? AND jdn_lo")
}

func checkPlan(t *testing.T, s *research.Service, params, want string) {
	t.Helper()
	plan, err := rsearch.SearchTablesUsed(context.Background(), s.DB(), mustQuery(t, params))
	if err != nil {
		t.Fatal(err)
	}
	if joined := strings.Join(plan, "\n"); !strings.Contains(joined, want) {
		t.Errorf("%s:\n%s\nwant %s", params, joined, want)
	}
}
