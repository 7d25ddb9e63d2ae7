package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"lineage/internal/blob"
	"lineage/internal/config"
	"lineage/internal/server"
)

const storageUsage = `usage: lineage storage migrate --to s3://bucket/prefix [--data DIR] [--delete]

migrate copies the files of the data folder (DIR/files: scans, their tiles, media; and
DIR/mail) into the bucket, verifying each copy's SHA-256 by reading it back. Running it
again after an interruption copies only what is missing or different. The derivative
cache (files/iiif/cache) is not copied; it refills. With --delete each local file is
removed once its copy is verified. The bucket's endpoint and credentials come from
AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (docs/configuration.md).
Afterwards, start the servers with LINEAGE_STORAGE_URL set to the same s3:// URL.`

func runStorage(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "migrate" {
		fmt.Fprintln(os.Stderr, storageUsage)
		if len(args) == 0 {
			return errors.New("give a subcommand: migrate")
		}
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
	fs := newFlags("storage migrate", "--to s3://bucket/prefix [--data DIR] [--delete]")
	to := fs.String("to", "", "the bucket to move the data folder's files into: s3://bucket/prefix")
	del := fs.Bool("delete", false, "remove each local file once its copy is verified")
	cfgFn := config.DataFlags(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg, err := cfgFn()
	if err != nil {
		return err
	}
	loc, err := blob.ParseURL(*to)
	if err != nil || loc.Bucket == "" {
		return fmt.Errorf("--to must be s3://bucket/prefix, got %q", *to)
	}
	dst, err := blob.Open(ctx, *to, cfg.DataDir, os.Getenv)
	if err != nil {
		return err
	}
	start := time.Now()
	n := 0
	progress := func(key string, copied bool) {
		if n++; n%500 == 0 {
			fmt.Fprintf(os.Stderr, "%d files…\n", n)
		}
	}
	var total blob.MigrateReport
	for _, src := range migrationSources(cfg.DataDir) {
		if _, err := os.Stat(src.local.Root()); errors.Is(err, os.ErrNotExist) {
			continue
		}
		rep, err := blob.Migrate(ctx, src.local, dst, blob.MigrateOptions{Prefix: src.prefix, Skip: src.skip, Delete: *del, Progress: progress})
		total.Copied += rep.Copied
		total.Present += rep.Present
		total.Skipped += rep.Skipped
		total.Bytes += rep.Bytes
		if err != nil {
			fmt.Fprintf(os.Stderr, "stopped after %d files copied; run the same command again to go on\n", total.Copied)
			return err
		}
	}
	fmt.Printf("%d files copied and verified (%.1f MB), %d already there, %d cache files left out, into %s in %s\n",
		total.Copied, float64(total.Bytes)/1e6, total.Present, total.Skipped, dst, time.Since(start).Round(time.Millisecond))
	return nil
}

// migrationSource is a folder of the data directory and where its files go in a store.
type migrationSource struct {
	local  *blob.Local
	prefix string
	skip   func(key string) bool
}

// migrationSources are the folders whose files a store holds: files/ as it is (the
// keys of blob.LocalDir), and the mail folder as mail/ (mail.DirSender's keys).
func migrationSources(dataDir string) []migrationSource {
	return []migrationSource{
		{local: blob.NewLocal(blob.LocalDir(dataDir)), skip: func(key string) bool { return strings.HasPrefix(key, "iiif/cache/") }},
		{local: blob.NewLocal(filepath.Join(dataDir, "mail")), prefix: "mail/"},
	}
}

// storageCheck is /readyz's line for the store: an instance that cannot reach its
// bucket cannot serve scans or media, but neither can any other (they share the
// bucket), so it is a warning that keeps the instance in service for everything else.
// A load balancer probes often and briefly, so the bucket is asked at most every
// storageCheckEvery, with a short timeout, and the last answer is reported in between.
func storageCheck(st blob.Store) server.Check { return storageCheckAt(st, time.Now) }

const (
	storageCheckEvery   = 5 * time.Second
	storageCheckTimeout = 500 * time.Millisecond
)

func storageCheckAt(st blob.Store, now func() time.Time) server.Check {
	var mu sync.Mutex
	var asked time.Time
	var last error
	return server.Check{Name: "storage", Warn: true, Err: func() error {
		mu.Lock()
		defer mu.Unlock()
		if t := now(); asked.IsZero() || t.Sub(asked) >= storageCheckEvery {
			ctx, cancel := context.WithTimeout(context.Background(), storageCheckTimeout)
			defer cancel()
			last, asked = blob.Ping(ctx, st), t
		}
		return last
	}}
}
