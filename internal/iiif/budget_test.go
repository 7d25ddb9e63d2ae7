package iiif

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// renderBound is the most bytes of pixel buffers a render of p may hold
// (docs/iiif.md, "Limits"): the answer four bytes a pixel, twice while it is turned,
// plus a grey copy; a row of tiles' height (and the filter's reach) of rows of the
// answer's width, scaled horizontally, 12 bytes a pixel; one tile as RGBA and one
// decoded. Nothing in it depends on the scan's size.
func renderBound(p Plan) int64 {
	w, h := int64(p.Width), int64(p.Height)
	taps := int64(2*max(1, float64(p.Rect.Dy())/float64(p.Height)) + 3)
	return 9*w*h + 12*w*(TileSize+taps) + 6*TileSize*TileSize
}

// TestRenderBudget renders from a 2600 × 1500 scan under a 600 000-pixel limit and
// checks what each render decodes and holds: never more than renderBound, which
// depends on the answer and not on the scan, and for answers that a smaller level can
// make, none of the full-resolution tiles.
func TestRenderBudget(t *testing.T) {
	dir, pyr := cutQuadrants(t, quadrants(2600, 1500))
	lim := Limits{MaxWidth: 2048, MaxHeight: 2048, MaxArea: 600_000}
	for _, c := range []struct {
		path   string
		level0 bool // the answer needs the full-resolution level
	}{
		{"full/max/0/default.jpg", false},
		{"full/max/90/gray.png", false},
		{"full/!400,400/0/default.jpg", false},
		{"square/max/!180/default.png", true},
		{"pct:10,10,50,50/max/0/default.jpg", true},
		{"pct:0,0,100,70/max/0/default.jpg", false},
		{"0,0,2600,300/max/0/bitonal.png", true},
		{"100,100,700,700/max/270/default.jpg", true},
		{"1000,600,300,200/^900,/0/default.jpg", true},
		{"full/10,/0/default.jpg", false},
		{"full/10,1400/0/default.jpg", true}, // narrow: a row of level-0 tiles is far wider than the answer
	} {
		p := strings.Split(c.path, "/")
		req, err := ParseRequest(p[0], p[1], p[2], p[3])
		if err != nil {
			t.Fatal(err)
		}
		pl, err := req.Resolve(pyr.Width, pyr.Height, lim)
		if err != nil {
			t.Fatal(c.path, err)
		}
		var st renderStats
		img, err := render(dir, pyr, pl, &st)
		if err != nil {
			t.Fatal(c.path, err)
		}
		if b := img.Bounds(); int64(b.Dx())*int64(b.Dy()) > lim.MaxArea {
			t.Errorf("%s: %v is beyond maxArea", c.path, b)
		}
		if bound := renderBound(pl); st.peak > bound || st.peak <= 0 {
			t.Errorf("%s: held %d bytes of pixels at most, want at most %d", c.path, st.peak, bound)
		}
		if st.held != int64(len(pixelsOf(img))) {
			t.Errorf("%s: still holds %d bytes besides the answer", c.path, st.held-int64(len(pixelsOf(img))))
		}
		full := int64(pyr.Width) * int64(pyr.Height)
		if c.level0 != (renderLevel(pyr, pl) == 0) {
			t.Errorf("%s: made from level %d", c.path, renderLevel(pyr, pl))
		}
		// Only the tiles meeting the region, with at most a tile's margin on each side.
		k := renderLevel(pyr, pl)
		lw, lh := pl.Rect.Dx()>>k, pl.Rect.Dy()>>k
		if most := int64(lw+2*TileSize) * int64(lh+2*TileSize); st.pixels > most || (!c.level0 && st.pixels >= full) {
			t.Errorf("%s: decoded %d pixels (%d tiles) at level %d, want at most %d", c.path, st.pixels, st.tiles, k, most)
		}
	}
}

func pixelsOf(img image.Image) []uint8 {
	switch m := img.(type) {
	case *image.RGBA:
		return m.Pix
	case *image.Gray:
		return m.Pix
	}
	return nil
}

