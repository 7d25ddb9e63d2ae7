package iiif

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"errors"
	"golang.org/x/image/tiff"

	"lineage/internal/blob"
	"lineage/internal/gedcom"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

func TestMain(m *testing.M) { storetest.Main(m) }

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// fixture loads two record collections (one members-only) and a library, and returns
// the research service.
func fixture(t *testing.T, db *store.DB) *research.Service {
	t.Helper()
	ctx := context.Background()
	rs := research.New(db, research.Options{Log: quietLog()})
	if err := rs.Init(ctx); err != nil {
		t.Fatal(err)
	}
	recs := "record_id,record_type,date,place,role,surname,given_names,transcript,source\n" +
		"R1,memorial_card,3 Mar 1893,\"Guildford, Surrey\",principal,Smith,Mary,In loving memory,Card 1\n" +
		"R2,baptism,1851,\"Guildford, Surrey\",principal,Jones,John,,Register 1 p. 1\n"
	if rep, err := rs.ImportRecords(ctx, strings.NewReader(recs), nil, research.ImportOptions{Collection: "recs", Title: "Records"}, 0); err != nil || rep.Added != 2 {
		t.Fatalf("%v %+v", err, rep)
	}
	briefs := "record_id,record_type,date,place,role,surname,given_names\nB1,birth_brief,1901,Leeds,principal,Brown,Ada\n"
	if _, err := rs.ImportRecords(ctx, strings.NewReader(briefs), nil, research.ImportOptions{Collection: "briefs", Title: "Birth briefs", Access: research.AccessMembers}, 0); err != nil {
		t.Fatal(err)
	}
	lib := "key,title,authors,year,publisher,subjects,shelfmark\nL1,Surrey parish registers,W. Ashworth,1923,Surrey Record Society,Registers,SUR/1\n"
	if _, err := rs.ImportCatalogue(ctx, research.KindLibrary, "library", "The library", strings.NewReader(lib)); err != nil {
		t.Fatal(err)
	}
	return rs
}

