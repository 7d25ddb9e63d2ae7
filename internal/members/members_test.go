package members_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"lineage/internal/auth/authtest"
	"lineage/internal/httpx"
	"lineage/internal/members"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// headerUser stands in for the auth room: the test names the user in a header. The
// auth room's own tests run these endpoints behind its real middleware.
type headerUser struct{}

func (headerUser) UserID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.Header.Get("X-Test-User"), 10, 64)
	return id, err == nil && id > 0
}

type env struct {
	t    *testing.T
	db   *store.DB
	svc  *members.Service
	srv  *httptest.Server
	now  time.Time
	a, b int64 // two members
}

func newEnv(t *testing.T, db *store.DB) *env {
	e := &env{t: t, db: db, now: time.Unix(1_800_000_000, 0)}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	e.svc = members.New(db, headerUser{}, quiet)
	e.svc.Now = func() time.Time { return e.now }
	e.srv = httptest.NewServer(httpx.Serve(authtest.MembersRoom(e.svc, nil, quiet)))
	t.Cleanup(e.srv.Close)
	e.a, e.b = e.addUser("a@example.org"), e.addUser("b@example.org")
	return e
}

func (e *env) addUser(email string) int64 {
	var id int64
	err := e.db.QueryRow(e.db.Rebind(`INSERT INTO users (email, created_at, updated_at) VALUES (?, 0, 0) RETURNING id`), email).Scan(&id)
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

type resp struct {
	status int
	body   []byte
}

func (r resp) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("not a JSON object: %s", r.body)
	}
	return m
}

func (r resp) data(t *testing.T) []any {
	t.Helper()
	d, ok := r.obj(t)["data"].([]any)
	if !ok {
		t.Fatalf("no data list: %s", r.body)
	}
	return d
}

func (r resp) id(t *testing.T) string {
	t.Helper()
	return strconv.FormatFloat(r.obj(t)["id"].(float64), 'f', -1, 64)
}

func (e *env) do(user int64, method, path string, body any) resp {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, rd)
	if user != 0 {
		req.Header.Set("X-Test-User", strconv.FormatInt(user, 10))
	}
	code, b, _ := authtest.Send(e.t, req)
	return resp{code, b}
}

func want(t *testing.T, r resp, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
}

func TestUnauthenticated(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/bookmarks"}, {"POST", "/api/bookmarks"}, {"DELETE", "/api/bookmarks/1"},
		{"GET", "/api/reading-lists"}, {"POST", "/api/reading-lists"}, {"GET", "/api/reading-lists/1"},
		{"PUT", "/api/reading-lists/1/order"}, {"GET", "/api/saved-searches"}, {"PATCH", "/api/saved-searches/1"},
		{"GET", "/api/search-history"}, {"DELETE", "/api/search-history"},
	} {
		r := e.do(0, c.method, c.path, nil)
		if r.status != 401 || string(r.body) != `{"message":"Unauthenticated."}`+"\n" {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.status, r.body)
		}
	}
}

func TestUnknownRoutesAnswerJSON(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	r := e.do(e.a, "PATCH", "/api/bookmarks", nil)
	want(t, r, 405)
	if r.obj(t)["message"] != "The PATCH method is not supported for this URL." {
		t.Errorf("405 body %s", r.body)
	}
	r = e.do(e.a, "GET", "/api/bookmarks/1/extra", nil)
	want(t, r, 404)
	if r.obj(t)["message"] != "Not Found" {
		t.Errorf("404 body %s", r.body)
	}
}

