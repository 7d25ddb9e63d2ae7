package iiif

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/blob"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// headerScope stands in for the auth room: a request holds the scope its
// X-Test-Scope header lists. cmd/lineage's tests run behind the real middleware.
type headerScope struct{}

func (headerScope) Scope(r *http.Request) []string {
	return strings.Fields(r.Header.Get("X-Test-Scope"))
}

// TestAccessLevels: info.json, tiles and manifests of a scan open by the rule of
// internal/access, from the item's collection's level, its record's mark and its own:
// 401 for a requester whose scope does not open it, signed in or not.
func TestAccessLevels(t *testing.T) {
	eachStoreKind(t, func(t *testing.T, newStore func(t *testing.T) blob.Store) { testAccessLevels(t, newStore) })
}

func testAccessLevels(t *testing.T, newStore func(t *testing.T) blob.Store) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		rs := fixture(t, db)
		for _, c := range []struct{ slug, key, access string }{
			{"reg", "G1", "registered"},
			{"overseas", "O1", "scopes:member:overseas"},
		} {
			csv := "record_id,record_type,date,place,role,surname,given_names\n" + c.key + ",baptism,1850,Leeds,principal,Brown,Ada\n"
			if _, err := rs.ImportRecords(ctx, strings.NewReader(csv), nil, research.ImportOptions{Collection: c.slug, Access: c.access}, 0); err != nil {
				t.Fatal(err)
			}
		}
		svc := New(db, Options{DataDir: t.TempDir(), Blobs: newStore(t), Log: quietLog(), Members: headerScope{}})
		srv := httptest.NewServer(handler(svc))
		defer srv.Close()
		for _, imp := range []struct{ coll, file, access string }{
			{"reg", "G1.png", ""},
			{"overseas", "O1.png", ""},
			{"briefs", "B1.png", ""},
			{"recs", "R2.png", "registered"}, // the item's own level in a public collection
			{"recs", "R1.png", ""},
		} {
			dir := t.TempDir()
			writeImage(t, filepath.Join(dir, imp.file), quadrants(600, 400))
			if _, err := svc.Import(ctx, ImportOptions{Collection: imp.coll, Paths: []string{dir}, Access: imp.access}); err != nil {
				t.Fatalf("import %s: %v", imp.file, err)
			}
		}
		if _, err := svc.Import(ctx, ImportOptions{Collection: "recs", Paths: []string{t.TempDir()}, Access: "gold"}); err == nil || !strings.Contains(err.Error(), "scopes:") {
			t.Errorf("a bad access level: %v", err)
		}

		const (
			anon     = ""
			reg      = "registered"
			member   = "registered member"
			overseas = "registered member:overseas"
		)
		for _, c := range []struct {
			item, scope string
			want        int
		}{
			{"reg-g1", anon, 401},
			{"reg-g1", reg, 200},
			{"overseas-o1", anon, 401},
			{"overseas-o1", reg, 401},
			{"overseas-o1", member, 401},
			{"overseas-o1", overseas, 200},
			{"briefs-b1", reg, 401},
			{"briefs-b1", overseas, 401},
			{"briefs-b1", member, 200},
			{"recs-r2", anon, 401},
			{"recs-r2", reg, 200},
			{"recs-r1", anon, 200},
		} {
			for _, path := range []string{
				"/iiif/3/" + c.item + "-p001/info.json",
				"/iiif/3/" + c.item + "-p001/0,0,256,256/max/0/default.jpg",
				"/iiif/3/manifests/" + c.item,
			} {
				req, _ := http.NewRequest("GET", srv.URL+path, nil)
				if c.scope != "" {
					req.Header.Set("X-Test-Scope", c.scope)
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				if res.StatusCode != c.want {
					t.Errorf("GET %s as %q: %d, want %d", path, c.scope, res.StatusCode, c.want)
				}
			}
		}
	})
}