// TestRenderSeams scales a smooth gradient across rows of tiles: made one row of tiles
// at a time, the answer must show no step where the rows meet.
func TestRenderSeams(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 700, 2100))
	for y := 0; y < 2100; y++ {
		for x := 0; x < 700; x++ {
			v := uint8(y * 255 / 2099)
			src.SetRGBA(x, y, color.RGBA{v, v, 255 - v, 255})
		}
	}
	dir, pyr := cutQuadrants(t, src)
	for _, size := range []string{"333,", "^900,", "!100,100", "700,2100", "60,2000"} {
		req, err := ParseRequest("full", size, "0", "default.png")
		if err != nil {
			t.Fatal(err)
		}
		pl, err := req.Resolve(pyr.Width, pyr.Height, DefaultLimits)
		if err != nil {
			t.Fatal(size, err)
		}
		img, err := render(dir, pyr, pl, nil)
		if err != nil {
			t.Fatal(size, err)
		}
		m := img.(*image.RGBA)
		step := 255.0/float64(m.Rect.Dy()) + 4 // one row's change, plus JPEG's noise
		prev := -1
		for y := 0; y < m.Rect.Dy(); y++ {
			v := int(m.RGBAAt(m.Rect.Dx()/2, y).R)
			if prev >= 0 && (float64(v-prev) > step || v < prev-4) {
				t.Errorf("%s: row %d is %d after %d", size, y, v, prev)
				break
			}
			prev = v
		}
		if first, last := m.RGBAAt(0, 0).R, m.RGBAAt(0, m.Rect.Dy()-1).R; first > 8 || last < 247 {
			t.Errorf("%s: gradient runs from %d to %d", size, first, last)
		}
	}
}

// waitFor polls cond until it holds; the test's own deadline stops it otherwise.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if t.Context().Err() != nil {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRenderQueue checks the turns: one slot, a flooding client A and a client B with
// one request. B is served second, between A's, and A's renders beyond its share are
// refused at once while B's is taken.
func TestRenderQueue(t *testing.T) {
	q := newRenderQueue(1, 3, 5)
	ctx := context.Background()
	hold, err := q.acquire(ctx, "holder")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	enqueue := func(client, name string, waiting int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			release, err := q.acquire(ctx, client)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			release()
		}()
		waitFor(t, name+" in the queue", func() bool { _, n := q.state(client); return n == waiting })
	}
	enqueue("a", "a1", 1)
	enqueue("a", "a2", 2)
	enqueue("a", "a3", 3)
	if _, err := q.acquire(ctx, "a"); !errors.Is(err, errClientBusy) {
		t.Fatalf("a's fourth: %v, want errClientBusy", err)
	}
	enqueue("b", "b1", 4)
	enqueue("c", "c1", 5)
	if _, err := q.acquire(ctx, "d"); !errors.Is(err, errQueueFull) {
		t.Fatalf("d with the queue full: %v, want errQueueFull", err)
	}
	hold()
	wg.Wait()
	if got := strings.Join(order, " "); got != "a1 b1 c1 a2 a3" {
		t.Errorf("served %s, want a1 b1 c1 a2 a3", got)
	}
	if active, waiting := q.state("a"); active != 0 || waiting != 0 || q.free != 1 || len(q.clients) != 0 || len(q.ring) != 0 {
		t.Errorf("after: a %d, waiting %d, free %d, clients %d, ring %d", active, waiting, q.free, len(q.clients), len(q.ring))
	}
	// Cancelled while waiting: out of the queue, the slot still free for the next.
	hold, _ = q.acquire(ctx, "holder")
	short, stop := context.WithCancel(ctx)
	done := make(chan error)
	go func() { _, err := q.acquire(short, "x"); done <- err }()
	waitFor(t, "x in the queue", func() bool { _, n := q.state("x"); return n == 1 })
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled waiter: %v", err)
	}
	if active, waiting := q.state("x"); active != 0 || waiting != 0 {
		t.Errorf("cancelled waiter still counted: %d %d", active, waiting)
	}
	hold()
	if release, err := q.acquire(ctx, "y"); err != nil {
		t.Errorf("after a cancelled waiter: %v", err)
	} else {
		release()
	}
}

