// Package authtest is the sign-in front door for tests of other rooms: the auth
// room mounted on a real HTTP server over a test's store, and browsers that sign in
// the way the web app does (GET /sanctum/csrf-cookie, then POST /login). Tests of
// long writers (imports, deletes) use it to show that sign-in is not starved.
package authtest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/httpx"
	"lineage/internal/members"
	"lineage/internal/server"
	"lineage/internal/store"
)

// FrontDoor is the auth room served on a test server.
type FrontDoor struct {
	URL      string
	Email    string // a verified user's
	Password string
}

// Start serves the auth room on db through the front door (internal/server) and
// creates a verified user; both end with the test.
func Start(t testing.TB, db *store.DB) *FrontDoor {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var svc *auth.Service
	srv := Serve(t, quiet, func(url string) []httpx.Room {
		svc = auth.New(db, auth.Options{PublicURL: url, Log: quiet, Password: auth.TestPasswordParams})
		return []httpx.Room{AuthRoom(svc, quiet)}
	})
	fd := &FrontDoor{URL: srv.URL, Email: "signin@lineage.test", Password: "a long enough password"}
	if _, err := svc.CreateUser(context.Background(), auth.NewUser{Email: fd.Email, Password: fd.Password, Name: "Sign In", Verified: true}); err != nil {
		t.Fatal(err)
	}
	return fd
}

// Serve serves rooms through the front door (internal/server) on a test server that
// ends with the test. rooms gets the server's address before it makes the rooms, since
// the services behind them put the address in the links they mail.
func Serve(t testing.TB, log *slog.Logger, rooms func(url string) []httpx.Room) *httptest.Server {
	t.Helper()
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	var mounts []server.Mount
	for _, rm := range rooms(srv.URL) {
		mounts = append(mounts, rm.Mounts()...)
	}
	handler = server.New(server.Options{PublicURL: srv.URL, Mounts: mounts, Log: log})
	return srv
}

// SignIn signs in once as a new browser would and returns how long each of the two
// requests took, or what went wrong (a status other than 204 with its body).
func (fd *FrontDoor) SignIn() (cookie, login time.Duration, err error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: time.Minute}
	u, _ := url.Parse(fd.URL)
	do := func(method, path, body string) (time.Duration, error) {
		req, _ := http.NewRequest(method, fd.URL+path, strings.NewReader(body))
		req.Header.Set("Accept", "application/json")
		req.Header.Set("X-Requested-With", "XMLHttpRequest")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for _, ck := range jar.Cookies(u) {
			if ck.Name == auth.XSRFCookie {
				req.Header.Set("X-XSRF-TOKEN", ck.Value)
			}
		}
		start := time.Now()
		res, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		took := time.Since(start)
		if res.StatusCode != http.StatusNoContent {
			return took, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, b)
		}
		return took, nil
	}
	if cookie, err = do("GET", "/sanctum/csrf-cookie", ""); err != nil {
		return cookie, 0, err
	}
	login, err = do("POST", "/login", fmt.Sprintf(`{"email": %q, "password": %q}`, fd.Email, fd.Password))
	return cookie, login, err
}

// Report is what a series of sign-ins saw.
type Report struct {
	Cookie, Login []time.Duration // of the sign-ins that succeeded
	Errors        []error
}

// Pacer lets a long job go no faster than the sign-ins running beside it: at each of
// its steps (a progress call, a chunk) the job calls Step, which waits until perStep
// more sign-ins have completed, or until they have ended. So the job is still under
// way, mid-way through its writes, when the last of the sign-ins completes, whatever
// the speed of the machine.
type Pacer struct {
	perStep int
	steps   int
	done    int // sign-ins completed
	ended   bool
	mu      sync.Mutex
	cond    *sync.Cond
}

// NewPacer returns a Pacer that lets the job take a step per perStep sign-ins.
func NewPacer(perStep int) *Pacer {
	p := &Pacer{perStep: perStep}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// Step waits for the sign-ins of the job's next step.
func (p *Pacer) Step() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.steps++
	for p.done < p.steps*p.perStep && !p.ended {
		p.cond.Wait()
	}
}

// SignIns signs in n times from four browsers at once, and stops after the first
// failure (with the sign-ins under way).
func (p *Pacer) SignIns(fd *FrontDoor, n int) *Report {
	rep := &Report{}
	var wg sync.WaitGroup
	next := make(chan struct{})
	go func() {
		defer close(next)
		for range n {
			p.mu.Lock()
			failed := len(rep.Errors) > 0
			p.mu.Unlock()
			if failed {
				return
			}
			next <- struct{}{}
		}
	}()
	for range 4 {
		wg.Go(func() {
			for range next {
				c, l, err := fd.SignIn()
				p.mu.Lock()
				if err != nil {
					rep.Errors = append(rep.Errors, err)
				} else {
					rep.Cookie, rep.Login = append(rep.Cookie, c), append(rep.Login, l)
				}
				p.done++
				p.cond.Broadcast()
				p.mu.Unlock()
			}
		})
	}
	wg.Wait()
	p.mu.Lock()
	p.ended = true
	p.cond.Broadcast()
	p.mu.Unlock()
	return rep
}

// String gives the latencies' median, 99th percentile and maximum.
func (r *Report) String() string {
	q := func(ds []time.Duration) string {
		if len(ds) == 0 {
			return "none"
		}
		s := slices.Clone(ds)
		slices.Sort(s)
		at := func(p float64) time.Duration { return s[min(len(s)-1, int(p*float64(len(s))))] }
		return fmt.Sprintf("p50 %v p99 %v max %v", at(0.5).Round(time.Microsecond), at(0.99).Round(time.Microsecond), s[len(s)-1].Round(time.Microsecond))
	}
	return fmt.Sprintf("%d sign-ins, %d errors; csrf-cookie %s; login %s", len(r.Cookie), len(r.Errors), q(r.Cookie), q(r.Login))
}

