package content

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/pagegen"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// studioRoom is the route table's studio room, as the tests serve it.
func studioRoom(s *Service) httpx.Room {
	return httpx.Room{
		Name:     "studio",
		Fallback: []string{StudioPrefix + "/"},
		Routes: []httpx.Route{
			{Pattern: "GET " + StudioPrefix + "/models", Handler: s.Staff(s.GetModels)},
			{Pattern: "GET " + StudioPrefix + "/models/{id}", Handler: s.Staff(s.GetModel)},
			{Pattern: "PUT " + StudioPrefix + "/models/{id}", Handler: s.Admin(s.PutModel)},
			{Pattern: "DELETE " + StudioPrefix + "/models/{id}", Handler: s.Admin(s.DeleteModel)},
			{Pattern: "GET " + StudioPrefix + "/slices/{id}", Handler: s.Staff(s.GetSlice)},
			{Pattern: "PUT " + StudioPrefix + "/slices/{id}", Handler: s.Admin(s.PutSlice)},
			{Pattern: "DELETE " + StudioPrefix + "/slices/{id}", Handler: s.Admin(s.DeleteSlice)},
			{Pattern: "GET " + StudioPrefix + "/documents", Handler: s.Staff(s.ListStudioDocuments)},
			{Pattern: "POST " + StudioPrefix + "/documents", Handler: s.Staff(s.PostDocument)},
			{Pattern: "GET " + StudioPrefix + "/documents/{id}", Handler: s.Staff(s.GetStudioDocument)},
			{Pattern: "PUT " + StudioPrefix + "/documents/{id}", Handler: s.Staff(s.PutDocument)},
			{Pattern: "POST " + StudioPrefix + "/documents/{id}/duplicate", Handler: s.Staff(s.PostDuplicate)},
			{Pattern: "POST " + StudioPrefix + "/documents/{id}/publish", Handler: s.Staff(s.PostPublish)},
			{Pattern: "POST " + StudioPrefix + "/documents/{id}/unpublish", Handler: s.Staff(s.PostUnpublish)},
			{Pattern: "POST " + StudioPrefix + "/documents/{id}/archive", Handler: s.Staff(s.PostArchive)},
			{Pattern: "POST " + StudioPrefix + "/documents/{id}/unarchive", Handler: s.Staff(s.PostUnarchive)},
			{Pattern: "GET " + StudioPrefix + "/documents/{id}/versions", Handler: s.Staff(s.GetVersions)},
			{Pattern: "GET " + StudioPrefix + "/documents/{id}/versions/{vid}", Handler: s.Staff(s.GetVersionHandler)},
			{Pattern: "POST " + StudioPrefix + "/documents/{id}/versions/{vid}/restore", Handler: s.Staff(s.PostRestore)},
			{Pattern: "GET " + StudioPrefix + "/uid-check", Handler: s.Staff(s.GetUIDCheck)},
			{Pattern: "GET " + StudioPrefix + "/links", Handler: s.Staff(s.GetLinks)},
			{Pattern: "GET " + StudioPrefix + "/tags", Handler: s.Staff(s.GetStudioTags)},
			{Pattern: "POST " + StudioPrefix + "/preview", Handler: s.Staff(s.PostPreview)},
			{Pattern: "GET " + StudioPrefix + "/releases", Handler: s.Staff(s.GetReleases)},
			{Pattern: "POST " + StudioPrefix + "/releases", Handler: s.Staff(s.PostRelease)},
			{Pattern: "GET " + StudioPrefix + "/releases/{id}", Handler: s.Staff(s.GetReleaseHandler)},
			{Pattern: "PATCH " + StudioPrefix + "/releases/{id}", Handler: s.Staff(s.PatchRelease)},
			{Pattern: "DELETE " + StudioPrefix + "/releases/{id}", Handler: s.Staff(s.DeleteReleaseHandler)},
			{Pattern: "PUT " + StudioPrefix + "/releases/{id}/documents/{doc}", Handler: s.Staff(s.PutReleaseDocument)},
			{Pattern: "DELETE " + StudioPrefix + "/releases/{id}/documents/{doc}", Handler: s.Staff(s.DeleteReleaseDocument)},
			{Pattern: "POST " + StudioPrefix + "/releases/{id}/publish", Handler: s.Staff(s.PostPublishRelease)},
			{Pattern: "GET " + StudioPrefix + "/media", Handler: s.Staff(s.GetMediaList)},
			{Pattern: "POST " + StudioPrefix + "/media", Handler: s.Staff(s.PostMedia)},
			{Pattern: "GET " + StudioPrefix + "/media/{id}", Handler: s.Staff(s.GetMediaItem)},
			{Pattern: "PATCH " + StudioPrefix + "/media/{id}", Handler: s.Staff(s.PatchMedia)},
			{Pattern: "GET " + StudioPrefix + "/webhooks", Handler: s.Admin(s.GetWebhooks)},
			{Pattern: "POST " + StudioPrefix + "/webhooks/test", Handler: s.Admin(s.PostTestWebhooks)},
		},
	}
}

// The test's accounts, chosen by the X-Test-Account header (the session middleware's
// part is cmd/lineage's, tested there).
var testAccounts = map[string]Editor{
	"pat":    {ID: 1, Name: "Pat Editor", Staff: true},
	"ada":    {ID: 2, Name: "Ada Admin", Staff: true, Admin: true},
	"sam":    {ID: 3, Name: "Sam Editor", Staff: true},
	"member": {ID: 4, Name: "Mo Member"},
}

func testEditor(r *http.Request) Editor { return testAccounts[r.Header.Get("X-Test-Account")] }

// clock is a fake clock the tests move by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

type studioEnv struct {
	t     *testing.T
	db    *store.DB
	svc   *Service
	h     http.Handler
	clock *clock
	audit []string
	mu    sync.Mutex
}

func newStudioEnv(t *testing.T, db *store.DB, opts Options) *studioEnv {
	e := &studioEnv{t: t, db: db, clock: &clock{now: time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)}}
	opts.Now = e.clock.Now
	opts.Editor = testEditor
	opts.RefCheckInterval = -1 // another instance's publish is seen at once
	if opts.DataDir == "" {
		opts.DataDir = t.TempDir()
	}
	opts.Audit = func(ctx context.Context, actor int64, action, subject string, before, after any) {
		e.mu.Lock()
		e.audit = append(e.audit, fmt.Sprintf("%d %s %s", actor, action, subject))
		e.mu.Unlock()
	}
	e.svc = New(db, opts)
	e.h = httpx.Serve(studioRoom(e.svc), room(e.svc))
	return e
}

// call sends a request as an account and decodes the JSON answer.
func (e *studioEnv) call(who, method, path string, body any) (int, map[string]any) {
	e.t.Helper()
	var rd *bytes.Reader
	switch b := body.(type) {
	case nil:
		rd = bytes.NewReader(nil)
	case string:
		rd = bytes.NewReader([]byte(b))
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("X-Test-Account", who)
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, req)
	var out map[string]any
	if w.Body.Len() > 0 {
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			e.t.Fatalf("%s %s: %d, not JSON: %s", method, path, w.Code, w.Body)
		}
	}
	return w.Code, out
}

func (e *studioEnv) must(want int, who, method, path string, body any) map[string]any {
	e.t.Helper()
	code, out := e.call(who, method, path, body)
	if code != want {
		e.t.Fatalf("%s %s as %s: %d, want %d: %v", method, path, who, code, want, out)
	}
	return out
}

func fieldErrors(out map[string]any) map[string]any {
	m, _ := out["errors"].(map[string]any)
	return m
}

func rev(d map[string]any) int64 { return int64(d["revision"].(float64)) }

const newsData = `{
	"title":[{"type":"heading1","text":"The 1921 census is open","spans":[]}],
	"summary":[{"type":"paragraph","text":"Come to the library to search it.","spans":[{"start":0,"end":4,"type":"strong"}]}],
	"date":"2026-11-26",
	"image":{"id":"x","url":"/media/census.png","alt":"A census page","dimensions":{"width":10,"height":10}},
	"body":[{"slice_type":"hero","slice_label":null,"id":"hero$1","variation":"default","version":"initial",
		"primary":{"title":[{"type":"heading1","text":"Census day","spans":[]}],"text":[],
			"image":{"url":"/media/census.png","alt":"A census page"},"link":{"link_type":"Web","url":"https://example.org/"},"link_label":"Read more"},
		"items":[]}]
}`

