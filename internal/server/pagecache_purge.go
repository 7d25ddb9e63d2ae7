package server

import (
	"context"
	"net/http"
	"strings"
)

// PageWrite names API requests whose success changes what anonymous visitors see:
// Method, and a path equal to Path or below it when Path ends in "/".
type PageWrite struct {
	Method, Path string
}

func (pw PageWrite) matches(r *http.Request) bool {
	if r.Method != pw.Method {
		return false
	}
	if strings.HasSuffix(pw.Path, "/") {
		return strings.HasPrefix(r.URL.Path, pw.Path)
	}
	return r.URL.Path == pw.Path
}

// purgeAfterWrites calls PagesChanged (or purges this server's cache) after a 2xx
// answer to one of PageWrites, before the answer leaves: whoever made the change sees
// it on their next page.
func (s *Server) purgeAfterWrites(next http.Handler) http.Handler {
	writes := s.opts.PageWrites
	if len(writes) == 0 {
		return next
	}
	changed := s.opts.PagesChanged
	if changed == nil {
		changed = func(context.Context) { s.opts.PageCache.Purge() }
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		matched := false
		for _, pw := range writes {
			if pw.matches(r) {
				matched = true
				break
			}
		}
		if !matched {
			next.ServeHTTP(w, r)
			return
		}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status >= 200 && sw.status < 300 {
			changed(context.WithoutCancel(r.Context()))
		}
	})
}
