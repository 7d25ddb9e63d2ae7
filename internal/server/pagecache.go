package server

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
)

// The page cache keeps the pages the SSR child renders for anonymous visitors, so that
// a spike of visitors reading the same pages costs one render per page. The rules, and
// why, are in docs/decisions/015-page-cache-and-csp.md; in short:
//
//   - Only GET and HEAD requests without a personal cookie (personalCookie) and
//     without an Authorization header are answered from it. They are rendered with no
//     cookies at all, so what is stored is what any anonymous visitor would get.
//   - The key is the host, the path and the normalised query (pageKey). Nothing else
//     in a request changes what the web app renders for an anonymous visitor.
//   - Only 200 answers and the not-found page are stored, and never one that sets a
//     cookie or says private, no-store or no-cache.
//   - A stale entry is still served while one request renders it again; a missing
//     one is rendered once however many visitors ask for it at the same moment.
//   - Purge empties it; pagegen tells every server on the store when to.

// PageCacheSettings bound and time the page cache.
type PageCacheSettings struct {
	// MaxBytes bounds the memory the stored pages take (bodies and their gzip copies);
	// the least recently used pages go first. Zero turns the cache off.
	MaxBytes int64
	// Fresh is how long a page without a query string is served as it is; for Stale
	// after that it is still served while one request renders it again.
	Fresh, Stale time.Duration
	// QueryFresh and QueryStale are the same for pages with a query string (search
	// results and other pages that visitors' queries make): many keys, each short-lived.
	QueryFresh, QueryStale time.Duration
	// SharedMaxAge and SharedStale are what a CDN or proxy in front is told
	// (s-maxage, stale-while-revalidate): it cannot be purged, so it keeps pages briefly
	// and asks again with If-None-Match, which this cache answers with 304.
	SharedMaxAge, SharedStale time.Duration
}

// DefaultPageCacheBytes is the page cache's size when LINEAGE_PAGE_CACHE_BYTES is unset.
const DefaultPageCacheBytes = 64 << 20

// settleDelay is how long after a change made by another process the cache is purged a
// second time: a page whose render began before the notification arrived (its content
// read before the change) may be stored just after the first purge.
const settleDelay = 2 * time.Second

// PageCacheSettingsFromEnv reads LINEAGE_PAGE_CACHE_BYTES (a byte count, or with a
// K, M or G suffix; 0 turns the cache off) over the defaults.
func PageCacheSettingsFromEnv(getenv func(string) string) (PageCacheSettings, error) {
	s := PageCacheSettings{
		MaxBytes:     DefaultPageCacheBytes,
		Fresh:        time.Minute,
		Stale:        10 * time.Minute,
		QueryFresh:   10 * time.Second,
		QueryStale:   time.Minute,
		SharedMaxAge: 10 * time.Second,
		SharedStale:  time.Minute,
	}
	if v := strings.TrimSpace(getenv("LINEAGE_PAGE_CACHE_BYTES")); v != "" {
		n, err := parseBytes(v)
		if err != nil {
			return s, fmt.Errorf("LINEAGE_PAGE_CACHE_BYTES: %w", err)
		}
		s.MaxBytes = n
	}
	return s, nil
}

func parseBytes(v string) (int64, error) {
	mult := int64(1)
	switch strings.ToUpper(v[len(v)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a byte count such as 67108864 or 64M, got %q", v)
	}
	return n * mult, nil
}

// PageCache holds rendered anonymous pages. The zero value is not usable; NewPageCache.
type PageCache struct {
	set PageCacheSettings
	now func() time.Time

	mu      sync.Mutex
	gen     uint64 // raised by Purge; an entry or render of an older generation is dropped
	entries map[string]*pageEntry
	lru     *list.List // front: most recently used
	bytes   int64
	flights map[string]*pageFlight

	cacheControl string // of every answer from the cache
}

// NewPageCache returns an empty cache, or nil when settings turn it off.
func NewPageCache(set PageCacheSettings) *PageCache {
	if set.MaxBytes <= 0 {
		return nil
	}
	return &PageCache{set: set, now: time.Now, entries: map[string]*pageEntry{}, lru: list.New(), flights: map[string]*pageFlight{},
		cacheControl: fmt.Sprintf("public, max-age=0, s-maxage=%d, stale-while-revalidate=%d", int(set.SharedMaxAge.Seconds()), int(set.SharedStale.Seconds()))}
}

// Purge forgets every page. Renders under way are not stored when they finish, and
// requests from now on do not wait for them.
func (c *PageCache) Purge() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.gen++
	c.entries = map[string]*pageEntry{}
	c.lru.Init()
	c.bytes = 0
	c.flights = map[string]*pageFlight{}
	c.mu.Unlock()
}

