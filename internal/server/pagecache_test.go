package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// webApp stands in for the SSR child behind the proxy: it answers what handle says
// and counts renders. Its inline scripts carry the render's nonce, as the web app's do.
type webApp struct {
	renders atomic.Int64
	handle  func(w http.ResponseWriter, r *http.Request, nonce string)
}

func (a *webApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.renders.Add(1)
	a.handle(w, r, nonceFrom(r.Context()))
}

func htmlPage(w http.ResponseWriter, nonce, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><script src="/uv/umd/UV.js" nonce="%s"></script></head><body>%s<script nonce="%s">window.__ctx = {"page": 1};</script></body></html>`, nonce, body, nonce)
}

// newCacheFront is the front door's page handling over app with a fresh cache and a
// clock the test moves.
func newCacheFront(t *testing.T, app http.Handler, maxBytes int64) (*Server, http.Handler, *time.Time) {
	t.Helper()
	set, err := PageCacheSettingsFromEnv(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	set.MaxBytes = maxBytes
	c := NewPageCache(set)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	s := &Server{opts: Options{PageCache: c, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}}
	return s, s.pageFront(app), &now
}

func do(h http.Handler, method, target string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Add(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestPageCacheStoresAnonymousPages(t *testing.T) {
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		htmlPage(w, nonce, "<h1>News</h1>"+strings.Repeat("<p>text</p>", 100))
	}}
	s, h, _ := newCacheFront(t, app, DefaultPageCacheBytes)
	first := do(h, "GET", "/news")
	second := do(h, "GET", "/news")
	if app.renders.Load() != 1 {
		t.Fatalf("%d renders for two anonymous requests, want 1", app.renders.Load())
	}
	if first.Header().Get("X-Lineage-Cache") != "miss" || second.Header().Get("X-Lineage-Cache") != "hit" {
		t.Fatalf("cache states %q, %q", first.Header().Get("X-Lineage-Cache"), second.Header().Get("X-Lineage-Cache"))
	}
	if first.Body.String() != second.Body.String() || first.Header().Get("ETag") != second.Header().Get("ETag") {
		t.Fatal("the stored page differs from the rendered one")
	}
	if got, want := second.Header().Get("Cache-Control"), s.publicCacheControl(); got != want || !strings.HasPrefix(got, "public, max-age=0, s-maxage=") {
		t.Fatalf("Cache-Control %q, want %q", got, want)
	}
	if got := second.Header().Get("Vary"); got != "Accept-Encoding, Cookie" {
		t.Fatalf("Vary %q", got)
	}

	// Gzip is made once, at store time, with a tag of its own.
	gz := do(h, "GET", "/news", "Accept-Encoding", "gzip, br")
	if gz.Header().Get("Content-Encoding") != "gzip" || gz.Header().Get("ETag") == second.Header().Get("ETag") {
		t.Fatalf("gzip answer: encoding %q etag %q", gz.Header().Get("Content-Encoding"), gz.Header().Get("ETag"))
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if string(plain) != second.Body.String() {
		t.Fatal("the gzip body is not the page")
	}
	if app.renders.Load() != 1 {
		t.Fatalf("%d renders", app.renders.Load())
	}

	// HEAD from the cache: the headers, no body.
	head := do(h, "HEAD", "/news")
	if head.Code != 200 || head.Body.Len() != 0 || head.Header().Get("ETag") == "" {
		t.Fatalf("HEAD: %d, %d bytes, etag %q", head.Code, head.Body.Len(), head.Header().Get("ETag"))
	}
}

func TestPageCacheConditionalRequests(t *testing.T) {
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) { htmlPage(w, nonce, "<h1>Home</h1>") }}
	_, h, _ := newCacheFront(t, app, DefaultPageCacheBytes)
	page := do(h, "GET", "/")
	etag, modified := page.Header().Get("ETag"), page.Header().Get("Last-Modified")
	if !strings.HasPrefix(etag, `"`) || modified == "" {
		t.Fatalf("validators: ETag %q Last-Modified %q", etag, modified)
	}
	gzTag := do(h, "GET", "/", "Accept-Encoding", "gzip").Header().Get("ETag")
	earlier := time.Date(2026, 11, 25, 11, 0, 0, 0, time.UTC).Format(http.TimeFormat)
	for _, tc := range []struct {
		name string
		hdr  []string
		want int
	}{
		{"ETag", []string{"If-None-Match", etag}, 304},
		{"weak form of the ETag", []string{"If-None-Match", "W/" + etag}, 304},
		{"one of a list", []string{"If-None-Match", `"x", ` + etag}, 304},
		{"star", []string{"If-None-Match", "*"}, 304},
		{"gzip ETag from an earlier gzip answer", []string{"If-None-Match", gzTag, "Accept-Encoding", "gzip"}, 304},
		{"another ETag", []string{"If-None-Match", `"something-else"`}, 200},
		{"Last-Modified", []string{"If-Modified-Since", modified}, 304},
		{"earlier date", []string{"If-Modified-Since", earlier}, 200},
		{"If-None-Match wins over If-Modified-Since", []string{"If-None-Match", `"something-else"`, "If-Modified-Since", modified}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := do(h, "GET", "/", tc.hdr...)
			if w.Code != tc.want {
				t.Fatalf("status %d, want %d", w.Code, tc.want)
			}
			if tc.want == 304 {
				if w.Body.Len() != 0 {
					t.Fatal("a 304 with a body")
				}
				// A browser updates its stored copy's headers from a 304: the CSP must be the page's.
				if w.Header().Get("Content-Security-Policy") != page.Header().Get("Content-Security-Policy") || w.Header().Get("ETag") == "" {
					t.Fatalf("304 headers %v", w.Header())
				}
			}
		})
	}
	if app.renders.Load() != 1 {
		t.Fatalf("%d renders", app.renders.Load())
	}
}