func TestModelFilesParse(t *testing.T) {
	set, err := fileModels()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"home", "news_item", "feature_item", "event", "page", "newsletter", "fhwuifhe", "cwbhvwt", "dheyenbvu"} {
		if set.types[id] == nil {
			t.Errorf("no model for the built-in type %s", id)
		}
	}
	for _, id := range []string{"rich_text", "hero", "gallery", "video", "grid"} {
		if set.slices[id] == nil {
			t.Errorf("no slice model %s", id)
		}
	}
	for id, m := range set.types {
		for _, f := range m.fields() {
			for sid := range f.Config.Choices {
				if set.slices[sid] == nil {
					t.Errorf("%s: slice zone names %s, which has no model", id, sid)
				}
			}
		}
	}
}

// Every document of the demo set is what the models describe: the studio can open,
// save and publish each of them unchanged.
func TestDemoDocumentsValidate(t *testing.T) {
	set, err := fileModels()
	if err != nil {
		t.Fatal(err)
	}
	docs, err := readDocumentDir(filepath.Join("..", "..", "demo", "content"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 50 {
		t.Fatalf("only %d demo documents", len(docs))
	}
	ids := map[string]bool{}
	for _, d := range docs {
		ids[d.ID] = true
	}
	for _, d := range docs {
		m := set.types[d.Type]
		if m == nil {
			t.Errorf("%s: no model for type %s", d.ID, d.Type)
			continue
		}
		fe, links := ValidateDocument(m, set.slices, d.UID, d.Tags, d.Data, true)
		if err := fe.Err(); err != nil {
			t.Errorf("%s (%s): %v", d.ID, d.Type, err.(*httpx.Error).Fields)
		}
		for _, l := range links {
			if !ids[l.id] {
				t.Errorf("%s: %s links to %s, not in the demo set", d.ID, l.path, l.id)
			}
		}
	}
}

// Bad documents, each refused with the field path an editor sees it next to.
func TestValidateDocumentBadInput(t *testing.T) {
	set, err := fileModels()
	if err != nil {
		t.Fatal(err)
	}
	news := set.types["news_item"]
	page := set.types["page"]
	cases := []struct {
		name    string
		m       *Model
		uid     string
		tags    []string
		data    string
		publish bool
		field   string
	}{
		{"unknown field", news, "a", nil, `{"colour":"red"}`, false, "data.colour"},
		{"uid in data", news, "a", nil, `{"uid":"x"}`, false, "data.uid"},
		{"title not a list", news, "a", nil, `{"title":"x"}`, false, "data.title"},
		{"block type not allowed", news, "a", nil, `{"title":[{"type":"paragraph","text":"x","spans":[]}]}`, false, "data.title.0.type"},
		{"two blocks in a single field", news, "a", nil, `{"title":[{"type":"heading1","text":"x","spans":[]},{"type":"heading1","text":"y","spans":[]}]}`, false, "data.title"},
		{"span out of the text", news, "a", nil, `{"summary":[{"type":"paragraph","text":"abc","spans":[{"start":1,"end":9,"type":"em"}]}]}`, false, "data.summary.0.spans.0"},
		{"span type not allowed", news, "a", nil, `{"summary":[{"type":"paragraph","text":"abc","spans":[{"start":0,"end":1,"type":"label","data":{"label":"x"}}]}]}`, false, "data.summary.0.spans.0.type"},
		{"hyperlink without target", news, "a", nil, `{"summary":[{"type":"paragraph","text":"abc","spans":[{"start":0,"end":1,"type":"hyperlink"}]}]}`, false, "data.summary.0.spans.0.data"},
		{"javascript link", news, "a", nil, `{"summary":[{"type":"paragraph","text":"abc","spans":[{"start":0,"end":1,"type":"hyperlink","data":{"link_type":"Web","url":"javascript:alert(1)"}}]}]}`, false, "data.summary.0.spans.0.data.url"},
		{"bad date", news, "a", nil, `{"date":"2026-13-45"}`, false, "data.date"},
		{"image without alt", news, "a", nil, `{"image":{"url":"/media/x.png","alt":""}}`, false, "data.image.alt"},
		{"image from elsewhere", news, "a", nil, `{"image":{"url":"file:///etc/passwd","alt":"x"}}`, false, "data.image.url"},
		{"unknown slice", news, "a", nil, `{"body":[{"slice_type":"carousel","primary":{}}]}`, false, "data.body.0.slice_type"},
		{"unknown variation", news, "a", nil, `{"body":[{"slice_type":"hero","variation":"wide","primary":{}}]}`, false, "data.body.0.variation"},
		{"slice image without alt", news, "a", nil, `{"body":[{"slice_type":"hero","variation":"default","primary":{"image":{"url":"/media/x.png"}}}]}`, false, "data.body.0.primary.image.alt"},
		{"gallery item unknown field", news, "a", nil, `{"body":[{"slice_type":"gallery","primary":{},"items":[{"picture":{}}]}]}`, false, "data.body.0.items.0.picture"},
		{"video not https", news, "a", nil, `{"body":[{"slice_type":"video","primary":{"video":{"embed_url":"ftp://x"}}}]}`, false, "data.body.0.primary.video.embed_url"},
		{"parent to a web page", page, "a", nil, `{"parent":{"link_type":"Web","url":"https://x.org"}}`, false, "data.parent"},
		{"bad uid", news, "Not OK", nil, `{}`, false, "uid"},
		{"uid too long", news, strings.Repeat("a", 101), nil, `{}`, false, "uid"},
		{"empty tag", news, "a", []string{" "}, `{}`, false, "tags.0"},
		{"duplicate tag", news, "a", []string{"x", "x"}, `{}`, false, "tags.1"},
		{"not an object", news, "a", nil, `[1]`, false, "data"},
		{"required title on publish", news, "a", nil, `{}`, true, "data.title"},
		{"uid required on publish", news, "", nil, newsData, true, "uid"},
		{"rich text image without alt", page, "a", nil, `{"body":[{"slice_type":"rich_text","primary":{"content":[{"type":"image","url":"/media/x.png","alt":""}]}}]}`, false, "data.body.0.primary.content.0.alt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fe, _ := ValidateDocument(c.m, set.slices, c.uid, c.tags, []byte(c.data), c.publish)
			err := fe.Err()
			if err == nil {
				t.Fatal("accepted")
			}
			if _, ok := err.(*httpx.Error).Fields[c.field]; !ok {
				t.Fatalf("no error at %s: %v", c.field, err.(*httpx.Error).Fields)
			}
		})
	}
	// A draft may leave required fields empty; publishing may not.
	if fe, _ := ValidateDocument(news, set.slices, "", nil, []byte(`{}`), false); fe.Err() != nil {
		t.Errorf("an empty draft is refused: %v", fe.Err())
	}
	if fe, _ := ValidateDocument(news, set.slices, "census", []string{"news"}, []byte(newsData), true); fe.Err() != nil {
		t.Errorf("a complete news item is refused: %v", fe.Err())
	}
}

func TestParseModelBadInput(t *testing.T) {
	ok := `{"id":"x","label":"X","repeatable":true,"status":true,"json":{"Main":{"title":{"type":"Text","config":{"label":"T"}}}}}`
	if _, err := ParseModel([]byte(ok)); err != nil {
		t.Fatalf("a good model is refused: %v", err)
	}
	cases := map[string]struct{ body, field string }{
		"not JSON":       {`{`, "json"},
		"bad id":         {strings.Replace(ok, `"id":"x"`, `"id":"X Y"`, 1), "id"},
		"no label":       {strings.Replace(ok, `"label":"X"`, `"label":""`, 1), "label"},
		"no tabs":        {`{"id":"x","label":"X","json":{}}`, "json"},
		"unknown type":   {strings.Replace(ok, `"type":"Text"`, `"type":"Hologram"`, 1), "json.Main.title.type"},
		"bad field id":   {strings.Replace(ok, `"title":`, `"ti tle":`, 1), "json.Main.ti tle"},
		"rich both":      {strings.Replace(ok, `"type":"Text","config":{"label":"T"}`, `"type":"StructuredText","config":{"single":"heading1","multi":"paragraph"}`, 1), "json.Main.title.config"},
		"rich bad token": {strings.Replace(ok, `"type":"Text","config":{"label":"T"}`, `"type":"StructuredText","config":{"multi":"paragraph,blink"}`, 1), "json.Main.title.config"},
		"bad select":     {strings.Replace(ok, `"type":"Text","config":{"label":"T"}`, `"type":"Link","config":{"select":"ftp"}`, 1), "json.Main.title.config.select"},
		"empty options":  {strings.Replace(ok, `"type":"Text","config":{"label":"T"}`, `"type":"Select","config":{}`, 1), "json.Main.title.config.options"},
		"nested group":   {strings.Replace(ok, `"type":"Text","config":{"label":"T"}`, `"type":"Group","config":{"fields":{"g":{"type":"Group","config":{"fields":{"a":{"type":"Text"}}}}}}`, 1), "json.Main.title.config.fields.g"},
		"two uids":       {`{"id":"x","label":"X","json":{"A":{"u":{"type":"UID"}},"B":{"v":{"type":"UID"}}}}`, "json"},
		"field twice":    {`{"id":"x","label":"X","json":{"A":{"u":{"type":"Text"}},"B":{"u":{"type":"Text"}}}}`, "json.B.u"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ParseModel([]byte(c.body))
			he, okErr := err.(*httpx.Error)
			if !okErr {
				t.Fatalf("accepted or not a 422: %v", err)
			}
			if _, ok := he.Fields[c.field]; !ok {
				t.Fatalf("no error at %s: %v", c.field, he.Fields)
			}
		})
	}
	if _, err := ParseModel(bytes.Repeat([]byte(" "), maxModelBytes+1)); err == nil || err.(*httpx.Error).Code != httpx.ETOOLARGE {
		t.Errorf("an oversized model: %v", err)
	}
	if _, err := ParseSliceModel([]byte(`{"id":"s","type":"Slice","name":"S","variations":[]}`)); err == nil {
		t.Error("a legacy slice without variations is accepted")
	}
}

