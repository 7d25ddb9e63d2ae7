package blob_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
)

// TestMigrate: a folder into a bucket — every object copied and verified; a run stopped
// half-way goes on where it stopped; an object changed in the bucket since is copied
// again; --delete empties the folder.
func TestMigrate(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	files := map[string]string{}
	for i := range 12 {
		k := filepath.Join("iiif", "tiles", "s-p001", "v1", "1", string(rune('a'+i))+".jpg")
		files[filepath.ToSlash(k)] = strings.Repeat(string(rune('a'+i)), 100+i)
	}
	files["media/church.svg"] = "<svg/>"
	files["iiif/cache/ab/ab12.jpg"] = "derivative"
	for k, v := range files {
		p := filepath.Join(root, filepath.FromSlash(k))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(v), 0o644)
	}
	src := blob.NewLocal(root)
	dst, _ := blobtest.Store(t, "site/")
	skipCache := func(k string) bool { return strings.HasPrefix(k, "iiif/cache/") }

	// Stopped after five objects.
	stop, cancel := context.WithCancel(ctx)
	done := 0
	rep, err := blob.Migrate(stop, src, dst, blob.MigrateOptions{Skip: skipCache, Concurrency: 1, Progress: func(string, bool) {
		if done++; done == 5 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || rep.Copied < 5 || rep.Copied >= 13 {
		t.Fatalf("interrupted run: %+v %v", rep, err)
	}
	first := rep.Copied

	// One copied object is changed in the bucket (same size, other bytes).
	if _, err := dst.Put(ctx, "iiif/tiles/s-p001/v1/1/a.jpg", strings.NewReader(strings.Repeat("z", 100)), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	rep, err = blob.Migrate(ctx, src, dst, blob.MigrateOptions{Skip: skipCache})
	if err != nil || rep.Copied+rep.Present != 13 || rep.Present != first-1 || rep.Skipped != 1 {
		t.Fatalf("resumed run: %+v %v (first run copied %d)", rep, err, first)
	}
	for k, v := range files {
		rc, _, err := dst.Get(ctx, k, blob.Range{})
		if skipCache(k) {
			if !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: the cache was copied", k)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		b := make([]byte, 1000)
		n, _ := rc.Read(b)
		rc.Close()
		if string(b[:n]) != v {
			t.Errorf("%s: %q", k, b[:n])
		}
	}

	// Nothing left to copy; with Delete the folder empties but for what was skipped.
	rep, err = blob.Migrate(ctx, src, dst, blob.MigrateOptions{Skip: skipCache, Delete: true})
	if err != nil || rep.Copied != 0 || rep.Present != 13 {
		t.Fatalf("third run: %+v %v", rep, err)
	}
	var left []string
	src.List(ctx, "", func(i blob.Info) error { left = append(left, i.Key); return nil })
	if len(left) != 1 || left[0] != "iiif/cache/ab/ab12.jpg" {
		t.Errorf("left in the folder: %q", left)
	}
}
