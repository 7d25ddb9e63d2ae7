package iiif

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
)

// eachStore runs body with the local folder and with a bucket of an in-process S3
// server.
func eachStore(t *testing.T, body func(t *testing.T, st blob.Store)) {
	eachStoreKind(t, func(t *testing.T, newStore func(t *testing.T) blob.Store) { body(t, newStore(t)) })
}

// eachStoreKind runs body once for the local folder and once for S3, with a function
// making a fresh store of that kind (one per database of storetest.Each).
func eachStoreKind(t *testing.T, body func(t *testing.T, newStore func(t *testing.T) blob.Store)) {
	t.Run("local", func(t *testing.T) {
		body(t, func(t *testing.T) blob.Store { return blob.NewLocal(filepath.Join(t.TempDir(), "files")) })
	})
	t.Run("s3", func(t *testing.T) {
		body(t, func(t *testing.T) blob.Store {
			st, _ := blobtest.Store(t, "site/")
			return st
		})
	})
}

func TestSweepStaging(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-25 * time.Hour)
	for _, name := range []string{".tmp-123", "derivative-9", ".tmp-456", "derivative-7", "other"} {
		p := filepath.Join(dir, name)
		if strings.HasPrefix(name, ".tmp-") {
			os.MkdirAll(filepath.Join(p, "1"), 0o755)
		} else {
			os.WriteFile(p, []byte("x"), 0o644)
		}
		if name == ".tmp-123" || name == "derivative-9" || name == "other" {
			os.Chtimes(p, old, old)
		}
	}
	sweepStaging(dir, time.Now())
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if want := []string{".tmp-456", "derivative-7", "other"}; !slices.Equal(left, want) {
		t.Errorf("left %q, want %q", left, want)
	}
}
