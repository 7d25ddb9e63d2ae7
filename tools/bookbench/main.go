// Command bookbench measures event bookings on a running `lineage serve --demo` that it
// starts itself: one popular event (the demo open day, its capacity raised through the
// editors' API), 64 concurrent visitors posting bookings, interleaved round by round
// with a reference request on the same server (GET /api/events/{uid}/booking, the
// event page's own call). It prints, and with -write puts into docs/benchmarks.md under
// "## Event bookings", bookings per second, p50/p99, the ratio to the reference in each
// round and the 1-minute load average as each run started. Used by `make
// bench-bookings` on SQLite and, with -pg, on a throwaway PostgreSQL cluster; not part
// of the product.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"lineage/internal/freeport"
	"lineage/tools/internal/loadavg"
	"lineage/tools/internal/ready"
)

const event = "family-history-open-day-may-2027"

func main() {
	bin := flag.String("lineage", "", "the lineage binary to serve with (required)")
	web := flag.String("web", "web", "the web app directory (with build/)")
	demo := flag.String("demo-dir", "demo", "the demo set")
	dbURL := flag.String("database-url", "", "a postgres:// URL to serve from instead of SQLite (an empty database)")
	pg := flag.Bool("pg", false, "serve from a throwaway PostgreSQL cluster started here (initdb, pg_ctl)")
	rounds := flag.Int("rounds", 2, "rounds; each runs the reference and the bookings once, the order alternating")
	dur := flag.Duration("d", 10*time.Second, "length of each run")
	conc := flag.Int("c", 64, "concurrent clients")
	write := flag.String("write", "", "put the section into this Markdown file (docs/benchmarks.md)")
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "bookbench: -lineage is required")
		os.Exit(2)
	}
	if *pg {
		c, err := startPG()
		if err != nil {
			fmt.Fprintln(os.Stderr, "bookbench:", err)
			os.Exit(1)
		}
		*dbURL = c.URL
		err = run(*bin, *web, *demo, *dbURL, *rounds, *dur, *conc, *write)
		c.stop()
		if err != nil {
			fmt.Fprintln(os.Stderr, "bookbench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*bin, *web, *demo, *dbURL, *rounds, *dur, *conc, *write); err != nil {
		fmt.Fprintln(os.Stderr, "bookbench:", err)
		os.Exit(1)
	}
}

type result struct {
	n, errs  int64
	rps      float64
	p50, p99 time.Duration
	load     string
}

func run(bin, web, demo, dbURL string, rounds int, dur time.Duration, conc int, write string) error {
	data, err := os.MkdirTemp("", "bookbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(data)
	port, err := freeport.Pick()
	if err != nil {
		return err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	base := "http://" + addr
	cmd := exec.Command(bin, "serve", "--addr", addr, "--data", data, "--demo", "--web", web, "--demo-dir", demo)
	cmd.Env = append(os.Environ(), "LINEAGE_EVENTS_JOB_INTERVAL=off", "LINEAGE_SMTP_HOST=", "LINEAGE_STRIPE_SECRET_KEY=",
		"LINEAGE_PUBLIC_URL="+base, "LINEAGE_DATABASE_URL="+dbURL)
	logf, err := os.Create(filepath.Join(data, "serve.log"))
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	}()
	if err := ready.Wait(base+"/api/events/"+event+"/booking", 90*time.Second); err != nil {
		log, _ := os.ReadFile(filepath.Join(data, "serve.log"))
		return fmt.Errorf("%w\n%s", err, log)
	}
	if err := raiseCapacity(base, data); err != nil {
		return err
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConns: conc * 2, MaxIdleConnsPerHost: conc * 2}, Timeout: 30 * time.Second}
	var seq atomic.Int64
	reference := func() (*http.Request, int) {
		req, _ := http.NewRequest("GET", base+"/api/events/"+event+"/booking", nil)
		return req, 200
	}
	booking := func() (*http.Request, int) {
		n := seq.Add(1)
		body := fmt.Sprintf(`{"mode":"in_person","tickets":[{"type":"free","name":"Bench %d"}],"name":"Bench %d","email":"bench-%d@example.org"}`, n, n, n)
		req, _ := http.NewRequest("POST", base+"/api/events/"+event+"/bookings", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return req, 201
	}
	loadBefore := loadavg.Read(3)
	var refs, books []result
	for r := range rounds {
		order := []string{"reference", "bookings"}
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, which := range order {
			if which == "reference" {
				res := measure(client, reference, dur, conc)
				refs = append(refs, res)
				fmt.Printf("round %d reference: %.0f req/s p99 %.1f ms errors %d load %s\n", r+1, res.rps, ms(res.p99), res.errs, res.load)
			} else {
				res := measure(client, booking, dur, conc)
				books = append(books, res)
				fmt.Printf("round %d bookings: %.0f req/s p99 %.1f ms errors %d load %s\n", r+1, res.rps, ms(res.p99), res.errs, res.load)
			}
		}
	}
	loadAfter := loadavg.Read(3)
	stored, err := countBookings(base, data)
	if err != nil {
		return err
	}
	var sent int64
	for _, b := range books {
		sent += b.n
	}
	if stored != sent {
		return fmt.Errorf("%d bookings answered 201 but the attendee list has %d", sent, stored)
	}
	store := "SQLite"
	if dbURL != "" {
		store = "PostgreSQL"
	}
	section := render(store, refs, books, conc, dur, loadBefore, loadAfter, stored)
	fmt.Print(section)
	if write != "" {
		return writeSection(write, section)
	}
	return nil
}

var demoLine = regexp.MustCompile(`(?m)^\s*(admin@example\.org)\s+(\S+)`)

// token signs in as the demo admin (demo-accounts.txt) and returns a bearer token.
func token(base, data string) (string, error) {
	txt, err := os.ReadFile(filepath.Join(data, "demo-accounts.txt"))
	if err != nil {
		return "", err
	}
	m := demoLine.FindStringSubmatch(string(txt))
	if m == nil {
		return "", fmt.Errorf("no admin in demo-accounts.txt:\n%s", txt)
	}
	body, _ := json.Marshal(map[string]string{"email": m[1], "password": m[2], "device_name": "bookbench"})
	res, err := http.Post(base+"/api/tokens", "application/json", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &out); err != nil || out.AccessToken == "" {
		return "", fmt.Errorf("sign-in as the demo admin: %d %s", res.StatusCode, b)
	}
	return out.AccessToken, nil
}

func api(method, url, tok, body string) ([]byte, error) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		return nil, fmt.Errorf("%s %s: %d %s", method, url, res.StatusCode, b)
	}
	return b, nil
}

