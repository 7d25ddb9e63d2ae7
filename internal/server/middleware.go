package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"
)

// nonceHeader carries a render's script marker to the SSR child, which puts it on the
// inline scripts React Router writes; pageFront turns the marked scripts into CSP hashes
// (pagecache_csp.go).
const nonceHeader = "X-Lineage-Nonce"

type nonceKey struct{}

func nonceFrom(ctx context.Context) string {
	n, _ := ctx.Value(nonceKey{}).(string)
	return n
}

// maxQueryKeys is the spec's query-string parser limit.
const maxQueryKeys = 1000

// securityHeaders sets the headers every response carries. The CSP is the one without
// inline scripts; a page's answer replaces it with one naming its own (pageFront). The
// values are shared slices with no room to grow (an append copies), set under their
// canonical keys, as every request pays for them.
func (s *Server) securityHeaders(next http.Handler) http.Handler {
	always := map[string][]string{
		"Content-Security-Policy": {basePolicy},
		"X-Content-Type-Options":  {"nosniff"},
		"Referrer-Policy":         {"strict-origin-when-cross-origin"},
		"X-Frame-Options":         {"SAMEORIGIN"},
		"Permissions-Policy":      {"camera=(), microphone=(), geolocation=()"},
	}
	if s.https {
		always["Strict-Transport-Security"] = []string{"max-age=63072000; includeSubDomains"}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range always {
			h[k] = v
		}
		next.ServeHTTP(w, r)
	})
}

// limitQuery refuses query strings with more keys than the spec's parser allows.
func limitQuery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.RawQuery; q != "" && strings.Count(q, "&")+strings.Count(q, ";") >= maxQueryKeys {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"message":"Too many query parameters: at most %d are allowed."}`+"\n", maxQueryKeys)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// rejectDotSegments answers 404 to any path with "." or ".." segments instead of the
// mux's redirect to the cleaned path: such URLs are probes, not links anyone follows.
func rejectDotSegments(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, seg := range strings.Split(r.URL.Path, "/") {
			if seg == "." || seg == ".." {
				http.NotFound(w, r)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
			return
		}
		level := slog.LevelInfo
		if sw.status >= 500 {
			level = slog.LevelError
		}
		s.opts.Log.LogAttrs(r.Context(), level, "request",
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", sw.status),
			slog.Int64("bytes", sw.bytes),
			slog.Duration("duration", time.Since(start)),
		)
	})
}

func recoverPanics(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				log.Error("panic", "path", r.URL.Path, "panic", p, "stack", string(debug.Stack()))
				http.Error(w, "Internal Server Error", http.StatusInternalServerError)
			}
		}()
		next.ServeHTTP(w, r)
	})
}