func TestStudioAccess(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newStudioEnv(t, db, Options{})
		for _, p := range []string{"/models", "/documents", "/releases", "/media", "/tags"} {
			if code, _ := e.call("", "GET", StudioPrefix+p, nil); code != 401 {
				t.Errorf("anonymous GET %s: %d", p, code)
			}
			if code, _ := e.call("member", "GET", StudioPrefix+p, nil); code != 403 {
				t.Errorf("member GET %s: %d", p, code)
			}
			if code, _ := e.call("pat", "GET", StudioPrefix+p, nil); code != 200 {
				t.Errorf("editor GET %s: %d", p, code)
			}
		}
		if code, _ := e.call("pat", "PUT", StudioPrefix+"/models/news_item", `{}`); code != 403 {
			t.Errorf("an editor changes a model: %d", code)
		}
		if code, out := e.call("pat", "GET", StudioPrefix+"/nothing", nil); code != 404 || out["message"] == nil {
			t.Errorf("unknown path: %d %v", code, out)
		}
	})
}

func TestStudioDocumentLifecycle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newStudioEnv(t, db, Options{})
		if _, err := e.svc.Import(ctx, []Document{{ID: "about", UID: "about", Type: "page", Lang: "en-gb",
			Data: json.RawMessage(`{"title":[{"type":"heading1","text":"About us","spans":[]}],"parent":{"link_type":"Any"},"body":[]}`)}}); err != nil {
			t.Fatal(err)
		}
		// Create: a draft, revision 1.
		d := e.must(201, "pat", "POST", StudioPrefix+"/documents", map[string]any{"type": "news_item", "uid": "census-1921", "tags": []string{"news"}})
		id := d["id"].(string)
		if d["status"] != StatusDraft || rev(d) != 1 || d["published"] != nil {
			t.Fatalf("created: %v", d)
		}
		if probs := d["problems"].(map[string]any); probs["data.title"] == nil {
			t.Errorf("an empty draft shows no problem with its title: %v", probs)
		}
		// A single type has one document per language.
		e.must(201, "pat", "POST", StudioPrefix+"/documents", map[string]any{"type": "home", "uid": "home"})
		if out := e.must(422, "pat", "POST", StudioPrefix+"/documents", map[string]any{"type": "home", "uid": "home-2"}); fieldErrors(out)["type"] == nil {
			t.Errorf("a second home page: %v", out)
		}
		// Unknown type, taken uid.
		out := e.must(422, "pat", "POST", StudioPrefix+"/documents", map[string]any{"type": "nonsense"})
		if fieldErrors(out)["type"] == nil {
			t.Errorf("unknown type: %v", out)
		}
		out = e.must(422, "sam", "POST", StudioPrefix+"/documents", map[string]any{"type": "news_item", "uid": "census-1921"})
		if fieldErrors(out)["uid"] == nil {
			t.Errorf("a taken uid: %v", out)
		}
		// Save (autosave) with the revision; a stale one is a 409 and writes nothing.
		saved := e.must(200, "pat", "PUT", StudioPrefix+"/documents/"+id, map[string]any{"revision": 1, "uid": "census-1921", "tags": []string{"news"}, "data": json.RawMessage(newsData)})
		if rev(saved) != 2 || saved["updated_by"].(map[string]any)["name"] != "Pat Editor" {
			t.Fatalf("saved: %v", saved)
		}
		out = e.must(409, "sam", "PUT", StudioPrefix+"/documents/"+id, map[string]any{"revision": 1, "uid": "census-1921", "data": map[string]any{}})
		if !strings.Contains(out["message"].(string), "Pat Editor") {
			t.Errorf("the conflict does not say who saved: %v", out)
		}
		// A bad save is a 422 with field paths and stores nothing.
		bad := strings.Replace(newsData, `"alt":"A census page","dimensions"`, `"alt":"","dimensions"`, 1)
		out = e.must(422, "pat", "PUT", StudioPrefix+"/documents/"+id, map[string]any{"revision": 2, "uid": "census-1921", "data": json.RawMessage(bad)})
		if fieldErrors(out)["data.image.alt"] == nil {
			t.Errorf("image without alt: %v", out)
		}
		if got := e.must(200, "pat", "GET", StudioPrefix+"/documents/"+id, nil); rev(got) != 2 {
			t.Errorf("a refused save changed the revision: %v", got["revision"])
		}
		// A link to a document that does not exist is refused; to one that does, kept.
		withLink := strings.Replace(newsData, `"link":{"link_type":"Web","url":"https://example.org/"}`, `"link":{"link_type":"Document","id":"nowhere"}`, 1)
		out = e.must(422, "pat", "PUT", StudioPrefix+"/documents/"+id, map[string]any{"revision": 2, "uid": "census-1921", "data": json.RawMessage(withLink)})
		if fieldErrors(out)["data.body.0.primary.link"] == nil {
			t.Errorf("link to nowhere: %v", out)
		}
		withLink = strings.Replace(withLink, `"nowhere"`, `"about"`, 1)
		saved = e.must(200, "pat", "PUT", StudioPrefix+"/documents/"+id, map[string]any{"revision": 2, "uid": "census-1921", "tags": []string{"news", "census"}, "data": json.RawMessage(withLink)})
		if len(saved["problems"].(map[string]any)) != 0 {
			t.Errorf("a complete document has problems: %v", saved["problems"])
		}
		// Preview sees the draft; the master does not.
		pv := e.must(200, "pat", "POST", StudioPrefix+"/preview", map[string]any{"document_id": id})
		if !strings.HasPrefix(pv["url"].(string), "/preview?token=") || !strings.Contains(pv["url"].(string), "documentId="+id) {
			t.Errorf("preview: %v", pv)
		}
		if n := e.searchUID(ctx, pv["token"].(string), "census-1921"); n != 1 {
			t.Errorf("the preview sees %d documents", n)
		}
		if n := e.searchUID(ctx, "", "census-1921"); n != 0 {
			t.Errorf("the master sees the draft")
		}
		// Publish: the content API serves it.
		pub := e.must(200, "pat", "POST", StudioPrefix+"/documents/"+id+"/publish", map[string]any{"revision": 3})
		if pub["status"] != StatusPublished || pub["has_changes"] != false || pub["first_publication_date"] == nil {
			t.Fatalf("published: %v", pub)
		}
		if n := e.searchUID(ctx, "", "census-1921"); n != 1 {
			t.Fatalf("the master sees %d published documents", n)
		}
		// A new draft of a published document: has_changes, the site unchanged.
		changed := strings.Replace(withLink, "The 1921 census is open", "The 1921 census is now open", 1)
		saved = e.must(200, "sam", "PUT", StudioPrefix+"/documents/"+id, map[string]any{"revision": rev(pub), "uid": "census-1921", "tags": []string{"news"}, "data": json.RawMessage(changed)})
		if saved["status"] != StatusPublished || saved["has_changes"] != true {
			t.Errorf("draft over published: %v %v", saved["status"], saved["has_changes"])
		}
		// Lists: by type, status, tag, author, search.
		list := e.must(200, "pat", "GET", StudioPrefix+"/documents?type=news_item&status=published&q=census+now", nil)
		if list["total"].(float64) != 1 {
			t.Errorf("list: %v", list)
		}
		if l := e.must(200, "pat", "GET", StudioPrefix+"/documents?q=zebra", nil); l["total"].(float64) != 0 {
			t.Errorf("search zebra: %v", l)
		}
		if l := e.must(200, "pat", "GET", StudioPrefix+"/documents?author=3", nil); l["total"].(float64) != 1 {
			t.Errorf("by author: %v", l)
		}
		if l := e.must(200, "pat", "GET", StudioPrefix+"/documents?tag=news&type=page", nil); l["total"].(float64) != 0 {
			t.Errorf("tag and type: %v", l)
		}
		if out := e.must(422, "pat", "GET", StudioPrefix+"/documents?status=lost&page=0", nil); fieldErrors(out)["status"] == nil || fieldErrors(out)["page"] == nil {
			t.Errorf("bad list parameters: %v", out)
		}
		// uid check and link picker.
		c := e.must(200, "pat", "GET", StudioPrefix+"/uid-check?type=news_item&uid=census-1921", nil)
		if c["valid"] != true || c["available"] != false {
			t.Errorf("uid check of a taken uid: %v", c)
		}
		c = e.must(200, "pat", "GET", StudioPrefix+"/uid-check?type=news_item&uid=census-1921&id="+id, nil)
		if c["available"] != true {
			t.Errorf("a document's own uid is not available to it: %v", c)
		}
		c = e.must(200, "pat", "GET", StudioPrefix+"/uid-check?type=news_item&uid=Bad%20Uid", nil)
		if c["valid"] != false {
			t.Errorf("uid check of a bad uid: %v", c)
		}
		links := e.must(200, "pat", "GET", StudioPrefix+"/links?q=about", nil)["results"].([]any)
		if len(links) != 1 || links[0].(map[string]any)["id"] != "about" {
			t.Errorf("link picker: %v", links)
		}
		tags := e.must(200, "pat", "GET", StudioPrefix+"/tags", nil)["tags"].([]any)
		if fmt.Sprint(tags) != "[census news]" {
			t.Errorf("tags: %v", tags)
		}
		// Duplicate: a new draft with a free uid.
		dup := e.must(201, "pat", "POST", StudioPrefix+"/documents/"+id+"/duplicate", nil)
		if dup["uid"] != "census-1921-copy" || dup["status"] != StatusDraft || dup["id"] == id {
			t.Errorf("duplicate: %v %v %v", dup["uid"], dup["status"], dup["id"])
		}
		dup2 := e.must(201, "pat", "POST", StudioPrefix+"/documents/"+id+"/duplicate", nil)
		if dup2["uid"] != "census-1921-copy-2" {
			t.Errorf("second duplicate: %v", dup2["uid"])
		}
		// Unpublish keeps the content as the draft; archive hides it.
		cur := e.must(200, "pat", "GET", StudioPrefix+"/documents/"+id, nil)
		un := e.must(200, "pat", "POST", StudioPrefix+"/documents/"+id+"/unpublish", map[string]any{"revision": rev(cur)})
		if un["status"] != StatusDraft || !strings.Contains(string(mustJSON(un["data"])), "now open") {
			t.Errorf("unpublished: %v", un)
		}
		if n := e.searchUID(ctx, "", "census-1921"); n != 0 {
			t.Errorf("unpublished but still served")
		}
		e.must(409, "pat", "POST", StudioPrefix+"/documents/"+id+"/unpublish", nil)
		ar := e.must(200, "pat", "POST", StudioPrefix+"/documents/"+id+"/archive", nil)
		if ar["status"] != StatusArchived {
			t.Errorf("archived: %v", ar["status"])
		}
		if l := e.must(200, "pat", "GET", StudioPrefix+"/documents?type=news_item", nil); l["total"].(float64) != 2 {
			t.Errorf("the default list shows archived documents: %v", l["total"])
		}
		if l := e.must(200, "pat", "GET", StudioPrefix+"/documents?status=archived", nil); l["total"].(float64) != 1 {
			t.Errorf("archived list: %v", l["total"])
		}
		e.must(409, "pat", "POST", StudioPrefix+"/documents/"+id+"/publish", nil)
		e.must(200, "pat", "POST", StudioPrefix+"/documents/"+id+"/unarchive", nil)

		// History: every change with its author, newest first; restore an old one.
		vs := e.must(200, "pat", "GET", StudioPrefix+"/documents/"+id+"/versions", nil)["results"].([]any)
		var kinds []string
		for _, v := range vs {
			kinds = append(kinds, v.(map[string]any)["kind"].(string))
		}
		if want := "unarchived archived unpublished draft published draft"; strings.Join(kinds, " ") != want {
			t.Errorf("history: %v, want %s", kinds, want)
		}
		if a := vs[2].(map[string]any)["author"].(map[string]any); a["name"] != "Pat Editor" {
			t.Errorf("author: %v", a)
		}
		oldest := vs[len(vs)-1].(map[string]any)
		v := e.must(200, "pat", "GET", fmt.Sprintf("%s/documents/%s/versions/%d", StudioPrefix, id, int64(oldest["id"].(float64))), nil)
		if !strings.Contains(string(mustJSON(v["data"])), `"id":"about"`) || v["author"].(map[string]any)["name"] != "Pat Editor" {
			t.Errorf("the first version is not Pat's last autosave within ten minutes of creating it: %s", mustJSON(v))
		}
		cur = e.must(200, "pat", "GET", StudioPrefix+"/documents/"+id, nil)
		pubVersion := vs[4].(map[string]any)
		restored := e.must(200, "sam", "POST", fmt.Sprintf("%s/documents/%s/versions/%d/restore", StudioPrefix, id, int64(pubVersion["id"].(float64))), map[string]any{"revision": rev(cur)})
		if !strings.Contains(string(mustJSON(restored["data"])), "The 1921 census is open") {
			t.Errorf("restored: %s", mustJSON(restored["data"]))
		}
		e.must(409, "sam", "POST", fmt.Sprintf("%s/documents/%s/versions/%d/restore", StudioPrefix, id, int64(pubVersion["id"].(float64))), map[string]any{"revision": rev(cur)})
		e.must(404, "sam", "GET", StudioPrefix+"/documents/"+id+"/versions/999999", nil)
		e.must(404, "sam", "GET", StudioPrefix+"/documents/nope", nil)

		// A document body over the limit is a 413.
		huge := `{"revision":1,"data":{"location":"` + strings.Repeat("x", maxDocumentBytes) + `"}}`
		e.must(413, "pat", "PUT", StudioPrefix+"/documents/"+id, huge)

		e.mu.Lock()
		audit := strings.Join(e.audit, "\n")
		e.mu.Unlock()
		for _, want := range []string{"1 content.create content_document:" + id, "1 content.publish", "3 content.save", "1 content.archive", "3 content.restore"} {
			if !strings.Contains(audit, want) {
				t.Errorf("the audit hook was not told %q:\n%s", want, audit)
			}
		}
	})
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// searchUID counts the documents with uid that a ref (the master when "") sees.
func (e *studioEnv) searchUID(ctx context.Context, ref, uid string) int {
	e.t.Helper()
	if ref == "" {
		info, err := e.svc.Repository(ctx)
		if err != nil {
			e.t.Fatal(err)
		}
		ref = info.MasterRef
	}
	res, err := e.svc.Search(ctx, SearchParams{Ref: ref, Q: []string{`[[at(my.news_item.uid, "` + uid + `")]]`}})
	if err != nil {
		e.t.Fatal(err)
	}
	return res.TotalResultsSize
}