func writeImage(t *testing.T, path string, img image.Image) {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch filepath.Ext(path) {
	case ".png":
		err = png.Encode(&b, img)
	case ".jpg":
		err = jpeg.Encode(&b, img, &jpeg.Options{Quality: 95})
	case ".tif":
		err = tiff.Encode(&b, img, &tiff.Options{Compression: tiff.Deflate})
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// importScan writes img as file into a folder of its own and imports that folder into
// collection; it returns the folder, for a test that changes the file and imports again.
func importScan(t *testing.T, svc *Service, collection, file string, img image.Image) string {
	t.Helper()
	dir := t.TempDir()
	writeImage(t, filepath.Join(dir, file), img)
	if _, err := svc.Import(context.Background(), ImportOptions{Collection: collection, Paths: []string{dir}}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// serve serves svc's rooms on a test server that ends with the test, and returns a
// client of it.
func serve(t *testing.T, svc *Service) client {
	t.Helper()
	srv := httptest.NewServer(handler(svc))
	t.Cleanup(srv.Close)
	return client{t, srv}
}

type client struct {
	t   *testing.T
	srv *httptest.Server
}

func (c client) do(method, path string, hdr ...string) (*http.Response, []byte) {
	c.t.Helper()
	u := path
	if !strings.HasPrefix(path, "http") {
		u = c.srv.URL + path
	}
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := noRedirect.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func (c client) json(path string) map[string]any {
	c.t.Helper()
	res, b := c.do("GET", path)
	var m map[string]any
	if res.StatusCode != 200 || json.Unmarshal(b, &m) != nil {
		c.t.Fatalf("GET %s: %d %s", path, res.StatusCode, b)
	}
	return m
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func TestImportAndServe(t *testing.T) {
	eachStoreKind(t, func(t *testing.T, newStore func(t *testing.T) blob.Store) { testImportAndServe(t, newStore) })
}

// storedKeys lists the keys of the service's store under prefix that contain part.
func storedKeys(t *testing.T, svc *Service, prefix, part string) []string {
	t.Helper()
	var keys []string
	if err := svc.blobs.List(context.Background(), prefix, func(i blob.Info) error {
		if strings.Contains(i.Key, part) {
			keys = append(keys, i.Key)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return keys
}

func testImportAndServe(t *testing.T, newStore func(t *testing.T) blob.Store) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fixture(t, db)
		data := t.TempDir()
		st := newStore(t)
		_, local := st.(*blob.Local)
		if local {
			// The data folder's own files, as serve has them by default.
			st = blob.NewLocal(blob.LocalDir(data))
		}
		svc := New(db, Options{DataDir: data, Blobs: st, Log: quietLog(), CacheBytes: 1 << 20})
		c := serve(t, svc)

		scans := t.TempDir()
		writeImage(t, filepath.Join(scans, "R1.png"), quadrants(1100, 700))
		writeImage(t, filepath.Join(scans, "R2_1.jpg"), quadrants(800, 1000))
		writeImage(t, filepath.Join(scans, "R2-p2.tif"), quadrants(600, 900))
		var lines []string
		out := func(id, file string) { lines = append(lines, id+"\t"+filepath.Base(file)) }
		rep, err := svc.Import(ctx, ImportOptions{Collection: "recs", Paths: []string{scans}, Out: out})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"recs-r1-p001\tR1.png", "recs-r2-p002\tR2-p2.tif", "recs-r2-p001\tR2_1.jpg"}
		if !slices.Equal(lines, want) || rep.Cut != 3 {
			t.Fatalf("import printed %q (%+v), want %q", lines, rep, want)
		}
		// Cutting a scan also made its thumbnail and no-JavaScript preview, beside its
		// tiles rather than in the evictable cache.
		if sizes := storedKeys(t, svc, "iiif/tiles/", "/sizes/"); len(sizes) != 6 {
			t.Errorf("the import stored %d sizes, want 6 (2 per scan): %q", len(sizes), sizes)
		}
		if sizes, _ := filepath.Glob(filepath.Join(data, "files", "iiif", "tiles", "*", "*", "sizes", "*.jpg")); local && len(sizes) != 6 {
			t.Errorf("the import made %d sizes, want 6 (2 per scan): %q", len(sizes), sizes)
		}
		if cache, err := svc.derivatives(); err != nil {
			t.Fatal(err)
		} else if _, n := cache.usage(); n != 0 {
			t.Errorf("the import left %d derivatives in the cache, want none", n)
		}
		// Idempotent: nothing is cut again.
		lines = nil
		rep, err = svc.Import(ctx, ImportOptions{Collection: "recs", Paths: []string{scans}, Out: out})
		if err != nil || rep.Cut != 0 || rep.Unchanged != 3 || !slices.Equal(lines, want) {
			t.Fatalf("re-import: %v %+v %q", err, rep, lines)
		}
		// A manifest CSV attaches a library entry and a members-only brief.
		writeImage(t, filepath.Join(scans, "lib.png"), quadrants(700, 500))
		csv := "file,item_ref,label,page_label\nlib.png,L1,Title page of the registers,Title page\n"
		os.WriteFile(filepath.Join(scans, "map.csv"), []byte(csv), 0o644)
		if _, err := svc.Import(ctx, ImportOptions{Collection: "library", Manifest: filepath.Join(scans, "map.csv"), Out: out}); err != nil {
			t.Fatal(err)
		}
		writeImage(t, filepath.Join(scans, "B1.jpg"), quadrants(600, 600))
		if _, err := svc.Import(ctx, ImportOptions{Collection: "briefs", Paths: []string{filepath.Join(scans, "B1.jpg")}, Out: out}); err != nil {
			t.Fatal(err)
		}
		// Files that match nothing are refused.
		writeImage(t, filepath.Join(t.TempDir(), "X9.png"), quadrants(10, 10))
		if _, err := svc.Import(ctx, ImportOptions{Collection: "recs", Paths: []string{filepath.Join(scans, "lib.png")}}); err == nil {
			t.Error("a file named after no record was imported")
		}
		if _, err := svc.Import(ctx, ImportOptions{Collection: "nope", Paths: []string{scans}}); err == nil {
			t.Error("an unknown collection was accepted")
		}

		// info.json
		res, b := c.do("GET", "/iiif/3/recs-r1-p001/info.json")
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != ldImage || res.Header.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(res.Header.Get("Link"), `level2.json>;rel="profile"`) || res.Header.Get("Cache-Control") != "public, max-age=3600" {
			t.Fatalf("info.json: %d %v", res.StatusCode, res.Header)
		}
		if !bytes.HasPrefix(b, []byte(`{"@context":"http://iiif.io/api/image/3/context.json"`)) {
			t.Errorf("info.json does not start with @context: %.80s", b)
		}
		var info map[string]any
		json.Unmarshal(b, &info)
		if info["id"] != c.srv.URL+"/iiif/3/recs-r1-p001" || info["type"] != "ImageService3" || info["protocol"] != "http://iiif.io/api/image" ||
			info["profile"] != "level2" || info["width"] != 1100.0 || info["height"] != 700.0 || info["maxWidth"] != 4096.0 || info["maxHeight"] != 4096.0 || info["maxArea"] != float64(4<<20) {
			t.Errorf("info.json: %v", info)
		}
		tiles := info["tiles"].([]any)[0].(map[string]any)
		if tiles["width"] != 512.0 || fmt.Sprint(tiles["scaleFactors"]) != "[1 2 4]" {
			t.Errorf("tiles: %v", tiles)
		}
		if fmt.Sprint(info["sizes"]) != "[map[height:175 width:275] map[height:350 width:550] map[height:700 width:1100]]" {
			t.Errorf("sizes: %v", info["sizes"])
		}
		if fmt.Sprint(info["extraFormats"]) != "[png]" || fmt.Sprint(info["extraQualities"]) != "[color gray bitonal]" {
			t.Errorf("extras: %v %v", info["extraFormats"], info["extraQualities"])
		}
		// Every listed size and every tile the tiles imply works.
		for _, s := range info["sizes"].([]any) {
			m := s.(map[string]any)
			res, _ := c.do("GET", fmt.Sprintf("/iiif/3/recs-r1-p001/full/%v,%v/0/default.jpg", m["width"], m["height"]))
			if res.StatusCode != 200 {
				t.Errorf("size %v: %d", m, res.StatusCode)
			}
		}
		if res, _ := c.do("GET", "/iiif/3/recs-r1-p001/info.json", "Accept", "application/json"); res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("Accept: application/json gave %s", res.Header.Get("Content-Type"))
		}
		if res, _ := c.do("GET", "/iiif/3/recs-r1-p001"); res.StatusCode != 303 || res.Header.Get("Location") != c.srv.URL+"/iiif/3/recs-r1-p001/info.json" {
			t.Errorf("base URI: %d %s", res.StatusCode, res.Header.Get("Location"))
		}

		// A pre-cut tile, with validators.
		tile := "/iiif/3/recs-r1-p001/1024,512,76,188/76,188/0/default.jpg"
		res, b = c.do("GET", tile)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/jpeg" || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
			res.Header.Get("ETag") == "" || res.Header.Get("Last-Modified") == "" || !strings.Contains(res.Header.Get("Link"), `rel="canonical"`) {
			t.Fatalf("tile: %d %v", res.StatusCode, res.Header)
		}
		if cfg, err := jpeg.DecodeConfig(bytes.NewReader(b)); err != nil || cfg.Width != 76 || cfg.Height != 188 {
			t.Errorf("tile: %+v %v", cfg, err)
		}
		etag := res.Header.Get("ETag")
		if res, b := c.do("GET", tile, "If-None-Match", etag); res.StatusCode != 304 || len(b) != 0 {
			t.Errorf("If-None-Match: %d", res.StatusCode)
		}
		if res, _ := c.do("GET", tile, "If-Modified-Since", res.Header.Get("Last-Modified")); res.StatusCode != 304 {
			t.Errorf("If-Modified-Since: %d", res.StatusCode)
		}
		if res, _ := c.do("GET", tile, "If-None-Match", `"other"`); res.StatusCode != 200 {
			t.Errorf("another ETag: %d", res.StatusCode)
		}
		if res, b := c.do("HEAD", tile); res.StatusCode != 200 || len(b) != 0 || res.Header.Get("Content-Length") == "" {
			t.Errorf("HEAD: %d %d", res.StatusCode, len(b))
		}

		// Derivatives are made once and cached.
		cache, _ := svc.derivatives()
		_, before := cache.usage()
		res, b = c.do("GET", "/iiif/3/recs-r2-p001/full/!100,100/90/gray.png")
		img, err := png.Decode(bytes.NewReader(b))
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" || err != nil || img.Bounds().Dx() != 100 || img.Bounds().Dy() != 80 {
			t.Fatalf("derivative: %d %v %v", res.StatusCode, err, img)
		}
		if _, n := cache.usage(); n != before+1 {
			t.Errorf("cache holds %d files, want %d", n, before+1)
		}
		c.do("GET", "/iiif/3/recs-r2-p001/full/!100,100/90/gray.png")
		c.do("GET", "/iiif/3/recs-r2-p001/full/pct:10/90/gray.png") // the same canonical request
		if _, n := cache.usage(); n != before+1 {
			t.Errorf("cache holds %d files after repeats, want %d", n, before+1)
		}

		// Percent-encoded parameters are read as they are meant.
		if res, b := c.do("GET", "/iiif/3/recs-r1-p001/pct%3A0,0,50,50/%5E%21100,100/%210/gray.png"); res.StatusCode != 200 {
			t.Errorf("percent-encoded parameters: %d %s", res.StatusCode, b)
		}

		// imgix parameters on max: width honoured, never upscaled.
		for q, w := range map[string]int{"?auto=format&w=200": 200, "?w=200&dpr=2&fit=crop&q=50": 400, "?w=5000": 1100, "?h=70": 110, "?auto=compress": 1100} {
			res, b := c.do("GET", "/iiif/3/recs-r1-p001/full/max/0/default.jpg"+q)
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(b))
			if res.StatusCode != 200 || err != nil || cfg.Width != w {
				t.Errorf("imgix %s: %d width %d, want %d", q, res.StatusCode, cfg.Width, w)
			}
		}

		// Errors.
		for path, code := range map[string]int{
			"/iiif/3/recs-r1-p001/full/full/0/default.jpg":         400,
			"/iiif/3/recs-r1-p001/full/2000,/0/default.jpg":        400,
			"/iiif/3/recs-r1-p001/full/^9000,/0/default.jpg":       400,
			"/iiif/3/recs-r1-p001/2000,0,10,10/max/0/default.jpg":  400,
			"/iiif/3/recs-r1-p001/full/max/0/default.webp":         501,
			"/iiif/3/recs-r1-p001/full/max/33/default.jpg":         501,
			"/iiif/3/recs-r1-p001/full/max/0":                      400,
			"/iiif/3/recs-r1-p001/info.xml":                        400,
			"/iiif/3/unknown-p001/info.json":                       404,
			"/iiif/3/UPPER/info.json":                              404,
			"/iiif/3/manifests/unknown":                            404,
			"/iiif/3/manifests/recs-r1/canvas/9":                   404,
			"/iiif/3/collections/unknown":                          404,
			"/iiif/3/briefs-b1-p001/info.json":                     401,
			"/iiif/3/briefs-b1-p001/0,0,512,512/max/0/default.jpg": 401,
			"/iiif/3/briefs-b1-p001":                               401,
			"/iiif/3/manifests/briefs-b1":                          401,
			"/iiif/3/manifests/briefs-b1/canvas/1":                 401,
		} {
			res, b := c.do("GET", path)
			if res.StatusCode != code || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") || len(b) < 5 ||
				res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("GET %s: %d %q %v, want %d", path, res.StatusCode, b, res.Header, code)
			}
			if code == 401 && !strings.Contains(res.Header.Get("Vary"), "Cookie") {
				t.Errorf("GET %s: 401 without Vary: Cookie", path)
			}
		}
		if res, _ := c.do("POST", "/iiif/3/recs-r1-p001/info.json"); res.StatusCode != 405 {
			t.Errorf("POST: %d", res.StatusCode)
		}
		if res, _ := c.do("OPTIONS", "/iiif/3/recs-r1-p001/info.json"); res.StatusCode != 204 || res.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("OPTIONS: %d", res.StatusCode)
		}

		// Manifests validate and every id in them resolves.
		m := c.json("/iiif/3/manifests/recs-r2")
		validateManifest(t, c, m, 2)
		if m["behavior"].([]any)[0] != "paged" || m["label"].(map[string]any)["en"].([]any)[0] != "Baptism: John Jones, 1851" {
			t.Errorf("manifest: %v %v", m["behavior"], m["label"])
		}
		validateManifest(t, c, c.json("/iiif/3/manifests/library-l1.json"), 1)
		col := c.json("/iiif/3/collections/recs")
		if col["type"] != "Collection" || len(col["items"].([]any)) != 2 {
			t.Errorf("collection: %v", col)
		}
		for _, it := range col["items"].([]any) {
			id := it.(map[string]any)["id"].(string)
			if r, _ := c.do("GET", id); r.StatusCode != 200 {
				t.Errorf("collection item %s: %d", id, r.StatusCode)
			}
		}
		top := c.json("/iiif/3/collections")
		if n := len(top["items"].([]any)); n != 3 {
			t.Errorf("top collection lists %d collections, want 3", n)
		}
		for _, it := range top["items"].([]any) {
			id := it.(map[string]any)["id"].(string)
			if r, _ := c.do("GET", id); r.StatusCode != 200 {
				t.Errorf("collection %s: %d", id, r.StatusCode)
			}
		}

		// The images API.
		var recID int64
		db.QueryRow(db.Rebind(`SELECT id FROM records WHERE key = ?`), "R2").Scan(&recID)
		list := c.json(fmt.Sprintf("/api/images?record=%d", recID))["data"].([]any)
		if len(list) != 1 {
			t.Fatalf("images of record %d: %v", recID, list)
		}
		item := list[0].(map[string]any)
		if item["slug"] != "recs-r2" || item["pages"] != 2.0 || item["access"] != "public" || item["allowed"] != true ||
			item["manifest"] != c.srv.URL+"/iiif/3/manifests/recs-r2" || item["viewer"] != "/image-viewer/recs-r2" ||
			len(item["images"].([]any)) != 2 || item["thumbnail"] != "/iiif/3/recs-r2-p001/full/!400,400/0/default.jpg" {
			t.Errorf("item: %v", item)
		}
		brief := c.json("/api/images/briefs-b1")
		if brief["access"] != "members" || brief["allowed"] != false || brief["thumbnail"] != nil || len(brief["images"].([]any)) != 0 || brief["pages"] != 1.0 {
			t.Errorf("members-only item for a visitor: %v", brief)
		}
		all := c.json("/api/images?limit=2")
		if len(all["data"].([]any)) != 2 || all["next"] == nil {
			t.Errorf("first page: %v", all)
		}
		rest := c.json("/api/images?limit=2&after=" + all["next"].(string))
		if len(rest["data"].([]any)) != 2 || rest["next"] != nil {
			t.Errorf("second page: %v", rest)
		}
		if n := len(c.json("/api/images?collection=recs")["data"].([]any)); n != 2 {
			t.Errorf("collection filter: %d", n)
		}
		if d := c.json("/api/images?record=abc")["data"].([]any); len(d) != 0 {
			t.Errorf("malformed record: %v", d)
		}
		if res, _ := c.do("GET", "/api/images/nope"); res.StatusCode != 404 {
			t.Errorf("unknown slug: %d", res.StatusCode)
		}

		// A different file for a page replaces its scan: new ETag, old tiles gone.
		oldVersion := mustImage(t, svc, "recs-r1-p001").Version
		oldDir := svc.tilesDir("recs-r1-p001", oldVersion)
		writeImage(t, filepath.Join(scans, "R1.png"), quadrants(1000, 700))
		rep, err = svc.Import(ctx, ImportOptions{Collection: "recs", Paths: []string{filepath.Join(scans, "R1.png")}})
		if err != nil || rep.Cut != 1 {
			t.Fatalf("replace: %v %+v", err, rep)
		}
		if _, err := os.Stat(oldDir); local && !os.IsNotExist(err) {
			t.Errorf("old tiles still there: %v", err)
		}
		if old := storedKeys(t, svc, tilesKey("recs-r1-p001", oldVersion), ""); len(old) != 0 {
			t.Errorf("old tiles still stored: %q", old)
		}
		if w := c.json("/iiif/3/recs-r1-p001/info.json")["width"]; w != 1000.0 {
			t.Errorf("width after replace: %v", w)
		}
		if res, _ := c.do("GET", tile, "If-None-Match", etag); res.StatusCode == 304 {
			t.Error("the old ETag still matches after the scan changed")
		}
	})
}

