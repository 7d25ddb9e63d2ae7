package content

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

type httpResult struct {
	status int
	header http.Header
	body   []byte
}

func (r httpResult) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object (%d): %s", r.status, r.body)
	}
	return m
}

func get(t *testing.T, base, pathAndQuery string) httpResult {
	t.Helper()
	resp, err := http.Get(base + pathAndQuery)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return httpResult{resp.StatusCode, resp.Header, b}
}

func searchURL(ref string, kv ...string) string {
	q := url.Values{}
	if ref != "" {
		q.Set("ref", ref)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Add(kv[i], kv[i+1])
	}
	return APIPath + "/documents/search?" + q.Encode()
}

func TestHTTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		svc := newFixtureService(t, db, Options{PublicURL: "https://lineage.example/"})
		srv := httptest.NewServer(handler(svc))
		defer srv.Close()
		ref := masterRef(t, svc)

		t.Run("Repository", func(t *testing.T) {
			for _, p := range []string{APIPath, APIPath + "/", APIPath + "?x-c=js-7.22.0"} {
				r := get(t, srv.URL, p)
				if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
					t.Fatalf("%s: %d %s", p, r.status, r.body)
				}
			}
			m := get(t, srv.URL, APIPath).json(t)
			refs := m["refs"].([]any)
			master := refs[0].(map[string]any)
			if len(refs) != 1 || master["isMasterRef"] != true || master["ref"] != ref || master["id"] != "master" {
				t.Errorf("refs = %v", refs)
			}
			forms := m["forms"].(map[string]any)
			ev := forms["everything"].(map[string]any)
			if ev["action"] != "https://lineage.example/content/api/v2/documents/search" || ev["method"] != "GET" {
				t.Errorf("everything = %v", ev)
			}
			fields := ev["fields"].(map[string]any)
			if q := fields["q"].(map[string]any); q["multiple"] != true {
				t.Errorf("q field = %v", q)
			}
			if ps := fields["pageSize"].(map[string]any); ps["type"] != "Integer" || ps["default"] != "20" {
				t.Errorf("pageSize field = %v", ps)
			}
			if _, ok := fields["access_token"]; ok {
				t.Error("public API lists an access_token field")
			}
			if m["integrationFieldsRef"] != nil || jsonOf(t, m["bookmarks"]) != "{}" || jsonOf(t, m["experiments"]) != `{"draft":[],"running":[]}` {
				t.Errorf("integrationFieldsRef/bookmarks/experiments = %v %v %v", m["integrationFieldsRef"], m["bookmarks"], m["experiments"])
			}
			if types := m["types"].(map[string]any); types["news_item"] != "News item" || len(types) != 4 {
				t.Errorf("types = %v", types)
			}
			if got := jsonOf(t, m["tags"]); got != `["events","governance","news"]` {
				t.Errorf("tags = %s", got)
			}
			langs := jsonOf(t, m["languages"])
			if !strings.Contains(langs, `{"id":"en-gb","is_master":true,"name":"English - Great Britain"}`) || !strings.Contains(langs, `"fr-fr"`) {
				t.Errorf("languages = %s", langs)
			}
			for _, k := range []string{"oauth_initiate", "oauth_token", "version", "license"} {
				if _, ok := m[k]; !ok {
					t.Errorf("no %s", k)
				}
			}
			tagsForm := forms["tags"].(map[string]any)
			action := tagsForm["action"].(string)
			if !strings.HasPrefix(action, "https://lineage.example/") {
				t.Fatalf("tags action %q", action)
			}
			tags := get(t, srv.URL, strings.TrimPrefix(action, "https://lineage.example"))
			if tags.status != 200 || string(tags.body) != `["events","governance","news"]` {
				t.Errorf("tags form: %d %s", tags.status, tags.body)
			}
		})

		t.Run("ActionFromRequestHost", func(t *testing.T) {
			s2 := httptest.NewServer(handler(New(db, Options{})))
			defer s2.Close()
			m := get(t, s2.URL, APIPath).json(t)
			ev := m["forms"].(map[string]any)["everything"].(map[string]any)
			if ev["action"] != s2.URL+APIPath+"/documents/search" {
				t.Errorf("action = %v", ev["action"])
			}
		})

		t.Run("Search", func(t *testing.T) {
			r := get(t, srv.URL, searchURL(ref, "q", `[[at(document.type, "page")]]`, "q", `[[at(my.page.uid, "home")]]`,
				"lang", "*", "pageSize", "1", "routes", `[{"type":"page","path":"/:uid"}]`, "x-c", "js-7.22.0", "x-d", "1",
				"integrationFieldsRef", "x", "referer", "y"))
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			m := r.json(t)
			for _, k := range []string{"page", "results_per_page", "results_size", "total_results_size", "total_pages", "next_page", "prev_page", "results", "version", "license"} {
				if _, ok := m[k]; !ok {
					t.Errorf("envelope has no %s", k)
				}
			}
			if m["total_results_size"] != 2.0 || m["results_size"] != 1.0 || m["prev_page"] != nil {
				t.Errorf("envelope = %v", m)
			}
			next, _ := m["next_page"].(string)
			u, err := url.Parse(next)
			if err != nil || !strings.HasPrefix(next, "https://lineage.example/content/api/v2/documents/search?") || u.Query().Get("page") != "2" || len(u.Query()["q"]) != 2 {
				t.Errorf("next_page = %q", next)
			}
			doc := m["results"].([]any)[0].(map[string]any)
			if doc["url"] != "/home" || doc["first_publication_date"] != "2024-01-01T09:00:00+0000" {
				t.Errorf("doc = %v", doc)
			}
			if cc := r.header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
				t.Errorf("cache-control %q", cc)
			}
		})

		t.Run("GetAllFollowsNextPage", func(t *testing.T) {
			// dangerouslyGetAll asks page+1 while next_page is set; it must end.
			var all []string
			for page := 1; page < 20; page++ {
				m := get(t, srv.URL, searchURL(ref, "q", `[[at(document.type, "news_item")]]`, "pageSize", "3", "page", fmt.Sprint(page))).json(t)
				for _, d := range m["results"].([]any) {
					all = append(all, d.(map[string]any)["id"].(string))
				}
				if int(m["page"].(float64)) != page {
					t.Fatalf("page = %v", m["page"])
				}
				if m["next_page"] == nil {
					break
				}
			}
			if strings.Join(all, ",") != "n1,n2,n3,n4" {
				t.Errorf("getAll = %v", all)
			}
		})

		t.Run("Errors", func(t *testing.T) {
			tests := []struct {
				name     string
				path     string
				status   int
				errType  string
				contains string
			}{
				{"missing ref", searchURL(""), 400, "api_validation_error", "ref"},
				{"unknown field", searchURL(ref, "colour", "red"), 400, "api_validation_error", "Unknown field 'colour'"},
				{"bad q", searchURL(ref, "q", `[[at(document.type "page")]]`), 400, "parsing-error", "expected ',' or ')'"},
				{"bad orderings", searchURL(ref, "orderings", "[document.nope]"), 400, "parsing-error", "document.nope"},
				{"bad page", searchURL(ref, "page", "two"), 400, "api_validation_error", "page must be an integer"},
				{"page zero", searchURL(ref, "page", "0"), 400, "api_validation_error", "page"},
				{"bad pageSize", searchURL(ref, "pageSize", "-3"), 400, "api_validation_error", "pageSize"},
				{"bad routes", searchURL(ref, "routes", "nope"), 400, "parsing-error", "routes"},
				{"unknown ref", searchURL("nope"), 404, "api_notfound_error", "Master ref is: " + ref},
				{"unknown type is empty", searchURL(ref, "q", `[[at(my.country.uid, "ie")]]`), 200, "", `"results":[]`},
				{"bad query string", APIPath + "/documents/search?ref=" + ref + "&q=%zz", 400, "api_validation_error", "Malformed"},
			}
			for _, tt := range tests {
				r := get(t, srv.URL, tt.path)
				if r.status != tt.status || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
					t.Errorf("%s: status %d (%s), want %d", tt.name, r.status, r.body, tt.status)
					continue
				}
				if !strings.Contains(string(r.body), tt.contains) {
					t.Errorf("%s: body %s does not contain %q", tt.name, r.body, tt.contains)
				}
				if tt.errType != "" {
					if m := r.json(t); m["type"] != tt.errType || m["message"] == "" {
						t.Errorf("%s: body %s, want type %s", tt.name, r.body, tt.errType)
					}
				}
			}
			// The parsing-error body carries line, column, the q index and the location.
			m := get(t, srv.URL, searchURL(ref, "q", `[[at(document.type, "page")]]`, "q", `[[at(my.page.uid, "home")][at(document.colour, "x")]]`)).json(t)
			if m["line"] != 1.0 || m["column"] != 31.0 || m["id"] != 2.0 || m["location"] != "query" {
				t.Errorf("parsing error body = %v", m)
			}
			if r := get(t, srv.URL, searchURL(ref)); r.status != 200 {
				t.Errorf("POST-less GET with only a ref: %d", r.status)
			}
			for _, p := range []string{searchURL(ref), APIPath, APIPath + "/"} {
				resp, err := http.Post(srv.URL+p, "text/plain", nil)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") == "" {
					t.Errorf("POST %s = %d", p, resp.StatusCode)
				}
			}
			if r := get(t, srv.URL, APIPath+"/documents/nope"); r.status != 404 || r.json(t)["type"] != "api_notfound_error" {
				t.Errorf("unknown endpoint: %d %s", r.status, r.body)
			}
		})

		t.Run("RefErrors", func(t *testing.T) {
			old := ref
			newRef, err := svc.Publish(context.Background(), Document{ID: "x1", UID: "x1", Type: "page", Lang: "en-gb"})
			if err != nil {
				t.Fatal(err)
			}
			r := get(t, srv.URL, searchURL(old))
			m := r.json(t)
			if r.status != 410 || !strings.HasSuffix(m["message"].(string), "Master ref is: "+newRef) {
				t.Errorf("old ref: %d %s", r.status, r.body)
			}
			token, _ := svc.CreatePreview(context.Background(), time.Nanosecond)
			time.Sleep(2 * time.Millisecond)
			r = get(t, srv.URL, searchURL(token))
			if m := r.json(t); r.status != 404 || m["type"] != "api_security_error" || m["message"] != "This preview token has expired" {
				t.Errorf("expired preview: %d %s", r.status, r.body)
			}
			token, _ = svc.CreatePreview(context.Background(), time.Hour)
			r = get(t, srv.URL, searchURL(token))
			if r.status != 200 || !strings.Contains(r.header.Get("Cache-Control"), "no-store") {
				t.Errorf("preview: %d %q", r.status, r.header.Get("Cache-Control"))
			}
			ref = newRef
		})

		t.Run("Limits", func(t *testing.T) {
			var b strings.Builder
			b.WriteString(APIPath + "/documents/search?ref=" + ref)
			for i := 0; i < 1000; i++ {
				b.WriteString("&q=%5B%5D")
			}
			r := get(t, srv.URL, b.String())
			if m := r.json(t); r.status != 400 || !strings.Contains(m["message"].(string), "1000") {
				t.Errorf("1001 keys: %d %s", r.status, r.body)
			}
			long := APIPath + "/documents/search?ref=" + ref + "&graphQuery=" + strings.Repeat("a", 40<<10)
			if r := get(t, srv.URL, long); r.status != http.StatusRequestURITooLong || r.json(t)["message"] == nil {
				t.Errorf("long query: %d %s", r.status, r.body)
			}
			long = APIPath + "?x=" + strings.Repeat("a", 40<<10)
			if r := get(t, srv.URL, long); r.status != http.StatusRequestURITooLong {
				t.Errorf("long query on /api/v2: %d", r.status)
			}
			// A long ref is just an unknown ref.
			if r := get(t, srv.URL, searchURL(strings.Repeat("r", 5000))); r.status != 404 {
				t.Errorf("long ref: %d", r.status)
			}
		})

		t.Run("Private", func(t *testing.T) {
			priv := New(db, Options{AccessToken: "s3cret"})
			ps := httptest.NewServer(handler(priv))
			defer ps.Close()
			r := get(t, ps.URL, APIPath)
			if r.status != 401 || string(r.body) != `{"error":"Invalid access token"}` {
				t.Errorf("api without token: %d %s", r.status, r.body)
			}
			if r := get(t, ps.URL, APIPath+"?access_token=wrong"); r.status != 401 {
				t.Errorf("api with a wrong token: %d", r.status)
			}
			r = get(t, ps.URL, APIPath+"?access_token=s3cret")
			if r.status != 200 {
				t.Fatalf("api with token: %d %s", r.status, r.body)
			}
			f := r.json(t)["forms"].(map[string]any)["everything"].(map[string]any)["fields"].(map[string]any)
			if at := f["access_token"].(map[string]any); at["default"] != "s3cret" {
				t.Errorf("access_token field = %v", at)
			}
			r = get(t, ps.URL, searchURL(ref))
			if m := r.json(t); r.status != 401 || m["type"] != "api_security_error" || m["message"] != "Invalid access token" {
				t.Errorf("search without token: %d %s", r.status, r.body)
			}
			if r := get(t, ps.URL, searchURL(ref, "access_token", "s3cret")); r.status != 200 {
				t.Errorf("search with token: %d %s", r.status, r.body)
			}
			token, _ := priv.CreatePreview(context.Background(), time.Hour)
			if r := get(t, ps.URL, searchURL(token)); r.status != 200 {
				t.Errorf("preview without token: %d %s", r.status, r.body)
			}
			if r := get(t, ps.URL, APIPath+"/tags"); r.status != 401 {
				t.Errorf("tags without token: %d", r.status)
			}
		})
	})
}