// Two editors saving from the same revision at once: exactly one wins.
func TestStudioConcurrentSaves(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newStudioEnv(t, db, Options{})
		d, err := e.svc.CreateDocument(ctx, testAccounts["pat"], DocumentInput{Type: "news_item", UID: "race"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		results := make([]error, 8)
		for i := range results {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				r := d.Revision
				_, results[i] = e.svc.SaveDocument(ctx, testAccounts["sam"], d.ID, DocumentInput{Revision: &r, UID: "race",
					Data: json.RawMessage(`{"date":"2026-01-0` + strconv.Itoa(i+1) + `"}`)})
			}(i)
		}
		wg.Wait()
		ok, conflicts := 0, 0
		for _, err := range results {
			var he *httpx.Error
			switch {
			case err == nil:
				ok++
			case asHTTP(err, &he) && he.Code == httpx.ECONFLICT:
				conflicts++
			default:
				t.Errorf("save: %v", err)
			}
		}
		if ok != 1 || conflicts != len(results)-1 {
			t.Errorf("%d saves won, %d conflicts", ok, conflicts)
		}
	})
}

func asHTTP(err error, he **httpx.Error) bool {
	e, ok := err.(*httpx.Error)
	*he = e
	return ok
}

func TestStudioModelsEditable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newStudioEnv(t, db, Options{})
		all := e.must(200, "pat", "GET", StudioPrefix+"/models", nil)
		if len(all["types"].([]any)) < 9 || len(all["slices"].([]any)) != 5 {
			t.Fatalf("models: %d types, %d slices", len(all["types"].([]any)), len(all["slices"].([]any)))
		}
		m := e.must(200, "pat", "GET", StudioPrefix+"/models/event", nil)
		if m["source"] != "file" || m["json"].(map[string]any)["Main"] == nil {
			t.Fatalf("event model: %v", m)
		}
		// An admin adds a field; the stored copy is in force and documents may use it.
		m["json"].(map[string]any)["Main"].(map[string]any)["price"] = map[string]any{"type": "Text", "config": map[string]any{"label": "Price"}}
		delete(m, "source")
		put := e.must(200, "ada", "PUT", StudioPrefix+"/models/event", m)
		if put["source"] != "custom" {
			t.Errorf("stored model: %v", put["source"])
		}
		e.must(201, "pat", "POST", StudioPrefix+"/documents", map[string]any{"type": "event", "uid": "fair", "data": map[string]any{"price": "£5"}})
		// Bad models are refused with field paths; an id other than the address too.
		out := e.must(422, "ada", "PUT", StudioPrefix+"/models/event", `{"id":"event","label":"Event","json":{"Main":{"x":{"type":"Nope"}}}}`)
		if fieldErrors(out)["json.Main.x.type"] == nil {
			t.Errorf("bad model: %v", out)
		}
		e.must(422, "ada", "PUT", StudioPrefix+"/models/event", `{"id":"page","label":"Event","json":{"Main":{"x":{"type":"Text"}}}}`)
		out = e.must(422, "ada", "PUT", StudioPrefix+"/models/event", `{"id":"event","label":"Event","json":{"Main":{"b":{"type":"Slices","config":{"choices":{"carousel":{"type":"SharedSlice"}}}}}}}`)
		if fieldErrors(out)["json.Main.b.config.choices.carousel"] == nil {
			t.Errorf("unknown slice: %v", out)
		}
		// Back to the file: the added field is gone again.
		reset := e.must(200, "ada", "DELETE", StudioPrefix+"/models/event", nil)
		if reset["source"] != "file" {
			t.Errorf("reset: %v", reset["source"])
		}
		out = e.must(422, "pat", "POST", StudioPrefix+"/documents", map[string]any{"type": "event", "uid": "fair-2", "data": map[string]any{"price": "£5"}})
		if fieldErrors(out)["data.price"] == nil {
			t.Errorf("a field of the dropped copy is still accepted: %v", out)
		}
		e.must(404, "ada", "DELETE", StudioPrefix+"/models/nothing", nil)
		// Slices likewise.
		sl := e.must(200, "pat", "GET", StudioPrefix+"/slices/hero", nil)
		delete(sl, "source")
		sl["name"] = "Big picture"
		if got := e.must(200, "ada", "PUT", StudioPrefix+"/slices/hero", sl); got["name"] != "Big picture" || got["source"] != "custom" {
			t.Errorf("slice: %v", got)
		}
	})
}