// raiseCapacity makes the open day a popular event with room for every booking.
func raiseCapacity(base, data string) error {
	tok, err := token(base, data)
	if err != nil {
		return err
	}
	_, err = api("PUT", base+"/api/admin/events/"+event+"/booking-settings", tok, `{"enabled":true,"capacity_in_person":100000,
		"max_per_booking":6,"waitlist":true,"ticket_types":[{"key":"free","label":"Free admission","price":0}]}`)
	return err
}

func countBookings(base, data string) (int64, error) {
	tok, err := token(base, data)
	if err != nil {
		return 0, err
	}
	b, err := api("GET", base+"/api/admin/events/"+event+"/attendees", tok, "")
	if err != nil {
		return 0, err
	}
	var out struct {
		Bookings []json.RawMessage `json:"bookings"`
	}
	err = json.Unmarshal(b, &out)
	return int64(len(out.Bookings)), err
}

// measure runs conc clients for dur, each sending requests one after another.
func measure(client *http.Client, next func() (*http.Request, int), dur time.Duration, conc int) result {
	res := result{load: loadavg.Read(1)}
	var mu sync.Mutex
	var lat []time.Duration
	var errs atomic.Int64
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	startAt := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for time.Now().Before(deadline) {
				req, want := next()
				t0 := time.Now()
				r, err := client.Do(req)
				if err != nil {
					errs.Add(1)
					continue
				}
				io.Copy(io.Discard, r.Body)
				r.Body.Close()
				if r.StatusCode != want {
					errs.Add(1)
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(startAt)
	slices.Sort(lat)
	res.n, res.errs = int64(len(lat)), errs.Load()
	res.rps = float64(len(lat)) / elapsed.Seconds()
	if len(lat) > 0 {
		res.p50 = lat[len(lat)*50/100]
		res.p99 = lat[min(len(lat)-1, len(lat)*99/100)]
	}
	return res
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func render(store string, refs, books []result, conc int, dur time.Duration, before, after string, stored int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Event bookings (%s)\n\n", store)
	fmt.Fprintf(&b, "Written by `make bench-bookings` (tools/bookbench) on %s, %d cores, %s, %s store.\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU(), runtime.Version(), store)
	fmt.Fprintf(&b, "One popular event (the demo open day, capacity raised to 100 000), %d concurrent clients, "+
		"each run %s, on loopback through the whole front door. **Bookings**: visitors posting `POST /api/events/{uid}/bookings` "+
		"(one free ticket each: the conditional UPDATE of the event's counter, the booking, its history row, a confirmation "+
		"link token, the mail in the outbox, and the page-cache purge every booking causes). **Reference**: "+
		"`GET /api/events/{uid}/booking` (the event page's call: the content lookup and the settings) on the same server, "+
		"interleaved with the bookings round by round, the order alternating. The ratio is bookings/s over reference req/s "+
		"in the same round; load is the 1-minute load average as each run started (2 cores shared with other work). "+
		"Every booking answered 201 is in the attendee list afterwards (%d).\n", conc, dur, stored)
	fmt.Fprintf(&b, "Load average before: %s; after: %s.\n\n", before, after)
	b.WriteString("| round | what | requests | req/s | p50 ms | p99 ms | errors | bookings/reference | load (1 min) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	var ratios []float64
	for i := range refs {
		ratio := books[i].rps / refs[i].rps
		ratios = append(ratios, ratio)
		fmt.Fprintf(&b, "| %d | reference | %d | %.0f | %.2f | %.2f | %d | — | %s |\n", i+1, refs[i].n, refs[i].rps, ms(refs[i].p50), ms(refs[i].p99), refs[i].errs, refs[i].load)
		fmt.Fprintf(&b, "| %d | bookings | %d | %.0f | %.2f | %.2f | %d | %.3f | %s |\n", i+1, books[i].n, books[i].rps, ms(books[i].p50), ms(books[i].p99), books[i].errs, ratio, books[i].load)
	}
	slices.Sort(ratios)
	med := ratios[len(ratios)/2]
	if len(ratios)%2 == 0 {
		med = (ratios[len(ratios)/2-1] + ratios[len(ratios)/2]) / 2
	}
	fmt.Fprintf(&b, "\n**Median ratio bookings/reference: %.3f**.\n", med)
	return b.String()
}

// writeSection replaces the section of path with the same heading (or appends it).
func writeSection(path, section string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	heading := section[:strings.IndexByte(section, '\n')+1]
	i := strings.Index(s, heading)
	if i < 0 {
		s = strings.TrimRight(s, "\n") + "\n\n" + section
	} else {
		rest := s[i+len(heading):]
		j := strings.Index(rest, "\n## ")
		tail := ""
		if j >= 0 {
			tail = rest[j+1:]
		}
		s = s[:i] + section + "\n" + tail
	}
	return os.WriteFile(path, []byte(s), 0o644)
}
