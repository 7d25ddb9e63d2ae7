package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
)

// backends runs body against the local folder and against a bucket of an in-process S3
// server, under a prefix.
func backends(t *testing.T, body func(t *testing.T, st blob.Store)) {
	t.Run("local", func(t *testing.T) { body(t, blob.NewLocal(t.TempDir())) })
	t.Run("s3", func(t *testing.T) {
		st, _ := blobtest.Store(t, "site/")
		body(t, st)
	})
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func read(t *testing.T, st blob.Store, key string, rng blob.Range) (string, blob.Info, error) {
	t.Helper()
	rc, info, err := st.Get(context.Background(), key, rng)
	if err != nil {
		return "", info, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	return string(b), info, err
}

func TestStore(t *testing.T) {
	backends(t, func(t *testing.T, st blob.Store) {
		ctx := context.Background()
		body := []byte("Parish register of St Mary, 1781")
		info, err := st.Put(ctx, "iiif/tiles/a-p001/v1/1/0_0.jpg", bytes.NewReader(body), blob.PutOptions{SHA256: sum(body)})
		if err != nil || info.Size != int64(len(body)) || info.SHA256 != sum(body) {
			t.Fatalf("put: %+v %v", info, err)
		}

		cases := []struct {
			name string
			rng  blob.Range
			want string
		}{
			{"whole", blob.Range{}, string(body)},
			{"first byte", blob.Range{Offset: 0, Length: 1}, "P"},
			{"middle", blob.Range{Offset: 7, Length: 8}, "register"},
			{"to the end", blob.Range{Offset: 28}, "1781"},
			{"past the end", blob.Range{Offset: 28, Length: 100}, "1781"},
		}
		for _, c := range cases {
			got, info, err := read(t, st, "iiif/tiles/a-p001/v1/1/0_0.jpg", c.rng)
			if err != nil || got != c.want || info.Size != int64(len(body)) {
				t.Errorf("%s: %q (size %d) %v, want %q", c.name, got, info.Size, err, c.want)
			}
		}
		for _, rng := range []blob.Range{{Offset: -1}, {Offset: 0, Length: -2}, {Offset: 200}} {
			if _, _, err := read(t, st, "iiif/tiles/a-p001/v1/1/0_0.jpg", rng); !errors.Is(err, blob.ErrInvalidRange) {
				t.Errorf("range %+v: %v, want ErrInvalidRange", rng, err)
			}
		}

		if got, err := st.Stat(ctx, "iiif/tiles/a-p001/v1/1/0_0.jpg"); err != nil || got.Size != int64(len(body)) || got.ContentType != "image/jpeg" || got.ModTime.IsZero() {
			t.Errorf("stat: %+v %v", got, err)
		}
		if s, err := blob.Checksum(ctx, st, "iiif/tiles/a-p001/v1/1/0_0.jpg"); err != nil || s != sum(body) {
			t.Errorf("checksum %q %v", s, err)
		}

		// Missing objects are fs.ErrNotExist everywhere.
		if _, err := st.Stat(ctx, "media/none.png"); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("stat of a missing object: %v", err)
		}
		if _, _, err := st.Get(ctx, "media/none.png", blob.Range{}); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("get of a missing object: %v", err)
		}
		if err := st.Delete(ctx, "media/none.png"); err != nil {
			t.Errorf("delete of a missing object: %v", err)
		}

		// A wrong checksum stores nothing, and leaves what was there.
		if _, err := st.Put(ctx, "iiif/tiles/a-p001/v1/1/0_0.jpg", strings.NewReader("corrupt"), blob.PutOptions{SHA256: sum(body)}); !errors.Is(err, blob.ErrChecksum) {
			t.Errorf("put with a wrong checksum: %v", err)
		}
		if got, _, _ := read(t, st, "iiif/tiles/a-p001/v1/1/0_0.jpg", blob.Range{}); got != string(body) {
			t.Errorf("after a refused put: %q", got)
		}

		// Replacing.
		if _, err := st.Put(ctx, "iiif/tiles/a-p001/v1/1/0_0.jpg", strings.NewReader("new"), blob.PutOptions{}); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := read(t, st, "iiif/tiles/a-p001/v1/1/0_0.jpg", blob.Range{}); got != "new" {
			t.Errorf("replaced: %q", got)
		}

		// Listing by prefix, which need not end at a folder.
		for _, k := range []string{"iiif/tiles/a-p001/v1/2/0_0.jpg", "iiif/tiles/a-p002/v1/1/0_0.jpg", "iiif/tiles/b-p001/v1/1/0_0.jpg", "media/a.png", "mail/x.eml"} {
			if _, err := st.Put(ctx, k, strings.NewReader(k), blob.PutOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		list := func(prefix string) []string {
			var keys []string
			if err := st.List(ctx, prefix, func(i blob.Info) error {
				if i.Size <= 0 {
					t.Errorf("%s: size %d", i.Key, i.Size)
				}
				keys = append(keys, i.Key)
				return nil
			}); err != nil {
				t.Fatalf("list %q: %v", prefix, err)
			}
			slices.Sort(keys)
			return keys
		}
		lists := []struct {
			prefix string
			want   []string
		}{
			{"iiif/tiles/a-p00", []string{"iiif/tiles/a-p001/v1/1/0_0.jpg", "iiif/tiles/a-p001/v1/2/0_0.jpg", "iiif/tiles/a-p002/v1/1/0_0.jpg"}},
			{"iiif/tiles/a-p001/", []string{"iiif/tiles/a-p001/v1/1/0_0.jpg", "iiif/tiles/a-p001/v1/2/0_0.jpg"}},
			{"media/", []string{"media/a.png"}},
			{"nothing/", nil},
			{"", []string{"iiif/tiles/a-p001/v1/1/0_0.jpg", "iiif/tiles/a-p001/v1/2/0_0.jpg", "iiif/tiles/a-p002/v1/1/0_0.jpg", "iiif/tiles/b-p001/v1/1/0_0.jpg", "mail/x.eml", "media/a.png"}},
		}
		for _, c := range lists {
			if got := list(c.prefix); !slices.Equal(got, c.want) {
				t.Errorf("list %q: %q, want %q", c.prefix, got, c.want)
			}
		}
		stop := errors.New("stop")
		if err := st.List(ctx, "", func(blob.Info) error { return stop }); !errors.Is(err, stop) {
			t.Errorf("list stopped by fn: %v", err)
		}

		if err := blob.DeletePrefix(ctx, st, "iiif/tiles/a-p001/"); err != nil {
			t.Fatal(err)
		}
		if got := list("iiif/tiles/"); !slices.Equal(got, []string{"iiif/tiles/a-p002/v1/1/0_0.jpg", "iiif/tiles/b-p001/v1/1/0_0.jpg"}) {
			t.Errorf("after DeletePrefix: %q", got)
		}

		// Bad keys are refused by every operation.
		for _, k := range []string{"", "/abs", "a/../b", "a//b", "a/", `a\b`, "a/.tmp-x", "a\x00b"} {
			if _, err := st.Put(ctx, k, strings.NewReader("x"), blob.PutOptions{}); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("put %q: %v", k, err)
			}
			if _, err := st.Stat(ctx, k); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("stat %q: %v", k, err)
			}
			if _, _, err := st.Get(ctx, k, blob.Range{}); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("get %q: %v", k, err)
			}
			if err := st.Delete(ctx, k); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("delete %q: %v", k, err)
			}
		}

		// A large object (beyond what S3's Put hashes in memory) keeps its bytes.
		big := bytes.Repeat([]byte("0123456789abcdef"), 600_000)
		if _, err := st.Put(ctx, "staging/big.bin", bytes.NewReader(big), blob.PutOptions{SHA256: sum(big)}); err != nil {
			t.Fatal(err)
		}
		if got, info, err := read(t, st, "staging/big.bin", blob.Range{Offset: 9_000_000, Length: 16}); err != nil || got != "0123456789abcdef" || info.Size != int64(len(big)) {
			t.Errorf("big: %q %d %v", got, info.Size, err)
		}
		// The same from a reader that cannot seek (an upload's body).
		if _, err := st.Put(ctx, "staging/big2.bin", struct{ io.Reader }{bytes.NewReader(big)}, blob.PutOptions{SHA256: sum(big)}); err != nil {
			t.Fatal(err)
		}
		if s, err := blob.ReadChecksum(ctx, st, "staging/big2.bin"); err != nil || s != sum(big) {
			t.Errorf("big from a stream: %q %v", s, err)
		}
		if _, err := st.Put(ctx, "staging/big3.bin", struct{ io.Reader }{bytes.NewReader(big)}, blob.PutOptions{SHA256: sum(body)}); !errors.Is(err, blob.ErrChecksum) {
			t.Errorf("big from a stream with a wrong checksum: %v", err)
		}
	})
}