func mustImage(t *testing.T, s *Service, id string) *imageRow {
	t.Helper()
	im, err := lookupImage(context.Background(), s.db, id)
	if err != nil {
		t.Fatal(err)
	}
	return im
}

// validateManifest checks the Presentation 3.0 shape of a manifest and that the ids
// in it resolve on the server.
func validateManifest(t *testing.T, c client, m map[string]any, pages int) {
	t.Helper()
	str := func(v any, what string) string {
		s, ok := v.(string)
		if !ok || s == "" {
			t.Errorf("%s: not a string: %v", what, v)
		}
		return s
	}
	langMap := func(v any, what string) {
		lm, ok := v.(map[string]any)
		if !ok || len(lm) == 0 {
			t.Errorf("%s: not a language map: %v", what, v)
			return
		}
		for k, vs := range lm {
			arr, ok := vs.([]any)
			if !ok || len(arr) == 0 || k == "" {
				t.Errorf("%s: language %q: %v", what, k, vs)
			}
		}
	}
	resolves := func(id, wantType string) {
		res, _ := c.do("GET", id)
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), wantType) {
			t.Errorf("%s: %d %s, want %s", id, res.StatusCode, res.Header.Get("Content-Type"), wantType)
		}
	}
	if m["@context"] != presentationContext || m["type"] != "Manifest" {
		t.Errorf("manifest: %v %v", m["@context"], m["type"])
	}
	resolves(str(m["id"], "id"), "application/ld+json")
	langMap(m["label"], "label")
	for _, md := range m["metadata"].([]any) {
		langMap(md.(map[string]any)["label"], "metadata label")
		langMap(md.(map[string]any)["value"], "metadata value")
	}
	rs := m["requiredStatement"].(map[string]any)
	langMap(rs["label"], "requiredStatement label")
	langMap(rs["value"], "requiredStatement value")
	if r := str(m["rights"], "rights"); !strings.HasPrefix(r, "http://rightsstatements.org/") && !strings.HasPrefix(r, "http://creativecommons.org/") {
		t.Errorf("rights: %s", r)
	}
	for _, th := range m["thumbnail"].([]any) {
		resolves(str(th.(map[string]any)["id"], "thumbnail"), "image/jpeg")
	}
	for _, p := range m["partOf"].([]any) {
		resolves(str(p.(map[string]any)["id"], "partOf"), "application/ld+json")
	}
	items, ok := m["items"].([]any)
	if !ok || len(items) != pages {
		t.Fatalf("items: %d canvases, want %d", len(items), pages)
	}
	for i, cv := range items {
		canvas := cv.(map[string]any)
		cid := str(canvas["id"], "canvas id")
		if canvas["type"] != "Canvas" || canvas["width"] == nil || canvas["height"] == nil {
			t.Errorf("canvas %d: %v", i, canvas)
		}
		langMap(canvas["label"], "canvas label")
		resolves(cid, "application/ld+json")
		ap := canvas["items"].([]any)[0].(map[string]any)
		if ap["type"] != "AnnotationPage" || str(ap["id"], "annotation page id") == "" {
			t.Errorf("annotation page: %v", ap)
		}
		an := ap["items"].([]any)[0].(map[string]any)
		if an["type"] != "Annotation" || an["motivation"] != "painting" || an["target"] != cid {
			t.Errorf("annotation: %v", an)
		}
		body := an["body"].(map[string]any)
		if body["type"] != "Image" || body["format"] != "image/jpeg" || body["width"] != canvas["width"] || body["height"] != canvas["height"] {
			t.Errorf("body: %v", body)
		}
		resolves(str(body["id"], "body id"), "image/jpeg")
		svc := body["service"].([]any)[0].(map[string]any)
		if svc["type"] != "ImageService3" || svc["profile"] != "level2" {
			t.Errorf("service: %v", svc)
		}
		resolves(str(svc["id"], "service id")+"/info.json", "application/ld+json")
	}
}