func TestMedia(t *testing.T) {
	dataDir := t.TempDir()
	media := MediaDir(dataDir)
	os.MkdirAll(filepath.Join(media, "scans"), 0o755)
	os.WriteFile(filepath.Join(media, "church.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), 0o644)
	os.WriteFile(filepath.Join(media, "scans", "p1.png"), []byte("\x89PNG\r\n\x1a\n"), 0o644)
	os.WriteFile(filepath.Join(media, "page.html"), []byte("<script>alert(1)</script>"), 0o644)
	os.WriteFile(filepath.Join(dataDir, "secret.txt"), []byte("SECRET"), 0o644)
	os.WriteFile(filepath.Join(dataDir, "files", "secret.txt"), []byte("SECRET"), 0o644)
	os.Symlink(filepath.Join(dataDir, "secret.txt"), filepath.Join(media, "link.txt"))

	svc := New(storetest.SQLite(t), Options{DataDir: dataDir})
	srv := httptest.NewServer(handler(svc))
	defer srv.Close()

	r := get(t, srv.URL, "/media/church.svg?auto=format&w=640&dpr=2")
	if r.status != 200 || r.header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(r.body), "<svg") {
		t.Fatalf("svg: %d %q", r.status, r.header.Get("Content-Type"))
	}
	if cc := r.header.Get("Cache-Control"); !strings.Contains(cc, "max-age=") || r.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("headers %v", r.header)
	}
	if !strings.Contains(r.header.Get("Content-Security-Policy"), "sandbox") {
		t.Error("svg served without a sandboxing CSP")
	}
	if r := get(t, srv.URL, "/media/scans/p1.png"); r.status != 200 || r.header.Get("Content-Type") != "image/png" {
		t.Errorf("nested png: %d %q", r.status, r.header.Get("Content-Type"))
	}
	if r := get(t, srv.URL, "/media/page.html"); r.header.Get("Content-Disposition") != "attachment" {
		t.Errorf("html media served inline: %v", r.header)
	}
	for _, p := range []string{
		"/media/", "/media/scans", "/media/scans/", "/media/nope.png",
		"/media/../secret.txt", "/media/..%2fsecret.txt", "/media/%2e%2e/secret.txt", "/media/%2e%2e%2f%2e%2e%2fsecret.txt",
		"/media/scans/..%2f..%2fsecret.txt", "/media/link.txt", "/media/..%5csecret.txt", "/media//etc/passwd",
	} {
		r := get(t, srv.URL, p)
		if r.status != 404 || strings.Contains(string(r.body), "SECRET") {
			t.Errorf("%s: %d %q", p, r.status, r.body)
		}
	}
	// Directly, without a mux in front (the front door may mount it differently).
	for _, p := range []string{"/media/../secret.txt", "/media/../../secret.txt", "/media/scans/../../secret.txt"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/media/x", nil)
		req.URL.Path = p
		svc.ServeMedia(rec, req)
		if rec.Code != 404 {
			t.Errorf("direct %s: %d", p, rec.Code)
		}
	}
	// HEAD works and sends no body.
	resp, err := http.Head(srv.URL + "/media/church.svg")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("HEAD: %v %v", resp, err)
	}
}