// A release scheduled for a time is published by the scheduler once the fake clock
// reaches it, exactly once even when two instances run the scheduler at the same time.
func TestReleasesScheduledExactlyOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newStudioEnv(t, db, Options{})
		other := New(db, Options{Now: e.clock.Now}) // a second instance on the same store
		pat := testAccounts["pat"]
		d, err := e.svc.CreateDocument(ctx, pat, DocumentInput{Type: "news_item", UID: "spring", Tags: []string{"news"}, Data: json.RawMessage(newsData)})
		if err != nil {
			t.Fatal(err)
		}
		at := e.clock.Now().Add(time.Hour)
		rel := e.must(201, "pat", "POST", StudioPrefix+"/releases", map[string]any{"label": "Spring news"})
		relID := rel["id"].(string)
		if rel["status"] != ReleaseOpen {
			t.Fatalf("release: %v", rel)
		}
		// An empty release can be neither scheduled nor published.
		if out := e.must(422, "pat", "PATCH", StudioPrefix+"/releases/"+relID, map[string]any{"scheduled_at": at.Format(time.RFC3339)}); fieldErrors(out)["documents"] == nil {
			t.Errorf("scheduling an empty release: %v", out)
		}
		e.must(422, "pat", "POST", StudioPrefix+"/releases/"+relID+"/publish", nil)
		e.must(200, "pat", "PUT", StudioPrefix+"/releases/"+relID+"/documents/"+d.ID, nil)
		rel = e.must(200, "pat", "PATCH", StudioPrefix+"/releases/"+relID, map[string]any{"scheduled_at": at.Format(time.RFC3339)})
		if rel["status"] != ReleaseScheduled || len(rel["documents"].([]any)) != 1 {
			t.Fatalf("scheduled: %v", rel)
		}
		if got := e.must(200, "pat", "GET", StudioPrefix+"/documents/"+d.ID, nil); got["status"] != StatusScheduled || len(got["releases"].([]any)) != 1 {
			t.Errorf("a document of a scheduled release: %v %v", got["status"], got["releases"])
		}
		// Not yet due.
		if n, err := e.svc.PublishDueReleases(ctx, e.clock.Now()); err != nil || n != 0 {
			t.Fatalf("before its time: %d %v", n, err)
		}
		if e.searchUID(ctx, "", "spring") != 0 {
			t.Fatal("published early")
		}
		// Due: both instances try at once; one publishes.
		e.clock.Add(time.Hour)
		info, _ := e.svc.Repository(ctx)
		before := info.MasterRef
		var wg sync.WaitGroup
		counts := make([]int, 4)
		errs := make([]error, 4)
		for i := range counts {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				svc := e.svc
				if i%2 == 1 {
					svc = other
				}
				counts[i], errs[i] = svc.PublishDueReleases(ctx, e.clock.Now())
			}(i)
		}
		wg.Wait()
		total := 0
		for i, n := range counts {
			if errs[i] != nil {
				t.Errorf("scheduler %d: %v", i, errs[i])
			}
			total += n
		}
		if total != 1 {
			t.Fatalf("the release was published %d times", total)
		}
		if e.searchUID(ctx, "", "spring") != 1 {
			t.Fatal("the release's document is not on the site")
		}
		var refs int
		db.QueryRowContext(ctx, db.Rebind("SELECT count(*) FROM content_refs WHERE kind = 'master' AND created_at >= ?"), e.clock.Now().Add(-time.Minute).UnixMilli()).Scan(&refs)
		if info, _ := e.svc.Repository(ctx); info.MasterRef == before || refs != 1 {
			t.Errorf("the master moved %d times", refs)
		}
		var published int
		db.QueryRowContext(ctx, db.Rebind("SELECT count(*) FROM content_versions WHERE document_id = ? AND kind = 'published'"), d.ID).Scan(&published)
		if published != 1 {
			t.Errorf("%d published versions", published)
		}
		rel = e.must(200, "pat", "GET", StudioPrefix+"/releases/"+relID, nil)
		if rel["status"] != ReleasePublished || rel["published_at"] == nil {
			t.Errorf("release after: %v", rel)
		}
		e.must(409, "pat", "POST", StudioPrefix+"/releases/"+relID+"/publish", nil)
		e.must(409, "pat", "DELETE", StudioPrefix+"/releases/"+relID, nil)
		if n, _ := e.svc.PublishDueReleases(ctx, e.clock.Now().Add(time.Hour)); n != 0 {
			t.Errorf("published again: %d", n)
		}

		// A release whose document cannot be published: scheduling it is refused, and
		// if the document breaks after scheduling, the due release fails with the reason.
		d2, err := e.svc.CreateDocument(ctx, pat, DocumentInput{Type: "news_item", UID: "unfinished"})
		if err != nil {
			t.Fatal(err)
		}
		rel2 := e.must(201, "pat", "POST", StudioPrefix+"/releases", map[string]any{"label": "Later"})
		rel2ID := rel2["id"].(string)
		e.must(200, "pat", "PUT", StudioPrefix+"/releases/"+rel2ID+"/documents/"+d2.ID, nil)
		out := e.must(422, "pat", "PATCH", StudioPrefix+"/releases/"+rel2ID, map[string]any{"scheduled_at": e.clock.Now().Add(time.Hour).Format(time.RFC3339)})
		if fieldErrors(out)["documents."+d2.ID+".data.title"] == nil {
			t.Errorf("scheduling an unfinished document: %v", out)
		}
		r2, _ := e.svc.readRow(ctx, db, d2.ID)
		revNow := r2.Revision
		if _, err := e.svc.SaveDocument(ctx, pat, d2.ID, DocumentInput{Revision: &revNow, UID: "unfinished", Data: json.RawMessage(newsData)}); err != nil {
			t.Fatal(err)
		}
		e.must(200, "pat", "PATCH", StudioPrefix+"/releases/"+rel2ID, map[string]any{"scheduled_at": e.clock.Now().Add(time.Hour).Format(time.RFC3339)})
		r2, _ = e.svc.readRow(ctx, db, d2.ID)
		revNow = r2.Revision
		if _, err := e.svc.SaveDocument(ctx, pat, d2.ID, DocumentInput{Revision: &revNow, UID: "unfinished", Data: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		e.clock.Add(2 * time.Hour)
		if n, err := e.svc.PublishDueReleases(ctx, e.clock.Now()); err != nil || n != 0 {
			t.Fatalf("an unpublishable release: %d %v", n, err)
		}
		rel2 = e.must(200, "pat", "GET", StudioPrefix+"/releases/"+rel2ID, nil)
		if rel2["status"] != ReleaseFailed || !strings.Contains(rel2["error"].(string), "required") {
			t.Errorf("failed release: %v", rel2)
		}
		if e.searchUID(ctx, "", "unfinished") != 0 {
			t.Error("a failed release published something")
		}
		// Unscheduling, deleting.
		e.must(200, "pat", "PATCH", StudioPrefix+"/releases/"+rel2ID, map[string]any{"scheduled_at": nil, "label": "Someday"})
		e.must(422, "pat", "PATCH", StudioPrefix+"/releases/"+rel2ID, map[string]any{"scheduled_at": "tomorrow"})
		e.must(422, "pat", "POST", StudioPrefix+"/releases", map[string]any{"label": " "})
		// A release scheduled empty fails at its time rather than publishing nothing.
		empty, err := e.svc.CreateRelease(ctx, pat, ReleaseInput{Label: strPtr("Empty"), ScheduledAt: ptrTime(e.clock.Now())})
		if err != nil {
			t.Fatal(err)
		}
		if n, err := e.svc.PublishDueReleases(ctx, e.clock.Now()); err != nil || n != 0 {
			t.Errorf("an empty release: %d %v", n, err)
		}
		if got, _ := e.svc.GetRelease(ctx, empty.ID); got.Status != ReleaseFailed {
			t.Errorf("an empty due release is %s", got.Status)
		}
		code, _ := e.call("pat", "DELETE", StudioPrefix+"/releases/"+rel2ID, nil)
		if code != 204 {
			t.Errorf("delete release: %d", code)
		}
		e.must(404, "pat", "GET", StudioPrefix+"/releases/"+rel2ID, nil)
	})
}

