package content

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// MediaDir is where media live inside the data directory.
func MediaDir(dataDir string) string { return filepath.Join(dataDir, "files", "media") }

// PutMedia stores a medium under name (a slash-separated path such as
// "studio/church.jpg"), replacing any of that name whole (a temporary file renamed into
// place, so a request never sees half of it), and returns its size. It is served at
// /media/{name}. A name that cannot be a URL path (empty, "..", backslashes, a part
// starting with ".") is refused.
func (s *Service) PutMedia(ctx context.Context, name string, r io.Reader) (int64, error) {
	if !fs.ValidPath(name) || name == "." || strings.Contains(name, "\\") || strings.HasPrefix(name, ".") || strings.Contains(name, "/.") {
		return 0, fmt.Errorf("content: media name %q is not a valid path", name)
	}
	if s.opts.DataDir == "" {
		return 0, fmt.Errorf("content: store media %s: no data directory is configured", name)
	}
	target := filepath.Join(MediaDir(s.opts.DataDir), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return 0, fmt.Errorf("content: store media %s: %w", name, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), ".upload-*")
	if err != nil {
		return 0, fmt.Errorf("content: store media %s: %w", name, err)
	}
	n, err := io.Copy(tmp, r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return 0, fmt.Errorf("content: store media %s: %w", name, err)
	}
	return n, nil
}

// ServeMedia serves GET /media/{file...} from DataDir/files/media. The query string
// is ignored, so imgix parameters (?auto=format&w=640) that @prismicio/react appends are
// harmless. There is no directory listing; anything outside the media directory
// (.., symlinks out) is 404. Another method is a plain-text 405, as Go's ServeMux
// answers it.
func (s *Service) ServeMedia(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	mediaHandler{dir: MediaDir(s.opts.DataDir)}.ServeHTTP(w, r)
}

type mediaHandler struct{ dir string }

// mediaCacheControl: media are replaced only by a re-import, so a week of caching with
// revalidation (Last-Modified, ETag-less) is long without pinning a stale file forever.
const mediaCacheControl = "public, max-age=604800"

func (h mediaHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/media/")
	if !ok || name == "" || strings.Contains(name, "\\") || !fs.ValidPath(name) {
		http.NotFound(w, r)
		return
	}
	root, err := os.OpenRoot(h.dir)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer root.Close()
	f, err := root.Open(name) // os.Root refuses paths and symlinks that leave the directory
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	ctype, inline := mediaType(name)
	hd.Set("Content-Type", ctype)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", mediaCacheControl)
	hd.Set("Access-Control-Allow-Origin", "*")
	if strings.HasPrefix(ctype, "image/svg+xml") {
		// An SVG opened on its own must not run scripts in the site's origin.
		hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	}
	if !inline {
		hd.Set("Content-Disposition", "attachment")
	}
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// mediaType returns the content type of a media file and whether browsers may show it
// inline. Types that could run script in our origin (HTML and the like) download instead.
func mediaType(name string) (string, bool) {
	ext := strings.ToLower(filepath.Ext(name))
	if t, ok := mediaTypes[ext]; ok {
		return t, true
	}
	if t := mime.TypeByExtension(ext); t != "" {
		base, _, _ := strings.Cut(t, ";")
		if strings.HasPrefix(base, "image/") || strings.HasPrefix(base, "video/") || strings.HasPrefix(base, "audio/") {
			return t, true
		}
		return t, base == "text/plain"
	}
	return "application/octet-stream", false
}

var mediaTypes = map[string]string{
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".avif": "image/avif",
	".ico":  "image/x-icon",
	".pdf":  "application/pdf",
	".mp4":  "video/mp4",
	".webm": "video/webm",
	".mp3":  "audio/mpeg",
	".ogg":  "audio/ogg",
	".txt":  "text/plain; charset=utf-8",
	".csv":  "text/csv; charset=utf-8",
	".json": "application/json",
	".vtt":  "text/vtt; charset=utf-8",
}
