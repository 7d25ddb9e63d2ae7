package iiif

import (
	"path/filepath"
	"testing"

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
