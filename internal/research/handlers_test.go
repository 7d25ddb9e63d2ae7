package research_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lineage/internal/auth/authtest"
	"lineage/internal/httpx"
	"lineage/internal/research"
	"lineage/internal/research/researchtest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

type apiResp struct {
	status int
	header http.Header
	body   []byte
}

func (r apiResp) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("not a JSON object (%d): %s", r.status, r.body)
	}
	return m
}

func get(t *testing.T, srv *httptest.Server, path string, member bool) apiResp {
	t.Helper()
	return do(t, srv, http.MethodGet, path, member)
}

func do(t *testing.T, srv *httptest.Server, method, path string, member bool) apiResp {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, nil)
	if member {
		req.Header.Set("X-Test-Member", "yes")
	}
	status, b, header := authtest.SendWith(t, srv.Client(), req)
	return apiResp{status, header, b}
}

func hasKeys(t *testing.T, what string, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: no %q in %v", what, k, m)
		}
	}
}

func TestAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := fixture(t, db, 1000)
		srv := httptest.NewServer(httpx.Serve(researchtest.Room(s, nil, quietLog())))
		defer srv.Close()

		t.Run("search", func(t *testing.T) {
			r := get(t, srv, "/api/research/search?surname=Smith&given=John&limit=2", false)
			if r.status != 200 || r.header.Get("Cache-Control") != "no-store" || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
				t.Fatalf("%d %v %s", r.status, r.header, r.body)
			}
			m := r.obj(t)
			hasKeys(t, "search", m, "total", "total_exact", "results", "facets", "facets_exact", "next")
			hasKeys(t, "facets", m["facets"].(map[string]any), "collection", "record_type", "decade", "county")
			results := m["results"].([]any)
			if len(results) != 2 || m["total"].(float64) != 9 || m["next"] == nil {
				t.Fatalf("%s", r.body)
			}
			first := results[0].(map[string]any)
			hasKeys(t, "result", first, "id", "record_type", "record_type_label", "collection", "collection_title", "date", "year", "place", "persons", "match", "score", "access", "teaser")
			p := first["persons"].([]any)[0].(map[string]any)
			hasKeys(t, "person", p, "role", "surname", "given_names")
			// The next page.
			r = get(t, srv, "/api/research/search?surname=Smith&given=John&limit=2&after="+url.QueryEscape(m["next"].(string)), false)
			if r.status != 200 || len(r.obj(t)["results"].([]any)) != 2 {
				t.Errorf("page 2: %d %s", r.status, r.body)
			}
		})

		t.Run("validation", func(t *testing.T) {
			for path, field := range map[string]string{
				"/api/research/search?surname=Smith&year_pm=3&year=1850": "year_pm",
				"/api/research/search":                                      "surname",
				"/api/research/search?surname=Smith&after=xyz":              "after",
				"/api/research/search?surname=Smith&place=Atlantis":         "place",
				"/api/research/search?surname=Smith&collection=no-such-set": "collection",
				"/api/research/count?surname=S*":                            "surname",
				"/api/search":                                               "q",
			} {
				r := get(t, srv, path, false)
				if r.status != 422 {
					t.Errorf("%s: %d %s", path, r.status, r.body)
					continue
				}
				m := r.obj(t)
				errs, _ := m["errors"].(map[string]any)
				if len(errs[field].([]any)) == 0 || m["message"] == "" {
					t.Errorf("%s: %s", path, r.body)
				}
			}
		})

		t.Run("count", func(t *testing.T) {
			m := get(t, srv, "/api/research/count?surname=Smith&surname_mode=variants&after=ignored", false).obj(t)
			if m["total"].(float64) != 11 || m["total_exact"] != true || len(m) != 2 {
				t.Errorf("%v", m)
			}
		})

		t.Run("record", func(t *testing.T) {
			res := search(t, s, "surname=Smith&given=John&relative=William", true)
			id := strconv.FormatInt(res.Results[0].ID, 10)
			m := get(t, srv, "/api/research/records/"+id, false).obj(t)
			hasKeys(t, "record", m, "id", "collection", "record_type", "record_type_label", "key", "date", "year", "date_range", "place", "persons",
				"transcript", "source", "images", "events", "access", "teaser")
			if m["teaser"] != false || m["key"] != "B1" || len(m["persons"].([]any)) != 3 || m["images"].([]any)[0] != "scans/b1.jpg" {
				t.Errorf("%v", m)
			}
			if pl := m["place"].(map[string]any); pl["path"] != "St Mary, Guildford, Surrey, England" || pl["lat"] == nil {
				t.Errorf("place %v", pl)
			}
			if dr := m["date_range"].(map[string]any); dr["earliest"] != "1850-03-12" || dr["latest"] != "1850-03-12" {
				t.Errorf("date range %v", dr)
			}
			for _, path := range []string{"/api/research/records/999999", "/api/research/records/abc", "/api/research/records/-1"} {
				if r := get(t, srv, path, false); r.status != 404 || r.obj(t)["message"] != "Not Found" {
					t.Errorf("%s: %d %s", path, r.status, r.body)
				}
			}
		})

		t.Run("collections", func(t *testing.T) {
			m := get(t, srv, "/api/research/collections", false).obj(t)
			data := m["data"].([]any)
			if len(data) != 2 {
				t.Fatalf("%v", m)
			}
			c := data[1].(map[string]any)
			hasKeys(t, "collection", c, "slug", "kind", "title", "description", "access", "count", "created_at", "updated_at")
			if c["slug"] != "surrey-baptisms" || c["count"].(float64) != 22 || c["access"] != "public" {
				t.Errorf("%v", c)
			}
			d := get(t, srv, "/api/research/collections/london-burials", false).obj(t)
			hasKeys(t, "collection page", d, "collection", "record_types", "decades", "counties", "year_from", "year_to", "items", "next")
			if d["collection"].(map[string]any)["access"] != "members" || d["year_from"].(float64) != 1850 {
				t.Errorf("%v", d)
			}
			if r := get(t, srv, "/api/research/collections/nope", false); r.status != 404 {
				t.Errorf("%d", r.status)
			}
			if r := get(t, srv, "/api/research/collections?kind=library", false); len(r.obj(t)["data"].([]any)) != 0 {
				t.Errorf("%s", r.body)
			}
		})

		t.Run("places", func(t *testing.T) {
			m := get(t, srv, "/api/research/places?q=guild", false).obj(t)
			data := m["data"].([]any)
			if len(data) == 0 || data[0].(map[string]any)["path"] != "Guildford, Surrey, England" {
				t.Errorf("%s", get(t, srv, "/api/research/places?q=guild", false).body)
			}
			m = get(t, srv, "/api/research/places", false).obj(t)
			if len(m["data"].([]any)) != 4 {
				t.Errorf("countries: %v", m)
			}
		})

		t.Run("global", func(t *testing.T) {
			m := get(t, srv, "/api/search?q="+url.QueryEscape("John Smith 1850"), false).obj(t)
			hasKeys(t, "global", m, "q", "archive", "family_trees", "index", "library")
			idx := m["index"].(map[string]any)
			hasKeys(t, "group", idx, "total", "total_exact", "results", "search")
			if idx["total"].(float64) == 0 || idx["search"] == "" {
				t.Errorf("index group: %v", idx)
			}
			if ft := m["family_trees"].(map[string]any); ft["total"].(float64) != 0 || len(ft["results"].([]any)) != 0 {
				t.Errorf("family trees: %v", ft)
			}
		})

		t.Run("methods and paths", func(t *testing.T) {
			r := do(t, srv, http.MethodPost, "/api/research/search?surname=Smith", false)
			if r.status != 405 || r.header.Get("Allow") == "" {
				t.Errorf("POST: %d %v", r.status, r.header)
			}
			if r := get(t, srv, "/api/research/nothing", false); r.status != 404 || r.obj(t)["message"] != "Not Found" {
				t.Errorf("unknown path: %d %s", r.status, r.body)
			}
		})
	})
}

