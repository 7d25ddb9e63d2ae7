package iiif

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"lineage/internal/access"
	"lineage/internal/blob"
	"lineage/internal/httpx"
	"lineage/internal/store"
)

// Prefix is the path of the image service and the manifests.
const Prefix = "/iiif/3/"

// Membership tells which scopes the requester holds (auth.User.Scope; nil for an
// anonymous one), which a scan's access.Level opens or not (cmd/lineage's memberCheck).
type Membership interface {
	Scope(r *http.Request) []string
}

// Options configure the service.
type Options struct {
	DataDir string // scans live under DataDir/files/iiif, unless Blobs says otherwise
	// Blobs holds the tiles, the import's sizes and the derivative cache under iiif/;
	// nil: the local folder DataDir/files.
	Blobs blob.Store
	// SignedTiles, when above zero, answers a public scan's pre-cut tiles with a
	// redirect to a URL of the store signed for that long (stores that can sign), not
	// with the bytes. Members-only scans are always served by this server.
	SignedTiles time.Duration
	PublicURL   string // origin of absolute ids; empty: the request's
	Members     Membership
	// Authenticate wraps a handler so that Members can see the signed-in user (the
	// accounts middleware). The image server runs it only for members-only scans, so
	// public tiles never touch sessions or set cookies; the route table runs it around
	// the images API.
	Authenticate func(http.Handler) http.Handler
	Limits       Limits
	CacheBytes   int64 // cap of the derivative cache; default 512 MiB
	// RenderSlots is how many derivatives are made at once; default GOMAXPROCS.
	RenderSlots int
	// QueuePerClient is how many derivatives one client may have being made or
	// waiting; default 8, a page of images. More answer 429 to that client.
	QueuePerClient int
	// QueueTotal is how many derivatives may wait, all clients together; default 64.
	QueueTotal int
	// QueueWait is how long a derivative waits for a slot before a 503; default 30 s.
	QueueWait time.Duration
	// ClientKey names who a request comes from, for the render queue's turns;
	// default visitorKey. Not the session cookie: anyone can make up new ones.
	ClientKey func(r *http.Request) string
	// TileMemoryBytes caps the tiles kept in memory; default 64 MiB.
	TileMemoryBytes int64
	Log             *slog.Logger
	// Rights and Attribution are the defaults of items imported without them.
	Rights      string
	Attribution string
}

// DefaultRights is the rights statement of scans imported without one.
const DefaultRights = "http://rightsstatements.org/vocab/InC-EDU/1.0/"

// DefaultAttribution is the required statement of scans imported without one.
const DefaultAttribution = "Reproduced by permission of the Lineage family history society. For research and private study."

// Service is the image explorer's room: the IIIF image server, manifests, the images
// API and imports.
type Service struct {
	db      *store.DB
	opts    Options
	root    string // DataDir/files/iiif: the local store's folder, when it is local
	blobs   blob.Store
	staging string // DataDir/tmp: local files being made

	cacheOnce sync.Once
	cache     *diskCache
	cacheErr  error
	queue     *renderQueue // slots for on-demand derivatives

	mu     sync.RWMutex
	images map[string]cachedImage

	tiles *memCache // recently served tiles

	unreachable unreachable // the last scan whose files were missing (unreachable.go)
}

type cachedImage struct {
	row     *imageRow
	expires time.Time
}

// imageTTL is how long the server trusts what it read about a scan; imports run in
// other processes.
const imageTTL = 5 * time.Second

// New makes the service.
func New(db *store.DB, opts Options) *Service {
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits
	}
	if opts.CacheBytes <= 0 {
		opts.CacheBytes = 512 << 20
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.RenderSlots <= 0 {
		opts.RenderSlots = max(1, runtime.GOMAXPROCS(0))
	}
	if opts.QueuePerClient <= 0 {
		opts.QueuePerClient = 8
	}
	if opts.QueueTotal <= 0 {
		opts.QueueTotal = 64
	}
	if opts.QueueWait <= 0 {
		opts.QueueWait = 30 * time.Second
	}
	if opts.ClientKey == nil {
		opts.ClientKey = visitorKey
	}
	if opts.TileMemoryBytes <= 0 {
		opts.TileMemoryBytes = 64 << 20
	}
	if opts.Rights == "" {
		opts.Rights = DefaultRights
	}
	if opts.Attribution == "" {
		opts.Attribution = DefaultAttribution
	}
	opts.PublicURL = strings.TrimRight(opts.PublicURL, "/")
	if opts.Blobs == nil {
		opts.Blobs = blob.NewLocal(blob.LocalDir(opts.DataDir))
	}
	staging := ""
	if opts.DataDir != "" {
		staging = filepath.Join(opts.DataDir, "tmp")
		sweepStaging(staging, time.Now())
	}
	return &Service{
		db:      db,
		opts:    opts,
		blobs:   opts.Blobs,
		staging: staging,
		root:    filepath.Join(opts.DataDir, "files", "iiif"),
		queue:   newRenderQueue(opts.RenderSlots, opts.QueuePerClient, opts.QueueTotal),
		images:  map[string]cachedImage{},
		tiles:   newMemCache(opts.TileMemoryBytes),
	}
}

