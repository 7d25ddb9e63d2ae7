package mail_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
	"lineage/internal/mail"
	"lineage/internal/store/storetest"
)

// TestDirSenderInBucket: with LINEAGE_STORAGE_URL set and no mail server, mail goes to
// the bucket, not to the data folder.
func TestDirSenderInBucket(t *testing.T) {
	peer := blobtest.Start(t)
	if err := peer.CreateBucket("lineage"); err != nil {
		t.Fatal(err)
	}
	env := peer.Env("lineage", "site")
	dir := t.TempDir()
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	sender, err := mail.FromEnv(func(k string) string { return env[k] }, dir, "https://lineage.example.org", log)
	if err != nil {
		t.Fatal(err)
	}
	ob := mail.NewOutbox(storetest.SQLite(t), sender, log)
	ctx := context.Background()
	ob.Enqueue(ctx, mail.Message{To: "fay@example.org", Subject: "Reset your password", Text: "https://lineage.example.org/reset-password?token=xyz"})
	if sent, err := ob.DeliverDue(ctx); sent != 1 || err != nil {
		t.Fatalf("%d %v", sent, err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("the data folder holds %q", files)
	}
	st, err := blob.NewS3(peer.Config("lineage", "site/"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	st.List(ctx, "mail/", func(i blob.Info) error { keys = append(keys, i.Key); return nil })
	if len(keys) != 1 || !strings.HasSuffix(keys[0], ".eml") {
		t.Fatalf("mail in the bucket: %q", keys)
	}
	rc, _, err := st.Get(ctx, keys[0], blob.Range{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if !strings.Contains(string(b), "To: <fay@example.org>") || !strings.Contains(string(b), "reset-password?token=xyz") {
		t.Errorf("stored mail:\n%s", b)
	}
	if !strings.Contains(logged.String(), "s3://lineage/site/") {
		t.Errorf("the log does not say where: %s", logged.String())
	}
	// A bucket that cannot be reached is an error at start.
	env["LINEAGE_STORAGE_URL"] = "s3://no-such-bucket"
	if _, err := mail.FromEnv(func(k string) string { return env[k] }, dir, "https://lineage.example.org", log); err == nil {
		t.Error("a missing bucket was accepted")
	}
}