// RunReleases publishes a due release by itself and raises the page generation.
func TestRunReleasesPublishesAndPurges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		purged := make(chan struct{}, 4)
		e := newStudioEnv(t, db, Options{PagesChanged: func(context.Context) { purged <- struct{}{} }})
		pat := testAccounts["pat"]
		d, err := e.svc.CreateDocument(ctx, pat, DocumentInput{Type: "news_item", UID: "tick", Data: json.RawMessage(newsData)})
		if err != nil {
			t.Fatal(err)
		}
		at := e.clock.Now().Add(-time.Second)
		rel, err := e.svc.CreateRelease(ctx, pat, ReleaseInput{Label: strPtr("Now"), ScheduledAt: &at})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.SetReleaseDocument(ctx, pat, rel.ID, d.ID, true); err != nil {
			t.Fatal(err)
		}
		go e.svc.RunReleases(ctx, 10*time.Millisecond)
		<-purged
		if e.searchUID(ctx, "", "tick") != 1 {
			t.Error("RunReleases did not publish the due release")
		}
	})
}

// Webhooks in Prismic's body reach an HTTP server in the test; a failed delivery is
// retried ten minutes later, and given up after the sixth attempt.
func TestWebhooksDelivered(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var mu sync.Mutex
		var bodies []map[string]any
		fail := true
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var m map[string]any
			json.NewDecoder(r.Body).Decode(&m)
			mu.Lock()
			defer mu.Unlock()
			bodies = append(bodies, m)
			if fail {
				w.WriteHeader(500)
			}
		}))
		defer recv.Close()
		dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) }))
		defer dead.Close()
		e := newStudioEnv(t, db, Options{PublicURL: "https://society.example", Webhooks: []Webhook{{URL: recv.URL, Secret: "s3cret"}, {URL: dead.URL}}})
		pat := testAccounts["pat"]
		d, err := e.svc.CreateDocument(ctx, pat, DocumentInput{Type: "news_item", UID: "hook", Data: json.RawMessage(newsData)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.PublishDocument(ctx, pat, d.ID, nil); err != nil {
			t.Fatal(err)
		}
		if n, err := e.svc.DeliverWebhooks(ctx, e.clock.Now()); err != nil || n != 0 {
			t.Fatalf("first attempt: %d %v", n, err)
		}
		mu.Lock()
		if len(bodies) != 1 {
			t.Fatalf("%d bodies", len(bodies))
		}
		b := bodies[0]
		info, _ := e.svc.Repository(ctx)
		if b["type"] != "api-update" || b["secret"] != "s3cret" || b["domain"] != "society.example" ||
			b["apiUrl"] != "https://society.example/content/api" || b["masterRef"] != info.MasterRef ||
			fmt.Sprint(b["documents"]) != "["+d.ID+"]" {
			t.Errorf("body: %v", b)
		}
		fail = false
		mu.Unlock()
		// Not before ten minutes.
		e.clock.Add(9 * time.Minute)
		if n, _ := e.svc.DeliverWebhooks(ctx, e.clock.Now()); n != 0 {
			t.Errorf("retried early: %d", n)
		}
		e.clock.Add(time.Minute)
		if n, err := e.svc.DeliverWebhooks(ctx, e.clock.Now()); err != nil || n != 1 {
			t.Errorf("retry: %d %v", n, err)
		}
		// The dead receiver: six attempts in all, then failed.
		for i := 0; i < 6; i++ {
			e.clock.Add(webhookRetryEvery)
			e.svc.DeliverWebhooks(ctx, e.clock.Now())
		}
		var status string
		var attempts int
		db.QueryRowContext(ctx, db.Rebind("SELECT status, attempts FROM content_webhook_deliveries WHERE url = ?"), dead.URL).Scan(&status, &attempts)
		if status != "failed" || attempts != webhookAttempts {
			t.Errorf("dead receiver: %s after %d attempts", status, attempts)
		}
		// Admins see the addresses (not the secrets) and the deliveries; editors do not.
		e.must(403, "pat", "GET", StudioPrefix+"/webhooks", nil)
		st := e.must(200, "ada", "GET", StudioPrefix+"/webhooks", nil)
		if fmt.Sprint(st["urls"]) != fmt.Sprintf("[%s %s]", recv.URL, dead.URL) || strings.Contains(fmt.Sprint(st), "s3cret") {
			t.Errorf("webhook status: %v", st)
		}
		ds := st["deliveries"].([]any)
		if len(ds) != 2 || ds[0].(map[string]any)["status"] != "failed" || ds[0].(map[string]any)["last_error"] == "" || ds[1].(map[string]any)["status"] != "delivered" {
			t.Errorf("deliveries: %v", ds)
		}
		// The test trigger reaches the receiver with the secret.
		if out := e.must(202, "ada", "POST", StudioPrefix+"/webhooks/test", nil); out["queued"].(float64) != 2 {
			t.Errorf("test trigger: %v", out)
		}
		e.must(403, "pat", "POST", StudioPrefix+"/webhooks/test", nil)
		e.svc.DeliverWebhooks(ctx, e.clock.Now())
		mu.Lock()
		if last := bodies[len(bodies)-1]; last["type"] != "test-trigger" || last["secret"] != "s3cret" {
			t.Errorf("test trigger body: %v", last)
		}
		mu.Unlock()
		// A release's body names it.
		d2, _ := e.svc.CreateDocument(ctx, pat, DocumentInput{Type: "news_item", UID: "hook-2", Data: json.RawMessage(newsData)})
		rel, _ := e.svc.CreateRelease(ctx, pat, ReleaseInput{Label: strPtr("Batch")})
		e.svc.SetReleaseDocument(ctx, pat, rel.ID, d2.ID, true)
		if _, err := e.svc.PublishRelease(ctx, pat, rel.ID); err != nil {
			t.Fatal(err)
		}
		e.svc.DeliverWebhooks(ctx, e.clock.Now())
		mu.Lock()
		last := bodies[len(bodies)-1]
		mu.Unlock()
		rels, _ := last["releases"].(map[string]any)
		del, _ := rels["deletion"].([]any)
		if len(del) != 1 || del[0].(map[string]any)["label"] != "Batch" {
			t.Errorf("release body: %v", last)
		}
	})
}

