package trees_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

// TestTreeAccessLevels: a tree's people (list, surnames, pages, the search across
// trees) open by its access level and the reader's scope; the tree itself stays
// listed, saying whether the reader may see its people; its manager always may.
func TestTreeAccessLevels(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		importPath(t, s, "testdata/search.ged", trees.ImportOptions{Slug: "acc", Title: "Access", OwnerID: 1})
		if err := s.SetAccess(context.Background(), "acc", "gold"); err == nil {
			t.Fatal("SetAccess took an invalid level")
		}
		if err := s.SetAccess(context.Background(), "nope", "members"); !errors.Is(err, trees.ErrNotFound) {
			t.Fatalf("SetAccess of an unknown tree: %v", err)
		}

		q := func() *trees.PeopleQuery {
			pq, errs := trees.ParsePeopleQuery(url.Values{"surname": {"Smith"}}, 50, 200)
			if errs != nil {
				t.Fatal(errs)
			}
			return pq
		}
		visitor := trees.Viewer{}
		registered := trees.Viewer{ID: 2, Role: "registered", Scope: []string{"registered"}}
		member := trees.Viewer{ID: 2, Role: "registered", Scope: []string{"registered", "member"}}
		overseas := trees.Viewer{ID: 2, Role: "registered", Scope: []string{"registered", "member:overseas"}}
		owner := trees.Viewer{ID: 1, Role: "registered", Scope: []string{"registered"}}
		for _, c := range []struct {
			level string
			v     trees.Viewer
			open  bool
		}{
			{"public", visitor, true},
			{"registered", visitor, false},
			{"registered", registered, true},
			{"members", registered, false},
			{"members", member, true},
			{"scopes:member:overseas", member, false},
			{"scopes:member:overseas", overseas, true},
			{"scopes:member:overseas", owner, true},
		} {
			if err := s.SetAccess(context.Background(), "acc", c.level); err != nil {
				t.Fatal(err)
			}
			ctx := withViewer(context.Background(), c.v)
			tr, err := s.Tree(ctx, "acc")
			if err != nil || tr.Allowed != c.open || tr.Access != c.level {
				t.Fatalf("%s for %v: tree %+v %v", c.level, c.v.Scope, tr, err)
			}
			_, err = s.People(ctx, "acc", q())
			if c.open != (err == nil) || (!c.open && !errors.Is(err, trees.ErrRestricted)) {
				t.Errorf("%s for %v: people: %v", c.level, c.v.Scope, err)
			}
			if _, err := s.Surnames(ctx, "acc"); c.open != (err == nil) {
				t.Errorf("%s for %v: surnames: %v", c.level, c.v.Scope, err)
			}
			res, err := s.Search(ctx, q())
			if err != nil || (res.Total > 0) != c.open {
				t.Errorf("%s for %v: search across trees found %v (%v)", c.level, c.v.Scope, res, err)
			}
		}

		// Through the API: 401 for a reader the level does not open.
		if err := s.SetAccess(context.Background(), "acc", "members"); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(httpx.Serve(treesRoom(s)))
		defer srv.Close()
		for _, path := range []string{"/api/trees/acc/people", "/api/trees/acc/surnames"} {
			res, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Errorf("GET %s as a visitor: %d", path, res.StatusCode)
			}
		}
		res, err := http.Get(srv.URL + "/api/trees/acc")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("GET /api/trees/acc as a visitor: %d", res.StatusCode)
		}
	})
}
