package content

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path/filepath"
	"strings"

	"lineage/internal/blob"
)

// MediaDir is where media live inside the data directory when the store is the local
// folder.
func MediaDir(dataDir string) string { return filepath.Join(dataDir, "files", "media") }

// mediaPrefix is where media live in the store: /media/{name} is the object
// media/{name}.
const mediaPrefix = "media/"

// blobs is where the service keeps media: Options.Blobs, or the local folder.
func (s *Service) blobs() blob.Store {
	if s.opts.Blobs != nil {
		return s.opts.Blobs
	}
	return blob.NewLocal(blob.LocalDir(s.opts.DataDir))
}

// MediaURL is the public URL of a medium stored under name.
func (s *Service) MediaURL(name string) string {
	return s.opts.PublicURL + "/media/" + name
}

// PutMedia stores a medium under name (a slash-separated path such as
// "library/church.jpg"), replacing any of that name, and returns its size. Every
// instance serves it at /media/{name} at once. A name that cannot be a URL path
// (empty, "..", backslashes, a part starting with ".") is refused with
// blob.ErrInvalidKey.
func (s *Service) PutMedia(ctx context.Context, name string, r io.Reader) (int64, error) {
	if !validMediaName(name) {
		return 0, fmt.Errorf("content: media name %q: %w", name, blob.ErrInvalidKey)
	}
	info, err := s.blobs().Put(ctx, mediaPrefix+name, r, blob.PutOptions{ContentType: contentTypeOf(name)})
	if err != nil {
		return 0, fmt.Errorf("content: store media %s: %w", name, err)
	}
	return info.Size, nil
}

func contentTypeOf(name string) string {
	t, _ := mediaType(name)
	return t
}

// validMediaName: what fs.ValidPath and blob.ValidKey accept, without backslashes or
// parts starting with "." (hidden files are never media).
func validMediaName(name string) bool {
	if name == "" || strings.Contains(name, "\\") || !fs.ValidPath(name) || !blob.ValidKey(mediaPrefix+name) {
		return false
	}
	for part := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(part, ".") {
			return false
		}
	}
	return true
}

// ServeMedia serves GET /media/{file...} from the store (DataDir/files/media by
// default). The query string is ignored, so imgix parameters (?auto=format&w=640) that
// @prismicio/react appends are harmless. There is no directory listing; anything
// outside the media (.., symlinks out of the folder) is 404. Another method is a
// plain-text 405, as Go's ServeMux answers it.
func (s *Service) ServeMedia(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	mediaHandler{st: s.blobs()}.ServeHTTP(w, r)
}

type mediaHandler struct{ st blob.Store }

// mediaCacheControl: media are replaced only by a re-import, so a week of caching with
// revalidation (Last-Modified, ETag-less) is long without pinning a stale file forever.
const mediaCacheControl = "public, max-age=604800"

func (h mediaHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/media/")
	if !ok || name == "" || strings.Contains(name, "\\") || !fs.ValidPath(name) || !blob.ValidKey(mediaPrefix+name) {
		http.NotFound(w, r)
		return
	}
	rc, info, err := h.st.Get(r.Context(), mediaPrefix+name, blob.Range{})
	if err != nil {
		http.NotFound(w, r)
		return
	}
	// A range or a 304 reads no further than it needs; the open reader serves a whole
	// answer without a second request.
	f := blob.ReadSeeker(r.Context(), h.st, info, rc)
	defer f.Close()
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
	http.ServeContent(w, r, name, info.ModTime, f)
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