func TestWebhooksFromEnv(t *testing.T) {
	env := map[string]string{"LINEAGE_CONTENT_WEBHOOK_URL": "https://a.example/hook, https://b.example/x", "LINEAGE_CONTENT_WEBHOOK_SECRET": "k"}
	hooks, err := WebhooksFromEnv(func(k string) string { return env[k] })
	if err != nil || len(hooks) != 2 || hooks[1].URL != "https://b.example/x" || hooks[0].Secret != "k" {
		t.Errorf("%v %v", hooks, err)
	}
	env["LINEAGE_CONTENT_WEBHOOK_URL"] = "ftp://x"
	if _, err := WebhooksFromEnv(func(k string) string { return env[k] }); err == nil {
		t.Error("an ftp webhook is accepted")
	}
}

func TestMediaLibrary(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newStudioEnv(t, db, Options{})
		img := pngBytes(t, 1400, 900)
		code, m := e.upload("pat", "Parish Church.png", img, "The parish church in 1900", "County archive")
		if code != 201 {
			t.Fatalf("upload: %d %v", code, m)
		}
		if m["width"].(float64) != 1400 || m["alt"] != "The parish church in 1900" || m["copyright"] != "County archive" || m["content_type"] != "image/png" {
			t.Errorf("media: %v", m)
		}
		vs := m["variants"].([]any)
		if len(vs) != 3 {
			t.Fatalf("variants: %v", vs)
		}
		for i, want := range []int{320, 640, 1280} {
			v := vs[i].(map[string]any)
			if int(v["width"].(float64)) != want {
				t.Errorf("variant %d: %v", i, v)
			}
			// Served by the media route like every media file.
			w := httptest.NewRecorder()
			e.h.ServeHTTP(w, httptest.NewRequest("GET", v["url"].(string), nil))
			cfg, _, err := decodeConfig(w.Body.Bytes())
			if w.Code != 200 || err != nil || cfg.Width != want {
				t.Errorf("variant %s: %d %v %v", v["url"], w.Code, err, cfg)
			}
		}
		w := httptest.NewRecorder()
		e.h.ServeHTTP(w, httptest.NewRequest("GET", m["url"].(string), nil))
		if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), img) {
			t.Errorf("original: %d", w.Code)
		}
		// Find and reuse; change the alt text.
		e.upload("pat", "map.png", pngBytes(t, 200, 100), "A map of the parish", "")
		list := e.must(200, "pat", "GET", StudioPrefix+"/media?q=church", nil)
		if list["total"].(float64) != 1 {
			t.Errorf("search: %v", list)
		}
		if l := e.must(200, "pat", "GET", StudioPrefix+"/media", nil); l["total"].(float64) != 2 {
			t.Errorf("all: %v", l["total"])
		}
		if l := e.must(200, "pat", "GET", StudioPrefix+"/media?q=100%25", nil); l["total"].(float64) != 0 {
			t.Errorf("a %% in the search is a wildcard: %v", l["total"])
		}
		id := m["id"].(string)
		p := e.must(200, "pat", "PATCH", StudioPrefix+"/media/"+id, map[string]any{"alt": "St Mary's church"})
		if p["alt"] != "St Mary's church" || p["copyright"] != "County archive" {
			t.Errorf("patch: %v", p)
		}
		if out := e.must(422, "pat", "PATCH", StudioPrefix+"/media/"+id, map[string]any{"alt": ""}); fieldErrors(out)["alt"] == nil {
			t.Errorf("empty alt: %v", out)
		}
		// A document uses it as the media library gives it.
		data := fmt.Sprintf(`{"image":{"id":%q,"url":%q,"alt":%q,"dimensions":{"width":1400,"height":900}}}`, id, m["url"], p["alt"])
		e.must(201, "pat", "POST", StudioPrefix+"/documents", map[string]any{"type": "news_item", "uid": "church", "data": json.RawMessage(data)})

		// Bad uploads.
		if code, out := e.upload("pat", "x.png", img, "", ""); code != 422 || fieldErrors(out)["alt"] == nil {
			t.Errorf("no alt: %d %v", code, out)
		}
		if code, out := e.upload("pat", "x.png", []byte("<svg/>"), "x", ""); code != 422 || fieldErrors(out)["file"] == nil {
			t.Errorf("not an image: %d %v", code, out)
		}
		if code, out := e.upload("pat", "wide.png", pngBytes(t, MaxMediaSide+1, 1), "x", ""); code != 422 || fieldErrors(out)["file"] == nil {
			t.Errorf("too wide: %d %v", code, out)
		}
		if code, _ := e.upload("pat", "big.png", bytes.Repeat([]byte{0}, MaxMediaBytes+1), "x", ""); code != 413 {
			t.Errorf("too many bytes: %d", code)
		}
		if code, _ := e.upload("member", "x.png", img, "x", ""); code != 403 {
			t.Errorf("a member uploads: %d", code)
		}
		e.must(404, "pat", "GET", StudioPrefix+"/media/m_nothing", nil)
		if entries, _ := os.ReadDir(filepath.Join(MediaDir(e.svc.opts.DataDir), "studio")); len(entries) != 4+1 {
			t.Errorf("%d files in the library (refused uploads left files?)", len(entries))
		}
	})
}

func (e *studioEnv) upload(who, name string, data []byte, alt, copyright string) (int, map[string]any) {
	e.t.Helper()
	var buf bytes.Buffer
	mw := newMultipart(&buf)
	mw.WriteField("alt", alt)
	mw.WriteField("copyright", copyright)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	req := httptest.NewRequest("POST", StudioPrefix+"/media", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-Test-Account", who)
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, req)
	var out map[string]any
	json.Unmarshal(w.Body.Bytes(), &out)
	return w.Code, out
}

// Without PagesChanged, the scheduler raises the store's page generation, which every
// server watches (internal/pagegen).
func TestReleasesRaisePageGeneration(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newStudioEnv(t, db, Options{})
		before, err := pagegen.Current(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		e.svc.pagesChanged(ctx)
		if after, _ := pagegen.Current(ctx, db); after != before+1 {
			t.Errorf("generation %d → %d", before, after)
		}
	})
}

