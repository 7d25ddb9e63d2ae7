package newsletter_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/auth/authtest"
	"lineage/internal/httpx"
	"lineage/internal/newsletter"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// accounts is the room's Accounts on auth's users, as cmd/lineage gives it.
type accounts struct{ a *auth.Service }

func (x accounts) Account(ctx context.Context, id int64) (newsletter.Viewer, error) {
	u, err := x.a.UserByID(ctx, id)
	if err != nil {
		return newsletter.Viewer{}, err
	}
	return newsletter.Viewer{ID: u.ID, Email: u.Email, Verified: u.EmailVerifiedAt != nil, Scope: u.Scope}, nil
}

// room serves the room's routes with the viewer named by the X-As header (who the
// session middleware would have found), and a clock the test moves.
func room(t *testing.T, e *env, viewers map[string]newsletter.Viewer, now *time.Time) *httptest.Server {
	t.Helper()
	opt := e.opt
	opt.Viewer = func(r *http.Request) newsletter.Viewer { return viewers[r.Header.Get("X-As")] }
	opt.Now = func() time.Time { return *now }
	e.svc = newsletter.New(e.db, opt)
	s := e.svc
	srv := httptest.NewServer(httpx.Serve(httpx.Room{Routes: []httpx.Route{
		{Pattern: "GET /api/admin/newsletter/lists", Handler: s.Admin(s.AdminGetLists)},
		{Pattern: "POST /api/admin/newsletter/lists", Handler: s.Admin(s.AdminPostList)},
		{Pattern: "GET /api/admin/newsletter/documents", Handler: s.Staff(s.AdminGetDocuments)},
		{Pattern: "GET /api/admin/newsletter/editions", Handler: s.Staff(s.AdminGetEditions)},
		{Pattern: "POST /api/admin/newsletter/editions", Handler: s.Staff(s.AdminPostEdition)},
		{Pattern: "PATCH /api/admin/newsletter/editions/{id}", Handler: s.Staff(s.AdminPatchEdition)},
		{Pattern: "GET /api/admin/newsletter/editions/{id}/preview", Handler: s.Staff(s.AdminPreview)},
		{Pattern: "POST /api/admin/newsletter/editions/{id}/test", Handler: s.Staff(s.AdminTest)},
		{Pattern: "POST /api/admin/newsletter/editions/{id}/send", Handler: s.Staff(s.AdminSend)},
		{Pattern: "POST /api/admin/newsletter/editions/{id}/cancel", Handler: s.Staff(s.AdminCancel)},
		{Pattern: "GET /api/admin/newsletter/editions/{id}/recipients", Handler: s.Staff(s.AdminRecipients)},
		{Pattern: "PUT /api/newsletter/me", Handler: s.SignedIn(s.PutMe)},
		{Pattern: "GET /api/newsletter/editions", Handler: s.GetArchive},
		{Pattern: "GET /api/newsletter/lists", Handler: s.GetLists},
	}}))
	t.Cleanup(srv.Close)
	return srv
}

func call(t *testing.T, srv *httptest.Server, as, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-As", as)
	code, b, _ := authtest.Send(t, req)
	var out map[string]any
	json.Unmarshal(b, &out)
	return code, out
}

// A store with no lists and no editions answers each listing as an empty array, never
// null: the web app takes a null list as the API being unavailable.
func TestEmptyListingsAreArrays(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		if _, err := db.ExecContext(context.Background(), `DELETE FROM newsletter_lists`); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		srv := room(t, newEnv(t, db), map[string]newsletter.Viewer{"admin": {ID: 1, Verified: true, Staff: true, Admin: true}}, &now)
		for _, path := range []string{"/api/newsletter/lists", "/api/admin/newsletter/lists", "/api/admin/newsletter/editions", "/api/newsletter/editions"} {
			st, body := call(t, srv, "admin", "GET", path, "")
			if data, ok := body["data"].([]any); st != 200 || !ok || len(data) != 0 {
				t.Errorf("GET %s: %d %v, want 200 and data []", path, st, body)
			}
		}
	})
}