// TestRenderQueueServes floods the image server from one address while the only
// render slot is taken: that address gets 429 beyond its share, another address's
// request waits its turn and is served, and the thumbnail and preview made at import
// and the pre-cut tiles answer at once without queueing.
func TestRenderQueueServes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fixture(t, db)
		svc := New(db, Options{DataDir: t.TempDir(), Log: quietLog(), RenderSlots: 1, QueuePerClient: 2, QueueTotal: 10})
		importScan(t, svc, "recs", "R1.png", quadrants(1100, 700))
		h := handler(svc)
		get := func(addr, path string) *httptest.ResponseRecorder {
			r := httptest.NewRequest("GET", path, nil)
			r.RemoteAddr = addr + ":40000"
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			return w
		}
		hold, err := svc.queue.acquire(ctx, "someone else")
		if err != nil {
			t.Fatal(err)
		}
		type answer struct {
			path string
			w    *httptest.ResponseRecorder
		}
		answers := make(chan answer, 10)
		for i := range 5 {
			path := fmt.Sprintf("/iiif/3/recs-r1-p001/full/%d,/0/default.jpg", 300+i)
			go func() { answers <- answer{path, get("192.0.2.1", path)} }()
		}
		// Three of the flood are refused at once; two wait.
		for range 3 {
			a := <-answers
			if a.w.Code != http.StatusTooManyRequests || a.w.Header().Get("Retry-After") == "" ||
				!strings.Contains(a.w.Body.String(), "LINEAGE_IIIF_QUEUE_PER_CLIENT") {
				t.Fatalf("%s from the flooding client: %d %q %v", a.path, a.w.Code, a.w.Body, a.w.Header())
			}
		}
		waitFor(t, "the flood in the queue", func() bool { _, n := svc.queue.state("192.0.2.1"); return n == 2 })
		go func() {
			answers <- answer{"other", get("198.51.100.7", "/iiif/3/recs-r1-p001/full/250,/0/default.jpg")}
		}()
		waitFor(t, "the other client in the queue", func() bool { _, n := svc.queue.state("198.51.100.7"); return n == 3 })

		// Made at import, or pre-cut: served while every slot is taken.
		for _, path := range []string{"/iiif/3/recs-r1-p001/full/!400,400/0/default.jpg", "/iiif/3/recs-r1-p001/full/!1200,1200/0/default.jpg",
			"/iiif/3/recs-r1-p001/0,0,512,512/512,/0/default.jpg", "/iiif/3/recs-r1-p001/full/275,/0/default.jpg"} {
			w := get("203.0.113.9", path)
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(w.Body.Bytes()))
			if w.Code != 200 || err != nil || w.Header().Get("Content-Type") != "image/jpeg" || w.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Errorf("%s with the queue full: %d %v %v", path, w.Code, err, w.Header())
			}
			if strings.Contains(path, "!400") && (cfg.Width != 400 || cfg.Height != 255) {
				t.Errorf("thumbnail %d × %d", cfg.Width, cfg.Height)
			}
		}
		if _, n := svc.queue.state("203.0.113.9"); n != 3 {
			t.Errorf("%d waiting after the import's sizes, want still 3", n)
		}

		hold()
		for range 3 {
			a := <-answers
			if _, err := jpeg.DecodeConfig(bytes.NewReader(a.w.Body.Bytes())); a.w.Code != 200 || err != nil {
				t.Errorf("%s once its turn came: %d %v", a.path, a.w.Code, err)
			}
		}
		// Cached now: served without a slot even while one is held.
		hold, _ = svc.queue.acquire(ctx, "someone else")
		defer hold()
		if w := get("192.0.2.1", "/iiif/3/recs-r1-p001/full/250,/0/default.jpg"); w.Code != 200 {
			t.Errorf("a cached derivative: %d", w.Code)
		}
		// A derivative that waits longer than QueueWait for a slot: 503 naming it.
		svc.opts.QueueWait = time.Millisecond
		if w := get("192.0.2.1", "/iiif/3/recs-r1-p001/full/260,/0/default.jpg"); w.Code != 503 || w.Header().Get("Retry-After") == "" ||
			!strings.Contains(w.Body.String(), "LINEAGE_IIIF_QUEUE_WAIT") {
			t.Errorf("waited too long: %d %q", w.Code, w.Body)
		}
	})
}

