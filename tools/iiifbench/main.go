// Command iiifbench measures the IIIF image server of a running Lineage (scripts/
// bench-iiif): pre-cut tiles per second, on-demand derivatives per second, and the
// time from importing a new large scan to its first tile. It prints Markdown table
// rows. It can also write a generated scan of N megapixels as a JPEG (-gen). Not part
// of the product.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"image/jpeg"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"lineage/internal/iiif"
	"lineage/tools/internal/iiiftiles"
)

func main() {
	base := flag.String("base", "", "the server, e.g. http://127.0.0.1:8080 (loopback only)")
	mode := flag.String("mode", "tiles", "tiles | derivatives | first-tile")
	ids := flag.String("ids", "", "comma-separated IIIF ids to request tiles of")
	n := flag.Int("n", 20000, "requests")
	c := flag.Int("c", 8, "concurrent clients")
	gen := flag.String("gen", "", "write a generated scan (JPEG) to this file and exit")
	mp := flag.Float64("mp", 100, "megapixels of the generated scan")
	lineage := flag.String("lineage", "bin/lineage", "the lineage binary (first-tile)")
	data := flag.String("data", "", "the server's --data (first-tile)")
	collection := flag.String("collection", "", "collection to import into (first-tile)")
	file := flag.String("file", "", "the scan to import (first-tile)")
	flag.Parse()
	var err error
	switch {
	case *gen != "":
		err = generate(*gen, *mp)
	case *mode == "tiles" || *mode == "derivatives":
		err = load(*base, *mode, strings.Split(*ids, ","), *n, *c)
	case *mode == "first-tile":
		err = firstTile(*base, *lineage, *data, *collection, *file)
	default:
		err = fmt.Errorf("unknown mode %q", *mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "iiifbench:", err)
		os.Exit(1)
	}
}

// generate draws a register page of about mp megapixels (3:2) and writes it as JPEG.
func generate(path string, mp float64) error {
	w := int(math.Sqrt(mp * 1e6 * 1.5))
	h := int(mp * 1e6 / float64(w))
	img := iiif.DrawDemoPage(iiif.DemoPage{Kind: "register", Width: w, Height: h, Seed: 100})
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := jpeg.Encode(bw, img, &jpeg.Options{Quality: 90}); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func loopback(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	if h := u.Hostname(); h != "127.0.0.1" && h != "localhost" && h != "::1" {
		return fmt.Errorf("%s is not a loopback address", base)
	}
	return nil
}

func getInfo(client *http.Client, base, id string) (*iiiftiles.Info, error) {
	res, err := client.Get(base + "/iiif/3/" + id + "/info.json")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return nil, fmt.Errorf("%s: info.json: %s", id, res.Status)
	}
	var in iiiftiles.Info
	return &in, json.NewDecoder(res.Body).Decode(&in)
}

// derivativeURLs are requests no tile answers: random regions of 600–2400 pixels,
// scaled to fit 300 × 300, some grey, some rotated; each URL is new.
func derivativeURLs(base, id string, in *iiiftiles.Info, n int, r *rand.Rand) []string {
	out := make([]string, n)
	for i := range out {
		w, h := 600+r.IntN(1800), 600+r.IntN(1800)
		x, y := r.IntN(in.Width-w), r.IntN(in.Height-h)
		q := []string{"default", "gray"}[r.IntN(2)]
		rot := []int{0, 90}[r.IntN(2)]
		out[i] = fmt.Sprintf("%s/iiif/3/%s/%d,%d,%d,%d/!300,300/%d/%s.jpg", base, id, x, y, w, h, rot, q)
	}
	return out
}

func load(base, mode string, ids []string, n, c int) error {
	if err := loopback(base); err != nil {
		return err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c * 2, DisableCompression: true}, Timeout: 60 * time.Second}
	// A new seed each run: derivatives of an earlier run are in the server's cache.
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	var urls []string
	for _, id := range ids {
		in, err := getInfo(client, base, id)
		if err != nil {
			return err
		}
		if mode == "tiles" {
			for _, p := range iiiftiles.Paths(id, in) {
				urls = append(urls, base+p)
			}
		} else {
			urls = append(urls, derivativeURLs(base, id, in, (n+len(ids)-1)/len(ids), r)...)
		}
	}
	if mode == "tiles" {
		// Warm the page cache once, so the figure is the server's, not the disk's.
		for _, u := range urls {
			if res, err := client.Get(u); err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		}
	}
	r.Shuffle(len(urls), func(i, j int) { urls[i], urls[j] = urls[j], urls[i] })
	lat := make([]time.Duration, n)
	var next, bytes atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				t0 := time.Now()
				res, err := client.Get(urls[i%len(urls)])
				if err != nil {
					failed.Store(err.Error())
					return
				}
				nb, _ := io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					failed.Store(urls[i%len(urls)] + ": " + res.Status)
					return
				}
				bytes.Add(nb)
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	if f := failed.Load(); f != nil {
		return fmt.Errorf("%v", f)
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	label := map[string]string{"tiles": "pre-cut tiles (512 × 512 JPEG)", "derivatives": "on-demand derivatives (region → !300,300, uncached)"}[mode]
	fmt.Printf("| %s | %d | %d | %d | **%.0f** | %.1f | %.2f | %.2f | %.2f |\n", label, n, len(urls), c, float64(n)/el.Seconds(),
		float64(bytes.Load())/el.Seconds()/1e6, pct(0.5), pct(0.95), pct(0.99))
	return nil
}

// firstTile imports a new scan with `lineage import images` and asks for its first
// tile as soon as the import ends.
func firstTile(base, lineage, data, collection, file string) error {
	if err := loopback(base); err != nil {
		return err
	}
	st, err := os.Stat(file)
	if err != nil {
		return err
	}
	t0 := time.Now()
	cmd := exec.Command(lineage, "import", "images", "--data", data, "--collection", collection, file)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	imported := time.Since(t0)
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
	// The server trusts what it knows of an id for a few seconds; this id is new to it.
	t1 := time.Now()
	res, err := http.Get(base + "/iiif/3/" + id + "/0,0,512,512/512,512/0/default.jpg")
	if err != nil {
		return err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("first tile: %s", res.Status)
	}
	tile := time.Since(t1)
	t2 := time.Now()
	res, err = http.Get(base + "/iiif/3/" + id + "/full/!1024,1024/0/default.jpg")
	if err != nil {
		return err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	overview := time.Since(t2)
	in, err := getInfo(http.DefaultClient, base, id)
	if err != nil {
		return err
	}
	fmt.Printf("| new %d × %d scan (%.0f megapixels, %.0f MB JPEG) | %.2f s | %.1f ms | **%.2f s** | %.0f ms |\n", in.Width, in.Height,
		float64(in.Width*in.Height)/1e6, float64(st.Size())/1e6, imported.Seconds(), float64(tile.Microseconds())/1000,
		(imported + tile).Seconds(), float64(overview.Milliseconds()))
	return nil
}