// AuthRoom is the auth room as cmd/lineage's route table serves it, for tests that sign
// in, register or hold tokens through the real front door; cmd/lineage's
// TestTestRoomsAreTheTable holds it to the table.
func AuthRoom(svc *auth.Service, log *slog.Logger) httpx.Room {
	return httpx.Room{
		Name:    "auth",
		Log:     log,
		Session: svc.Middleware,
		Fallback: []string{"/sanctum/csrf-cookie", "/api/user", "/api/user/", "/api/register", "/api/email/",
			"/api/forgot-password", "/api/reset-password", "/api/tokens", "/api/tokens/", "/api/oidc", "/api/oidc/"},
		Routes: []httpx.Route{
			{Pattern: "GET /sanctum/csrf-cookie", Handler: svc.CSRFCookie},
			{Pattern: "POST /login", Handler: svc.Login},
			{Pattern: "POST /logout", Handler: svc.Logout},
			{Pattern: "GET /api/user", Handler: svc.GetUser},
			{Pattern: "PATCH /api/user", Handler: svc.UpdateProfile},
			{Pattern: "DELETE /api/user", Handler: svc.DeleteAccount},
			{Pattern: "GET /api/user/data", Handler: svc.ExportData},
			{Pattern: "PUT /api/user/password", Handler: svc.ChangePassword},
			{Pattern: "PUT /api/user/email", Handler: svc.ChangeEmail},
			{Pattern: "POST /api/register", Handler: svc.Register},
			{Pattern: "POST /api/email/verify", Handler: svc.VerifyEmail},
			{Pattern: "POST /api/email/verification-notification", Handler: svc.ResendVerification},
			{Pattern: "POST /api/forgot-password", Handler: svc.ForgotPassword},
			{Pattern: "POST /api/reset-password", Handler: svc.ResetPassword},
			{Pattern: "POST /api/tokens", Handler: svc.CreateToken},
			{Pattern: "POST /api/tokens/refresh", Handler: svc.RefreshToken},
			{Pattern: "DELETE /api/tokens/current", Handler: svc.DeleteCurrentToken},
			{Pattern: "GET /api/oidc", Handler: svc.OIDCInfo},
			{Pattern: "GET /api/oidc/redirect", Handler: svc.OIDCRedirect},
			{Pattern: "POST /api/oidc/callback", Handler: svc.OIDCCallback},
		},
	}
}

// MembersRoom is the members room as cmd/lineage's route table serves it, behind auth's
// middleware; cmd/lineage's TestTestRoomsAreTheTable holds it to the table.
func MembersRoom(m *members.Service, session func(http.Handler) http.Handler, log *slog.Logger) httpx.Room {
	return httpx.Room{
		Name:    "members",
		Log:     log,
		Session: session,
		Fallback: []string{"/api/bookmarks", "/api/bookmarks/", "/api/reading-lists", "/api/reading-lists/",
			"/api/saved-searches", "/api/saved-searches/", "/api/search-history", "/api/search-history/"},
		Routes: []httpx.Route{
			{Pattern: "GET /api/bookmarks", Handler: m.SignedIn(m.ListBookmarks)},
			{Pattern: "POST /api/bookmarks", Handler: m.SignedIn(m.AddBookmark)},
			{Pattern: "DELETE /api/bookmarks/{id}", Handler: m.SignedIn(m.DeleteBookmark)},
			{Pattern: "GET /api/reading-lists", Handler: m.SignedIn(m.ListReadingLists)},
			{Pattern: "POST /api/reading-lists", Handler: m.SignedIn(m.CreateReadingList)},
			{Pattern: "GET /api/reading-lists/{id}", Handler: m.SignedIn(m.GetReadingList)},
			{Pattern: "PATCH /api/reading-lists/{id}", Handler: m.SignedIn(m.RenameReadingList)},
			{Pattern: "DELETE /api/reading-lists/{id}", Handler: m.SignedIn(m.DeleteReadingList)},
			{Pattern: "POST /api/reading-lists/{id}/items", Handler: m.SignedIn(m.AddListItem)},
			{Pattern: "DELETE /api/reading-lists/{id}/items/{item}", Handler: m.SignedIn(m.RemoveListItem)},
			{Pattern: "PUT /api/reading-lists/{id}/order", Handler: m.SignedIn(m.ReorderList)},
			{Pattern: "GET /api/saved-searches", Handler: m.SignedIn(m.ListSavedSearches)},
			{Pattern: "POST /api/saved-searches", Handler: m.SignedIn(m.CreateSavedSearch)},
			{Pattern: "GET /api/saved-searches/{id}", Handler: m.SignedIn(m.GetSavedSearch)},
			{Pattern: "PATCH /api/saved-searches/{id}", Handler: m.SignedIn(m.UpdateSavedSearch)},
			{Pattern: "DELETE /api/saved-searches/{id}", Handler: m.SignedIn(m.DeleteSavedSearch)},
			{Pattern: "GET /api/search-history", Handler: m.SignedIn(m.ListHistory)},
			{Pattern: "POST /api/search-history", Handler: m.SignedIn(m.RecordHistory)},
			{Pattern: "DELETE /api/search-history", Handler: m.SignedIn(m.ClearHistory)},
			{Pattern: "DELETE /api/search-history/{id}", Handler: m.SignedIn(m.DeleteHistoryEntry)},
		},
	}
}