func TestDiskCache(t *testing.T) {
	eachStore(t, func(t *testing.T, st blob.Store) {
		testDiskCache(t, st)
	})
}

func testDiskCache(t *testing.T, st blob.Store) {
	ctx := context.Background()
	c, err := newDiskCache(st, "iiif/cache/", t.TempDir(), 250)
	if err != nil {
		t.Fatal(err)
	}
	put := func(c *diskCache, k string, b []byte) {
		t.Helper()
		f, size, err := c.write(ctx, k, func(w io.Writer) error { _, err := w.Write(b); return err })
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		f.Close()
		if err != nil || size != int64(len(b)) || !bytes.Equal(got, b) {
			t.Fatalf("%s: wrote %d bytes, read back %d (%v)", k, size, len(got), err)
		}
	}
	get := func(c *diskCache, k string) (int64, bool) {
		f, size, ok := c.open(ctx, k)
		if ok {
			f.Close()
		}
		return size, ok
	}
	for _, k := range []string{"aa1.jpg", "bb2.jpg", "cc3.jpg"} {
		put(c, k, bytes.Repeat([]byte{1}, 100))
		if k == "bb2.jpg" {
			get(c, "aa1.jpg") // aa1 is now more recent than bb2
		}
	}
	if _, ok := get(c, "bb2.jpg"); ok {
		t.Error("the least recently used entry was kept")
	}
	for _, k := range []string{"aa1.jpg", "cc3.jpg"} {
		if size, ok := get(c, k); !ok || size != 100 {
			t.Errorf("%s: %v", k, ok)
		}
	}
	if size, n := c.usage(); size != 200 || n != 2 {
		t.Errorf("usage %d %d", size, n)
	}
	if _, err := st.Stat(ctx, c.key("bb2.jpg")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the evicted file is still stored: %v", err)
	}
	// A new cache on the same folder finds what is there.
	c2, err := newDiskCache(st, "iiif/cache/", t.TempDir(), 250)
	if err != nil {
		t.Fatal(err)
	}
	if size, n := c2.usage(); size != 200 || n != 2 {
		t.Errorf("reopened usage %d %d", size, n)
	}
	// What another process writes later is found too.
	put(c, "ee5.jpg", bytes.Repeat([]byte{2}, 10))
	if size, ok := get(c2, "ee5.jpg"); !ok || size != 10 {
		t.Errorf("another process's entry: %v", ok)
	}
	put(c2, "dd4.jpg", make([]byte, 1000)) // larger than the cap: served, not kept
	if _, ok := get(c2, "dd4.jpg"); ok {
		t.Error("an entry larger than the cap was kept")
	}
}

