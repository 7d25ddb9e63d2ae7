package staff_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"lineage/internal/audit"
	"lineage/internal/auth"
	"lineage/internal/auth/authtest"
	"lineage/internal/blob"
	"lineage/internal/httpx"
	"lineage/internal/iiif"
	"lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/research"
	"lineage/internal/staff"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

func TestMain(m *testing.M) { storetest.Main(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// env is a server with the auth room, the rooms the staff tools work on, and the
// staff tools' room, on a real store, with a real outbox delivering to an in-process
// SMTP server.
type env struct {
	t      testing.TB
	db     *store.DB
	url    string
	acc    *auth.Service
	rs     *research.Service
	tr     *trees.Service
	im     *iiif.Service
	st     *staff.Service
	outbox *mail.Outbox
	smtp   *mailtest.Server
	log    *audit.Log
	stop   context.CancelFunc
	stage  string     // the staging folder (this server's scratch)
	blobs  blob.Store // the blob store the staff files are kept in
	// pagesChanged counts the room's calls of PagesChanged.
	pagesChanged atomic.Int64
}

// stagedCSVs counts the records uploads' files in the blob store.
func (e *env) stagedCSVs() int {
	return len(e.storedKeys("staff/records/"))
}

// noUploadsKept checks that nothing of uploads the room refused is kept: b lists no
// upload, and no file is left in the staging folder.
func (e *env) noUploadsKept(b *browser) {
	e.t.Helper()
	if list := b.uploads("list"); len(list) != 0 {
		e.t.Errorf("refused uploads were kept: %+v", list)
	}
	if n := e.stagedCSVs(); n != 0 {
		e.t.Errorf("%d files of refused uploads left in the staging folder", n)
	}
}

// storedKeys are the keys in the blob store under prefix.
func (e *env) storedKeys(prefix string) []string {
	e.t.Helper()
	var keys []string
	if err := e.blobs.List(context.Background(), prefix, func(i blob.Info) error { keys = append(keys, i.Key); return nil }); err != nil {
		e.t.Fatal(err)
	}
	return keys
}

// scratchFiles are the files in the staging folder.
func (e *env) scratchFiles() []string {
	e.t.Helper()
	var out []string
	filepath.WalkDir(e.stage, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// newEnv is a server whose staff files are kept in a local folder store.
func newEnv(t testing.TB, db *store.DB) *env {
	return newEnvOn(t, db, blob.NewLocal(t.TempDir()))
}

// newEnvOn is a server whose staff files are kept in blobs: two on one database and
// one bucket are two instances behind a load balancer.
func newEnvOn(t testing.TB, db *store.DB, blobs blob.Store) *env {
	t.Helper()
	e := &env{t: t, db: db, blobs: blobs}
	e.smtp = mailtest.Start(t, "", "")
	e.outbox = mail.NewOutbox(db, e.smtp.Sender("Lineage <no-reply@lineage.test>"), quiet)
	e.url = authtest.Serve(t, quiet, func(url string) []httpx.Room {
		e.acc = auth.New(db, auth.Options{PublicURL: url, Mailer: e.outbox, Log: quiet, Password: auth.TestPasswordParams})
		e.rs = research.New(db, research.Options{Log: quiet})
		if err := e.rs.Init(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.tr = trees.New(db, trees.Options{Log: quiet, Viewer: func(ctx context.Context) trees.Viewer {
			if u := auth.UserFrom(ctx); u != nil {
				return trees.Viewer{ID: u.ID, Name: u.Name, Role: u.Role, Scope: u.Scope}
			}
			return trees.Viewer{}
		}})
		e.im = iiif.New(db, iiif.Options{DataDir: t.TempDir(), Log: quiet})
		e.log = audit.New(db, nil)
		e.stage = t.TempDir()
		e.st = staff.New(db, staff.Options{Accounts: e.acc, Audit: e.log, Research: e.rs, Images: e.im, Trees: e.tr,
			Blobs: blobs, StagingDir: e.stage, Log: quiet, PagesChanged: func(context.Context) { e.pagesChanged.Add(1) }})
		ctx, stop := context.WithCancel(context.Background())
		e.stop = stop
		e.st.Start(ctx)
		t.Cleanup(func() {
			stop()
			e.st.Wait()
		})
		st, tr := e.st, e.tr
		// The staff room as cmd/lineage/routes.go has it, and the trees room's route that
		// the table wraps in the audit log.
		return []httpx.Room{authtest.AuthRoom(e.acc, quiet), {
			Name:     "staff",
			Session:  e.acc.Middleware,
			Fallback: []string{"/api/studio/"},
			Routes: []httpx.Route{
				{Pattern: "GET /api/studio/people", Handler: st.Admin(st.ListPeople)},
				{Pattern: "GET /api/studio/people/{id}", Handler: st.Admin(st.GetPerson)},
				{Pattern: "PUT /api/studio/people/{id}/role", Handler: st.Admin(st.PutRole)},
				{Pattern: "POST /api/studio/people/{id}/disable", Handler: st.Admin(st.PostDisable)},
				{Pattern: "POST /api/studio/people/{id}/enable", Handler: st.Admin(st.PostEnable)},
				{Pattern: "POST /api/studio/people/{id}/password-reset", Handler: st.Admin(st.PostPasswordReset)},
				{Pattern: "GET /api/studio/audit", Handler: st.Admin(st.ListAudit)},
				{Pattern: "GET /api/studio/audit.csv", Handler: st.Admin(st.ExportAudit)},
				{Pattern: "GET /api/studio/records/uploads", Handler: st.Staff(st.ListRecordsUploads)},
				{Pattern: "POST /api/studio/records/uploads", Handler: st.Staff(st.PostRecordsUpload)},
				{Pattern: "GET /api/studio/records/uploads/{id}", Handler: st.Staff(st.GetRecordsUpload)},
				{Pattern: "DELETE /api/studio/records/uploads/{id}", Handler: st.Staff(st.DeleteRecordsUpload)},
				{Pattern: "POST /api/studio/records/uploads/{id}/dry-run", Handler: st.Staff(st.PostRecordsDryRun)},
				{Pattern: "POST /api/studio/records/uploads/{id}/import", Handler: st.Staff(st.PostRecordsImport)},
				{Pattern: "GET /api/studio/records/mappings", Handler: st.Staff(st.ListMappings)},
				{Pattern: "PUT /api/studio/records/mappings/{name}", Handler: st.Staff(st.PutMapping)},
				{Pattern: "DELETE /api/studio/records/mappings/{name}", Handler: st.Staff(st.DeleteMapping)},
				{Pattern: "GET /api/studio/jobs", Handler: st.Staff(st.ListJobs)},
				{Pattern: "GET /api/studio/jobs/{id}", Handler: st.Staff(st.GetJob)},
				{Pattern: "GET /api/studio/jobs/{id}/events", Handler: st.Staff(st.JobEvents)},
				{Pattern: "POST /api/studio/jobs/{id}/cancel", Handler: st.Staff(st.CancelJob)},
				{Pattern: "POST /api/studio/scans/uploads", Handler: st.Staff(st.PostScansUpload)},
				{Pattern: "GET /api/studio/trees", Handler: st.Staff(st.ListTreeQueue)},
				{Pattern: "POST /api/studio/trees/uploads", Handler: st.Staff(st.PostTreeUpload)},
				{Pattern: "POST /api/studio/trees/{slug}/publish", Handler: st.Staff(st.PostTreePublish)},
				{Pattern: "POST /api/studio/trees/{slug}/unpublish", Handler: st.Staff(st.PostTreeUnpublish)},
				{Pattern: "GET /api/studio/staff/summary", Handler: st.Staff(st.GetSummary)},
			},
		}, {
			Session: e.acc.Middleware,
			Routes: []httpx.Route{
				{Pattern: "POST /api/trees/{slug}/publish", Handler: st.Audited(staff.ActionTreePublish, "tree:", map[string]bool{"published": false}, map[string]bool{"published": true}, tr.Publish)},
				{Pattern: "POST /api/trees/{slug}/access", Handler: st.AuditedTreeAccess(tr.SetTreeAccess)},
			},
		}}
	}).URL
	return e
}

// user creates a verified account with a role.
func (e *env) user(name, role string) *auth.User {
	e.t.Helper()
	u, err := e.acc.CreateUser(context.Background(), auth.NewUser{Email: strings.ToLower(name) + "@example.org", Name: name,
		Password: "a long enough password", Role: role, Verified: true})
	if err != nil {
		e.t.Fatal(err)
	}
	return u
}

// browser is a client that signs in and calls the API as the web app does.
type browser struct {
	e   *env
	c   *http.Client
	u   *url.URL
	who string
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(e.url)
	b := &browser{e: e, c: &http.Client{Jar: jar}, u: u}
	b.do("GET", "/sanctum/csrf-cookie", nil)
	return b
}

// on is the same browser (its cookies, so its session) sending its requests to
// another server of the same site, as a load balancer does.
func (b *browser) on(e *env) *browser {
	u, _ := url.Parse(e.url)
	return &browser{e: e, c: b.c, u: u, who: b.who}
}

// signedIn is a browser signed in as a new account with a role.
func (e *env) signedIn(name, role string) (*browser, *auth.User) {
	e.t.Helper()
	u := e.user(name, role)
	b := e.browser()
	if st, body := b.do("POST", "/login", map[string]string{"email": u.Email, "password": "a long enough password"}); st != http.StatusNoContent {
		e.t.Fatalf("sign in %s: %d %s", name, st, body)
	}
	b.who = name
	return b, u
}

func (b *browser) request(method, path string, body io.Reader, ctype string) *http.Request {
	req, _ := http.NewRequest(method, b.e.url+path, body)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for _, ck := range b.c.Jar.Cookies(b.u) {
		if ck.Name == auth.XSRFCookie {
			v, _ := url.QueryUnescape(ck.Value)
			req.Header.Set("X-XSRF-TOKEN", v)
		}
	}
	return req
}

// do sends a JSON body (nil: none) and answers the status and body.
func (b *browser) do(method, path string, body any) (int, []byte) {
	b.e.t.Helper()
	var rd io.Reader
	ctype := ""
	if body != nil {
		j, _ := json.Marshal(body)
		rd, ctype = bytes.NewReader(j), "application/json"
	}
	status, out, _ := authtest.SendWith(b.e.t, b.c, b.request(method, path, rd, ctype))
	return status, out
}

// upload sends a multipart form: fields, then files (field name → file name → bytes).
func (b *browser) upload(path string, fields map[string]string, files []formFile) (int, []byte) {
	b.e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	for _, f := range files {
		w, _ := mw.CreateFormFile(f.field, f.name)
		w.Write(f.data)
	}
	mw.Close()
	status, out, _ := authtest.SendWith(b.e.t, b.c, b.request("POST", path, &buf, mw.FormDataContentType()))
	return status, out
}

type formFile struct {
	field, name string
	data        []byte
}

// want fails unless status is want; it decodes the body into v (when not nil).
// uploads are the records uploads that b's staff member sees listed; what names the
// step in a failure.
func (b *browser) uploads(what string) []staff.Upload {
	b.e.t.Helper()
	var list struct{ Uploads []staff.Upload }
	st, body := b.do("GET", "/api/studio/records/uploads", nil)
	want(b.e.t, what, st, body, http.StatusOK, &list)
	return list.Uploads
}

// uploadCSV uploads a records file as b's staff member, and fails the test unless it
// is taken (201); what names the step in a failure.
func (b *browser) uploadCSV(what, name string, data []byte) uploadAnswer {
	b.e.t.Helper()
	var ua uploadAnswer
	st, body := b.upload("/api/studio/records/uploads", nil, []formFile{{"file", name, data}})
	want(b.e.t, what, st, body, http.StatusCreated, &ua)
	return ua
}

func want(t testing.TB, what string, status int, body []byte, wantStatus int, v any) {
	t.Helper()
	if status != wantStatus {
		t.Fatalf("%s: %d %s, want %d", what, status, body, wantStatus)
	}
	if v != nil {
		if err := json.Unmarshal(body, v); err != nil {
			t.Fatalf("%s: %v in %s", what, err, body)
		}
	}
}

// event is one server-sent event.
type event struct {
	id, name string
	job      staff.Job
}

// events reads a job's event stream until it ends.
func (b *browser) events(id int64) []event { return b.eventsEach(id, nil) }

// eventsEach reads a job's event stream until it ends, calling each (when not nil)
// with every event as it arrives.
func (b *browser) eventsEach(id int64, each func(event)) []event {
	b.e.t.Helper()
	req := b.request("GET", fmt.Sprintf("/api/studio/jobs/%d/events", id), nil, "")
	req.Header.Set("Accept", "text/event-stream")
	res, err := b.c.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		body, _ := io.ReadAll(res.Body)
		b.e.t.Fatalf("events: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	var out []event
	var cur event
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" {
				out = append(out, cur)
				if each != nil {
					each(cur)
				}
			}
			cur = event{}
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.name = line[7:]
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(line[6:]), &cur.job); err != nil {
				b.e.t.Fatalf("event data %q: %v", line, err)
			}
		}
	}
	return out
}

// auditEntries are the log's entries for an action, newest first.
func (e *env) auditEntries(action string) []audit.Entry {
	e.t.Helper()
	es, _, err := e.log.List(context.Background(), audit.Filter{Action: action, Limit: 200})
	if err != nil {
		e.t.Fatal(err)
	}
	return es
}