func TestPageCacheNeverStoresPersonalPages(t *testing.T) {
	var cookies []string
	var mu sync.Mutex
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		mu.Lock()
		cookies = append(cookies, r.Header.Get("Cookie"))
		mu.Unlock()
		who := "Sign in"
		if c, err := r.Cookie("lineage_session"); err == nil {
			who = "Signed in as " + c.Value
		}
		if r.Header.Get("Authorization") != "" {
			who = "Signed in by token"
		}
		htmlPage(w, nonce, "<header>"+who+"</header>")
	}}
	_, h, _ := newCacheFront(t, app, DefaultPageCacheBytes)
	for _, personal := range [][]string{
		{"Cookie", "lineage_session=alice"},
		{"Cookie", "XSRF-TOKEN=tok"},
		{"Cookie", "io.prismic.preview=ref"},
		{"Cookie", "auth._token.token=Bearer%20x"},
		{"Authorization", "Bearer x"},
	} {
		for i := 0; i < 2; i++ {
			w := do(h, "GET", "/", personal...)
			if w.Header().Get("X-Lineage-Cache") != "bypass" || w.Header().Get("Cache-Control") != "private, no-store" || w.Header().Get("ETag") != "" {
				t.Fatalf("%v: cache %q, Cache-Control %q, ETag %q", personal, w.Header().Get("X-Lineage-Cache"), w.Header().Get("Cache-Control"), w.Header().Get("ETag"))
			}
		}
	}
	if n := app.renders.Load(); n != 10 {
		t.Fatalf("%d renders for 10 personal requests, want 10", n)
	}
	anon := do(h, "GET", "/", "Cookie", "_ga=GA1.2; theme=dark")
	if strings.Contains(anon.Body.String(), "Signed in") || anon.Header().Get("X-Lineage-Cache") != "miss" {
		t.Fatalf("anonymous page: %q (%s)", anon.Body, anon.Header().Get("X-Lineage-Cache"))
	}
	if last := cookies[len(cookies)-1]; last != "" {
		t.Fatalf("the anonymous render was sent cookies %q", last)
	}
	if w := do(h, "GET", "/", "Cookie", "lineage_session=bob"); !strings.Contains(w.Body.String(), "Signed in as bob") {
		t.Fatalf("a signed-in visitor got %q once an anonymous page was stored", w.Body)
	}
}

func TestPageCacheStoresOnlyShareableAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, nonce string)
		stored bool
	}{
		{"200 page", func(w http.ResponseWriter, n string) { htmlPage(w, n, "ok") }, true},
		{"not-found page", func(w http.ResponseWriter, n string) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(404)
			w.Write([]byte("<h1>Page not found</h1>"))
		}, true},
		{"404 that is not a page", func(w http.ResponseWriter, n string) {
			w.Header().Set("Content-Type", "text/x-script")
			w.WriteHeader(404)
		}, false},
		{"a cookie set", func(w http.ResponseWriter, n string) {
			w.Header().Add("Set-Cookie", "lineage_session=new; Path=/")
			htmlPage(w, n, "ok")
		}, false},
		{"private", func(w http.ResponseWriter, n string) {
			w.Header().Set("Cache-Control", "private, no-store")
			htmlPage(w, n, "ok")
		}, false},
		{"no-cache", func(w http.ResponseWriter, n string) {
			w.Header().Set("Cache-Control", "no-cache")
			htmlPage(w, n, "ok")
		}, false},
		{"redirect", func(w http.ResponseWriter, n string) {
			w.Header().Set("Location", "/elsewhere")
			w.WriteHeader(302)
		}, false},
		{"server error", func(w http.ResponseWriter, n string) { w.WriteHeader(500) }, false},
		{"unavailable", func(w http.ResponseWriter, n string) { unavailable(w) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) { tc.answer(w, nonce) }}
			_, h, _ := newCacheFront(t, app, DefaultPageCacheBytes)
			first := do(h, "GET", "/p")
			do(h, "GET", "/p")
			if stored := app.renders.Load() == 1; stored != tc.stored {
				t.Fatalf("stored %v, want %v (%d renders)", stored, tc.stored, app.renders.Load())
			}
			if !tc.stored && first.Header().Get("Cache-Control") == "" {
				t.Fatal("an answer not stored says nothing to caches in front")
			}
		})
	}
}