func TestParseManifestCSV(t *testing.T) {
	rows, err := ParseManifestCSV(strings.NewReader("\ufeffFile,record,label,page,page_label,access,rights\n" +
		"a.jpg,R1,Card of Mary,1,Front,members,http://rightsstatements.org/vocab/NoC-US/1.0/\nb.jpg,R1,,2,Back,,\n\n"))
	if err != nil || len(rows) != 2 || rows[0].Ref != "R1" || rows[0].Page != 1 || rows[0].Access != "members" || rows[1].PageLabel != "Back" || rows[1].Line != 3 {
		t.Fatalf("%+v %v", rows, err)
	}
	rows, err = ParseManifestCSV(strings.NewReader("file,record_id\nx.tif,42\n"))
	if err != nil || rows[0].RecordID != 42 {
		t.Fatalf("%+v %v", rows, err)
	}
	for _, bad := range []string{
		"",
		"record\nR1\n",
		"file,colour\na.jpg,red\n",
		"file,record,record\na.jpg,R1,R1\n",
		"file,record\n,R1\n",
		"file,record\na.jpg,\n",
		"file,record,item_ref\na.jpg,R1,L1\n",
		"file,record_id\na.jpg,x\n",
		"file,record_id\na.jpg,-3\n",
		"file,record,page\na.jpg,R1,0\n",
		"file,record,page\na.jpg,R1,two\n",
		"file,record,access\na.jpg,R1,secret\n",
		"file,record,rights\na.jpg,R1,all rights reserved\n",
		"file,record,item\na.jpg,R1,---\n",
		"file,record\n\"a.jpg,R1\n",
	} {
		if _, err := ParseManifestCSV(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func FuzzParseManifestCSV(f *testing.F) {
	for _, s := range []string{"file,record\na.jpg,R1\n", "file,record_id,page\na.jpg,1,2\n", "file,item_ref,item,label\nx.tif,D/1/2,reg,Register\n", "\"", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := ParseManifestCSV(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, r := range rows {
			if r.File == "" || (r.Ref == "" && r.RecordID <= 0 && r.Person == "") || r.Page < 0 {
				t.Fatalf("accepted row %+v of %q", r, s)
			}
		}
	})
}

// TestLoadDemo generates small demo pages (the real ones are 6000 × 4000 and more) of
// every kind, twice, and from the cache into a second data folder.
func TestLoadDemo(t *testing.T) {
	for _, it := range DemoItems() {
		for _, p := range it.Pages {
			if p.Width < 6000 || p.Height < 4000 {
				t.Errorf("%s: demo page %d × %d is smaller than 6000 × 4000", it.Slug, p.Width, p.Height)
			}
		}
	}
	small := []DemoItem{
		{Slug: "demo-card", Collection: "recs", Pages: []DemoPage{{"card-front", "Front", 900, 600, 1}, {"card-back", "Back", 900, 600, 2}}},
		{Slug: "demo-register", Collection: "recs", Nth: 1, Label: "A register", Pages: []DemoPage{{"register", "p. 1", 1000, 700, 3}}},
		{Slug: "demo-brief", Collection: "briefs", Pages: []DemoPage{{"brief", "Brief", 900, 600, 4}}},
		{Slug: "demo-missing", Collection: "no-such-collection", Pages: []DemoPage{{"brief", "Brief", 900, 600, 5}}},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fixture(t, db)
		cacheDir := t.TempDir()
		svc := New(db, Options{DataDir: t.TempDir(), Log: quietLog()})
		n, err := svc.LoadDemo(ctx, small, cacheDir)
		if err != nil || n != 4 {
			t.Fatalf("LoadDemo: %d %v", n, err)
		}
		if n, err := svc.LoadDemo(ctx, small, cacheDir); err != nil || n != 0 {
			t.Fatalf("second LoadDemo cut %d scans, %v", n, err)
		}
		it, err := itemBySlug(ctx, db, "demo-brief")
		if err != nil || !it.Members || len(it.Images) != 1 || it.Images[0].Width != 900 {
			t.Fatalf("demo brief: %+v %v", it, err)
		}
		if it, err := itemBySlug(ctx, db, "demo-register"); err != nil || it.Label != "A register" || it.TargetKey != "R2" {
			t.Fatalf("demo register: %+v %v", it, err)
		}
		// Demo scans have their thumbnail and preview made with them: served from their
		// files while every render slot is taken.
		hold, err := svc.queue.acquire(ctx, "someone else")
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/iiif/3/demo-card-p001/full/!400,400/0/default.jpg", "/iiif/3/demo-register-p001/full/!1200,1200/0/default.jpg"} {
			w := httptest.NewRecorder()
			handler(svc).ServeHTTP(w, httptest.NewRequest("GET", path, nil))
			if cfg, err := jpeg.DecodeConfig(w.Body); w.Code != 200 || err != nil || cfg.Width < 400 {
				t.Errorf("%s with the render slots taken: %d %v %v", path, w.Code, cfg, err)
			}
		}
		hold()
		// A fresh data folder gets the same tiles from the cache.
		svc2 := New(db, Options{DataDir: t.TempDir(), Log: quietLog()})
		db.Exec(`DELETE FROM iiif_images`)
		if n, err := svc2.LoadDemo(ctx, small, cacheDir); err != nil || n != 4 {
			t.Fatalf("LoadDemo from the cache: %d %v", n, err)
		}
		if sizes, _ := filepath.Glob(filepath.Join(svc2.root, "tiles", "*", "*", "sizes", "*.jpg")); len(sizes) != 8 {
			t.Errorf("demo scans from the cache have %d sizes, want 8: %q", len(sizes), sizes)
		}
		im := mustImage(t, svc2, "demo-card-p002")
		a, err1 := os.ReadFile(tilePath(svc.tilesDir(im.ID, im.Version), 0, 1, 0))
		b, err2 := os.ReadFile(tilePath(svc2.tilesDir(im.ID, im.Version), 0, 1, 0))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("cached tile differs: %v %v", err1, err2)
		}
	})
	// The drawing is deterministic.
	p := DemoPage{"register", "", 300, 200, 9}
	if !bytes.Equal(DrawDemoPage(p).Pix, DrawDemoPage(p).Pix) {
		t.Error("the same demo page drew different pixels")
	}
}