func TestBookmarks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		r := e.do(e.a, "POST", "/api/bookmarks", map[string]any{"url": "/news/annual-meeting", "title": "Annual meeting"})
		want(t, r, 201)
		id := r.id(t)
		if m := r.obj(t); m["url"] != "/news/annual-meeting" || m["title"] != "Annual meeting" || m["created_at"] == nil {
			t.Errorf("bookmark %s", r.body)
		}
		// Adding the same page again answers with the existing bookmark.
		r = e.do(e.a, "POST", "/api/bookmarks", map[string]any{"url": "/news/annual-meeting", "title": "Again"})
		want(t, r, 200)
		if r.id(t) != id {
			t.Error("duplicate bookmark created")
		}
		e.now = e.now.Add(time.Second)
		want(t, e.do(e.a, "POST", "/api/bookmarks", map[string]any{"url": "/research-hub/our-collections/family-trees/smith?person=I12", "title": ""}), 201)
		list := e.do(e.a, "GET", "/api/bookmarks", nil).data(t)
		if len(list) != 2 || list[0].(map[string]any)["title"] != "/research-hub/our-collections/family-trees/smith?person=I12" {
			t.Errorf("list (newest first, title defaults to url): %v", list)
		}
		// The toggle on a content page asks about its own path.
		if one := e.do(e.a, "GET", "/api/bookmarks?url=%2Fnews%2Fannual-meeting", nil).data(t); len(one) != 1 {
			t.Errorf("filter by url: %v", one)
		}
		for _, bad := range []string{"https://evil.example/x", "//evil.example", "news/x", "/\\evil", "", "javascript:alert(1)", "/a b"} {
			r := e.do(e.a, "POST", "/api/bookmarks", map[string]any{"url": bad, "title": "x"})
			want(t, r, 422)
			if r.obj(t)["errors"].(map[string]any)["url"] == nil {
				t.Errorf("%q: %s", bad, r.body)
			}
		}
		want(t, e.do(e.a, "POST", "/api/bookmarks", "nope"), 422)

		// Another member sees nothing and can delete nothing: 404, not 403.
		if l := e.do(e.b, "GET", "/api/bookmarks", nil).data(t); len(l) != 0 {
			t.Errorf("b sees %v", l)
		}
		want(t, e.do(e.b, "DELETE", "/api/bookmarks/"+id, nil), 404)
		want(t, e.do(e.a, "DELETE", "/api/bookmarks/"+id, nil), 204)
		want(t, e.do(e.a, "DELETE", "/api/bookmarks/"+id, nil), 404)
		want(t, e.do(e.a, "DELETE", "/api/bookmarks/abc", nil), 404)
	})
}

