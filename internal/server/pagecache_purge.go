package server

import (
	"context"
	"net/http"
)

// purgeAfter calls PagesChanged (or purges this server's cache) after a 2xx answer of
// next, before the answer leaves: whoever made the change sees it on their next page.
// The front door wraps the mounts whose route ChangesPages.
func (s *Server) purgeAfter(next http.Handler) http.Handler {
	changed := s.opts.PagesChanged
	if changed == nil {
		changed = func(context.Context) {
			if s.opts.PageCache != nil {
				s.opts.PageCache.Purge()
			}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status >= 200 && sw.status < 300 {
			changed(context.WithoutCancel(r.Context()))
		}
	})
}