// TestLimitsServed checks that info.json states the limits the settings give and that
// requests are held to them: max is the largest allowed size, an explicit size beyond
// them is 400 naming them.
func TestLimitsServed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fixture(t, db)
		var opts Options
		env := map[string]string{"LINEAGE_IIIF_MAX_WIDTH": "600", "LINEAGE_IIIF_MAX_HEIGHT": "700", "LINEAGE_IIIF_MAX_AREA": "300000"}
		if err := opts.ReadEnv(func(k string) string { return env[k] }); err != nil {
			t.Fatal(err)
		}
		opts.DataDir, opts.Log = t.TempDir(), quietLog()
		svc := New(db, opts)
		importScan(t, svc, "recs", "R1.png", quadrants(1100, 700))
		c := serve(t, svc)
		info := c.json("/iiif/3/recs-r1-p001/info.json")
		if info["maxWidth"] != 600.0 || info["maxHeight"] != 700.0 || info["maxArea"] != 300000.0 {
			t.Errorf("info.json limits: %v %v %v", info["maxWidth"], info["maxHeight"], info["maxArea"])
		}
		for _, s := range info["sizes"].([]any) {
			m := s.(map[string]any)
			if m["width"].(float64)*m["height"].(float64) > 300000 {
				t.Errorf("info.json lists %v, beyond maxArea", m)
			}
		}
		for path, want := range map[string][2]int{
			"full/max/0/default.jpg":        {600, 381}, // by maxWidth
			"full/^max/0/default.jpg":       {600, 381},
			"0,0,700,700/max/0/default.jpg": {547, 547}, // by maxArea
			"full/!400,400/0/default.jpg":   {400, 255}, // made at import
			"full/500,/0/default.jpg":       {500, 318},
		} {
			res, b := c.do("GET", "/iiif/3/recs-r1-p001/"+path)
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(b))
			if res.StatusCode != 200 || err != nil || cfg.Width != want[0] || cfg.Height != want[1] {
				t.Errorf("%s: %d %d × %d, want %d × %d", path, res.StatusCode, cfg.Width, cfg.Height, want[0], want[1])
			}
		}
		for _, path := range []string{"full/601,/0/default.jpg", "full/,600/0/default.jpg", "full/^!2000,2000/0/default.jpg", "full/!1200,1200/0/default.jpg"} {
			res, b := c.do("GET", "/iiif/3/recs-r1-p001/"+path)
			if res.StatusCode != 400 || !strings.Contains(string(b), "maxWidth 600, maxHeight 700, maxArea 300000") {
				t.Errorf("%s: %d %s, want 400 naming the limits", path, res.StatusCode, b)
			}
		}
	})
}