func TestReadingLists(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		want(t, e.do(e.a, "POST", "/api/reading-lists", map[string]any{"name": "  "}), 422)
		r := e.do(e.a, "POST", "/api/reading-lists", map[string]any{"name": "Census research"})
		want(t, r, 201)
		list := r.id(t)
		if items, ok := r.obj(t)["items"].([]any); !ok || len(items) != 0 {
			t.Errorf("new list %s", r.body)
		}
		base := "/api/reading-lists/" + list
		var ids []string
		for i, u := range []string{"/learn/guides/how-to-use-census-records", "/news/census-release", "/learn/hints-tips/london-research"} {
			r := e.do(e.a, "POST", base+"/items", map[string]any{"url": u, "title": fmt.Sprintf("Item %d", i)})
			want(t, r, 201)
			if r.obj(t)["position"] != float64(i) {
				t.Errorf("position %v", r.obj(t)["position"])
			}
			ids = append(ids, r.id(t))
		}
		want(t, e.do(e.a, "POST", base+"/items", map[string]any{"url": "/news/census-release"}), 200)
		want(t, e.do(e.a, "POST", base+"/items", map[string]any{"url": "https://evil.example"}), 422)

		// Reorder: 3, 1, 2.
		order := []any{atoi(ids[2]), atoi(ids[0]), atoi(ids[1])}
		r = e.do(e.a, "PUT", base+"/order", map[string]any{"item_ids": order})
		want(t, r, 200)
		items := r.obj(t)["items"].([]any)
		if items[0].(map[string]any)["url"] != "/learn/hints-tips/london-research" || items[2].(map[string]any)["url"] != "/news/census-release" {
			t.Errorf("after reorder %v", items)
		}
		for _, bad := range [][]any{{atoi(ids[0]), atoi(ids[1])}, {atoi(ids[0]), atoi(ids[0]), atoi(ids[1])}, {atoi(ids[0]), atoi(ids[1]), 999999}} {
			want(t, e.do(e.a, "PUT", base+"/order", map[string]any{"item_ids": bad}), 422)
		}

		want(t, e.do(e.a, "DELETE", base+"/items/"+ids[1], nil), 204)
		r = e.do(e.a, "PATCH", base, map[string]any{"name": "Census"})
		want(t, r, 200)
		if m := r.obj(t); m["name"] != "Census" || m["item_count"] != float64(2) || len(m["items"].([]any)) != 2 {
			t.Errorf("after rename %s", r.body)
		}
		lists := e.do(e.a, "GET", "/api/reading-lists", nil).data(t)
		if len(lists) != 1 || lists[0].(map[string]any)["item_count"] != float64(2) {
			t.Errorf("lists %v", lists)
		}

		// Another member: 404 for every operation, and nothing changes.
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", base, nil},
			{"PATCH", base, map[string]any{"name": "Mine now"}},
			{"POST", base + "/items", map[string]any{"url": "/x"}},
			{"DELETE", base + "/items/" + ids[0], nil},
			{"PUT", base + "/order", map[string]any{"item_ids": order}},
			{"DELETE", base, nil},
		} {
			want(t, e.do(e.b, c.method, c.path, c.body), 404)
		}
		if got := e.do(e.a, "GET", base, nil).obj(t); got["name"] != "Census" || len(got["items"].([]any)) != 2 {
			t.Errorf("list changed by another member: %v", got)
		}
		want(t, e.do(e.a, "DELETE", base, nil), 204)
		want(t, e.do(e.a, "GET", base, nil), 404)
		var n int
		db.QueryRow(`SELECT COUNT(*) FROM reading_list_items`).Scan(&n)
		if n != 0 {
			t.Errorf("%d items outlived their list", n)
		}
	})
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func TestSavedSearches(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		path := "/research-hub/our-collections/searchexplore"
		r := e.do(e.a, "POST", "/api/saved-searches", map[string]any{"name": "Smiths in Kent", "path": path,
			"params": map[string]any{"surname": "Smith", "county": []string{"Kent", "Sussex"}, "from": 1840}})
		want(t, r, 201)
		id := r.id(t)
		m := r.obj(t)
		if m["url"] != path+"?county=Kent&county=Sussex&from=1840&surname=Smith" {
			t.Errorf("run url %v", m["url"])
		}
		if p := m["params"].(map[string]any); p["surname"] != "Smith" || len(p["county"].([]any)) != 2 || p["from"] != "1840" {
			t.Errorf("params %v", p)
		}
		want(t, e.do(e.a, "POST", "/api/saved-searches", map[string]any{"name": "x", "path": "https://evil.example/search"}), 422)
		want(t, e.do(e.a, "POST", "/api/saved-searches", map[string]any{"name": "x", "path": path + "?q=1"}), 422)
		want(t, e.do(e.a, "POST", "/api/saved-searches", map[string]any{"name": "", "path": path}), 422)
		want(t, e.do(e.a, "POST", "/api/saved-searches", map[string]any{"name": "x", "path": path, "params": map[string]any{"a": map[string]any{}}}), 422)

		r = e.do(e.a, "PATCH", "/api/saved-searches/"+id, map[string]any{"name": "Kent Smiths"})
		want(t, r, 200)
		if m := r.obj(t); m["name"] != "Kent Smiths" || m["url"] != path+"?county=Kent&county=Sussex&from=1840&surname=Smith" {
			t.Errorf("after rename %s", r.body)
		}
		r = e.do(e.a, "GET", "/api/saved-searches/"+id, nil)
		want(t, r, 200)
		if len(e.do(e.a, "GET", "/api/saved-searches", nil).data(t)) != 1 {
			t.Error("list")
		}
		want(t, e.do(e.b, "GET", "/api/saved-searches/"+id, nil), 404)
		want(t, e.do(e.b, "PATCH", "/api/saved-searches/"+id, map[string]any{"name": "theirs"}), 404)
		want(t, e.do(e.b, "DELETE", "/api/saved-searches/"+id, nil), 404)
		if len(e.do(e.b, "GET", "/api/saved-searches", nil).data(t)) != 0 {
			t.Error("b sees a's saved search")
		}
		want(t, e.do(e.a, "DELETE", "/api/saved-searches/"+id, nil), 204)
		want(t, e.do(e.a, "GET", "/api/saved-searches/"+id, nil), 404)
	})
}

