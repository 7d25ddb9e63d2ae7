// Command blobbench measures how the IIIF image server hands out the pre-cut tiles of a
// public scan kept in an S3-compatible bucket (docs/decisions/022): served by Lineage
// with its in-memory tile cache, served by Lineage from the bucket on every request
// (the cache too small to hold a tile: the first view of a scan, or a collection larger
// than the cache), and answered with a redirect to a signed URL that the client then
// fetches from the bucket. The bucket is blobtest's in-process S3 server on loopback.
// The three are run in interleaved rounds; it prints Markdown rows with tiles per
// second, the ratio to the first, and the load average. Not part of the product.
package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
	"lineage/internal/iiif"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/tools/internal/loadavg"
)

func main() {
	rounds := flag.Int("rounds", 3, "interleaved rounds")
	dur := flag.Duration("d", 5*time.Second, "duration of each run")
	conc := flag.Int("c", 8, "concurrent clients")
	side := flag.Int("side", 4096, "width and height of the scan, pixels")
	flag.Parse()
	if err := run(*rounds, *dur, *conc, *side); err != nil {
		fmt.Fprintln(os.Stderr, "blobbench:", err)
		os.Exit(1)
	}
}

type variant struct {
	name string
	base string
}

func run(rounds int, dur time.Duration, conc, side int) error {
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	work, err := os.MkdirTemp("", "blobbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	peer, err := blobtest.New()
	if err != nil {
		return err
	}
	defer peer.Close()
	if err := peer.CreateBucket("lineage"); err != nil {
		return err
	}
	bucket, err := blob.NewS3(peer.Config("lineage", "site/"))
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, store.Options{DataDir: filepath.Join(work, "db")})
	if err != nil {
		return err
	}
	defer db.Close()
	rs := research.New(db, research.Options{Log: quiet})
	if err := rs.Init(ctx); err != nil {
		return err
	}
	if _, err := rs.ImportRecords(ctx, strings.NewReader("record_id,record_type,date,place,role,surname,given_names\nR1,baptism,1851,Leeds,principal,Jones,John\n"),
		nil, research.ImportOptions{Collection: "recs"}, 0); err != nil {
		return err
	}
	scans := filepath.Join(work, "scans")
	os.MkdirAll(scans, 0o755)
	img := image.NewGray(image.Rect(0, 0, side, side))
	for i := range img.Pix {
		img.Pix[i] = uint8(i*7 + i/side*13)
	}
	f, err := os.Create(filepath.Join(scans, "R1.png"))
	if err != nil {
		return err
	}
	png.Encode(f, img)
	f.Close()
	opts := func(o iiif.Options) iiif.Options {
		o.DataDir, o.Blobs, o.Log = filepath.Join(work, "data-"+fmt.Sprint(o.TileMemoryBytes, o.SignedTiles)), bucket, quiet
		return o
	}
	importer := iiif.New(db, opts(iiif.Options{}))
	if _, err := importer.Import(ctx, iiif.ImportOptions{Collection: "recs", Paths: []string{scans}}); err != nil {
		return err
	}
	// Every tile of the scan, all levels.
	var paths []string
	for k, sf := 0, 1; (side+sf-1)/sf > 0; k, sf = k+1, sf*2 {
		w := (side + sf - 1) / sf
		for y := 0; y*iiif.TileSize < w; y++ {
			for x := 0; x*iiif.TileSize < w; x++ {
				rx, ry := x*iiif.TileSize*sf, y*iiif.TileSize*sf
				rw, rh := min(iiif.TileSize*sf, side-rx), min(iiif.TileSize*sf, side-ry)
				paths = append(paths, fmt.Sprintf("/iiif/3/recs-r1-p001/%d,%d,%d,%d/%d,/0/default.jpg", rx, ry, rw, rh, (rw+sf-1)/sf))
			}
		}
		if w <= iiif.TileSize {
			break
		}
	}
	serve := func(o iiif.Options) string {
		svc := iiif.New(db, opts(o))
		return httptest.NewServer(http.HandlerFunc(svc.ServeIIIF)).URL
	}
	variants := []variant{
		{"served, memory cache", serve(iiif.Options{})},
		{"served from the bucket every time", serve(iiif.Options{TileMemoryBytes: 1})},
		{"redirect to a signed URL", serve(iiif.Options{SignedTiles: 10 * time.Minute})},
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4 * conc}}
	// Every variant answers every tile before measuring.
	for _, v := range variants {
		for _, p := range paths {
			if err := get(client, v.base+p); err != nil {
				return fmt.Errorf("%s: %w", v.name, err)
			}
		}
	}
	fmt.Printf("%d tiles of a %d × %d scan, %d clients, %s per run, %d interleaved rounds; loadavg before: %s\n\n",
		len(paths), side, side, conc, dur, rounds, loadavg.Read(3))
	fmt.Println("| how | tiles/s (each round) | median | ratio to served, memory cache | loadavg after |")
	fmt.Println("|---|---|---|---|---|")
	results := make([][]float64, len(variants))
	loads := make([]string, len(variants))
	for r := 0; r < rounds; r++ {
		for i, v := range variants {
			n, err := measure(client, v.base, paths, dur, conc)
			if err != nil {
				return fmt.Errorf("%s: %w", v.name, err)
			}
			results[i] = append(results[i], n)
			loads[i] = loadavg.Read(3)
		}
	}
	ref := median(results[0])
	for i, v := range variants {
		var each []string
		for _, n := range results[i] {
			each = append(each, fmt.Sprintf("%.0f", n))
		}
		fmt.Printf("| %s | %s | %.0f | %.2f | %s |\n", v.name, strings.Join(each, ", "), median(results[i]), median(results[i])/ref, loads[i])
	}
	return nil
}

func get(c *http.Client, u string) error {
	res, err := c.Get(u)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err == nil && res.StatusCode != 200 {
		err = fmt.Errorf("GET %s: %d", u, res.StatusCode)
	}
	return err
}

// measure fetches the tiles round-robin from conc clients for dur and returns tiles/s.
func measure(c *http.Client, base string, paths []string, dur time.Duration, conc int) (float64, error) {
	var done atomic.Int64
	var next atomic.Int64
	var firstErr error
	var once sync.Once
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				p := paths[int(next.Add(1))%len(paths)]
				if err := get(c, base+p); err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	return float64(done.Load()) / time.Since(start).Seconds(), firstErr
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}
