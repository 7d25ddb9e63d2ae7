// Package httpx holds small HTTP helpers the API packages share: JSON answers, the API's
// error contract (Error, FieldErrors, WriteError, DecodeJSON), the rows of the route
// table (Route, Room: cmd/lineage/routes.go), the fallback for requests a mux has no
// route for, and who a request comes from (docs/decisions/013).
package httpx

import (
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// NoRoute serves mux, and lets the caller answer in its own error format what the mux
// has no route for: notAllowed when the path exists for other methods (the Allow
// header already set from the mux's routes), notFound otherwise.
func NoRoute(mux *http.ServeMux, notFound, notAllowed http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		// What the mux's own handler would answer: 405 with Allow, or 404.
		probe := &statusProbe{header: http.Header{}}
		h.ServeHTTP(probe, r)
		if probe.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", probe.header.Get("Allow"))
			notAllowed(w, r)
			return
		}
		notFound(w, r)
	})
}

// statusProbe records a status and headers, and discards the body.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header         { return p.header }
func (p *statusProbe) Write(b []byte) (int, error) { return len(b), nil }
func (p *statusProbe) WriteHeader(code int)        { p.status = code }

// JSON answers v as JSON with a status. The answer is never cached (API answers
// depend on who asks), and <, > and & are left as they are.
func JSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// Reply answers v as JSON with a status, unless err says the call that made v failed:
// then it writes nothing and returns err for the room to answer. A handler whose work
// is one call ends with it.
func Reply(w http.ResponseWriter, status int, v any, err error) error {
	if err != nil {
		return err
	}
	JSON(w, status, v)
	return nil
}

// NoContent answers 204 No Content (never cached, as JSON's answers), unless err says
// the work failed: then it writes nothing and returns err for the room to answer. A
// handler whose answer is only "done" ends with it.
func NoContent(w http.ResponseWriter, err error) error {
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// PathID is the path's wildcard name as a positive integer (a row's id); anything else
// names nothing, and is a 404.
func PathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, ErrNotFound
	}
	return id, nil
}

// ClientIP is the visitor's address. The peer is trusted to name the visitor in
// X-Forwarded-For only when it is on loopback (the SSR child, or a proxy on the same
// host); the right-most address that is not loopback is taken.
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return host
	}
	xff := r.Header.Values("X-Forwarded-For")
	parts := strings.Split(strings.Join(xff, ","), ",")
	for i := len(parts) - 1; i >= 0; i-- {
		p := strings.TrimSpace(parts[i])
		if a := net.ParseIP(p); a != nil && !a.IsLoopback() {
			return a.String()
		}
	}
	return host
}