func TestSearchHistory(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		path := "/research-hub/our-collections/record-sets"
		for i := 0; i < members.MaxHistory+5; i++ {
			e.now = e.now.Add(time.Second)
			if _, err := e.svc.RecordSearch(context.Background(), e.a, path, members.Params{"q": {strconv.Itoa(i)}}, ""); err != nil {
				t.Fatal(err)
			}
		}
		h := e.do(e.a, "GET", "/api/search-history", nil).data(t)
		if len(h) != members.MaxHistory {
			t.Fatalf("%d entries, want the cap %d", len(h), members.MaxHistory)
		}
		if first := h[0].(map[string]any); first["url"] != path+"?q=204" {
			t.Errorf("newest first: %v", first)
		}
		if last := h[len(h)-1].(map[string]any); last["url"] != path+"?q=5" {
			t.Errorf("oldest kept: %v", last)
		}
		var n int
		db.QueryRow(db.Rebind(`SELECT COUNT(*) FROM search_history WHERE user_id = ?`), e.a).Scan(&n)
		if n != members.MaxHistory {
			t.Errorf("%d rows stored", n)
		}

		// Over HTTP; running the newest search again does not repeat it.
		e.now = e.now.Add(time.Second)
		r := e.do(e.a, "POST", "/api/search-history", map[string]any{"path": path, "params": map[string]any{"q": "204"}, "summary": "204 again"})
		want(t, r, 201)
		h = e.do(e.a, "GET", "/api/search-history", nil).data(t)
		if len(h) != members.MaxHistory || h[0].(map[string]any)["summary"] != "204 again" || h[1].(map[string]any)["url"] != path+"?q=203" {
			t.Errorf("repeat: %v %v", h[0], h[1])
		}
		want(t, e.do(e.a, "POST", "/api/search-history", map[string]any{"path": "//evil", "params": map[string]any{}}), 422)

		id := strconv.FormatFloat(h[0].(map[string]any)["id"].(float64), 'f', -1, 64)
		want(t, e.do(e.b, "DELETE", "/api/search-history/"+id, nil), 404)
		want(t, e.do(e.b, "DELETE", "/api/search-history", nil), 204) // clears b's own (empty) history only
		if len(e.do(e.a, "GET", "/api/search-history", nil).data(t)) != members.MaxHistory {
			t.Error("b cleared a's history")
		}
		want(t, e.do(e.a, "DELETE", "/api/search-history/"+id, nil), 204)
		if len(e.do(e.a, "GET", "/api/search-history", nil).data(t)) != members.MaxHistory-1 {
			t.Error("delete one")
		}
		want(t, e.do(e.a, "DELETE", "/api/search-history", nil), 204)
		if len(e.do(e.a, "GET", "/api/search-history", nil).data(t)) != 0 {
			t.Error("clear")
		}
	})
}