const treeGED = `0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME George /Ashworth/
1 BIRT
2 DATE 1788
1 DEAT
2 DATE 1850
0 @I2@ INDI
1 NAME Alice /Ashworth/
1 BIRT
2 DATE 1990
0 TRLR
`

// ashworths imports treeGED as the published tree "ashworth".
func ashworths(t *testing.T, db *store.DB) *trees.Service {
	t.Helper()
	ts := trees.New(db, trees.Options{Log: quietLog()})
	r, err := gedcom.NewReader(strings.NewReader(treeGED), nil)
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	if _, err := ts.Import(context.Background(), r, trees.ImportOptions{Slug: "ashworth", Title: "The Ashworths", Published: &yes}); err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestPersonScans attaches a scan to a person of a published family tree; the living
// and unpublished trees take none, and a tree unpublished later hides its scans.
func TestPersonScans(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fixture(t, db)
		ts := ashworths(t, db)
		data := t.TempDir()
		svc := New(db, Options{DataDir: data, Log: quietLog()})
		scans := t.TempDir()
		writeImage(t, filepath.Join(scans, "george.png"), quadrants(600, 400))
		writeImage(t, filepath.Join(scans, "alice.png"), quadrants(600, 400))
		os.WriteFile(filepath.Join(scans, "map.csv"), []byte("file,person,label\ngeorge.png,ashworth:I1,Portrait of George Ashworth\n"), 0o644)
		var ids []string
		if _, err := svc.Import(ctx, ImportOptions{Collection: "recs", Manifest: filepath.Join(scans, "map.csv"), Out: func(id, _ string) { ids = append(ids, id) }}); err != nil {
			t.Fatal(err)
		}
		if len(ids) != 1 || ids[0] != "recs-ashworth-i1-p001" {
			t.Fatalf("ids %v", ids)
		}
		os.WriteFile(filepath.Join(scans, "living.csv"), []byte("file,person\nalice.png,ashworth:@I2@\n"), 0o644)
		if _, err := svc.Import(ctx, ImportOptions{Collection: "recs", Manifest: filepath.Join(scans, "living.csv")}); err == nil || !strings.Contains(err.Error(), "living") {
			t.Errorf("a living person took a scan: %v", err)
		}
		c := serve(t, svc)
		list := c.json("/api/images?person=ashworth:I1")["data"].([]any)
		if len(list) != 1 {
			t.Fatalf("person's items: %v", list)
		}
		target := list[0].(map[string]any)["target"].(map[string]any)
		if target["type"] != "person" || !strings.HasPrefix(target["key"].(string), "ashworth:") {
			t.Errorf("target %v", target)
		}
		m := c.json("/iiif/3/manifests/recs-ashworth-i1")
		validateManifest(t, c, m, 1)
		if b, _ := json.Marshal(m["metadata"]); !strings.Contains(string(b), "George Ashworth") || !strings.Contains(string(b), "The Ashworths") {
			t.Errorf("metadata: %s", b)
		}
		// A tree for members: its people's scans too (a new server forgets at once).
		if err := ts.SetAccess(ctx, "ashworth", "members"); err != nil {
			t.Fatal(err)
		}
		srv3 := httptest.NewServer(handler(New(db, Options{DataDir: data, Log: quietLog(), Members: headerScope{}})))
		defer srv3.Close()
		for _, p := range []string{"/iiif/3/recs-ashworth-i1-p001/info.json", "/iiif/3/manifests/recs-ashworth-i1"} {
			for scope, want := range map[string]int{"": 401, "registered": 401, "registered member": 200} {
				req, _ := http.NewRequest("GET", srv3.URL+p, nil)
				req.Header.Set("X-Test-Scope", scope)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				if res.StatusCode != want {
					t.Errorf("%s of a members' tree as %q: %d, want %d", p, scope, res.StatusCode, want)
				}
			}
		}
		// Unpublished: gone for everyone (a new server forgets at once).
		if err := ts.SetPublished(ctx, "ashworth", false); err != nil {
			t.Fatal(err)
		}
		c2 := serve(t, New(db, Options{DataDir: data, Log: quietLog()}))
		for _, p := range []string{"/iiif/3/recs-ashworth-i1-p001/info.json", "/iiif/3/manifests/recs-ashworth-i1", "/api/images/recs-ashworth-i1"} {
			if res, _ := c2.do("GET", p); res.StatusCode != 404 {
				t.Errorf("%s after unpublishing: %d", p, res.StatusCode)
			}
		}
		if d := c2.json("/api/images?person=ashworth:I1")["data"].([]any); len(d) != 0 {
			t.Errorf("listed after unpublishing: %v", d)
		}
	})
}

