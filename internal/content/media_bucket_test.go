package content

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
	"lineage/internal/store/storetest"
)

// TestMediaInBucket: media stored through one instance (PutMedia, an import) are
// served by another on the same bucket, with ranges and validators; export reads them
// back; bad names are refused.
func TestMediaInBucket(t *testing.T) {
	ctx := context.Background()
	bucket, peer := blobtest.Store(t, "site/")
	db := storetest.SQLite(t)
	a := New(db, Options{DataDir: t.TempDir(), Blobs: bucket})
	bucketB, err := blob.NewS3(peer.Config(strings.SplitN(strings.TrimPrefix(bucket.String(), "s3://"), "/", 2)[0], "site/"))
	if err != nil {
		t.Fatal(err)
	}
	dataB := t.TempDir()
	b := New(db, Options{DataDir: dataB, Blobs: bucketB})
	srv := httptest.NewServer(handler(b))
	defer srv.Close()

	body := "0123456789 the parish church of St Mary"
	if n, err := a.PutMedia(ctx, "library/notes.txt", strings.NewReader(body)); err != nil || n != int64(len(body)) {
		t.Fatalf("put: %d %v", n, err)
	}
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "media", ".git"), 0o755)
	os.WriteFile(filepath.Join(src, "media", "church.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), 0o644)
	os.WriteFile(filepath.Join(src, "media", ".git", "config"), []byte("hidden"), 0o644)
	if err := a.putMediaTree(ctx, filepath.Join(src, "media")); err != nil {
		t.Fatal(err)
	}

	r := get(t, srv.URL, "/media/library/notes.txt")
	if r.status != 200 || string(r.body) != body || r.header.Get("Last-Modified") == "" || r.header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("served by the other instance: %d %q %v", r.status, r.body, r.header)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/media/library/notes.txt", nil)
	req.Header.Set("Range", "bytes=11-16")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusPartialContent || string(part) != "the pa" {
		t.Errorf("range: %d %q", res.StatusCode, part)
	}
	req, _ = http.NewRequest("GET", srv.URL+"/media/library/notes.txt", nil)
	req.Header.Set("If-Modified-Since", r.header.Get("Last-Modified"))
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusNotModified {
		t.Errorf("If-Modified-Since: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	if r := get(t, srv.URL, "/media/church.svg"); r.status != 200 || !strings.Contains(r.header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("imported svg: %d %v", r.status, r.header)
	}
	for _, p := range []string{"/media/.git/config", "/media/nope.txt", "/media/library", "/media/library/", "/media/..%2fsite%2fmedia%2fchurch.svg"} {
		if r := get(t, srv.URL, p); r.status != 404 {
			t.Errorf("%s: %d", p, r.status)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dataB, "*")); len(files) != 0 {
		t.Errorf("the data folder holds %q", files)
	}

	// Export brings the media back as files.
	out := t.TempDir()
	if err := a.getMediaTree(ctx, filepath.Join(out, "media")); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(out, "media", "library", "notes.txt")); err != nil || string(got) != body {
		t.Errorf("exported: %q %v", got, err)
	}

	for _, name := range []string{"", "../x.png", "a/../../x.png", `a\b.png`, ".hidden.png", "a/.b/c.png", "/abs.png", "a//b.png"} {
		if _, err := a.PutMedia(ctx, name, strings.NewReader("x")); !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("PutMedia(%q): %v", name, err)
		}
	}
}

func FuzzMediaName(f *testing.F) {
	for _, s := range []string{"a.png", "library/a b.jpg", "../x", ".x", "a/.b", `a\b`, "a//b", "é.png"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !validMediaName(name) {
			return
		}
		key := mediaPrefix + name
		if !blob.ValidKey(key) || !strings.HasPrefix(filepath.Clean("/"+key), "/media/") || strings.Contains(name, "/.") || strings.HasPrefix(name, ".") {
			t.Fatalf("%q accepted as %q", name, key)
		}
	})
}