func TestPageCacheCoalescesRenders(t *testing.T) {
	release := make(chan struct{})
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		<-release
		htmlPage(w, nonce, "<h1>Spike</h1>")
	}}
	s, h, _ := newCacheFront(t, app, DefaultPageCacheBytes)
	const n = 20
	var wg sync.WaitGroup
	bodies := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bodies[i] = do(h, "GET", "/news/spike").Body.String()
		}()
	}
	c := s.opts.PageCache
	for {
		c.mu.Lock()
		f := c.flights["example.com /news/spike"]
		waiting := f != nil && f.waiters == n-1
		c.mu.Unlock()
		if waiting {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if app.renders.Load() != 1 {
		t.Fatalf("%d renders for %d simultaneous requests, want 1", app.renders.Load(), n)
	}
	for i, b := range bodies {
		if !strings.Contains(b, "Spike") {
			t.Fatalf("request %d got %q", i, b)
		}
	}
}

func TestPageCacheDoesNotShareUnshareableRenders(t *testing.T) {
	// Two visitors waiting on one render that sets a cookie must not get the same cookie.
	release := make(chan struct{})
	var seq atomic.Int64
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		id := seq.Add(1)
		if id == 1 {
			<-release
		}
		w.Header().Add("Set-Cookie", fmt.Sprintf("lineage_session=%d", id))
		htmlPage(w, nonce, "guest")
	}}
	s, h, _ := newCacheFront(t, app, DefaultPageCacheBytes)
	got := make(chan string, 2)
	go func() { got <- do(h, "GET", "/sign-in").Header().Get("Set-Cookie") }()
	c := s.opts.PageCache
	for {
		c.mu.Lock()
		started := c.flights["example.com /sign-in"] != nil
		c.mu.Unlock()
		if started {
			break
		}
		time.Sleep(time.Millisecond)
	}
	go func() { got <- do(h, "GET", "/sign-in").Header().Get("Set-Cookie") }()
	for {
		c.mu.Lock()
		f := c.flights["example.com /sign-in"]
		waiting := f != nil && f.waiters == 1
		c.mu.Unlock()
		if waiting {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	a, b := <-got, <-got
	if a == b {
		t.Fatalf("both visitors got cookie %q", a)
	}
}

func TestPageCacheStaleWhileRevalidate(t *testing.T) {
	var version atomic.Int64
	version.Store(1)
	rendered := make(chan struct{}, 10)
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		htmlPage(w, nonce, fmt.Sprintf("<h1>version %d</h1>", version.Load()))
		rendered <- struct{}{}
	}}
	s, h, now := newCacheFront(t, app, DefaultPageCacheBytes)
	set := s.opts.PageCache.set
	do(h, "GET", "/events")
	<-rendered
	version.Store(2)

	*now = now.Add(set.Fresh + time.Second) // stale, within Stale
	w := do(h, "GET", "/events")
	if w.Header().Get("X-Lineage-Cache") != "stale" || !strings.Contains(w.Body.String(), "version 1") {
		t.Fatalf("a stale page is served at once: %s %q", w.Header().Get("X-Lineage-Cache"), w.Body)
	}
	<-rendered // the background render
	waitFor(t, "the new version stored", func() bool {
		w := do(h, "GET", "/events")
		return w.Header().Get("X-Lineage-Cache") == "hit" && strings.Contains(w.Body.String(), "version 2")
	})

	*now = now.Add(set.Fresh + set.Stale + time.Second) // past Stale: rendered while the visitor waits
	version.Store(3)
	w = do(h, "GET", "/events")
	if w.Header().Get("X-Lineage-Cache") != "miss" || !strings.Contains(w.Body.String(), "version 3") {
		t.Fatalf("an expired page: %s %q", w.Header().Get("X-Lineage-Cache"), w.Body)
	}
}

func TestPageCachePurge(t *testing.T) {
	var version atomic.Int64
	version.Store(1)
	hold := make(chan struct{})
	holding := make(chan struct{})
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		v := version.Load()
		if r.URL.Path == "/slow" && v == 1 {
			close(holding)
			<-hold
		}
		htmlPage(w, nonce, fmt.Sprintf("<h1>version %d</h1>", v))
	}}
	s, h, _ := newCacheFront(t, app, DefaultPageCacheBytes)
	c := s.opts.PageCache
	do(h, "GET", "/")
	if c.Len() != 1 {
		t.Fatalf("%d entries", c.Len())
	}
	version.Store(2)
	c.Purge()
	if w := do(h, "GET", "/"); !strings.Contains(w.Body.String(), "version 2") {
		t.Fatalf("after a purge: %q", w.Body)
	}

	// A render that began before a purge is not stored, and later requests do not wait for it.
	version.Store(1)
	done := make(chan struct{})
	go func() { do(h, "GET", "/slow"); close(done) }()
	<-holding
	version.Store(3)
	c.Purge()
	if w := do(h, "GET", "/slow"); !strings.Contains(w.Body.String(), "version 3") {
		t.Fatalf("a request after the purge got %q", w.Body)
	}
	close(hold)
	<-done
	if w := do(h, "GET", "/slow"); !strings.Contains(w.Body.String(), "version 3") || w.Header().Get("X-Lineage-Cache") != "hit" {
		t.Fatalf("the render from before the purge replaced the new page: %q", w.Body)
	}
}

func TestPageCacheBoundedByBytes(t *testing.T) {
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		htmlPage(w, nonce, r.URL.Path+strings.Repeat("x", 20_000))
	}}
	const max = 400_000
	s, h, _ := newCacheFront(t, app, max)
	c := s.opts.PageCache
	for i := range 40 {
		do(h, "GET", fmt.Sprintf("/page/%d", i))
		if c.Bytes() > max {
			t.Fatalf("%d bytes stored, bound %d", c.Bytes(), max)
		}
	}
	if c.Len() == 0 || c.Len() >= 40 {
		t.Fatalf("%d entries", c.Len())
	}
	// The least recently used went first: the newest is still there.
	before := app.renders.Load()
	do(h, "GET", "/page/39")
	if app.renders.Load() != before {
		t.Fatal("the most recent page was evicted")
	}
	do(h, "GET", "/page/0")
	if app.renders.Load() != before+1 {
		t.Fatal("the oldest page was kept")
	}
}

