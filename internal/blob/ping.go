package blob

import (
	"context"
	"errors"
	"os"
)

// Ping fails when the store cannot be reached: a bucket that does not answer or does
// not exist, a local folder that exists but cannot be read.
func Ping(ctx context.Context, st Store) error {
	switch s := st.(type) {
	case *S3:
		return s.Check(ctx)
	case *Local:
		if _, err := os.ReadDir(s.root); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
