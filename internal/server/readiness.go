package server

import (
	"net/http"
	"strings"
	"sync/atomic"
)

// Readiness is the instance's own part of /readyz: why it is not ready ("starting:
// migrating the database", "draining: shutting down"), or nothing once it is. A load
// balancer sends an instance no new requests while its /readyz answers 503, so serve
// says "starting" until every room is built and "draining" for a while before it stops
// listening (docs/deployment.md, "Several instances").
type Readiness struct {
	reason atomic.Pointer[string]
}

// NewReadiness returns a Readiness that is not ready, for reason.
func NewReadiness(reason string) *Readiness {
	r := &Readiness{}
	r.Set(reason)
	return r
}

// Set records why the instance is not ready; "" makes it ready.
func (r *Readiness) Set(reason string) { r.reason.Store(&reason) }

// Reason is why the instance is not ready, or "" when it is (or r is nil).
func (r *Readiness) Reason() string {
	if r == nil {
		return ""
	}
	if p := r.reason.Load(); p != nil {
		return *p
	}
	return ""
}

// Check is one more thing /readyz asks about: Err returns a problem, or nil. It must be
// quick (it runs on every probe). A problem makes the instance not ready, unless Warn:
// then /readyz still answers 200 and lists it under "ready" (a problem every instance
// would have alike, where taking this one out of service helps no one).
type Check struct {
	Name string
	Err  func() error
	Warn bool
}

// Gate is the handler of an instance's listener, which opens before the instance is
// ready so that a load balancer or an operator can see why it is not: until Open,
// /healthz answers ok, /readyz answers 503 with the Readiness's reason, and every other
// request 503 with Retry-After; after Open, the handler given answers everything.
type Gate struct {
	ready *Readiness
	h     atomic.Pointer[http.Handler]
}

// NewGate returns a closed Gate that reports ready's reason.
func NewGate(ready *Readiness) *Gate { return &Gate{ready: ready} }

// Open hands every request from now on to h.
func (g *Gate) Open(h http.Handler) { g.h.Store(&h) }

func (g *Gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := g.h.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	switch r.URL.Path {
	case "/healthz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	case "/readyz":
		reason := g.ready.Reason()
		if reason == "" {
			reason = "starting"
		}
		notReady(w, []string{reason})
	default:
		unavailable(w)
	}
}

// notReady answers /readyz's 503 with one reason a line.
func notReady(w http.ResponseWriter, problems []string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	w.Write([]byte(strings.Join(problems, "\n") + "\n"))
}