func TestPageCacheKey(t *testing.T) {
	var seen []string
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		seen = append(seen, r.URL.RequestURI())
		htmlPage(w, nonce, r.URL.RawQuery)
	}}
	_, h, _ := newCacheFront(t, app, DefaultPageCacheBytes)
	do(h, "GET", "/search?surname=smith&place=leeds&utm_source=mail")
	do(h, "GET", "/search?place=leeds&surname=smith")
	do(h, "GET", "/search?place=leeds&surname=smith&fbclid=abc")
	if len(seen) != 1 || seen[0] != "/search?place=leeds&surname=smith" {
		t.Fatalf("renders %q, want one of the normalised URL", seen)
	}
	do(h, "GET", "/search?place=leeds&surname=jones")
	do(h, "GET", "/search?surname=smith&surname=jones")
	do(h, "GET", "/search?surname=jones&surname=smith") // value order can matter
	do(h, "GET", "/search?q=%zz")                       // does not parse: rendered, not stored
	do(h, "GET", "/search?q=%zz")
	if len(seen) != 6 {
		t.Fatalf("renders %q", seen)
	}
	// POST is never answered from the cache.
	do(h, "POST", "/search?place=leeds&surname=smith")
	if len(seen) != 7 {
		t.Fatalf("renders %q", seen)
	}
}

func TestPageCSP(t *testing.T) {
	app := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		w.Header().Set("Content-Type", "text/html")
		// The page's own scripts carry the nonce; the one "injected" into the content does not.
		fmt.Fprintf(w, `<html><head><script src="/assets/a.js" nonce="%s"></script></head><body>`+
			`<p>Hello <script>stolen()</script></p>`+
			`<script nonce="%s">own(1)</script><script type="module" nonce="%s">import("/x.js")</script><script nonce="%s">own(1)</script>`+
			`<script nonce="%s">a();`+"\r\n"+`b()</script></body></html>`, nonce, nonce, nonce, nonce, nonce)
	}}
	for _, cache := range []bool{true, false} {
		_, h, _ := newCacheFront(t, app, DefaultPageCacheBytes)
		cookie := []string{}
		if !cache {
			cookie = []string{"Cookie", "lineage_session=x"} // rendered, not cached: the same sealing
		}
		for i := 0; i < 2; i++ {
			w := do(h, "GET", "/", cookie...)
			csp := w.Header().Get("Content-Security-Policy")
			want := "script-src 'self' '" + scriptHash([]byte("own(1)")) + "' '" + scriptHash([]byte(`import("/x.js")`)) + "' '" + scriptHash([]byte("a();\nb()")) + "';"
			if !strings.Contains(csp, want) {
				t.Fatalf("CSP %q, want %q", csp, want)
			}
			if strings.Contains(csp, scriptHash([]byte("stolen()"))) || strings.Contains(strings.Split(csp, ";")[1], "unsafe-inline") || strings.Contains(csp, "nonce-") {
				t.Fatalf("CSP admits more than the page's scripts: %q", csp)
			}
			if bytes.Contains(w.Body.Bytes(), []byte("nonce=")) {
				t.Fatalf("nonce left in the page: %s", w.Body)
			}
		}
	}
	// Not HTML: nothing to seal.
	plain := &webApp{handle: func(w http.ResponseWriter, r *http.Request, nonce string) {
		w.Header().Set("Content-Type", "application/rss+xml")
		w.Write([]byte("<rss/>"))
	}}
	_, h, _ := newCacheFront(t, plain, DefaultPageCacheBytes)
	if csp := do(h, "GET", "/feeds/news.xml").Header().Get("Content-Security-Policy"); csp != basePolicy {
		t.Fatalf("CSP %q", csp)
	}
}