// Changed purges for a change to what anonymous visitors see; local says this process
// made it (pagegen.Watcher's callback). A change made elsewhere is purged again after
// settleDelay.
func (c *PageCache) Changed(local bool) {
	if c == nil {
		return
	}
	c.Purge()
	if !local {
		time.AfterFunc(settleDelay, c.Purge)
	}
}

// Len and Bytes report the cache's size (tests, logs).
func (c *PageCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

func (c *PageCache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// pageEntry is one stored page: the rendered answer and its HTTP validators.
type pageEntry struct {
	key        string
	gen        uint64
	page       *renderedPage
	gzOnce     sync.Once
	gz         []byte      // the body gzipped, made when a visitor first accepts it (gzipped)
	header     http.Header // of an answer with the identity body (answerHeader)
	headerGz   http.Header // of an answer with gz, made with it
	cache      *PageCache
	etag       string // strong, of the identity body
	etagGz     string // of the gzip body
	modified   time.Time
	modifiedAt string // modified in http.TimeFormat
	freshUntil time.Time
	staleUntil time.Time
	size       int64
	elem       *list.Element
}

// pageFlight is one render under way for a key; requests for the same key wait for it.
type pageFlight struct {
	done    chan struct{}
	entry   *pageEntry // set when the render could be stored
	waiters int        // requests waiting besides the one rendering
}

// lookup answers the entry for key and whether it is fresh. An entry past its stale
// time is dropped.
func (c *PageCache) lookup(key string, now time.Time) (e *pageEntry, fresh bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e = c.entries[key]
	if e == nil {
		return nil, false
	}
	if now.After(e.staleUntil) {
		c.remove(e)
		return nil, false
	}
	c.lru.MoveToFront(e.elem)
	return e, !now.After(e.freshUntil)
}

func (c *PageCache) remove(e *pageEntry) {
	delete(c.entries, e.key)
	c.lru.Remove(e.elem)
	c.bytes -= e.size
}

// put stores e unless the cache was purged since its render began; it evicts the least
// recently used pages to stay within MaxBytes.
func (c *PageCache) put(e *pageEntry) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.gen != c.gen || e.size > c.set.MaxBytes/8 {
		return false
	}
	if old := c.entries[e.key]; old != nil {
		if old.etag == e.etag && old.modified.Before(e.modified) {
			// The same bytes again: keep the time they first appeared.
			e.modified, e.modifiedAt = old.modified, old.modifiedAt
			e.header["Last-Modified"] = []string{e.modifiedAt}
		}
		c.remove(old)
	}
	e.elem = c.lru.PushFront(e)
	c.entries[e.key] = e
	c.bytes += e.size
	for c.bytes > c.set.MaxBytes {
		c.remove(c.lru.Back().Value.(*pageEntry))
	}
	return true
}

// flight returns the render under way for key, or starts one (leader true).
func (c *PageCache) flight(key string) (f *pageFlight, gen uint64, leader bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.flights[key]; f != nil {
		f.waiters++
		return f, c.gen, false
	}
	f = &pageFlight{done: make(chan struct{})}
	c.flights[key] = f
	return f, c.gen, true
}

func (c *PageCache) land(key string, f *pageFlight) {
	c.mu.Lock()
	if c.flights[key] == f {
		delete(c.flights, key)
	}
	c.mu.Unlock()
	close(f.done)
}

// newEntry turns a storable render into an entry of generation gen.
func (c *PageCache) newEntry(key string, gen uint64, p *renderedPage, query bool) *pageEntry {
	now := c.now()
	fresh, stale := c.set.Fresh, c.set.Stale
	if query {
		fresh, stale = c.set.QueryFresh, c.set.QueryStale
	}
	sum := sha256.Sum256(p.body)
	tag := base64.RawURLEncoding.EncodeToString(sum[:18])
	e := &pageEntry{
		key:        key,
		gen:        gen,
		page:       p,
		etag:       `"` + tag + `"`,
		etagGz:     `"` + tag + `-gz"`,
		modified:   now.Truncate(time.Second),
		freshUntil: now.Add(fresh),
		staleUntil: now.Add(fresh + stale),
	}
	e.modifiedAt = e.modified.UTC().Format(http.TimeFormat)
	// answerHeader writes these for the cache's own answer.
	for _, k := range []string{"Cache-Control", "Vary", "Expires", "Pragma"} {
		p.header.Del(k)
	}
	e.cache = c
	e.header = c.answerHeader(e, p.body, e.etag, false)
	// Room for the gzip copy is taken now (HTML compresses to well under a third); it
	// is made only when a visitor accepting gzip asks, so a page nobody asks for again
	// (most searches) costs no compression beyond what the answer needed anyway.
	e.size = int64(len(p.body)+len(p.body)/3+len(key)) + 1024
	return e
}

// gzipped is the body gzipped, made once.
func (e *pageEntry) gzipped() []byte {
	e.gzOnce.Do(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		zw.Write(e.page.body)
		zw.Close()
		e.gz = buf.Bytes()
		e.headerGz = e.cache.answerHeader(e, e.gz, e.etagGz, true)
	})
	return e.gz
}

