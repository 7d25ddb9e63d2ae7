package main

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"lineage/internal/blob"
	"lineage/internal/config"
	"lineage/internal/store"
)

// openStore reads the command's configuration (config.DataFlags) and opens its store;
// the caller closes the store.
func openStore(ctx context.Context, cfgFn func() (config.Config, error)) (config.Config, *store.DB, error) {
	cfg, err := cfgFn()
	if err != nil {
		return cfg, nil, err
	}
	openedStores = append(openedStores, cfg.Store()) // pages.go
	db, err := store.Open(ctx, cfg.Store())
	return cfg, db, err
}

// openStoreAndBlobs is openStore for a command that also writes files: it opens the
// file storage serve uses as well (the data folder, or the bucket of
// LINEAGE_STORAGE_URL). The caller closes the store.
func openStoreAndBlobs(ctx context.Context, cfgFn func() (config.Config, error)) (config.Config, *store.DB, blob.Store, error) {
	cfg, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return cfg, nil, nil, err
	}
	blobs, err := cfg.OpenBlobs(ctx)
	if err != nil {
		db.Close()
		return cfg, nil, nil, err
	}
	return cfg, db, blobs, nil
}

// startCPUProfile starts writing a CPU profile to path (the imports' --cpuprofile);
// with no path it does nothing. The caller calls stop when the work is done.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// batchGC lets the garbage collector of a batch command (the imports) run less
// often, unless GOGC says otherwise: their live heap is small (a batch of records)
// and allocation-heavy, and at the default setting collection took about a tenth
// of an import's CPU. The heap may grow to five times the live data instead of two.
func batchGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}
