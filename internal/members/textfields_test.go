package members_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"lineage/internal/auth/authtest"
	"lineage/internal/httpx"
	"lineage/internal/members"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestTextFieldsRejectControlCharacters: every name, title and summary a member sets
// is one line without control characters; otherwise 422 naming the field, and nothing
// is stored.
func TestTextFieldsRejectControlCharacters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		list := e.do(e.a, "POST", "/api/reading-lists", map[string]any{"name": "Kent"})
		want(t, list, 201)
		listPath := "/api/reading-lists/" + list.id(t)
		saved := e.do(e.a, "POST", "/api/saved-searches", map[string]any{"name": "Smiths", "path": "/search", "params": map[string]any{"surname": "Smith"}})
		want(t, saved, 201)
		savedPath := "/api/saved-searches/" + saved.id(t)
		for _, bad := range []string{"X\r\nBcc: evil@evil.com", "a\tb", "a\x00b", "a\u2028b", "a\u202eb", "a\x1b[2Jb", "a\u0085b"} {
			for _, tt := range []struct {
				method, path, field string
				body                map[string]any
			}{
				{"POST", "/api/bookmarks", "title", map[string]any{"url": "/news", "title": bad}},
				{"POST", "/api/reading-lists", "name", map[string]any{"name": bad}},
				{"PATCH", listPath, "name", map[string]any{"name": bad}},
				{"POST", listPath + "/items", "title", map[string]any{"url": "/news", "title": bad}},
				{"POST", "/api/saved-searches", "name", map[string]any{"name": bad, "path": "/search", "params": map[string]any{}}},
				{"PATCH", savedPath, "name", map[string]any{"name": bad}},
				{"POST", "/api/search-history", "summary", map[string]any{"path": "/search", "params": map[string]any{"q": "x"}, "summary": bad}},
				{"POST", "/api/saved-searches", "params", map[string]any{"name": "P", "path": "/search", "params": map[string]any{"surname": bad}}},
			} {
				r := e.do(e.a, tt.method, tt.path, tt.body)
				want(t, r, 422)
				errs, _ := r.obj(t)["errors"].(map[string]any)
				if errs[tt.field] == nil {
					t.Fatalf("%s %s with %q: errors %v, want %s", tt.method, tt.path, bad, errs, tt.field)
				}
			}
		}
		if m := e.do(e.a, "GET", "/api/bookmarks", nil); len(m.data(t)) != 0 {
			t.Errorf("bookmarks stored: %s", m.body)
		}
		if m := e.do(e.a, "GET", "/api/reading-lists", nil); len(m.data(t)) != 1 || !strings.Contains(string(m.body), `"name":"Kent"`) {
			t.Errorf("reading lists: %s", m.body)
		}
		if m := e.do(e.a, "GET", listPath, nil); strings.Contains(string(m.body), "/news") {
			t.Errorf("list item stored: %s", m.body)
		}
		if m := e.do(e.a, "GET", "/api/saved-searches", nil); len(m.data(t)) != 1 || !strings.Contains(string(m.body), `"name":"Smiths"`) {
			t.Errorf("saved searches: %s", m.body)
		}
		if m := e.do(e.a, "GET", "/api/search-history", nil); len(m.data(t)) != 0 {
			t.Errorf("history stored: %s", m.body)
		}
	})
}

// TestBodyTooLarge: a body over 64 KB is a 413 that names the limit.
func TestBodyTooLarge(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		r := e.do(e.a, "POST", "/api/bookmarks", map[string]any{"url": "/news", "title": strings.Repeat("a", 70<<10)})
		want(t, r, 413)
		if m := r.obj(t)["message"]; m != "The request body may be at most 64 KiB." {
			t.Fatalf("message %q", m)
		}
	})
}

// FuzzRequestBodies sends any JSON body to every endpoint that reads one: no panic,
// no 5xx.
func FuzzRequestBodies(f *testing.F) {
	for _, s := range []string{`{"url":"/news","title":"T"}`, `{"name":"N","path":"/search","params":{"a":["1",2],"b":true}}`,
		`{"item_ids":[1,2,3]}`, `{"params":{"a":{"b":1}}}`, `{"name":null}`, `[`, `{"path":"/search?x=1","summary":"s"}`} {
		f.Add(uint8(0), []byte(s))
	}
	h := fuzzHandler(f, storetest.SQLite(f))
	routes := []struct{ method, path string }{
		{"POST", "/api/bookmarks"}, {"POST", "/api/reading-lists"}, {"PATCH", "/api/reading-lists/1"},
		{"POST", "/api/reading-lists/1/items"}, {"PUT", "/api/reading-lists/1/order"},
		{"POST", "/api/saved-searches"}, {"PATCH", "/api/saved-searches/1"}, {"POST", "/api/search-history"},
	}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		rt := routes[int(route)%len(routes)]
		req := httptest.NewRequest(rt.method, rt.path, bytes.NewReader(body))
		req.Header.Set("X-Test-User", "1")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", rt.method, rt.path, body, rec.Code, rec.Body)
		}
		if rec.Code < 300 && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s: answer is not JSON: %s", rt.method, rt.path, rec.Body)
		}
	})
}

// fuzzHandler is the members API on db for one user (id 1) that owns list 1 and
// saved search 1.
func fuzzHandler(tb testing.TB, db *store.DB) http.Handler {
	ctx := context.Background()
	var uid int64
	if err := db.QueryRowContext(ctx, db.Rebind(`INSERT INTO users (email, created_at, updated_at) VALUES (?, 0, 0) RETURNING id`), "fuzz@example.org").Scan(&uid); err != nil {
		tb.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO reading_lists (user_id, name, created_at, updated_at) VALUES (?, 'L', 0, 0)`), uid); err != nil {
		tb.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO saved_searches (user_id, name, path, params, created_at, updated_at) VALUES (?, 'S', '/search', '{}', 0, 0)`), uid); err != nil {
		tb.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	return httpx.Serve(authtest.MembersRoom(members.New(db, headerUser{}, quiet), nil, quiet))
}