// tilesDir is where a local store keeps a scan's pyramid (tilesKey).
func (s *Service) tilesDir(id, version string) string {
	return filepath.Join(s.root, "tiles", id, version)
}

// tilesKey is the prefix of a scan's pyramid and import sizes in the store.
func tilesKey(id, version string) string { return "iiif/tiles/" + id + "/" + version + "/" }

// cachePrefix is where the derivative cache lives in the store.
const cachePrefix = "iiif/cache/"

func (s *Service) derivatives() (*diskCache, error) {
	s.cacheOnce.Do(func() {
		s.cache, s.cacheErr = newDiskCache(s.blobs, cachePrefix, s.staging, s.opts.CacheBytes)
	})
	return s.cache, s.cacheErr
}

// base is the origin of absolute ids.
func (s *Service) base(r *http.Request) string {
	if s.opts.PublicURL != "" {
		return s.opts.PublicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (s *Service) scope(r *http.Request) []string {
	if s.opts.Members == nil {
		return nil
	}
	return s.opts.Members.Scope(r)
}

// gate runs next for public resources directly; for others it runs it behind the
// accounts middleware and only when the requester's scope opens the level, answering
// 401 otherwise (to an account too: signing in with another account may open it).
func (s *Service) gate(w http.ResponseWriter, r *http.Request, level access.Level, next func(w http.ResponseWriter, r *http.Request)) {
	if level.IsPublic() {
		next(w, r)
		return
	}
	h := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Vary", "Cookie, Authorization")
		if !level.Opens(s.scope(r)) {
			writeIIIFError(w, &Error{Status: http.StatusUnauthorized, Message: accessLabel(level) + ": sign in with an account whose membership opens this scan (join or renew at /subscribe)."})
			return
		}
		next(w, r)
	}))
	if s.opts.Authenticate != nil {
		h = s.opts.Authenticate(h)
	}
	h.ServeHTTP(w, r)
}

// writeIIIFError answers an image server error as IIIF viewers expect it: plain text,
// readable from any origin, never cached. The images API answers in httpx's contract.
func writeIIIFError(w http.ResponseWriter, e *Error) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Del("ETag")
	h.Del("Last-Modified")
	h.Del("Link")
	w.WriteHeader(e.Status)
	io.WriteString(w, e.Message+"\n")
}

func (s *Service) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ie *Error
	switch {
	case errors.As(err, &ie):
		writeIIIFError(w, ie)
	case errors.Is(err, ErrNotFound):
		writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Not found."})
	case errors.Is(err, os.ErrNotExist) && strings.HasPrefix(r.URL.Path, Prefix):
		// Replaced a moment ago, or not in this instance's storage (unreachable.go).
		s.missingFiles(w, r, scanOf(r))
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		writeIIIFError(w, &Error{Status: http.StatusServiceUnavailable, Message: "The request was cancelled."})
	default:
		s.opts.Log.Error("iiif", "path", r.URL.Path, "err", err)
		writeIIIFError(w, &Error{Status: http.StatusInternalServerError, Message: "Server error."})
	}
}

