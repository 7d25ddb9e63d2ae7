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
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	svc := auth.New(db, auth.Options{PublicURL: srv.URL, Log: quiet, Password: auth.TestPasswordParams})
	var mounts []server.Mount
	for _, p := range auth.Patterns {
		mounts = append(mounts, server.Mount{Pattern: p, Handler: svc.Handler()})
	}
	handler = server.New(server.Options{PublicURL: srv.URL, Mounts: mounts, Log: quiet})
	fd := &FrontDoor{URL: srv.URL, Email: "signin@lineage.test", Password: "a long enough password"}
	if _, err := svc.CreateUser(context.Background(), auth.NewUser{Email: fd.Email, Password: fd.Password, Name: "Sign In", Verified: true}); err != nil {
		t.Fatal(err)
	}
	return fd
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
