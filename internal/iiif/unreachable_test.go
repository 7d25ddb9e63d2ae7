package iiif

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestMissingFiles: a scan whose files are not in this instance's storage (two servers
// with data folders of their own and no shared storage) answers 500 without
// Retry-After, every time, and Unreachable says which; a scan replaced a moment ago
// answers 503 with Retry-After: 1 once, and the retry is served.
func TestMissingFiles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fixture(t, db)
		a := New(db, Options{DataDir: t.TempDir(), Log: quietLog()})
		b := New(db, Options{DataDir: t.TempDir(), Log: quietLog()})
		ca, cb := serve(t, a), serve(t, b)
		scans := importScan(t, a, "recs", "R1.png", quadrants(1100, 700))
		const tile = "/iiif/3/recs-r1-p001/0,0,512,512/512,/0/default.jpg"
		const derivative = "/iiif/3/recs-r1-p001/full/300,/0/default.jpg"

		if err := b.Unreachable(time.Now()); err != nil {
			t.Fatalf("unreachable before any request: %v", err)
		}
		for _, path := range []string{tile, derivative, tile} {
			res, body := cb.do("GET", path)
			if res.StatusCode != 500 || res.Header.Get("Retry-After") != "" || !strings.Contains(string(body), "cannot be reached from this server") {
				t.Fatalf("%s on the other server: %d %q %q", path, res.StatusCode, res.Header.Get("Retry-After"), body)
			}
		}
		err := b.Unreachable(time.Now())
		if err == nil || !strings.Contains(err.Error(), "recs-r1-p001") || !strings.Contains(err.Error(), "LINEAGE_STORAGE_URL") {
			t.Fatalf("unreachable: %v", err)
		}
		if err := b.Unreachable(time.Now().Add(unreachableFor)); err != nil {
			t.Fatalf("still reported after %s: %v", unreachableFor, err)
		}
		if err := a.Unreachable(time.Now()); err != nil {
			t.Fatalf("the importing server reports %v", err)
		}

		// Replaced: a remembers the old version, whose files the new import removed.
		if res, _ := ca.do("GET", tile); res.StatusCode != 200 {
			t.Fatalf("tile: %d", res.StatusCode)
		}
		old := mustImage(t, a, "recs-r1-p001")
		writeImage(t, filepath.Join(scans, "R1.png"), quadrants(900, 700))
		other := New(db, Options{DataDir: a.opts.DataDir, Log: quietLog()}) // another process on a's folder
		if rep, err := other.Import(ctx, ImportOptions{Collection: "recs", Paths: []string{scans}}); err != nil || rep.Cut != 1 {
			t.Fatalf("re-import: %v %+v", err, rep)
		}
		if fresh, _ := lookupImage(ctx, db, "recs-r1-p001"); fresh.Version == old.Version {
			t.Fatal("the re-import kept the version")
		}
		// a still trusts what it read before the import (for imageTTL; here for as long as
		// the test takes), and has not read the tile recently.
		a.mu.Lock()
		a.images["recs-r1-p001"] = cachedImage{old, time.Now().Add(time.Hour)}
		a.mu.Unlock()
		a.tiles = newMemCache(a.opts.TileMemoryBytes)
		res, body := ca.do("GET", tile)
		if res.StatusCode != 503 || res.Header.Get("Retry-After") != "1" || !strings.Contains(string(body), "being replaced") {
			t.Fatalf("replaced tile: %d %q %q", res.StatusCode, res.Header.Get("Retry-After"), body)
		}
		if res, _ := ca.do("GET", tile); res.StatusCode != 200 {
			t.Fatalf("retry of a replaced tile: %d", res.StatusCode)
		}
		if err := a.Unreachable(time.Now()); err != nil {
			t.Fatalf("a replaced scan reported as unreachable: %v", err)
		}
	})
}
