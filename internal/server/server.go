package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/klauspost/compress/gzhttp"

	"lineage/internal/httpx"
)

// Pinger is what /readyz asks of the database.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Mount attaches a domain's handler at a ServeMux pattern ("/content/api/v2/", "GET /media/");
// it is the route table's own mount (httpx.Room.Mounts).
type Mount = httpx.Mount

// Options are the parts the front door is assembled from; cmd/lineage wires them.
type Options struct {
	WebDir    string // the web app: build/client/assets and node_modules/universalviewer/dist
	PublicURL string // https:// here turns on HSTS and Secure cookies
	DB        Pinger
	SSR       *SSR // nil: page requests answer 503 (used by Go-only tests)
	Mounts    []Mount
	Log       *slog.Logger
	// PageCache keeps anonymous pages (pagecache.go); nil: every page is rendered.
	PageCache *PageCache
	// PagesChanged is called after a 2xx answer of a mount that ChangesPages (without
	// it, PageCache is purged).
	PagesChanged func(context.Context)
	// Readiness is the instance's own state (starting, draining); nil: always ready.
	Readiness *Readiness
	// Checks are asked by /readyz after the database and the web app.
	Checks []Check
}

// Server is the HTTP handler of `lineage serve`.
type Server struct {
	opts    Options
	handler http.Handler
	https   bool
}

// New builds the route table and the middleware chain.
func New(opts Options) *Server {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	s := &Server{opts: opts}
	if u, err := url.Parse(opts.PublicURL); err == nil && u.Scheme == "https" {
		s.https = true
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", s.readyz)
	// Build assets carry a content hash in their names, so they never change.
	mux.Handle("GET /assets/", staticFiles(filepath.Join(opts.WebDir, "build", "client", "assets"), "/assets/", "public, max-age=31536000, immutable"))
	mux.Handle("GET /uv/", staticFiles(filepath.Join(opts.WebDir, "node_modules", "universalviewer", "dist"), "/uv/", "public, max-age=86400"))
	for _, m := range opts.Mounts {
		h := m.Handler
		if m.ChangesPages {
			h = s.purgeAfter(h)
		}
		mux.Handle(m.Pattern, h)
	}
	mux.Handle("/", s.pageFront(s.pages()))

	gz, err := gzhttp.NewWrapper(gzhttp.MinSize(512))
	if err != nil {
		panic(err) // only on invalid static options
	}
	var h http.Handler = gz(mux)
	h = s.securityHeaders(h)
	h = rejectDotSegments(h)
	h = limitQuery(h)
	h = s.logRequests(h)
	h = recoverPanics(opts.Log, h)
	s.handler = h
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	var problems []string
	if reason := s.opts.Readiness.Reason(); reason != "" {
		problems = append(problems, reason)
	}
	if s.opts.DB == nil {
		problems = append(problems, "database: not configured")
	} else if err := s.opts.DB.Ping(r.Context()); err != nil {
		problems = append(problems, "database: "+err.Error())
	}
	if s.opts.SSR == nil {
		problems = append(problems, "ssr: not configured")
	} else if err := s.opts.SSR.Health(); err != nil {
		problems = append(problems, "ssr: "+err.Error())
	}
	var warnings []string
	for _, c := range s.opts.Checks {
		if err := c.Err(); err != nil && c.Warn {
			warnings = append(warnings, c.Name+": "+err.Error())
		} else if err != nil {
			problems = append(problems, c.Name+": "+err.Error())
		}
	}
	if len(problems) > 0 {
		notReady(w, append(problems, warnings...))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(strings.Join(append([]string{"ready"}, warnings...), "\n") + "\n"))
}

// pages proxies every request no Go handler owns to the SSR child.
func (s *Server) pages() http.Handler {
	if s.opts.SSR == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			unavailable(w)
		})
	}
	ssr := s.opts.SSR
	set := ssr.settings()
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(ssr.URL())
			pr.SetXForwarded()
			// Go compresses once, on the way out.
			pr.Out.Header.Del("Accept-Encoding")
			pr.Out.Header.Set(nonceHeader, nonceFrom(pr.In.Context()))
			s.dropOwnOrigin(pr.Out, pr.In)
		},
		FlushInterval: -1, // stream server-rendered HTML as React produces it
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if !errors.Is(err, context.Canceled) {
				s.opts.Log.Error("ssr proxy", "path", r.URL.Path, "err", err)
			}
			unavailable(w)
		},
		// The workers: each request goes to the least busy one that answers.
		Transport: ssr.Transport(&http.Transport{
			DialContext:           (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
			ResponseHeaderTimeout: set.ResponseTimeout,
			MaxIdleConnsPerHost:   64,
			IdleConnTimeout:       90 * time.Second,
			// Without this the transport asks the worker for gzip itself (the request
			// has no Accept-Encoding) and inflates the answer: Node would compress
			// every page only for Go to undo it.
			DisableCompression: true,
		}),
	}
	slots := newRenderSlots(rendersPerWorker*set.Workers, slowRenderGrace)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A worker that is starting, restarting or has stopped answering gets no more
		// requests to hold; with none answering, the visitor is told to come back at
		// once.
		if ssr.Health() != nil {
			unavailable(w)
			return
		}
		// Waiting for a slot counts against the same limit as waiting for the worker's
		// answer: a page is given up as unavailable after ResponseTimeout either way.
		release, ok := slots.take(r.Context(), set.ResponseTimeout)
		if !ok {
			if r.Context().Err() == nil {
				unavailable(w)
			}
			return
		}
		defer release()
		proxy.ServeHTTP(w, r)
	})
}

func unavailable(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Retry-After", "2")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	w.Write([]byte(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lineage is starting</title></head>` +
		`<body><main><h1>Lineage is starting</h1><p>The site will be back in a moment. Please reload the page.</p></main></body></html>`))
}

// dropOwnOrigin removes the Origin header of a request that comes from this site.
//
// React Router refuses an action (a POST to a page) whose Origin differs from the URL
// it sees, and behind this proxy it sees its own loopback address, so every same-origin
// form post would be refused with 400. Go checks the Origin here instead — this site
// is the request's own host or the public URL's origin — and drops it when it matches,
// so React Router's check passes; a foreign Origin is passed on unchanged and React
// Router still refuses it.
func (s *Server) dropOwnOrigin(out, in *http.Request) {
	origin := in.Header.Get("Origin")
	if origin == "" || origin == "null" {
		return
	}
	if s.isOwnOrigin(origin, in.Host) {
		out.Header.Del("Origin")
	}
}

func (s *Server) isOwnOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.Path != "" {
		return false
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	pub, err := url.Parse(s.opts.PublicURL)
	return err == nil && pub.Host != "" && strings.EqualFold(u.Scheme, pub.Scheme) && strings.EqualFold(u.Host, pub.Host)
}