// gzipMinSize matches the front door's compression threshold (gzhttp.MinSize in New).
const gzipMinSize = 512

// storable reports whether a render for an anonymous request may be kept and shared.
func storable(p *renderedPage) bool {
	switch p.status {
	case http.StatusOK:
	case http.StatusNotFound:
		if !p.html() {
			return false
		}
	default:
		return false
	}
	if len(p.header.Values("Set-Cookie")) > 0 {
		return false
	}
	cc := strings.ToLower(strings.Join(p.header.Values("Cache-Control"), ","))
	return !strings.Contains(cc, "private") && !strings.Contains(cc, "no-store") && !strings.Contains(cc, "no-cache")
}

// personalCookie names the cookies that make a page the visitor's own: Go's session and
// its CSRF token (internal/auth), the web app's token-strategy cookies ("auth." prefix,
// web/app/lib/auth/constants.ts) and the content preview cookie (drafts).
func personalCookie(name string) bool {
	switch name {
	case "lineage_session", "XSRF-TOKEN", "io.prismic.preview":
		return true
	}
	return strings.HasPrefix(name, "auth.")
}

// anonymous reports whether r comes from a visitor without a session or preview.
func anonymous(r *http.Request) bool {
	if r.Header.Get("Authorization") != "" {
		return false
	}
	for _, c := range r.Cookies() {
		if personalCookie(c.Name) {
			return false
		}
	}
	return true
}

// trackingParams are query parameters that links carry for analytics; they never
// change a page, so they are left out of the key and of the URL rendered.
func trackingParam(name string) bool {
	switch name {
	case "fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "_ga":
		return true
	}
	return strings.HasPrefix(name, "utm_")
}

// pageKey is the cache key of r and the normalised URL to render for it: the query
// sorted by name (values keep their order), without tracking parameters. ok is false
// for a query that does not parse (such a page is rendered, not cached).
func pageKey(r *http.Request) (key string, u *url.URL, hasQuery bool, ok bool) {
	u = &url.URL{Path: r.URL.Path, RawPath: r.URL.RawPath}
	if r.URL.RawQuery != "" {
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			return "", nil, false, false
		}
		for name := range q {
			if trackingParam(name) {
				delete(q, name)
			}
		}
		u.RawQuery = q.Encode()
	}
	return strings.ToLower(r.Host) + " " + u.RequestURI(), u, u.RawQuery != "", true
}

