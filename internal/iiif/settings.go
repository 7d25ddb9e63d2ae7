package iiif

import (
	"fmt"
	"strconv"
	"time"
)

// ReadEnv sets the options that deployment settings give (docs/deployment.md,
// "Scans (IIIF)"), through getenv (os.Getenv): the limits of info.json, the derivative
// cache and the render queue. An empty variable keeps the default.
func (o *Options) ReadEnv(getenv func(string) string) error {
	whole := func(name string, least int64, set func(int64)) error {
		v := getenv(name)
		if v == "" {
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < least {
			return fmt.Errorf("%s must be a whole number of at least %d, got %q", name, least, v)
		}
		set(n)
		return nil
	}
	lim := DefaultLimits
	if o.Limits != (Limits{}) {
		lim = o.Limits
	}
	// Tiles must be within the limits (Image API 3.0 §5.2), so no limit is below one.
	for _, err := range []error{
		whole("LINEAGE_IIIF_MAX_WIDTH", TileSize, func(n int64) { lim.MaxWidth = int(min(n, 1<<20)) }),
		whole("LINEAGE_IIIF_MAX_HEIGHT", TileSize, func(n int64) { lim.MaxHeight = int(min(n, 1<<20)) }),
		whole("LINEAGE_IIIF_MAX_AREA", TileSize*TileSize, func(n int64) { lim.MaxArea = n }),
		whole("LINEAGE_IIIF_CACHE_MB", 1, func(n int64) { o.CacheBytes = n << 20 }),
		whole("LINEAGE_IIIF_RENDERS", 1, func(n int64) { o.RenderSlots = int(min(n, 1024)) }),
		whole("LINEAGE_IIIF_QUEUE_PER_CLIENT", 1, func(n int64) { o.QueuePerClient = int(min(n, 1<<16)) }),
		whole("LINEAGE_IIIF_QUEUE", 1, func(n int64) { o.QueueTotal = int(min(n, 1<<20)) }),
	} {
		if err != nil {
			return err
		}
	}
	o.Limits = lim
	if v := getenv("LINEAGE_IIIF_QUEUE_WAIT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second {
			return fmt.Errorf("LINEAGE_IIIF_QUEUE_WAIT must be a duration of at least 1s (e.g. 30s), got %q", v)
		}
		o.QueueWait = d
	}
	if v := getenv("LINEAGE_IIIF_SIGNED_TILES"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || (d > 0 && d < time.Minute) || d > 7*24*time.Hour {
			return fmt.Errorf("LINEAGE_IIIF_SIGNED_TILES must be 0 (off) or a duration from 1m to 168h (e.g. 10m), got %q", v)
		}
		o.SignedTiles = d
	}
	return nil
}