// visitorKey is the visitor's IP address (httpx.ClientIP), or for IPv6 its /64: one
// household or server is given a /64 and could otherwise take a new place in the render
// queue for each of its addresses.
func visitorKey(r *http.Request) string {
	a := httpx.ClientIP(r)
	ip := net.ParseIP(a)
	if ip == nil {
		return a
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// validID is the shape of our identifiers: lower-case letters, digits and '-'.
func validID(id string) bool {
	if id == "" || len(id) > 200 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// image reads a scan, trusting what it read for imageTTL.
func (s *Service) image(ctx context.Context, id string) (*imageRow, error) {
	now := time.Now()
	s.mu.RLock()
	c, ok := s.images[id]
	s.mu.RUnlock()
	if ok && now.Before(c.expires) {
		return c.row, nil
	}
	row, err := lookupImage(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if len(s.images) > 100_000 {
		clear(s.images)
	}
	s.images[id] = cachedImage{row, now.Add(imageTTL)}
	s.mu.Unlock()
	return row, nil
}

// forget drops what the server remembers of a scan (after an import in this process).
func (s *Service) forget(id string) {
	s.mu.Lock()
	delete(s.images, id)
	s.mu.Unlock()
}

// ServeIIIF serves the IIIF Image and Presentation APIs under Prefix: it reads IIIF's
// URL grammar itself and answers errors in plain text, as IIIF viewers expect.
func (s *Service) ServeIIIF(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodOptions:
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Authorization, Accept")
		h.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		w.Header().Set("Allow", "GET, HEAD, OPTIONS")
		writeIIIFError(w, &Error{Status: http.StatusMethodNotAllowed, Message: "Only GET and HEAD are supported."})
		return
	}
	segs := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), Prefix), "/")
	switch segs[0] {
	case "manifests":
		s.serveManifest(w, r, segs[1:])
		return
	case "collections":
		s.serveCollection(w, r, segs[1:])
		return
	}
	id := segs[0]
	if !validID(id) {
		writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown image identifier."})
		return
	}
	im, err := s.image(r.Context(), id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown image identifier " + strconv.Quote(id) + "."})
			return
		}
		s.fail(w, r, err)
		return
	}
	switch len(segs) {
	case 1:
		s.gate(w, r, im.Level, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Access-Control-Allow-Origin", "*")
			w.Header().Set("Location", s.base(r)+Prefix+id+"/info.json")
			w.WriteHeader(http.StatusSeeOther)
		})
	case 2:
		if segs[1] != "info.json" {
			writeIIIFError(w, badRequest("Want {id}/info.json or {id}/{region}/{size}/{rotation}/{quality}.{format}."))
			return
		}
		s.gate(w, r, im.Level, func(w http.ResponseWriter, r *http.Request) { s.serveInfo(w, r, im) })
	case 5:
		// Clients may percent-encode ':', '!' and '^' in the parameters.
		for i := 1; i < 5; i++ {
			if strings.IndexByte(segs[i], '%') >= 0 {
				if u, err := url.PathUnescape(segs[i]); err == nil {
					segs[i] = u
				}
			}
		}
		req, err := ParseRequest(segs[1], segs[2], segs[3], segs[4])
		if err != nil {
			s.fail(w, r, err)
			return
		}
		imgix := applyImgix(&req, r.URL.Query())
		s.gate(w, r, im.Level, func(w http.ResponseWriter, r *http.Request) { s.serveImage(w, r, im, req, imgix) })
	default:
		writeIIIFError(w, badRequest("Want {id}/info.json or {id}/{region}/{size}/{rotation}/{quality}.{format}."))
	}
}

// applyImgix honours the width and height parameters imgix-style clients add
// (@prismicio/react's srcset) when the path asks for the max size: w, h and dpr make a
// confined size that never upscales. Everything else in the query is ignored.
func applyImgix(req *Request, q map[string][]string) bool {
	if req.Size.Kind != SizeMax || req.Size.Upscale || len(q) == 0 {
		return false
	}
	get := func(k string) int {
		v := ""
		if vs := q[k]; len(vs) > 0 {
			v = vs[0]
		}
		n, ok := positiveInt(v)
		if !ok || n > 100_000 {
			return 0
		}
		return n
	}
	w, h := get("w"), get("h")
	dpr := 1.0
	if vs := q["dpr"]; len(vs) > 0 {
		if d, ok := number(vs[0], true); ok && d >= 1 && d <= 5 {
			dpr = d
		}
	}
	w, h = int(float64(w)*dpr), int(float64(h)*dpr)
	switch {
	case w > 0 && h > 0:
		req.Size = Size{Kind: SizeConfined, W: w, H: h}
	case w > 0:
		req.Size = Size{Kind: SizeWidth, W: w}
	case h > 0:
		req.Size = Size{Kind: SizeHeight, H: h}
	default:
		return false
	}
	return true
}

// resolveImgix resolves a request whose size came from imgix parameters: one larger
// than the region, or beyond the limits, gets the max size instead of a 400, as imgix
// answers with what it has.
func resolveImgix(req Request, width, height int, lim Limits) (Plan, error) {
	if p, err := req.Resolve(width, height, lim); err == nil {
		return p, nil
	}
	req.Size = Size{Kind: SizeMax}
	return req.Resolve(width, height, lim)
}

const (
	ldImage = `application/ld+json;profile="http://iiif.io/api/image/3/context.json"`
	profile = `<http://iiif.io/api/image/3/level2.json>;rel="profile"`
)

func cacheControl(members bool, immutable bool) string {
	switch {
	case members:
		return "private, max-age=3600"
	case immutable:
		return "public, max-age=31536000, immutable"
	default:
		return "public, max-age=3600"
	}
}