// TestLimits: each per-account limit lets a member add up to it, then refuses one more
// with a 422 naming the limit on the field, and holds no one else (for a list's items,
// no other list). The rows up to one below the limit are put in by SQL; the last one
// allowed and the refused one go through the API.
func TestLimits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		list := e.do(e.b, "POST", "/api/reading-lists", map[string]any{"name": "Full"})
		want(t, list, 201)
		other := e.do(e.b, "POST", "/api/reading-lists", map[string]any{"name": "Other"})
		want(t, other, 201)
		page := func(name string) map[string]any { return map[string]any{"url": "/" + name} }
		named := func(name string) map[string]any { return map[string]any{"name": name} }
		search := func(name string) map[string]any {
			return map[string]any{"name": name, "path": "/research-hub/our-collections/searchexplore", "params": map[string]any{}}
		}
		for _, c := range []struct {
			name        string
			limit       int
			user        int64  // who adds
			fill        string // inserts the rows n of owner: arguments n, owner
			owner       int64
			path, field string
			body        func(name string) map[string]any
			message     string
			elseUser    int64 // who adds to elsePath, not at the limit
			elsePath    string
		}{
			{"Bookmarks", members.MaxBookmarks, e.a, `INSERT INTO bookmarks (user_id, url, title, created_at) SELECT ?, '/filled/' || i, 'x', 0 FROM n`, e.a,
				"/api/bookmarks", "url", page, "You have reached the limit of 5000 bookmarks. Remove some to add more.", e.b, "/api/bookmarks"},
			{"ReadingLists", members.MaxReadingLists, e.a, `INSERT INTO reading_lists (user_id, name, created_at, updated_at) SELECT ?, 'x', 0, 0 FROM n`, e.a,
				"/api/reading-lists", "name", named, "You have reached the limit of 200 reading lists.", e.b, "/api/reading-lists"},
			{"ListItems", members.MaxListItems, e.b, `INSERT INTO reading_list_items (list_id, position, url, title, created_at) SELECT ?, i, '/filled/' || i, 'x', 0 FROM n`, atoi64(list.id(t)),
				"/api/reading-lists/" + list.id(t) + "/items", "url", page, "A reading list holds at most 1000 items.", e.b, "/api/reading-lists/" + other.id(t) + "/items"},
			{"SavedSearches", members.MaxSavedSearches, e.a, `INSERT INTO saved_searches (user_id, name, path, params, created_at, updated_at) SELECT ?, 'x', '/research-hub/our-collections/searchexplore', '{}', 0, 0 FROM n`, e.a,
				"/api/saved-searches", "name", search, "You have reached the limit of 200 saved searches.", e.b, "/api/saved-searches"},
		} {
			t.Run(c.name, func(t *testing.T) {
				if _, err := db.Exec(db.Rebind(`WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) `+c.fill), c.limit-1, c.owner); err != nil {
					t.Fatal(err)
				}
				want(t, e.do(c.user, "POST", c.path, c.body("last")), 201)
				r := e.do(c.user, "POST", c.path, c.body("over"))
				want(t, r, 422)
				if got := r.obj(t); got["message"] != c.message || fmt.Sprint(got["errors"]) != fmt.Sprint(map[string]any{c.field: []any{c.message}}) {
					t.Errorf("refusal %s", r.body)
				}
				want(t, e.do(c.elseUser, "POST", c.elsePath, c.body("over")), 201)
			})
		}
	})
}

func atoi64(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }

func TestExportUserData(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	e.do(e.a, "POST", "/api/bookmarks", map[string]any{"url": "/news/a", "title": "A"})
	e.do(e.b, "POST", "/api/bookmarks", map[string]any{"url": "/news/b", "title": "B"})
	parts, err := e.svc.ExportUserData(context.Background(), e.a)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(parts)
	if !bytes.Contains(b, []byte(`"/news/a"`)) || bytes.Contains(b, []byte(`"/news/b"`)) {
		t.Errorf("export %s", b)
	}
	for _, k := range []string{"bookmarks", "reading_lists", "saved_searches", "search_history"} {
		if _, ok := parts[k]; !ok {
			t.Errorf("export lacks %s", k)
		}
	}
}
