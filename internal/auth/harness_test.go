package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/auth/authtest"
	"lineage/internal/clocktest"
	"lineage/internal/httpx"
	"lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/members"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// env is a whole front door (internal/server) with the auth and members rooms mounted
// as cmd/lineage mounts them, a real outbox delivering to an in-process SMTP server,
// and a movable clock.
type env struct {
	t       *testing.T
	db      *store.DB
	svc     *auth.Service
	members *members.Service
	srv     *httptest.Server
	smtp    *mailtest.Server
	outbox  *mail.Outbox
	clock   *clocktest.Clock
}

type envOption func(*auth.Options)

// eachWithAda runs fn on both stores (storetest.Each), each with a fresh env in which
// ada@example.org has an account with the password "correct horse battery".
func eachWithAda(t *testing.T, fn func(t *testing.T, e *env)) {
	t.Helper()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		e.user("ada@example.org", "correct horse battery")
		fn(t, e)
	})
}

func newEnv(t *testing.T, db *store.DB, opts ...envOption) *env {
	t.Helper()
	e := &env{t: t, db: db, clock: clocktest.New(time.Now())}
	e.smtp = mailtest.Start(t, "", "")
	e.outbox = mail.NewOutbox(db, e.smtp.Sender("Lineage <no-reply@lineage.test>"), quiet)
	e.srv = authtest.Serve(t, quiet, func(url string) []httpx.Room {
		o := auth.Options{PublicURL: url, Mailer: e.outbox, Log: quiet, Password: auth.TestPasswordParams, Now: e.clock.Now}
		for _, f := range opts {
			f(&o)
		}
		e.svc = auth.New(db, o)
		e.members = members.New(db, e.svc, quiet)
		e.members.Now = e.clock.Now
		e.svc.AddExporter(e.members)
		return []httpx.Room{authtest.AuthRoom(e.svc, quiet), authtest.MembersRoom(e.members, e.svc.Middleware, quiet)}
	})
	return e
}

// user creates a verified account with a password.
func (e *env) user(email, password string) *auth.User {
	e.t.Helper()
	u, err := e.svc.CreateUser(context.Background(), auth.NewUser{Email: email, Password: password, Name: "Test " + email, Verified: true})
	if err != nil {
		e.t.Fatal(err)
	}
	return u
}

// mails delivers the outbox and returns everything the SMTP server has received.
func (e *env) mails() []mailtest.Received {
	e.t.Helper()
	if _, err := e.outbox.DeliverDue(context.Background()); err != nil {
		e.t.Fatal(err)
	}
	return e.smtp.Messages()
}

var tokenRE = regexp.MustCompile(`[?&]token=([A-Za-z0-9_-]+)`)

// linkToken finds the token of the last mail to addr.
func (e *env) linkToken(addr string) string {
	e.t.Helper()
	ms := e.mails()
	for i := len(ms) - 1; i >= 0; i-- {
		if len(ms[i].To) == 1 && ms[i].To[0] == addr {
			m := tokenRE.FindStringSubmatch(ms[i].Body)
			if m == nil {
				e.t.Fatalf("mail to %s has no link:\n%s", addr, ms[i].Body)
			}
			return m[1]
		}
	}
	e.t.Fatalf("no mail to %s among %d", addr, len(ms))
	return ""
}

// browser is a client with a cookie jar that behaves like the SPA: it sends
// X-Requested-With and Accept: application/json, and echoes XSRF-TOKEN in X-XSRF-TOKEN.
type browser struct {
	e      *env
	c      *http.Client
	u      *url.URL
	noXSRF bool              // do not send the header (CSRF tests)
	header map[string]string // extra headers on every request
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(e.srv.URL)
	return &browser{e: e, u: u, header: map[string]string{},
		c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) cookie(name string) string {
	for _, c := range b.c.Jar.Cookies(b.u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

func (b *browser) setCookie(name, value string) {
	b.c.Jar.SetCookies(b.u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r *response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object (%v): %s", err, r.body)
	}
	return m
}

func (r *response) message() string {
	var m struct{ Message string }
	json.Unmarshal(r.body, &m)
	return m.Message
}

// do sends a request; body is JSON-encoded unless it is url.Values (a form).
func (b *browser) do(method, path string, body any) *response {
	b.e.t.Helper()
	var rd io.Reader
	ct := ""
	switch v := body.(type) {
	case nil:
	case url.Values:
		rd, ct = strings.NewReader(v.Encode()), "application/x-www-form-urlencoded"
	default:
		j, _ := json.Marshal(v)
		rd, ct = bytes.NewReader(j), "application/json"
	}
	req, _ := http.NewRequest(method, b.e.srv.URL+path, rd)
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	if x := b.cookie(auth.XSRFCookie); x != "" && !b.noXSRF {
		req.Header.Set("X-XSRF-TOKEN", x)
	}
	for k, v := range b.header {
		req.Header.Set(k, v)
	}
	status, data, header := authtest.SendWith(b.e.t, b.c, req)
	return &response{status: status, header: header, body: data}
}

// signedIn is a new browser signed in as email.
func (e *env) signedIn(email, password string) *browser {
	e.t.Helper()
	b := e.browser()
	b.signIn(email, password)
	return b
}

// signIn runs the spec's login sequence: CSRF cookie, login, user.
func (b *browser) signIn(email, password string) {
	b.e.t.Helper()
	if r := b.do("GET", "/sanctum/csrf-cookie", nil); r.status != 204 {
		b.e.t.Fatalf("csrf-cookie: %d", r.status)
	}
	if r := b.do("POST", "/login", map[string]any{"email": email, "password": password}); r.status != 204 {
		b.e.t.Fatalf("login %s: %d %s", email, r.status, r.body)
	}
}

func expect(t *testing.T, r *response, status int, message string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	if message != "" && r.message() != message {
		t.Fatalf("message %q, want %q", r.message(), message)
	}
}

func setCookies(r *response) map[string]*http.Cookie {
	out := map[string]*http.Cookie{}
	for _, line := range r.header.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err == nil {
			out[c.Name] = c
		}
	}
	return out
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
