package blob

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"
)

// MoveDir stores every file of the local folder dir under prefix (a key ending in '/')
// and removes dir: Local renames it into place, replacing what was under prefix; other
// stores receive one Put per file, a few at a time, and keep objects under prefix that
// dir has no file for (callers write into a fresh prefix).
func MoveDir(ctx context.Context, st Store, dir, prefix string) error {
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if l, ok := st.(*Local); ok {
		return l.MoveDir(ctx, dir, prefix)
	}
	defer os.RemoveAll(dir)
	return putDirFiles(ctx, st, dir, prefix)
}

// putDirConcurrency is how many Puts MoveDir has in flight: enough to hide a bucket's
// round trips, few enough not to crowd a server's other requests.
const putDirConcurrency = 8

func putDirFiles(ctx context.Context, st Store, dir, prefix string) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(putDirConcurrency)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		key := prefix + filepath.ToSlash(rel)
		g.Go(func() error {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			if _, err := st.Put(ctx, key, f, PutOptions{}); err != nil {
				return fmt.Errorf("blob: store %s: %w", rel, err)
			}
			return nil
		})
		return ctx.Err()
	})
	if gerr := g.Wait(); err == nil {
		err = gerr
	}
	return err
}

// DeletePrefix deletes every object whose key starts with prefix.
func DeletePrefix(ctx context.Context, st Store, prefix string) error {
	var keys []string
	if err := st.List(ctx, prefix, func(i Info) error { keys = append(keys, i.Key); return nil }); err != nil {
		return err
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(putDirConcurrency)
	for _, k := range keys {
		g.Go(func() error { return st.Delete(ctx, k) })
	}
	return g.Wait()
}
