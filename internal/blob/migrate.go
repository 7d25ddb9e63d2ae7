package blob

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// MigrateOptions tune Migrate.
type MigrateOptions struct {
	// Prefix is put before each source key to make its key in the destination.
	Prefix string
	// Skip leaves out source keys it returns true for.
	Skip func(key string) bool
	// Delete removes each source object once its copy is verified.
	Delete bool
	// Progress is called after each object with what happened to it (from several
	// goroutines, one at a time).
	Progress func(key string, copied bool)
	// Concurrency is how many objects are copied at once; default 4.
	Concurrency int
}

// MigrateReport counts what Migrate did.
type MigrateReport struct {
	Copied  int   // written and verified
	Present int   // already in the destination with the same SHA-256 (a run resumed)
	Skipped int   // left out by Skip
	Bytes   int64 // copied
}

// Migrate copies every object of from into to: each is hashed, written with that
// SHA-256 (Put refuses other bytes) and read back from to and hashed again. An object
// already in to with the same size and SHA-256 is not copied again, so a run stopped
// half-way (Ctrl-C, a lost connection) is resumed by running it again. It stops at the
// first error.
func Migrate(ctx context.Context, from, to Store, opts MigrateOptions) (MigrateReport, error) {
	var rep MigrateReport
	var copied, present, skipped atomic.Int64
	var bytes atomic.Int64
	var progress sync.Mutex
	report := func(key string, c bool) {
		if opts.Progress != nil {
			progress.Lock()
			opts.Progress(key, c)
			progress.Unlock()
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, cmp0(opts.Concurrency, 4)))
	err := from.List(gctx, "", func(i Info) error {
		if opts.Skip != nil && opts.Skip(i.Key) {
			skipped.Add(1)
			return nil
		}
		g.Go(func() error {
			c, err := migrateOne(gctx, from, to, i, opts)
			if err != nil {
				return err
			}
			if c {
				copied.Add(1)
				bytes.Add(i.Size)
			} else {
				present.Add(1)
			}
			report(i.Key, c)
			return nil
		})
		return gctx.Err()
	})
	if gerr := g.Wait(); gerr != nil && (err == nil || errors.Is(err, context.Canceled)) {
		err = gerr
	}
	rep.Copied, rep.Present, rep.Skipped, rep.Bytes = int(copied.Load()), int(present.Load()), int(skipped.Load()), bytes.Load()
	return rep, err
}

func cmp0(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// migrateOne copies one object unless it is there already, and reports whether it did.
func migrateOne(ctx context.Context, from, to Store, i Info, opts MigrateOptions) (bool, error) {
	dst := opts.Prefix + i.Key
	sum, err := ReadChecksum(ctx, from, i.Key)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", i.Key, err)
	}
	copied := false
	if have, err := to.Stat(ctx, dst); err == nil && have.Size == i.Size && (have.SHA256 == sum || (have.SHA256 == "" && checksumIs(ctx, to, dst, sum))) {
		// There already, from an earlier run.
	} else {
		rc, _, err := from.Get(ctx, i.Key, Range{})
		if err != nil {
			return false, fmt.Errorf("read %s: %w", i.Key, err)
		}
		_, err = to.Put(ctx, dst, rc, PutOptions{SHA256: sum, ContentType: i.ContentType})
		rc.Close()
		if err != nil {
			return false, fmt.Errorf("write %s: %w", dst, err)
		}
		// Read back what the destination holds, not what it says it holds.
		if got, err := ReadChecksum(ctx, to, dst); err != nil {
			return false, fmt.Errorf("verify %s: %w", dst, err)
		} else if got != sum {
			return false, fmt.Errorf("verify %s: %w", dst, ErrChecksum)
		}
		copied = true
	}
	if opts.Delete {
		if err := from.Delete(ctx, i.Key); err != nil {
			return copied, fmt.Errorf("remove %s after copying it: %w", i.Key, err)
		}
	}
	return copied, nil
}

func checksumIs(ctx context.Context, st Store, key, sum string) bool {
	got, err := ReadChecksum(ctx, st, key)
	return err == nil && got == sum
}