// TestPersonScansFollowTheTrees: a person's scan is shown exactly when the trees show
// that person in full to anyone (trees.PublicPerson), through every combination of a
// published or unpublished tree and a person dead or counted among the living.
func TestPersonScansFollowTheTrees(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fixture(t, db)
		ts := ashworths(t, db)
		data, scans := t.TempDir(), t.TempDir()
		writeImage(t, filepath.Join(scans, "george.png"), quadrants(600, 400))
		os.WriteFile(filepath.Join(scans, "map.csv"), []byte("file,person\ngeorge.png,ashworth:I1\n"), 0o644)
		if _, err := New(db, Options{DataDir: data, Log: quietLog()}).Import(ctx, ImportOptions{Collection: "recs", Manifest: filepath.Join(scans, "map.csv")}); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ published, living bool }{{true, false}, {true, true}, {false, false}, {false, true}} {
			if err := ts.SetPublished(ctx, "ashworth", tc.published); err != nil {
				t.Fatal(err)
			}
			// A re-import that finds a later birth counts him among the living.
			living := 0
			if tc.living {
				living = 1
			}
			if res, err := db.ExecContext(ctx, db.Rebind(`UPDATE tree_people SET living = ? WHERE xref = ?`), living, "I1"); err != nil {
				t.Fatal(err)
			} else if n, _ := res.RowsAffected(); n != 1 {
				t.Fatalf("%d people called I1", n)
			}
			// As the public sees him, on new services: both keep what they read a moment ago.
			p, err := trees.New(db, trees.Options{Log: quietLog()}).Person(ctx, "ashworth", "I1")
			if err != nil && !errors.Is(err, trees.ErrNotFound) {
				t.Fatal(err)
			}
			treesShow := err == nil && !p.Living
			srv := httptest.NewServer(handler(New(db, Options{DataDir: data, Log: quietLog()})))
			res, err := http.Get(srv.URL + "/iiif/3/manifests/recs-ashworth-i1")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			srv.Close()
			if scanShown := res.StatusCode == http.StatusOK; scanShown != treesShow || (!scanShown && res.StatusCode != http.StatusNotFound) {
				t.Errorf("published %v, living %v: the trees show him %v, his scan answers %d", tc.published, tc.living, treesShow, res.StatusCode)
			}
			if want := tc.published && !tc.living; treesShow != want {
				t.Errorf("published %v, living %v: the trees show him %v, want %v", tc.published, tc.living, treesShow, want)
			}
		}
	})
}
