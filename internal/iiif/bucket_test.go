package iiif

import (
	"bytes"
	"context"
	"image/jpeg"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestServeFromBucket: two servers with their own data folders on one database and one
// bucket, as two machines would be. Scans imported through one are served by the other
// (tiles, import sizes, derivatives); nothing of them lands in either data folder; a
// members-only scan is never readable without the server's gate, in the bucket or by
// redirect; with SignedTiles, a public tile is a redirect to a signed URL that reads
// the same bytes.
func TestServeFromBucket(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		fixture(t, db)
		bucket, peer := blobtest.Store(t, "site/")
		dataA, dataB := t.TempDir(), t.TempDir()
		a := New(db, Options{DataDir: dataA, Blobs: bucket, Log: quietLog(), Members: headerScope{}})
		// B reaches the bucket through a client of its own.
		bucketB, err := blob.NewS3(peer.Config(bucketName(bucket), "site/"))
		if err != nil {
			t.Fatal(err)
		}
		b := New(db, Options{DataDir: dataB, Blobs: bucketB, Log: quietLog(), Members: headerScope{}, SignedTiles: time.Minute})
		cb := serve(t, b)

		scans := importScan(t, a, "recs", "R1.png", quadrants(1100, 700))
		importScan(t, a, "briefs", "B1.png", quadrants(600, 400))
		for _, data := range []string{dataA, dataB} {
			if files, _ := filepath.Glob(filepath.Join(data, "files", "*")); len(files) != 0 {
				t.Errorf("the data folder holds %q", files)
			}
		}

		// A public tile: a redirect to a signed URL of the bucket with the tile's bytes.
		res, _ := cb.do("GET", "/iiif/3/recs-r1-p001/0,0,512,512/512,/0/default.jpg")
		loc := res.Header.Get("Location")
		if res.StatusCode != http.StatusFound || !strings.HasPrefix(loc, peer.URL+"/") || !strings.Contains(loc, "X-Amz-Signature=") {
			t.Fatalf("public tile: %d %q", res.StatusCode, loc)
		}
		res, body := cb.do("GET", loc)
		if _, err := jpeg.Decode(bytes.NewReader(body)); res.StatusCode != 200 || err != nil {
			t.Fatalf("signed tile: %d %v", res.StatusCode, err)
		}
		rc, _, err := bucket.Get(ctx, tilesKey("recs-r1-p001", mustImage(t, a, "recs-r1-p001").Version)+tileName(0, 0, 0), blob.Range{})
		if err != nil {
			t.Fatal(err)
		}
		stored, _ := io.ReadAll(rc)
		rc.Close()
		if !bytes.Equal(stored, body) {
			t.Error("the signed URL read other bytes than the stored tile")
		}

		// The import's sizes and on-demand derivatives are served by B from the bucket.
		for _, path := range []string{"/iiif/3/recs-r1-p001/full/!400,400/0/default.jpg", "/iiif/3/recs-r1-p001/full/300,/90/gray.png", "/iiif/3/recs-r1-p001/info.json"} {
			if res, body := cb.do("GET", path); res.StatusCode != 200 || len(body) == 0 {
				t.Errorf("%s: %d %s", path, res.StatusCode, body)
			}
		}
		var cached int
		bucket.List(ctx, cachePrefix, func(blob.Info) error { cached++; return nil })
		if cached != 1 {
			t.Errorf("%d derivatives in the bucket, want 1", cached)
		}

		// A members-only tile: never a redirect; 401 without the scope, the bytes from
		// B itself with it.
		tile := "/iiif/3/briefs-b1-p001/0,0,512,400/512,/0/default.jpg"
		if res, _ := cb.do("GET", tile); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("members-only tile, anonymous: %d", res.StatusCode)
		}
		res, body = cb.do("GET", tile, "X-Test-Scope", "member")
		if _, err := jpeg.Decode(bytes.NewReader(body)); res.StatusCode != 200 || err != nil || res.Header.Get("Location") != "" || res.Header.Get("Cache-Control") != "private, max-age=3600" {
			t.Errorf("members-only tile, member: %d %v %q", res.StatusCode, err, res.Header.Get("Location"))
		}
		// In the bucket it is private, as everything there: an unsigned GET is refused,
		// and Lineage never asked for anything to be public.
		key := "site/" + tilesKey("briefs-b1-p001", mustImage(t, a, "briefs-b1-p001").Version) + tileName(0, 0, 0)
		res, _ = cb.do("GET", peer.URL+"/"+bucketName(bucket)+"/"+key)
		if res.StatusCode != http.StatusForbidden || peer.PublicGrants() != 0 {
			t.Errorf("unsigned GET of a members-only tile: %d, public grants %d", res.StatusCode, peer.PublicGrants())
		}

		// Re-importing new pixels replaces the old version's objects.
		writeImage(t, filepath.Join(scans, "R1.png"), quadrants(900, 700))
		old := mustImage(t, a, "recs-r1-p001").Version
		if _, err := a.Import(ctx, ImportOptions{Collection: "recs", Paths: []string{scans}}); err != nil {
			t.Fatal(err)
		}
		a.forget("recs-r1-p001")
		if now := mustImage(t, a, "recs-r1-p001").Version; now == old {
			t.Fatal("the version did not change")
		}
		var left int
		bucket.List(ctx, "iiif/tiles/recs-r1-p001/"+old+"/", func(blob.Info) error { left++; return nil })
		if left != 0 {
			t.Errorf("%d objects of the replaced version are left", left)
		}
		if _, err := os.Stat(filepath.Join(dataA, "tmp")); err == nil {
			if left, _ := os.ReadDir(filepath.Join(dataA, "tmp")); len(left) != 0 {
				t.Errorf("staging left %d entries", len(left))
			}
		}
	})
}

// bucketName finds the bucket blobtest.Store made (its only one).
func bucketName(st *blob.S3) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(st.String(), "s3://"), "/")
	return name
}