// Bodies that are not what a route takes.
func TestStudioBadBodies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newStudioEnv(t, db, Options{})
		d := e.must(201, "pat", "POST", StudioPrefix+"/documents", map[string]any{"type": "page", "uid": "x"})
		id := d["id"].(string)
		cases := []struct {
			method, path, body string
			code               int
			field              string
		}{
			{"POST", "/documents", `not json`, 400, ""},
			{"POST", "/documents", `{"type":"page","tags":"news"}`, 400, ""},
			{"POST", "/documents", `{"type":"page","lang":"english"}`, 422, "lang"},
			{"POST", "/documents", `{"type":"page","data":[1,2]}`, 422, "data"},
			{"PUT", "/documents/" + id, `{"uid":"x"}`, 422, "revision"},
			{"PUT", "/documents/" + id, `{"revision":"one"}`, 400, ""},
			{"POST", "/documents/" + id + "/publish", `[]`, 400, ""},
			{"POST", "/documents/" + id + "/versions/abc/restore", `{"revision":1}`, 404, ""},
			{"POST", "/documents/" + id + "/versions/1/restore", `{}`, 422, "revision"},
			{"POST", "/releases", `{"label":7}`, 422, "label"},
			{"POST", "/releases", `{"label":"x","scheduled_at":"2026-12-01"}`, 422, "scheduled_at"},
			{"GET", "/releases?status=soon", ``, 422, "status"},
			{"GET", "/documents?author=me&from=yesterday&sort=size", ``, 422, "author"},
			{"GET", "/links?page_size=500", ``, 422, "page_size"},
			{"GET", "/media?page=-1", ``, 422, "page"},
			{"PATCH", "/media/m_x", `{"alt":"x"}`, 404, ""},
			{"POST", "/media", `{"file":"x"}`, 400, ""},
			{"PUT", "/models/page", `{"id":"page"`, 422, "json"},
			{"DELETE", "/documents/" + id, ``, 405, ""},
		}
		for _, c := range cases {
			who := "pat"
			if strings.HasPrefix(c.path, "/models") {
				who = "ada"
			}
			code, out := e.call(who, c.method, StudioPrefix+c.path, c.body)
			if code != c.code {
				t.Errorf("%s %s %s: %d, want %d: %v", c.method, c.path, c.body, code, c.code, out)
				continue
			}
			if out["message"] == nil {
				t.Errorf("%s %s: no message: %v", c.method, c.path, out)
			}
			if c.field != "" && fieldErrors(out)[c.field] == nil {
				t.Errorf("%s %s %s: no error at %s: %v", c.method, c.path, c.body, c.field, out)
			}
		}
	})
}

// A release's preview shows the site as it will be once the release is out: the drafts
// of its documents, not other drafts; adding a document shows it at once.
func TestReleasePreview(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newStudioEnv(t, db, Options{})
		pat := testAccounts["pat"]
		in, err := e.svc.CreateDocument(ctx, pat, DocumentInput{Type: "news_item", UID: "in-release", Data: json.RawMessage(newsData)})
		if err != nil {
			t.Fatal(err)
		}
		out, err := e.svc.CreateDocument(ctx, pat, DocumentInput{Type: "news_item", UID: "not-in-release", Data: json.RawMessage(newsData)})
		if err != nil {
			t.Fatal(err)
		}
		rel := e.must(201, "pat", "POST", StudioPrefix+"/releases", map[string]any{"label": "Winter"})
		relID := rel["id"].(string)
		e.must(200, "pat", "PUT", StudioPrefix+"/releases/"+relID+"/documents/"+in.ID, nil)
		pv := e.must(200, "pat", "POST", StudioPrefix+"/preview", map[string]any{"release_id": relID})
		token := pv["token"].(string)
		if !strings.Contains(pv["url"].(string), "documentId="+in.ID) {
			t.Errorf("release preview url: %v", pv["url"])
		}
		if e.searchUID(ctx, token, "in-release") != 1 || e.searchUID(ctx, token, "not-in-release") != 0 {
			t.Errorf("release preview: sees in %d, out %d", e.searchUID(ctx, token, "in-release"), e.searchUID(ctx, token, "not-in-release"))
		}
		all := e.must(200, "pat", "POST", StudioPrefix+"/preview", map[string]any{"document_id": out.ID})["token"].(string)
		if e.searchUID(ctx, all, "in-release") != 1 || e.searchUID(ctx, all, "not-in-release") != 1 {
			t.Error("a document preview does not see every draft")
		}
		e.must(200, "pat", "PUT", StudioPrefix+"/releases/"+relID+"/documents/"+out.ID, nil)
		if e.searchUID(ctx, token, "not-in-release") != 1 {
			t.Error("a document added to the release is not in its preview")
		}
		e.must(200, "pat", "DELETE", StudioPrefix+"/releases/"+relID+"/documents/"+in.ID, nil)
		if e.searchUID(ctx, token, "in-release") != 0 {
			t.Error("a document taken out of the release is still in its preview")
		}
	})
}

// The list's memo of titles and words follows the content, whichever way it changed
// (here an import, which does not touch the studio's revision).
func TestStudioListFollowsImports(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newStudioEnv(t, db, Options{})
		doc := func(word string) []Document {
			return []Document{{ID: "imp", UID: "imp", Type: "page", Lang: "en-gb",
				Data: json.RawMessage(`{"title":[{"type":"heading1","text":"` + word + ` day","spans":[]}]}`)}}
		}
		count := func(q string) (int, string) {
			l, err := e.svc.ListDocuments(ctx, ListParams{Q: q, Page: 1, PageSize: 20})
			if err != nil {
				t.Fatal(err)
			}
			title := ""
			if len(l.Results) > 0 {
				title = l.Results[0].Title
			}
			return l.Total, title
		}
		if _, err := e.svc.Import(ctx, doc("Alpha")); err != nil {
			t.Fatal(err)
		}
		if n, title := count("alpha"); n != 1 || title != "Alpha day" {
			t.Fatalf("alpha: %d %q", n, title)
		}
		if _, err := e.svc.Import(ctx, doc("Beta")); err != nil {
			t.Fatal(err)
		}
		if n, _ := count("alpha"); n != 0 {
			t.Error("the list still finds the old word")
		}
		if n, title := count("beta"); n != 1 || title != "Beta day" {
			t.Errorf("beta: %d %q", n, title)
		}
	})
}

func ptrTime(t time.Time) *time.Time { return &t }

// Lists in answers are [] when empty, never null, and a version's content keys are
// always there.
func TestStudioEmptyListsAreArrays(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newStudioEnv(t, db, Options{})
		listKeys := map[string]bool{"results": true, "documents": true, "tags": true, "variants": true, "releases": true,
			"deliveries": true, "urls": true, "types": true, "slices": true}
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch x := v.(type) {
			case map[string]any:
				for k, el := range x {
					if el == nil && listKeys[k] {
						t.Errorf("%s.%s is null", path, k)
					}
					walk(path+"."+k, el)
				}
			case []any:
				for i, el := range x {
					walk(fmt.Sprintf("%s.%d", path, i), el)
				}
			}
		}
		d := e.must(201, "pat", "POST", StudioPrefix+"/documents", map[string]any{"type": "page", "uid": "bare"})
		id := d["id"].(string)
		rel := e.must(201, "pat", "POST", StudioPrefix+"/releases", map[string]any{"label": "Empty"})
		for _, p := range []string{"/documents?q=zzz", "/documents/" + id, "/releases", "/releases/" + rel["id"].(string),
			"/media", "/links?q=zzz", "/tags", "/documents/" + id + "/versions", "/models"} {
			walk(p, e.must(200, "pat", "GET", StudioPrefix+p, nil))
		}
		walk("/webhooks", e.must(200, "ada", "GET", StudioPrefix+"/webhooks", nil))
		vs := e.must(200, "pat", "GET", StudioPrefix+"/documents/"+id+"/versions", nil)["results"].([]any)
		v := e.must(200, "pat", "GET", fmt.Sprintf("%s/documents/%s/versions/%d", StudioPrefix, id, int64(vs[0].(map[string]any)["id"].(float64))), nil)
		walk("version", v)
		for _, k := range []string{"uid", "tags", "data"} {
			if _, ok := v[k]; !ok {
				t.Errorf("a version has no %q", k)
			}
		}
	})
}
