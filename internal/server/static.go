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
		http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
	})
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
