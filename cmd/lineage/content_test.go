package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lineage content import publishes the demo folder's documents with their media (into
// the file storage serve uses), and export writes both back out.
func TestContentCommand(t *testing.T) {
	ctx := context.Background()
	t.Setenv("LINEAGE_STORAGE_URL", "")
	data := t.TempDir()
	docs, err := filepath.Glob("../../demo/content/*.json")
	if err != nil || len(docs) == 0 {
		t.Fatalf("demo documents: %v %v", docs, err)
	}
	out, err := captureStdout(t, func() error { return runContent(ctx, []string{"import", "--data", data, "../../demo/content"}) })
	if want := fmt.Sprintf("imported %d documents into ", len(docs)); err != nil || !strings.HasPrefix(out, want) {
		t.Fatalf("import: %q %v", out, err)
	}
	dir := t.TempDir()
	out, err = captureStdout(t, func() error { return runContent(ctx, []string{"export", "--data", data, dir}) })
	if want := fmt.Sprintf("exported %d documents to %s\n", len(docs), dir); err != nil || out != want {
		t.Fatalf("export: %q %v, want %q", out, err, want)
	}
	if media, err := os.ReadDir(filepath.Join(dir, "media")); err != nil || len(media) == 0 {
		t.Errorf("exported media: %v %v", media, err)
	}
	if _, err := captureStdout(t, func() error { return runContent(ctx, []string{"export", "--data", data}) }); err == nil {
		t.Error("export without a folder: no error")
	}
}