// TestPaywall: a members-only record is found by everyone, but visitors get only the
// matched name, the year and the collection, in results and on the record's page.
func TestPaywall(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := fixture(t, db, 1000)
		srv := httptest.NewServer(httpx.Serve(researchtest.Room(s, nil, quietLog())))
		defer srv.Close()
		for _, member := range []bool{false, true} {
			m := get(t, srv, "/api/research/search?surname=Smith&collection=london-burials", member).obj(t)
			r := m["results"].([]any)[0].(map[string]any)
			if r["access"] != "members" || r["collection"] != "london-burials" || r["year"].(float64) != 1851 {
				t.Errorf("member %v: %v", member, r)
			}
			persons := r["persons"].([]any)
			if member {
				if r["teaser"] != false || r["date"] != "14 Jan 1851" || r["place"] != "Stepney, London, Middlesex" {
					t.Errorf("member sees everything: %v", r)
				}
			} else {
				if r["teaser"] != true || r["date"] != nil || r["place"] != nil || len(persons) != 1 {
					t.Errorf("visitor sees a teaser: %v", r)
				}
				p := persons[0].(map[string]any)
				if p["surname"] != "Smith" || p["given_names"] != "John" || len(p) != 3 {
					t.Errorf("teaser person: %v", p)
				}
			}
			id := strconv.FormatFloat(r["id"].(float64), 'f', 0, 64)
			body := get(t, srv, "/api/research/records/"+id, member)
			d := body.obj(t)
			if member {
				if d["teaser"] != false || d["transcript"] != "John Smith of Mile End aged 34" || d["images"].([]any)[0] != "scans/d1.jpg" {
					t.Errorf("member record: %v", d)
				}
				continue
			}
			if d["teaser"] != true || d["transcript"] != nil || d["source"] != nil || d["date"] != nil || d["place"] != nil ||
				d["key"] != nil || d["date_range"] != nil || len(d["images"].([]any)) != 0 || len(d["events"].([]any)) != 0 {
				t.Errorf("visitor record: %v", d)
			}
			for _, secret := range []string{"Mile End", "scans/d1.jpg", "Stepney", "14 Jan", "34"} {
				if strings.Contains(string(body.body), secret) {
					t.Errorf("the teaser leaks %q: %s", secret, body.body)
				}
			}
			// The global search and the second record of the collection too.
			g := get(t, srv, "/api/search?q=Rachel+Cohen", false)
			if strings.Contains(string(g.body), "Stepney") || !strings.Contains(string(g.body), `"teaser":true`) {
				t.Errorf("global search: %s", g.body)
			}
		}
		// A public record is full for everyone.
		m := get(t, srv, "/api/research/search?surname=Smyth", false).obj(t)
		if r := m["results"].([]any)[0].(map[string]any); r["teaser"] != false || r["date"] == nil {
			t.Errorf("public record: %v", r)
		}
	})
}

// TestVocabulary: GET /api/research/vocabulary answers anyone with the Go lists the
// web app's constants are checked against, each in its order: the surname modes
// (internal/names), the collection kinds and internal/access's fixed levels, and
// nothing else (no scopes).
func TestVocabulary(t *testing.T) {
	srv := httptest.NewServer(httpx.Serve(researchtest.Room(newService(t, storetest.SQLite(t), 1000), nil, quietLog())))
	defer srv.Close()
	r := get(t, srv, "/api/research/vocabulary", false)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	var got map[string][]string
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
	want := map[string][]string{
		"surname_modes": {"exact", "variants", "soundex", "phonetic", "wildcard"},
		"record_kinds":  {"record_set", "index", "memorial_cards", "birth_briefs", "archive", "library"},
		"access_levels": {"public", "registered", "members"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	if !slices.Equal(got["surname_modes"], research.Modes) || !slices.Equal(got["record_kinds"], research.Kinds) {
		t.Errorf("the answer is not the Go lists: %v", got)
	}
	if r := do(t, srv, http.MethodPost, "/api/research/vocabulary", false); r.status != 405 {
		t.Errorf("POST: %d %s", r.status, r.body)
	}
}