// Who may do what; an editor composes, previews, tests, schedules and sends; a sent
// edition cannot change; a members' list skips an account that lost its scope.
func TestEditorsAndAdmins(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		au := auth.New(db, auth.Options{})
		e := newEnv(t, db, func(o *newsletter.Options) { o.Accounts = accounts{au} })
		ed, _ := au.CreateUser(ctx, auth.NewUser{Email: "editor@example.org", Verified: true, Role: auth.RoleEditor})
		keeps, _ := au.CreateUser(ctx, auth.NewUser{Email: "keeps@example.org", Verified: true, Role: auth.RoleEditor}) // editors hold "member"
		lapsed, _ := au.CreateUser(ctx, auth.NewUser{Email: "lapsed@example.org", Verified: true})
		now := time.Now()
		viewers := map[string]newsletter.Viewer{
			"member": {ID: lapsed.ID, Email: lapsed.Email, Verified: true, Scope: []string{"registered", "member"}},
			"editor": {ID: ed.ID, Email: ed.Email, Verified: true, Staff: true, Scope: []string{"registered", "member", "editor"}},
			"keeps":  {ID: keeps.ID, Email: keeps.Email, Verified: true, Scope: []string{"registered", "member"}},
			"admin":  {ID: ed.ID, Email: ed.Email, Verified: true, Staff: true, Admin: true},
		}
		srv := room(t, e, viewers, &now)
		for _, c := range []struct {
			as, method, path string
			want             int
		}{
			{"", "GET", "/api/admin/newsletter/editions", 401},
			{"member", "GET", "/api/admin/newsletter/editions", 403},
			{"editor", "GET", "/api/admin/newsletter/editions", 200},
			{"editor", "GET", "/api/admin/newsletter/lists", 403},
			{"admin", "GET", "/api/admin/newsletter/lists", 200},
			{"editor", "POST", "/api/admin/newsletter/lists", 403},
		} {
			if got, body := call(t, srv, c.as, c.method, c.path, `{}`); got != c.want {
				t.Errorf("%s %s as %q: %d %v, want %d", c.method, c.path, c.as, got, body, c.want)
			}
		}
		if st, body := call(t, srv, "admin", "POST", "/api/admin/newsletter/lists", `{"slug":"Bad Slug","name":"x"}`); st != 422 || body["errors"].(map[string]any)["slug"] == nil {
			t.Errorf("bad slug: %d %v", st, body)
		}
		if st, _ := call(t, srv, "admin", "POST", "/api/admin/newsletter/lists", `{"slug":"library","name":"Library news","audience":"public"}`); st != 201 {
			t.Errorf("new list: %d", st)
		}

		// Two members on the members' list; one's membership lapses before the send.
		for _, who := range []string{"member", "keeps"} {
			if st, body := call(t, srv, who, "PUT", "/api/newsletter/me", `{"lists":["members"]}`); st != 200 {
				t.Fatalf("%s joins: %d %v", who, st, body)
			}
		}
		st, body := call(t, srv, "editor", "POST", "/api/admin/newsletter/editions", `{"list":"members","document":"winter","subject":"Members' winter news","sections":["news"]}`)
		if st != 201 {
			t.Fatalf("create: %d %v", st, body)
		}
		id := strconv.Itoa(int(body["id"].(float64)))
		if st, body := call(t, srv, "editor", "POST", "/api/admin/newsletter/editions", `{"list":"members","document":"nope","subject":"x"}`); st != 422 || body["errors"].(map[string]any)["document"] == nil {
			t.Errorf("unknown document: %d %v", st, body)
		}
		if st, body := call(t, srv, "editor", "GET", "/api/admin/newsletter/editions/"+id+"/preview", ""); st != 200 || !strings.Contains(body["html"].(string), "Members&#39; winter news") || !strings.Contains(body["text"].(string), "Library opens late") {
			t.Errorf("preview: %d %v", st, body)
		}
		seen := len(e.smtp.Messages())
		if st, _ := call(t, srv, "editor", "POST", "/api/admin/newsletter/editions/"+id+"/test", `{}`); st != 202 {
			t.Errorf("test: %d", st)
		}
		got := e.deliver(t, &seen)
		if len(got) != 1 || got[0].To[0] != "editor@example.org" || got[0].Subject != "[Test] Members' winter news" {
			t.Fatalf("test copy: %+v", got)
		}
		at := now.Add(time.Hour).UTC().Format(time.RFC3339)
		if st, body := call(t, srv, "editor", "POST", "/api/admin/newsletter/editions/"+id+"/send", `{"at":"`+at+`"}`); st != 200 || body["status"] != "scheduled" {
			t.Fatalf("schedule: %d %v", st, body)
		}
		if n, _, _ := e.svc.SendDue(ctx, 100); n != 0 {
			t.Fatalf("sent %d before its time", n)
		}
		// The lapsed member loses the scope: their account is a plain registered one.
		now = now.Add(2 * time.Hour)
		for {
			n, more, err := e.svc.SendDue(ctx, 100)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 && !more {
				break
			}
		}
		got = e.deliver(t, &seen)
		if len(got) != 1 || got[0].To[0] != "keeps@example.org" {
			t.Fatalf("members' edition went to %d: %+v", len(got), got)
		}
		ed2, _ := e.svc.Edition(ctx, int64(body["id"].(float64)))
		if ed2.Status != "sent" || ed2.Counts.Sent != 1 || ed2.Counts.Skipped != 1 {
			t.Errorf("edition %s %+v", ed2.Status, ed2.Counts)
		}
		if st, _ := call(t, srv, "editor", "PATCH", "/api/admin/newsletter/editions/"+id, `{"subject":"changed"}`); st != 409 {
			t.Errorf("changing a sent edition: %d", st)
		}
		if st, _ := call(t, srv, "editor", "POST", "/api/admin/newsletter/editions/"+id+"/send", `{}`); st != 409 {
			t.Errorf("sending twice: %d", st)
		}
		// A members' list's editions stay out of the public archive.
		if _, body := call(t, srv, "", "GET", "/api/newsletter/editions", ""); len(body["data"].([]any)) != 0 {
			t.Errorf("archive shows %v", body["data"])
		}
	})
}