// answerLD sends body, whose cache headers are set, unless the client's copy is still
// good: as ld (JSON-LD with the API's context), or as plain JSON to a client that asks
// for JSON but not for JSON-LD.
func answerLD(w http.ResponseWriter, r *http.Request, body []byte, ld, etag string, mod time.Time) {
	if notModified(w, r, etag, mod) {
		return
	}
	h := w.Header()
	accept := r.Header.Get("Accept")
	if accept == "" || strings.Contains(accept, "application/ld+json") || !strings.Contains(accept, "json") {
		h.Set("Content-Type", ld)
	} else {
		h.Set("Content-Type", "application/json")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

// notModified answers 304 when the request's validators match.
func notModified(w http.ResponseWriter, r *http.Request, etag string, mod time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == etag || t == "*" {
				w.WriteHeader(http.StatusNotModified)
				return true
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" {
		if t, err := http.ParseTime(ims); err == nil && !mod.Truncate(time.Second).After(t) {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:6])
}

// infoJSON is the image service description.
func (s *Service) infoJSON(base string, im *imageRow) map[string]any {
	pyr := im.pyramid()
	lim := s.opts.Limits
	var sizes []map[string]int
	for k := pyr.Levels - 1; k >= 0; k-- {
		w, h := pyr.LevelSize(k)
		if w > lim.MaxWidth || h > lim.MaxHeight || int64(w)*int64(h) > lim.MaxArea {
			break
		}
		sizes = append(sizes, map[string]int{"width": w, "height": h})
	}
	return map[string]any{
		"@context":         "http://iiif.io/api/image/3/context.json",
		"id":               base + Prefix + im.ID,
		"type":             "ImageService3",
		"protocol":         "http://iiif.io/api/image",
		"profile":          "level2",
		"width":            im.Width,
		"height":           im.Height,
		"maxWidth":         lim.MaxWidth,
		"maxHeight":        lim.MaxHeight,
		"maxArea":          lim.MaxArea,
		"sizes":            sizes,
		"tiles":            []map[string]any{{"width": TileSize, "height": TileSize, "scaleFactors": pyr.ScaleFactors()}},
		"preferredFormats": []string{"jpg"},
		"extraQualities":   []string{QualityColor, QualityGray, QualityBitonal},
		"extraFormats":     []string{"png"},
		"extraFeatures": []string{"baseUriRedirect", "canonicalLinkHeader", "cors", "jsonldMediaType", "mirroring",
			"profileLinkHeader", "regionByPct", "regionByPx", "regionSquare", "rotationBy90s", "sizeByConfinedWh",
			"sizeByH", "sizeByPct", "sizeByW", "sizeByWh", "sizeUpscaling"},
	}
}

func (s *Service) serveInfo(w http.ResponseWriter, r *http.Request, im *imageRow) {
	info := s.infoJSON(s.base(r), im)
	// Key order matters to some clients: @context first. encoding/json sorts map keys
	// and "@" sorts before letters, so it is first.
	body, err := json.Marshal(info)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	etag := `"` + im.Version + "-" + shortHash(string(body)) + `"`
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Link", profile)
	h.Set("ETag", etag)
	h.Set("Last-Modified", im.UpdatedAt.Format(http.TimeFormat))
	h.Set("Cache-Control", cacheControl(im.Members, false))
	h.Add("Vary", "Accept")
	answerLD(w, r, body, ldImage, etag, im.UpdatedAt)
}

func (s *Service) serveImage(w http.ResponseWriter, r *http.Request, im *imageRow, req Request, imgix bool) {
	var plan Plan
	var err error
	if imgix {
		plan, err = resolveImgix(req, im.Width, im.Height, s.opts.Limits)
	} else {
		plan, err = req.Resolve(im.Width, im.Height, s.opts.Limits)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	canonical := plan.Canonical(im.Width, im.Height)
	etag := `"` + im.Version + "-" + shortHash(canonical) + `"`
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Link", profile+`, <`+s.base(r)+Prefix+im.ID+"/"+canonical+`>;rel="canonical"`)
	h.Set("ETag", etag)
	h.Set("Last-Modified", im.UpdatedAt.Format(http.TimeFormat))
	h.Set("Cache-Control", cacheControl(im.Members, true))
	if notModified(w, r, etag, im.UpdatedAt) {
		return
	}
	pyr := im.pyramid()
	prefix := tilesKey(im.ID, im.Version)
	if k, col, row, ok := tileFor(plan, pyr); ok {
		if !im.Members && s.opts.SignedTiles > 0 && s.redirectTile(w, r, prefix+tileName(k, col, row)) {
			return
		}
		s.serveTile(w, r, prefix+tileName(k, col, row))
		return
	}
	// What the import made is read from its file, never queued behind renders.
	if s.isImportSize(pyr, canonical) {
		if rc, info, err := s.blobs.Get(r.Context(), sizeKey(prefix, canonical), blob.Range{}); err == nil {
			s.serveFile(w, r, rc, info.Size, plan.Request.Format)
			return
		}
	}
	cache, err := s.derivatives()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	key := cacheKey(im.ID, im.Version, canonical)
	if f, size, ok := cache.open(r.Context(), key); ok {
		s.serveFile(w, r, f, size, plan.Request.Format)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.QueueWait)
	defer cancel()
	release, err := s.queue.acquire(ctx, s.opts.ClientKey(r))
	switch {
	case errors.Is(err, errClientBusy):
		h.Set("Retry-After", "2")
		writeIIIFError(w, &Error{Status: http.StatusTooManyRequests, Message: fmt.Sprintf(
			"You have %d images being made already, the most one visitor may (LINEAGE_IIIF_QUEUE_PER_CLIENT); try again when they are done.", s.opts.QueuePerClient)})
		return
	case errors.Is(err, errQueueFull):
		h.Set("Retry-After", "2")
		writeIIIFError(w, &Error{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf(
			"The server is busy making images (%d waiting, the most it queues: LINEAGE_IIIF_QUEUE); try again in a moment.", s.opts.QueueTotal)})
		return
	case errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil:
		h.Set("Retry-After", "2")
		writeIIIFError(w, &Error{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf(
			"The server is busy making images (waited %s, the most it waits: LINEAGE_IIIF_QUEUE_WAIT); try again in a moment.", s.opts.QueueWait)})
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	defer release()                             // if rendering panics; release is idempotent
	f, size, ok := cache.open(r.Context(), key) // made by someone else while this one waited
	if !ok {
		f, size, err = s.renderTo(r.Context(), cache, key, prefix, pyr, plan)
	}
	// The slot bounds renders; sending the file to a slow client need not hold it.
	release()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.serveFile(w, r, f, size, plan.Request.Format)
}

// renderTo makes a derivative of the pyramid under prefix into the cache and returns it.
func (s *Service) renderTo(ctx context.Context, cache *diskCache, key, prefix string, pyr Pyramid, plan Plan) (io.ReadCloser, int64, error) {
	img, err := renderFrom(storeTiles{ctx, s, prefix}, pyr, plan, nil)
	if err != nil {
		return nil, 0, err
	}
	return cache.write(ctx, key, func(w io.Writer) error { return encodeTo(w, img, plan.Request.Format) })
}

// serveFile answers with an image and closes it.
func (s *Service) serveFile(w http.ResponseWriter, r *http.Request, f io.ReadCloser, size int64, format string) {
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", contentType(format))
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	if r.Method == http.MethodHead {
		return
	}
	io.Copy(w, f)
}

// tileBytes reads a tile from the store, or from memory when it was read recently.
func (s *Service) tileBytes(ctx context.Context, key string) ([]byte, error) {
	if body, ok := s.tiles.get(key); ok {
		return body, nil
	}
	rc, _, err := s.blobs.Get(ctx, key, blob.Range{})
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	body, err := io.ReadAll(rc)
	if err != nil {
		return nil, err
	}
	s.tiles.put(key, body)
	return body, nil
}

// redirectTile answers a public scan's tile with a redirect to a signed URL of the
// store; false when the store cannot sign (nothing was written).
func (s *Service) redirectTile(w http.ResponseWriter, r *http.Request, key string) bool {
	u, err := s.blobs.SignedURL(r.Context(), key, s.opts.SignedTiles)
	if err != nil {
		return false
	}
	h := w.Header()
	// The redirect may be cached for less than the URL lives, so a cached one still works.
	h.Set("Cache-Control", "public, max-age="+strconv.Itoa(int(s.opts.SignedTiles/2/time.Second)))
	h.Del("ETag")
	h.Del("Last-Modified")
	h.Set("Location", u)
	w.WriteHeader(http.StatusFound)
	return true
}

// serveTile answers with a pre-cut tile, from memory when it was read recently.
func (s *Service) serveTile(w http.ResponseWriter, r *http.Request, key string) {
	body, ok := s.tiles.get(key)
	if !ok {
		var err error
		body, err = s.tileBytes(r.Context(), key)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				s.missingFiles(w, r, scanOf(r)) // replaced, or not in this storage
				return
			}
			s.fail(w, r, err)
			return
		}
	}
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}
