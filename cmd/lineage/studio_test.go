package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"lineage/internal/audit"
	"lineage/internal/auth"
)

// The studio through the assembled site: the accounts middleware tells it who is
// signed in (an editor writes, a member is refused), and what an editor publishes is
// served by the content API at once.
func TestStudioThroughTheSite(t *testing.T) {
	ctx, _, _, a, srv := startSite(t, t.TempDir())
	token := func(email, role string) string {
		t.Helper()
		_, tok := userWithToken(t, ctx, a, auth.NewUser{Email: email, Name: email, Role: role})
		return tok
	}
	editor, member := token("editor@example.org", auth.RoleEditor), token("member@example.org", "")
	call := func(bearer, method, path string, body any) (int, map[string]any) {
		t.Helper()
		b, _ := json.Marshal(body)
		res, answer := send(t, http.DefaultClient, method, srv.URL+path, bearer, bytes.NewReader(b))
		var out map[string]any
		json.Unmarshal(answer, &out)
		return res.StatusCode, out
	}
	if code, _ := call(member, "GET", "/api/studio/content/documents", nil); code != 403 {
		t.Errorf("a member lists documents: %d", code)
	}
	data := map[string]any{"title": []any{map[string]any{"type": "heading1", "text": "From the studio", "spans": []any{}}}, "date": "2026-11-26"}
	code, d := call(editor, "POST", "/api/studio/content/documents", map[string]any{"type": "news_item", "uid": "from-the-studio", "data": data})
	if code != 201 || d["created_by"].(map[string]any)["name"] != "editor@example.org" {
		t.Fatalf("create: %d %v", code, d)
	}
	if code, out := call(editor, "POST", "/api/studio/content/documents/"+d["id"].(string)+"/publish", map[string]any{"revision": d["revision"]}); code != 200 {
		t.Fatalf("publish: %d %v", code, out)
	}
	info, err := a.content.Repository(ctx)
	if err != nil {
		t.Fatal(err)
	}
	q := url.Values{"ref": {info.MasterRef}, "q": {`[[at(my.news_item.uid, "from-the-studio")]]`}}
	var res struct {
		Total int `json:"total_results_size"`
	}
	if err := json.Unmarshal(getOK(t, srv.URL+"/content/api/v2/documents/search?"+q.Encode(), ""), &res); err != nil || res.Total != 1 {
		t.Errorf("the content API does not serve the published document: %v %d", err, res.Total)
	}
	// The studio's writes are in the same audit log as the staff tools' actions.
	es, _, err := a.audit.List(ctx, audit.Filter{Subject: "content_document:" + d["id"].(string)})
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range es {
		if e.Actor == nil || e.Actor.Email != "editor@example.org" {
			t.Errorf("audit entry %s names %v, not the editor", e.Action, e.Actor)
		}
		actions = append(actions, e.Action)
	}
	if !slices.Contains(actions, "content.create") || !slices.Contains(actions, "content.publish") {
		t.Errorf("audit log of the document: %v, want content.create and content.publish", actions)
	}
}