func TestMoveDir(t *testing.T) {
	backends(t, func(t *testing.T, st blob.Store) {
		ctx := context.Background()
		for _, round := range []string{"one", "two"} {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "1"), 0o755)
			os.WriteFile(filepath.Join(dir, "1", "0_0.jpg"), []byte(round), 0o644)
			os.WriteFile(filepath.Join(dir, "info"), []byte(round), 0o644)
			if err := blob.MoveDir(ctx, st, dir, "iiif/tiles/x/v1"); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s: the folder is still there: %v", round, err)
			}
			for _, k := range []string{"iiif/tiles/x/v1/1/0_0.jpg", "iiif/tiles/x/v1/info"} {
				if got, _, err := read(t, st, k, blob.Range{}); err != nil || got != round {
					t.Errorf("%s: %s: %q %v", round, k, got, err)
				}
			}
		}
	})
}

func TestSignedURL(t *testing.T) {
	ctx := context.Background()
	if _, err := blob.NewLocal(t.TempDir()).SignedURL(ctx, "a.jpg", time.Minute); !errors.Is(err, blob.ErrNoSignedURLs) {
		t.Errorf("local: %v", err)
	}
	st, peer := blobtest.Store(t, "p/")
	if _, err := st.Put(ctx, "media/a.txt", strings.NewReader("hello"), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	u, err := st.SignedURL(ctx, "media/a.txt", time.Minute)
	if err != nil || !strings.HasPrefix(u, peer.URL+"/") || !strings.Contains(u, "X-Amz-Signature=") {
		t.Fatalf("signed URL %q %v", u, err)
	}
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(b) != "hello" {
		t.Errorf("signed GET: %d %q", res.StatusCode, b)
	}
	// The same object without a signature is refused: the bucket is private, and
	// nothing Lineage did made it public.
	res, err = http.Get(strings.Split(u, "?")[0])
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden || peer.PublicGrants() != 0 {
		t.Errorf("anonymous GET: %d, public grants %d", res.StatusCode, peer.PublicGrants())
	}
}

func TestParseURL(t *testing.T) {
	good := []struct {
		in   string
		want blob.Location
	}{
		{"", blob.Location{}},
		{"s3://lineage", blob.Location{Bucket: "lineage"}},
		{"s3://lineage/", blob.Location{Bucket: "lineage"}},
		{"s3://my.bucket-1/site", blob.Location{Bucket: "my.bucket-1", Prefix: "site/"}},
		{"s3://abc/a/b/", blob.Location{Bucket: "abc", Prefix: "a/b/"}},
	}
	for _, c := range good {
		if got, err := blob.ParseURL(c.in); err != nil || got != c.want {
			t.Errorf("%q: %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{
		"lineage", "/data/files", "file:///data", "https://s3.amazonaws.com/bucket", "s3://", "s3://ab",
		"s3://UPPER", "s3://-bucket", "s3://bucket-", "s3://a..b", "s3://user:pw@bucket", "s3://bucket:9000",
		"s3://bucket/a?x=1", "s3://bucket/a#f", "s3://bucket/a/../b", "s3://bucket/a//b", "s3://bucket/.tmp-x",
		"s3://" + strings.Repeat("a", 64), "s3://bucket/%00",
	} {
		if got, err := blob.ParseURL(in); err == nil {
			t.Errorf("%q: accepted as %+v", in, got)
		}
	}
}

func TestS3FromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	loc := blob.Location{Bucket: "b", Prefix: "p/"}
	cfg, err := blob.S3FromEnv(loc, env("AWS_ENDPOINT_URL", "http://127.0.0.1:9000", "AWS_ENDPOINT_URL_S3", "http://minio:9000",
		"AWS_DEFAULT_REGION", "eu-west-2", "AWS_ACCESS_KEY_ID", "k", "AWS_SECRET_ACCESS_KEY", "s"))
	if err != nil || cfg.Endpoint != "http://minio:9000" || cfg.Region != "eu-west-2" || !cfg.PathStyle || cfg.AccessKey != "k" || cfg.SecretKey != "s" || cfg.Prefix != "p/" {
		t.Errorf("%+v %v", cfg, err)
	}
	if cfg, err := blob.S3FromEnv(loc, env("AWS_REGION", "eu-west-1")); err != nil || cfg.PathStyle || cfg.Endpoint != "" {
		t.Errorf("AWS: %+v %v", cfg, err)
	}
	if cfg, err := blob.S3FromEnv(loc, env("AWS_ENDPOINT_URL", "http://x", "LINEAGE_STORAGE_PATH_STYLE", "false")); err != nil || cfg.PathStyle {
		t.Errorf("path style off: %+v %v", cfg, err)
	}
	for _, bad := range [][]string{{"LINEAGE_STORAGE_PATH_STYLE", "maybe"}, {"AWS_ACCESS_KEY_ID", "k"}, {"AWS_SECRET_ACCESS_KEY", "s"}} {
		if _, err := blob.S3FromEnv(loc, env(bad...)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, ep := range []string{"minio:9000", "ftp://x", "http://x/path", "http://"} {
		if _, err := blob.NewS3(blob.S3Config{Bucket: "b", Endpoint: ep}); err == nil {
			t.Errorf("endpoint %q accepted", ep)
		}
	}
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	st, err := blob.Open(ctx, "", data, func(string) string { return "" })
	if l, ok := st.(*blob.Local); err != nil || !ok || l.Root() != filepath.Join(data, "files") {
		t.Errorf("default: %v %v", st, err)
	}
	peer := blobtest.Start(t)
	if err := peer.CreateBucket("lineage"); err != nil {
		t.Fatal(err)
	}
	env := peer.Env("lineage", "site")
	st, err = blob.Open(ctx, env["LINEAGE_STORAGE_URL"], data, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Put(ctx, "a.txt", strings.NewReader("a"), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	// A missing bucket is an error at start, not at the first upload.
	if _, err := blob.Open(ctx, "s3://missing-bucket", data, func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing bucket: %v", err)
	}
}

func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"", "s3://lineage/site", "s3://a.b-c/x/y/", "s3://x", "file:///x", "s3://b/%2e%2e/x", "s3://b/a\\b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		loc, err := blob.ParseURL(raw)
		if err != nil {
			return
		}
		if raw != "" && loc.Bucket == "" {
			t.Fatalf("%q: no bucket", raw)
		}
		if loc.Prefix != "" && (!strings.HasSuffix(loc.Prefix, "/") || !blob.ValidKey(strings.TrimSuffix(loc.Prefix, "/"))) {
			t.Fatalf("%q: prefix %q", raw, loc.Prefix)
		}
		if again, err := blob.ParseURL(loc.String()); err != nil || again != loc {
			t.Fatalf("%q → %q → %+v %v", raw, loc.String(), again, err)
		}
	})
}

func FuzzValidKey(f *testing.F) {
	for _, s := range []string{"a", "iiif/tiles/x/1/0_0.jpg", "../x", "a//b", "/a", ".tmp-x", "a/./b", "é/ü"} {
		f.Add(s)
	}
	root := f.TempDir()
	l := blob.NewLocal(root)
	f.Fuzz(func(t *testing.T, key string) {
		if !blob.ValidKey(key) {
			return
		}
		// A valid key's file is inside the store's folder.
		rel, err := filepath.Rel(root, l.Path(key))
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
			t.Fatalf("%q → %q (%v)", key, l.Path(key), err)
		}
		if filepath.ToSlash(rel) != key {
			t.Fatalf("%q → %q", key, rel)
		}
	})
}

func TestReadSeeker(t *testing.T) {
	backends(t, func(t *testing.T, st blob.Store) {
		ctx := context.Background()
		body := "0123456789abcdefghij"
		if _, err := st.Put(ctx, "media/a.txt", strings.NewReader(body), blob.PutOptions{}); err != nil {
			t.Fatal(err)
		}
		rc, info, err := st.Get(ctx, "media/a.txt", blob.Range{})
		if err != nil {
			t.Fatal(err)
		}
		rs := blob.ReadSeeker(ctx, st, info, rc)
		defer rs.Close()
		steps := []struct {
			off    int64
			whence int
			n      int
			want   string
		}{
			{0, io.SeekEnd, 0, ""},
			{0, io.SeekStart, 4, "0123"},
			{2, io.SeekCurrent, 3, "678"},
			{-4, io.SeekEnd, 10, "ghij"},
			{5, io.SeekStart, 2, "56"},
		}
		for _, s := range steps {
			if _, err := rs.Seek(s.off, s.whence); err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(io.LimitReader(rs, int64(s.n)))
			if err != nil || string(b) != s.want {
				t.Errorf("seek %d/%d read %d: %q %v, want %q", s.off, s.whence, s.n, b, err, s.want)
			}
		}
		if _, err := rs.Seek(-100, io.SeekEnd); err == nil {
			t.Error("seek before the start")
		}
	})
}