// pageFront answers page requests: anonymous GETs and HEADs from the cache (when there
// is one), everything else rendered for its request. Every HTML answer leaves here
// sealed (sealScripts): its own inline scripts named by hash in the CSP.
func (s *Server) pageFront(render http.Handler) http.Handler {
	c := s.opts.PageCache
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !anonymous(r) {
			p := renderPage(render, r, r.Context())
			p.header.Set("Cache-Control", "private, no-store")
			p.write(w, r, "bypass")
			return
		}
		if c == nil || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			renderPage(render, r, r.Context()).write(w, r, "bypass")
			return
		}
		key, u, query, ok := pageKey(r)
		if !ok {
			renderPage(render, r, r.Context()).write(w, r, "bypass")
			return
		}
		e, fresh := c.lookup(key, c.now())
		switch {
		case e != nil && fresh:
			s.serveEntry(w, r, e, "hit")
			return
		case e != nil:
			c.revalidate(render, r, key, u, query)
			s.serveEntry(w, r, e, "stale")
			return
		case r.Method == http.MethodHead:
			// A HEAD is not rendered by the web app; it is not worth a render to store.
			renderPage(render, r, r.Context()).write(w, r, "miss")
			return
		}
		f, gen, leader := c.flight(key)
		if leader {
			ctx, cancel := detached(r.Context())
			p := renderPage(render, anonymousRequest(r, u), ctx)
			cancel()
			if storable(p) {
				f.entry = c.newEntry(key, gen, p, query)
				c.put(f.entry)
			}
			c.land(key, f)
			if f.entry != nil {
				s.serveEntry(w, r, f.entry, "miss")
			} else {
				p.write(w, r, "miss")
			}
			return
		}
		select {
		case <-f.done:
		case <-r.Context().Done():
			return
		}
		if f.entry != nil {
			s.serveEntry(w, r, f.entry, "hit")
			return
		}
		// What the other request got was not shareable (a cookie, an error): render
		// for this one.
		renderPage(render, anonymousRequest(r, u), r.Context()).write(w, r, "miss")
	})
}

// revalidate renders a stale page again in the background unless a render is under way.
func (c *PageCache) revalidate(render http.Handler, r *http.Request, key string, u *url.URL, query bool) {
	f, gen, leader := c.flight(key)
	if !leader {
		return
	}
	req := anonymousRequest(r, u)
	go func() {
		ctx, cancel := detached(r.Context())
		defer cancel()
		p := renderPage(render, req, ctx)
		if storable(p) {
			f.entry = c.newEntry(key, gen, p, query)
			c.put(f.entry)
		}
		c.land(key, f)
	}()
}

// detached keeps a shared render going when the visitor who started it leaves; the
// proxy's own response timeout ends a stuck one sooner.
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
}

// anonymousRequest is r as any anonymous visitor would send it: a GET of the
// normalised URL without cookies or validators.
func anonymousRequest(r *http.Request, u *url.URL) *http.Request {
	out := r.Clone(r.Context())
	out.Method = http.MethodGet
	out.URL.Path, out.URL.RawPath, out.URL.RawQuery = u.Path, u.RawPath, u.RawQuery
	out.RequestURI = u.RequestURI()
	for _, h := range []string{"Cookie", "Authorization", "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"} {
		out.Header.Del(h)
	}
	out.Body = http.NoBody
	out.ContentLength = 0
	return out
}

