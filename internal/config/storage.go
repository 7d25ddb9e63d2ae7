package config

import (
	"context"
	"os"

	"lineage/internal/blob"
)

// OpenBlobs opens the store of files beside the database: the bucket StorageURL names,
// configured from the AWS_* variables (blob.S3FromEnv) and checked to exist, or the
// folder DataDir/files.
func (c Config) OpenBlobs(ctx context.Context) (blob.Store, error) {
	return blob.Open(ctx, c.StorageURL, c.DataDir, os.Getenv)
}