func TestReadEnv(t *testing.T) {
	var o Options
	env := map[string]string{"LINEAGE_IIIF_MAX_AREA": "1000000", "LINEAGE_IIIF_RENDERS": "3", "LINEAGE_IIIF_QUEUE_PER_CLIENT": "2",
		"LINEAGE_IIIF_QUEUE": "20", "LINEAGE_IIIF_QUEUE_WAIT": "10s", "LINEAGE_IIIF_CACHE_MB": "64", "LINEAGE_IIIF_SIGNED_TILES": "10m"}
	if err := o.ReadEnv(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	want := Options{Limits: Limits{MaxWidth: DefaultLimits.MaxWidth, MaxHeight: DefaultLimits.MaxHeight, MaxArea: 1000000}, RenderSlots: 3,
		QueuePerClient: 2, QueueTotal: 20, QueueWait: 10 * time.Second, CacheBytes: 64 << 20, SignedTiles: 10 * time.Minute}
	if fmt.Sprint(o) != fmt.Sprint(want) {
		t.Errorf("got %+v, want %+v", o, want)
	}
	for name, v := range map[string]string{"LINEAGE_IIIF_MAX_WIDTH": "100", "LINEAGE_IIIF_MAX_HEIGHT": "big", "LINEAGE_IIIF_MAX_AREA": "-1",
		"LINEAGE_IIIF_RENDERS": "0", "LINEAGE_IIIF_QUEUE_WAIT": "5", "LINEAGE_IIIF_QUEUE": "1.5", "LINEAGE_IIIF_CACHE_MB": "0", "LINEAGE_IIIF_SIGNED_TILES": "30s"} {
		var o Options
		err := o.ReadEnv(func(k string) string {
			if k == name {
				return v
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: %v, want an error naming it", name, v, err)
		}
	}
}

func TestVisitorKey(t *testing.T) {
	for remote, want := range map[string]string{
		"192.0.2.1:5000":                  "192.0.2.1",
		"[2001:db8:1:2:aaaa::1]:5000":     "2001:db8:1:2::/64",
		"[2001:db8:1:2:bbbb:cccc::9]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:3::1]:5000":          "2001:db8:1:3::/64",
		"[::ffff:192.0.2.7]:5000":         "192.0.2.7",
		"not an address":                  "not an address",
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote
		if got := visitorKey(r); got != want {
			t.Errorf("%s: %s, want %s", remote, got, want)
		}
	}
}

// TestMakeMissingSizes: a scan whose thumbnail and preview are missing (cut before
// imports made them) gets them from MakeMissingSizes, and meanwhile is still served.
func TestMakeMissingSizes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fixture(t, db)
		scans := t.TempDir()
		writeImage(t, filepath.Join(scans, "R1.png"), quadrants(1100, 700))
		writeImage(t, filepath.Join(scans, "R2.png"), quadrants(900, 600))
		data := t.TempDir()
		svc := New(db, Options{DataDir: data, Log: quietLog()})
		if _, err := svc.Import(ctx, ImportOptions{Collection: "recs", Paths: []string{scans}}); err != nil {
			t.Fatal(err)
		}
		sizes := func() []string {
			s, _ := filepath.Glob(filepath.Join(data, "files", "iiif", "tiles", "*", "*", "sizes", "*"))
			return s
		}
		if n := len(sizes()); n != 4 {
			t.Fatalf("%d sizes after the import, want 4", n)
		}
		im := mustImage(t, svc, "recs-r1-p001")
		if err := os.RemoveAll(filepath.Join(svc.tilesDir(im.ID, im.Version), "sizes")); err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("GET", "/iiif/3/recs-r1-p001/full/!400,400/0/default.jpg", nil)
		w := httptest.NewRecorder()
		handler(svc).ServeHTTP(w, r)
		if cfg, err := jpeg.DecodeConfig(w.Body); w.Code != 200 || err != nil || cfg.Width != 400 {
			t.Errorf("thumbnail of a scan without its sizes: %d %v %v", w.Code, cfg, err)
		}
		if n, err := svc.MakeMissingSizes(ctx); err != nil || n != 1 {
			t.Errorf("MakeMissingSizes: %d %v, want 1 scan", n, err)
		}
		if got := sizes(); len(got) != 4 || slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, ".tmp") }) {
			t.Errorf("sizes after: %q", got)
		}
		if n, err := svc.MakeMissingSizes(ctx); err != nil || n != 0 {
			t.Errorf("MakeMissingSizes again: %d %v, want nothing to do", n, err)
		}
	})
}
