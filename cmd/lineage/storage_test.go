package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
	"lineage/internal/iiif"
	"lineage/internal/research"
	"lineage/internal/store/storetest"
)

// TestStorageMigrate: scans imported into a data folder, media and mail beside them,
// moved with `lineage storage migrate --to s3://…`; a server on the bucket alone then
// serves the scan's tiles; a second run copies nothing; --delete empties the folder.
func TestStorageMigrate(t *testing.T) {
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	data := t.TempDir()
	db := storetest.SQLite(t)
	rs := research.New(db, research.Options{Log: quiet})
	if err := rs.Init(ctx); err != nil {
		t.Fatal(err)
	}
	recs := "record_id,record_type,date,place,role,surname,given_names\nR1,baptism,1851,Leeds,principal,Jones,John\n"
	if _, err := rs.ImportRecords(ctx, strings.NewReader(recs), nil, research.ImportOptions{Collection: "recs"}, 0); err != nil {
		t.Fatal(err)
	}
	scans := t.TempDir()
	writePNG(t, filepath.Join(scans, "R1.png"), 700, 500)
	local := iiif.New(db, iiif.Options{DataDir: data, Log: quiet})
	if _, err := local.Import(ctx, iiif.ImportOptions{Collection: "recs", Paths: []string{scans}}); err != nil {
		t.Fatal(err)
	}
	testFile(t, filepath.Join(data, "files", "media"), "church.svg", "<svg/>")
	testFile(t, filepath.Join(data, "mail"), "20260101T000000Z-000001.eml", "To: a@example.org\r\n\r\nhello")

	peer := blobtest.Start(t)
	if err := peer.CreateBucket("lineage"); err != nil {
		t.Fatal(err)
	}
	env := peer.Env("lineage", "site")
	for k, v := range env {
		t.Setenv(k, v)
	}
	t.Setenv("LINEAGE_PUBLIC_URL", "http://localhost:8080")
	if err := runStorage(ctx, []string{"migrate", "--data", data, "--to", env["LINEAGE_STORAGE_URL"]}); err != nil {
		t.Fatal(err)
	}
	bucket, err := blob.NewS3(peer.Config("lineage", "site/"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"media/church.svg", "mail/20260101T000000Z-000001.eml"} {
		if _, err := bucket.Stat(ctx, k); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}

	// A server with another, empty data folder serves the scan from the bucket.
	remote := iiif.New(db, iiif.Options{DataDir: t.TempDir(), Blobs: bucket, Log: quiet})
	srv := httptest.NewServer(http.HandlerFunc(remote.ServeIIIF))
	defer srv.Close()
	for _, p := range []string{"/iiif/3/recs-r1-p001/0,0,512,500/512,/0/default.jpg", "/iiif/3/recs-r1-p001/full/!400,400/0/default.jpg"} {
		res, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("%s from the bucket: %d", p, res.StatusCode)
		}
	}

	// Again: nothing to copy; with --delete the local copies go.
	if err := runStorage(ctx, []string{"migrate", "--data", data, "--to", env["LINEAGE_STORAGE_URL"], "--delete"}); err != nil {
		t.Fatal(err)
	}
	var left []string
	filepath.WalkDir(data, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".db") && !strings.Contains(p, ".db-") {
			left = append(left, p)
		}
		return nil
	})
	if len(left) != 0 {
		t.Errorf("left after --delete: %q", left)
	}

	for _, bad := range [][]string{{}, {"copy"}, {"migrate", "--data", data}, {"migrate", "--data", data, "--to", "/elsewhere"}, {"migrate", "--data", data, "--to", "s3://no-such-bucket"}} {
		if err := runStorage(ctx, bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestStorageCheck(t *testing.T) {
	if err := storageCheck(blob.NewLocal(t.TempDir())).Err(); err != nil {
		t.Errorf("local: %v", err)
	}
	st, peer := blobtest.Store(t, "")
	now := time.Unix(1_800_000_000, 0)
	c := storageCheckAt(st, func() time.Time { return now })
	if err := c.Err(); err != nil || !c.Warn || c.Name != "storage" {
		t.Errorf("bucket up: %v %+v", err, c)
	}
	asked := peer.Requests()
	peer.Close()
	// Probes in between are answered from the last answer, without asking the bucket.
	now = now.Add(storageCheckEvery - time.Second)
	if err := c.Err(); err != nil || peer.Requests() != asked {
		t.Errorf("within %s: %v, %d requests", storageCheckEvery, err, peer.Requests()-asked)
	}
	now = now.Add(time.Second)
	if err := c.Err(); err == nil {
		t.Error("bucket down: no error")
	}
}
