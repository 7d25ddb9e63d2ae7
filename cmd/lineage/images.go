package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"lineage/internal/blob"
	"lineage/internal/config"
	"lineage/internal/iiif"
	"lineage/internal/store"
)

// The image explorer's command and wiring: `lineage import images` and the IIIF room of
// serve (docs/iiif.md).

const importImagesUsage = "--collection SLUG [--manifest map.csv] [--access members] DIR|FILE…"

func init() {
	importKinds["images"] = subcommand{runImportImages, importImagesUsage, "scans (JPEG, PNG, TIFF) attached to records or catalogue entries, tiled for the IIIF image server"}
}

// runImportImages is `lineage import images --collection SLUG DIR|FILES`.
func runImportImages(ctx context.Context, args []string, _ io.Writer) error {
	fs := newFlags("import images", importImagesUsage)
	cfgFn := config.DataFlags(fs)
	var opts iiif.ImportOptions
	fs.StringVar(&opts.Collection, "collection", "", "slug of the research collection the scans belong to (required)")
	fs.StringVar(&opts.Manifest, "manifest", "", "a CSV attaching files to records or catalogue entries (docs/iiif.md); default: by file name")
	fs.StringVar(&opts.Access, "access", "", "access level of the items: public (default: as their records), registered, members or scopes:<scope>,<scope>… (docs/iiif.md)")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if opts.Collection == "" || (len(positional) == 0 && opts.Manifest == "") {
		fs.Usage()
		return errors.New("give --collection and the files or folders to import (or --manifest)")
	}
	opts.Paths = positional
	cfg, db, blobs, err := openStoreAndBlobs(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	// The same limits as the server, so that the sizes made here are the ones it serves.
	svcOpts := iiif.Options{DataDir: cfg.DataDir, Blobs: blobs}
	if err := svcOpts.ReadEnv(os.Getenv); err != nil {
		return err
	}
	svc := iiif.New(db, svcOpts)
	opts.Out = func(id, file string) { fmt.Printf("%s\t%s\n", id, file) }
	rep, err := svc.Import(ctx, opts)
	if rep != nil {
		fmt.Fprintf(os.Stderr, "%d scans in %s: %d tiled, %d unchanged\n", rep.Scans, rep.Elapsed.Round(time.Millisecond), rep.Cut, rep.Unchanged)
	}
	return err
}

// addImages builds the IIIF image server, manifests and images API; with --demo it
// generates the demo scans (once: they are kept in --data, and their pyramids in the
// user's cache folder so that other fresh data folders get them at once).
func (a *app) addImages(ctx context.Context, cfg config.Config, db *store.DB) error {
	blobs, err := cfg.OpenBlobs(ctx)
	if err != nil {
		return err
	}
	opts := iiif.Options{
		DataDir:      cfg.DataDir,
		Blobs:        blobs,
		PublicURL:    cfg.PublicURL,
		Members:      memberCheck{},
		Authenticate: a.accounts.Middleware,
		Log:          slog.Default(),
	}
	if err := opts.ReadEnv(os.Getenv); err != nil {
		return err
	}
	svc := iiif.New(db, opts)
	if cfg.Demo {
		start := time.Now()
		n, err := svc.LoadDemo(ctx, iiif.DemoItems(), demoScanCache())
		if err != nil {
			return fmt.Errorf("demo scans: %w", err)
		}
		if n > 0 {
			slog.Info("demo scans ready", "scans", n, "elapsed", time.Since(start).Round(time.Millisecond))
		}
	}
	// Scans imported before imports made their thumbnail and preview get them in the
	// background, one at a time: on each instance for its own data folder, on one
	// instance (under a lease) for a shared bucket.
	missing := func(ctx context.Context) {
		if n, err := svc.MakeMissingSizes(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("iiif: thumbnails and previews of older scans", "err", err)
		} else if n > 0 {
			slog.Info("iiif: made thumbnails and previews of older scans", "scans", n)
		}
	}
	if _, local := blobs.(*blob.Local); local || a.jobs == nil {
		go missing(ctx)
	} else {
		go a.jobs.Run(ctx, "iiif-missing-sizes", missing)
	}
	a.images = svc
	return nil
}

// demoScanCache is where generated demo pyramids are kept between data folders:
// LINEAGE_DEMO_SCAN_CACHE ("off" for nowhere), else the user's cache folder.
func demoScanCache() string {
	if v, ok := os.LookupEnv("LINEAGE_DEMO_SCAN_CACHE"); ok {
		if v == "off" {
			return ""
		}
		return v
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	dir = filepath.Join(dir, "lineage", "demo-scans")
	if os.MkdirAll(dir, 0o755) != nil {
		return ""
	}
	return dir
}
