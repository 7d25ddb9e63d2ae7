package server

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// staticFiles serves regular files below root for URLs below prefix. Anything that is
// not a plain file inside root — directories, "..", backslashes, NUL, dot files —
// is a 404, never a listing or a redirect.
func staticFiles(root, prefix, cacheControl string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel := strings.TrimPrefix(r.URL.Path, prefix)
		if !safeRelPath(rel) {
			http.NotFound(w, r)
			return
		}
		full := filepath.Join(root, filepath.FromSlash(rel))
		f, err := os.Open(full)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", cacheControl)
		name, mod := fi.Name(), fi.ModTime()
		if c, ok := precompressed(full, r); ok {
			defer c.Close()
			f = c.File
			w.Header().Set("Content-Encoding", c.coding)
			w.Header().Add("Vary", "Accept-Encoding")
		}
		// The original's name gives the Content-Type; with Content-Encoding set, the
		// front door's compression passes the answer on as it is.
		http.ServeContent(w, r, name, mod, f)
	})
}

// encodedFile is a copy of a static file compressed at build time.
type encodedFile struct {
	*os.File
	coding string
}

// precomputedCodings are the copies the web build writes beside each asset (vite.config.ts,
// precompress): brotli and gzip at their highest levels, once, instead of gzip at the
// default level on every request. In the order they are preferred.
var precomputedCodings = []struct{ coding, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// precompressed opens the build's compressed copy of full that r accepts, if there is one.
func precompressed(full string, r *http.Request) (*encodedFile, bool) {
	for _, c := range precomputedCodings {
		if !accepts(r, c.coding) {
			continue
		}
		f, err := os.Open(full + c.ext)
		if err != nil {
			continue
		}
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			f.Close()
			continue
		}
		return &encodedFile{File: f, coding: c.coding}, true
	}
	return nil, false
}

// safeRelPath accepts a slash-separated relative path with no empty, "." or ".."
// segments and nothing a file system could misread.
func safeRelPath(p string) bool {
	if p == "" || strings.ContainsAny(p, "\\\x00") || path.IsAbs(p) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.HasPrefix(seg, ".") {
			return false
		}
	}
	return true
}