func TestScriptHashMatchesBrowsers(t *testing.T) {
	// sha256 of "alert('Hello, world.');", the example of CSP Level 3 §7.
	if got := scriptHash([]byte("alert('Hello, world.');")); got != "sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=" {
		t.Fatalf("hash %q", got)
	}
}

func TestPurgeAfterWrites(t *testing.T) {
	var changes atomic.Int64
	answer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("fail") != "" {
			w.WriteHeader(422)
			return
		}
		w.WriteHeader(200)
	})
	s := New(Options{
		WebDir:       t.TempDir(),
		Log:          slog.New(slog.NewTextHandler(io.Discard, nil)),
		PagesChanged: func(context.Context) { changes.Add(1) },
		Mounts: []Mount{
			{Pattern: "POST /api/trees/{slug}/publish", Handler: answer, ChangesPages: true},
			{Pattern: "PUT /api/admin/membership/plans/{slug}", Handler: answer, ChangesPages: true},
			{Pattern: "/api/", Handler: answer},
		},
	})
	for _, tc := range []struct {
		method, target string
		want           int64
	}{
		{"POST", "/api/trees/demo/publish", 1},
		{"POST", "/api/trees/demo/publish?fail=1", 0},
		{"GET", "/api/trees/demo", 0},
		{"DELETE", "/api/trees/demo", 0},
		{"PUT", "/api/admin/membership/plans/individual", 1},
		{"POST", "/api/bookmarks", 0},
	} {
		before := changes.Load()
		do(s, tc.method, tc.target)
		if got := changes.Load() - before; got != tc.want {
			t.Errorf("%s %s: %d changes, want %d", tc.method, tc.target, got, tc.want)
		}
	}
}

// BenchmarkPageStore is what storing costs a render that misses: hashing the inline
// scripts and the ETag of a search results page (testdata: a 50 KB page). The gzip
// copy is made only when asked for (BenchmarkPageGzip), as gzhttp would otherwise.
func BenchmarkPageStore(b *testing.B) {
	body, err := os.ReadFile("testdata/search-results.html")
	if err != nil {
		b.Fatal(err)
	}
	c := NewPageCache(PageCacheSettings{MaxBytes: DefaultPageCacheBytes})
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		sealed, hashes := sealScripts(body, "marker")
		p := &renderedPage{status: 200, header: http.Header{"Content-Type": {"text/html"}}, body: sealed, csp: contentSecurityPolicy(hashes)}
		c.newEntry("k", 0, p, true)
	}
}

func BenchmarkPageGzip(b *testing.B) {
	body, err := os.ReadFile("testdata/search-results.html")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		(&pageEntry{page: &renderedPage{body: body}}).gzipped()
	}
}

// discardWriter is a ResponseWriter that keeps nothing, so BenchmarkCachedPageHit
// measures the front door's own work for a stored page and not a recorder's copying.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(int)             {}
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }

// BenchmarkCachedPageHit is an anonymous visitor's request for a stored page through
// the whole middleware chain (logging to nowhere), as wrk asks for it: no cookies, no
// Accept-Encoding. The network and net/http's own work are not in it.
func BenchmarkCachedPageHit(b *testing.B) {
	body, err := os.ReadFile("testdata/search-results.html")
	if err != nil {
		b.Fatal(err)
	}
	set, err := PageCacheSettingsFromEnv(func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	c := NewPageCache(set)
	s := New(Options{PageCache: c, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	sealed, hashes := sealScripts(body, "marker")
	p := &renderedPage{status: 200, header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, body: sealed, csp: contentSecurityPolicy(hashes)}
	c.put(c.newEntry("example.com /news/a-page", 0, p, false))
	r := httptest.NewRequest("GET", "/news/a-page", nil)
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		s.ServeHTTP(w, r)
		if w.h.Get("X-Lineage-Cache") != "hit" {
			b.Fatalf("not a cache hit: %v", w.h)
		}
	}
}