// serveEntry answers from a stored page: 304 when the request's validators match,
// else the page, gzipped when the visitor accepts it. The header is the entry's, made
// once (answerHeader), so a hit costs no header building.
func (s *Server) serveEntry(w http.ResponseWriter, r *http.Request, e *pageEntry, state string) {
	h := w.Header()
	gz := len(e.page.body) >= gzipMinSize && acceptsGzip(r)
	body, src := e.page.body, e.header
	if gz {
		body = e.gzipped() // makes headerGz
		src = e.headerGz
	}
	if notModified(r, e) {
		// A 304 carries the CSP too: a browser updates the stored page's headers from it.
		for _, k := range revalidationHeaders {
			h[k] = src[k]
		}
		h["X-Lineage-Cache"] = cacheState[state]
		w.WriteHeader(http.StatusNotModified)
		return
	}
	for k, v := range src {
		h[k] = v
	}
	h["X-Lineage-Cache"] = cacheState[state]
	w.WriteHeader(e.page.status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// revalidationHeaders are what a 304 from the cache carries of the page's header.
var revalidationHeaders = []string{"Content-Security-Policy", "Cache-Control", "Vary", "Etag", "Last-Modified"}

// cacheState are the X-Lineage-Cache values, as header values to share.
var cacheState = map[string][]string{"hit": {"hit"}, "stale": {"stale"}, "miss": {"miss"}}

// answerHeader is the header of an answer from e with body (etag its tag, gz whether
// it is the gzip copy). Every key is canonical and every value its own slice with no
// room to grow: answers share it, and a handler after us that adds to a header
// (append) gets a new slice instead of writing into the entry's.
func (c *PageCache) answerHeader(e *pageEntry, body []byte, etag string, gz bool) http.Header {
	h := make(http.Header, len(e.page.header)+8)
	for k, v := range e.page.header {
		h[http.CanonicalHeaderKey(k)] = slices.Clip(slices.Clone(v))
	}
	h["Content-Security-Policy"] = []string{e.page.csp}
	h["Cache-Control"] = []string{c.cacheControl}
	h["Vary"] = []string{"Accept-Encoding, Cookie"}
	h["Etag"] = []string{etag}
	h["Last-Modified"] = []string{e.modifiedAt}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	if gz {
		h["Content-Encoding"] = []string{"gzip"}
	}
	return h
}

func (s *Server) publicCacheControl() string { return s.opts.PageCache.cacheControl }

// notModified applies If-None-Match (weak comparison, as RFC 9110 asks for it), or
// else If-Modified-Since, to a stored page.
func notModified(r *http.Request, e *pageEntry) bool {
	if e.page.status != http.StatusOK {
		return false
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == "*" || t == e.etag || t == e.etagGz {
				return true
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" {
		if t, err := http.ParseTime(ims); err == nil {
			return !e.modified.After(t)
		}
	}
	return false
}

func acceptsGzip(r *http.Request) bool { return accepts(r, "gzip") }

// accepts tells whether the request's Accept-Encoding allows the content coding.
func accepts(r *http.Request, coding string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		c, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(c), coding) {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// renderedPage is one answer of the SSR child, read whole.
type renderedPage struct {
	status int
	header http.Header
	body   []byte
	csp    string
}

func (p *renderedPage) html() bool {
	return strings.HasPrefix(p.header.Get("Content-Type"), "text/html")
}

// write sends a render that is not from the cache.
func (p *renderedPage) write(w http.ResponseWriter, r *http.Request, state string) {
	h := w.Header()
	copyHeader(h, p.header)
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	h.Set("Content-Security-Policy", p.csp)
	h.Set("X-Lineage-Cache", state)
	h.Set("Content-Length", strconv.Itoa(len(p.body)))
	w.WriteHeader(p.status)
	if r.Method != http.MethodHead {
		w.Write(p.body)
	}
}

// copyHeader sets dst's values of src's keys to copies: a stored page's header slices
// must not be appended to by whatever handles the answer after us.
func copyHeader(dst, src http.Header) {
	for k, v := range src {
		dst[k] = append([]string(nil), v...)
	}
}

// renderPage has render (the SSR proxy) answer r under ctx into memory, with a fresh
// nonce marking the inline scripts the web app writes, and seals the result.
func renderPage(render http.Handler, r *http.Request, ctx context.Context) *renderedPage {
	nonce := newNonce()
	rec := &pageRecorder{header: http.Header{}}
	render.ServeHTTP(rec, r.WithContext(context.WithValue(ctx, nonceKey{}, nonce)))
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	p := &renderedPage{status: rec.status, header: rec.header, body: rec.body.Bytes()}
	var hashes []string
	if p.html() {
		p.body, hashes = sealScripts(p.body, nonce)
	}
	p.csp = contentSecurityPolicy(hashes)
	for _, k := range []string{"Content-Length", "Date", "Content-Security-Policy", "X-Lineage-Cache", "Etag", "Last-Modified"} {
		p.header.Del(k)
	}
	return p
}

// pageRecorder is the ResponseWriter a render writes into.
type pageRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *pageRecorder) Header() http.Header { return w.header }

func (w *pageRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *pageRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(b)
}

func (w *pageRecorder) Flush() {}
