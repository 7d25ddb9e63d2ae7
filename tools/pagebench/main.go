// Command pagebench measures a running Lineage: it sends a bounded number of GET
// requests to loopback URLs with fixed concurrency and prints throughput and latency
// percentiles as one Markdown table row per URL; "{n}" in a URL is replaced by the
// request's number, so that each request asks for a page of its own. It can also generate a content set of
// N news documents for `lineage content import`, so search latency is measured at
// realistic size. Used by scripts/bench; not part of the product.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	n := flag.Int("n", 2000, "requests per URL")
	c := flag.Int("c", 8, "concurrent clients")
	gen := flag.String("gen", "", "write a content set to this directory instead of measuring")
	docs := flag.Int("docs", 10000, "documents to generate with -gen")
	flag.BoolVar(&acceptGzip, "gzip", true, "ask for gzip-compressed answers")
	flag.Parse()
	if *gen != "" {
		if err := generate(*gen, *docs); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	for _, raw := range flag.Args() {
		label, target, ok := strings.Cut(raw, "=")
		if !ok {
			label, target = raw, raw
		}
		if err := loopbackOnly(target); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		r, err := measure(target, *n, *c)
		if err != nil {
			fmt.Fprintln(os.Stderr, label+":", err)
			os.Exit(1)
		}
		fmt.Printf("| %s | %d | %d | %.0f | %.2f | %.2f | %.2f |\n", label, *n, *c, r.rps,
			ms(r.p50), ms(r.p95), ms(r.p99))
	}
}

// loopbackOnly keeps the load on this machine.
func loopbackOnly(target string) error {
	u, err := url.Parse(target)
	if err != nil {
		return err
	}
	h := u.Hostname()
	if h != "localhost" && !strings.HasPrefix(h, "127.") && h != "::1" {
		return fmt.Errorf("pagebench only measures loopback addresses, not %q", h)
	}
	return nil
}

type result struct {
	rps           float64
	p50, p95, p99 time.Duration
}

func measure(target string, n, c int) (result, error) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c, DisableCompression: false}, Timeout: 30 * time.Second}
	// Warm up caches and connections.
	for i := 0; i < c; i++ {
		if err := once(client, numbered(target, n+i)); err != nil {
			return result{}, err
		}
	}
	lat := make([]time.Duration, n)
	var next int
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < c; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				t := time.Now()
				err := once(client, numbered(target, i))
				lat[i] = time.Since(t)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if firstErr != nil {
		return result{}, firstErr
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	return result{rps: float64(n) / elapsed.Seconds(), p50: pct(0.50), p95: pct(0.95), p99: pct(0.99)}, nil
}

// acceptGzip: compressed answers, as browsers get them; without it the bytes are those
// a static file server compares with.
var acceptGzip bool

// numbered replaces {n} in target with i.
func numbered(target string, i int) string {
	return strings.ReplaceAll(target, "{n}", strconv.Itoa(i))
}

func once(client *http.Client, target string) error {
	req, _ := http.NewRequest("GET", target, nil)
	if acceptGzip {
		req.Header.Set("Accept-Encoding", "gzip")
	} else {
		req.Header.Set("Accept-Encoding", "identity")
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != 200 {
		return fmt.Errorf("GET %s: status %d", target, resp.StatusCode)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

var words = strings.Fields(`parish register baptism marriage burial census probate will
	index transcription volunteer society library archive county family history surname
	memorial card birth brief pedigree emigration apprenticeship militia tithe manor`)

// generate writes n news_item documents in the Prismic export shape.
func generate(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		w := func(k int) string { return words[(i*7+k*13)%len(words)] }
		title := fmt.Sprintf("%s %s news %d", strings.ToUpper(w(1)[:1])+w(1)[1:], w(2), i)
		day := base.AddDate(0, 0, i%9000)
		doc := map[string]any{
			"id":                     fmt.Sprintf("bench%011d", i),
			"uid":                    fmt.Sprintf("bench-news-%d", i),
			"type":                   "news_item",
			"lang":                   "en-gb",
			"tags":                   []string{w(3), w(4)},
			"first_publication_date": day.Format("2006-01-02T15:04:05+0000"),
			"last_publication_date":  day.Format("2006-01-02T15:04:05+0000"),
			"alternate_languages":    []any{},
			"data": map[string]any{
				"title":   []any{map[string]any{"type": "heading1", "text": title, "spans": []any{}}},
				"summary": []any{map[string]any{"type": "paragraph", "text": fmt.Sprintf("About the %s and the %s of %s.", w(5), w(6), w(7)), "spans": []any{}}},
				"date":    day.Format("2006-01-02"),
				"image":   map[string]any{},
				"body":    []any{},
			},
		}
		b, err := json.Marshal(doc)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, doc["id"].(string)+".json"), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
