// Command soak is the load-and-fault test of `make soak` (scripts/soak): it starts a
// real `lineage serve --demo` on loopback with a throwaway data folder, sends 64
// connections of mixed traffic (pages, research search, sign-ins, IIIF tiles) for a
// fixed time while a CSV import and a GEDCOM import run, kills the SSR child once,
// freezes it once, and cuts the content API for 30 s. It prints a Markdown report:
// errors by kind per traffic class, inside and outside the fault windows, how page
// requests inside each window were answered (the page cache, the "starting" page with
// Retry-After, or a failure), p50/p99, and whether the imports loaded everything. Not
// part of the product.
//
// The content API is cut by pointing the web app (LINEAGE_CONTENT_API) at a TCP relay
// in this process in front of the server's own /content/api/v2, which the relay stops
// passing on during the window.
//
// With -reference D it is `make bench-signin` (scripts/bench-signin) instead: no fixed
// length; the traffic (usually sign-ins alone, -classes sign-in -faults=false) runs for
// D with nothing else, then while a CSV import, a GEDCOM import and the deletion of
// that tree run one after the other (at least -min-import in all), then for D again;
// the report compares sign-in latencies during the imports with those of the reference
// phases. -store postgres runs the server and the imports on a throwaway PostgreSQL
// (internal/store/storetest's, as tools/cluster does).
package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"lineage/internal/freeport"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
	"lineage/tools/internal/iiiftiles"
	"lineage/tools/internal/loadavg"
	"lineage/tools/internal/ready"
)

type config struct {
	lineage, web, demoDir, work, scanCache, out string
	duration                                    time.Duration
	conns                                       int
	think                                       time.Duration
	records, people                             int
	active                                      []trafficClass // the classes -classes selects
	faults                                      bool
	store                                       string // sqlite or postgres
	bulk                                        string // --bulk of the CSV import
	reference, minImport                        time.Duration
	env                                         []string // LINEAGE_* every lineage command gets (the database)
}

func main() {
	var c config
	flag.StringVar(&c.lineage, "lineage", "bin/lineage", "the lineage binary to run")
	flag.StringVar(&c.web, "web", "web", "the web app directory (with build/ and node_modules/)")
	flag.StringVar(&c.demoDir, "demo-dir", "demo", "the demo set")
	flag.StringVar(&c.work, "work", "", "a scratch folder for the data folder, imports and the server log (required)")
	flag.StringVar(&c.scanCache, "scan-cache", "", "LINEAGE_DEMO_SCAN_CACHE for the server (default: inside -work, a cold start)")
	flag.StringVar(&c.out, "out", "", "write the Markdown report here as well as to standard output")
	seconds := flag.Int("seconds", 300, "how long the traffic runs")
	flag.IntVar(&c.conns, "conns", 64, "connections")
	flag.DurationVar(&c.think, "think", 250*time.Millisecond, "mean pause of a connection between two actions")
	flag.IntVar(&c.records, "records", 1_000_000, "records the demo generator writes; the largest of its CSV files (about a third) is imported")
	flag.IntVar(&c.people, "people", 100_000, "people in the GEDCOM import (about); 0: no GEDCOM import (nor, with -reference, tree delete)")
	classList := flag.String("classes", "pages,search,tiles,sign-in", "the traffic classes, comma-separated; connections are shared among them in their usual proportions")
	flag.BoolVar(&c.faults, "faults", true, "kill and freeze the SSR child and cut the content API")
	flag.StringVar(&c.store, "store", "sqlite", "sqlite (the data folder) or postgres (a throwaway PostgreSQL cluster from the machine's initdb and pg_ctl)")
	flag.StringVar(&c.bulk, "bulk", "auto", "--bulk of the CSV import: auto, on or off")
	flag.DurationVar(&c.reference, "reference", 0, "the sign-in benchmark: traffic alone for this long, then the imports back to back, then alone again (-seconds is then unused)")
	flag.DurationVar(&c.minImport, "min-import", 10*time.Minute, "with -reference: the import phase goes on with more CSV files until it has lasted this long")
	flag.Parse()
	c.duration = time.Duration(*seconds) * time.Second
	for _, name := range strings.Split(*classList, ",") {
		i := slices.IndexFunc(classes, func(tc trafficClass) bool { return tc.name == strings.TrimSpace(name) })
		if i < 0 {
			fmt.Fprintf(os.Stderr, "soak: unknown class %q (pages, search, tiles, sign-in)\n", name)
			os.Exit(2)
		}
		if !slices.Contains(c.active, classes[i]) {
			c.active = append(c.active, classes[i])
		}
	}
	missing := ""
	for _, tc := range c.active {
		if c.connsOf(tc.name) == 0 {
			missing = tc.name
		}
	}
	switch {
	case c.work == "":
		fmt.Fprintln(os.Stderr, "soak: give -work")
		os.Exit(2)
	case c.reference == 0 && (*seconds < 60 || c.conns < 8):
		fmt.Fprintln(os.Stderr, "soak: -seconds must be at least 60 (the content API is cut for 30 s) and -conns at least 8")
		os.Exit(2)
	case missing != "":
		fmt.Fprintf(os.Stderr, "soak: too few -conns for every class to get one (%s gets none)\n", missing)
		os.Exit(2)
	case c.store != "sqlite" && c.store != "postgres":
		fmt.Fprintln(os.Stderr, "soak: -store is sqlite or postgres")
		os.Exit(2)
	case c.reference > 0 && c.faults:
		fmt.Fprintln(os.Stderr, "soak: -reference measures latency: give -faults=false with it")
		os.Exit(2)
	}
	report, met, err := run(c)
	if report != "" {
		fmt.Print(report)
		if c.out != "" {
			if werr := os.WriteFile(c.out, []byte(report), 0o644); werr != nil && err == nil {
				err = werr
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	if !met {
		fmt.Fprintln(os.Stderr, "soak: target missed (see the report)")
		os.Exit(3)
	}
}

type trafficClass struct {
	name  string
	share int
}

// The traffic classes, and how many of every 16 connections each gets.
var classes = []trafficClass{{"pages", 6}, {"search", 4}, {"tiles", 4}, {"sign-in", 2}}

// pageClass is the only class the fault windows excuse: the faults are of the SSR child
// and of the content API, which only pages use.
const pageClass = "pages"

type sample struct {
	class      string
	what       string // method and route, for the error table
	start, end time.Duration
	status     int
	err        string
	cache      string // X-Lineage-Cache of a page answer: hit, stale, miss or bypass
	retryAfter bool   // the answer had a Retry-After header
}

// signInSample is one whole sign-in: its four requests, and the first (the new
// session) apart.
type signInSample struct {
	start, end time.Duration
	session    time.Duration // GET /sanctum/csrf-cookie, which creates the session
	ok         bool          // every step answered as expected
	failed     string        // the first step that did not
}

type window struct {
	name       string
	start, end time.Duration
	note       string
	// ssr: a fault of the SSR child, inside which a page must come from the page cache
	// or be the "starting" page with Retry-After; the content API's window excuses
	// anything (the web app cannot render without its content).
	ssr bool
}

type importResult struct {
	what       string
	start, end time.Duration
	err        error
	want, got  int64
	output     string
	// collection or tree is where the API must show want records or people
	// afterwards; neither: the tree named gone must answer 404.
	collection, tree, gone string
}

// outcome is the report's result cell for r, and whether r lost anything: it failed
// or loaded another count than it read.
func (r importResult) outcome() (res string, lost bool) {
	if r.err != nil {
		return fmt.Sprintf("failed: %v (%s)", r.err, strings.ReplaceAll(r.output, "|", "\\|")), true
	}
	return "ok", r.got != r.want
}

type soak struct {
	cfg       config
	base      string
	t0        time.Time
	serverPid int
	relay     *relay

	pages, searches, tiles []string
	records                []string
	users                  []string

	mu       sync.Mutex
	samples  []sample
	signIns  []signInSample
	windows  []window
	notes    []string
	loads    []loadSample
	probes   []probeSample // SQLite's write-lock probe (-reference)
	phases   []phase
	imported []importResult
}

type loadSample struct {
	at    time.Duration
	load1 float64
}

// phase is a part of the sign-in benchmark: a reference phase (nothing else runs) or
// one import.
type phase struct {
	name       string
	start, end time.Duration
	importing  bool
}

func (s *soak) since() time.Duration { return time.Since(s.t0) }

func (s *soak) note(format string, args ...any) {
	s.mu.Lock()
	s.notes = append(s.notes, fmt.Sprintf("%5.1f s: ", s.since().Seconds())+fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

func run(c config) (report string, met bool, err error) {
	if err := os.MkdirAll(c.work, 0o755); err != nil {
		return "", false, err
	}
	data := filepath.Join(c.work, "data")
	if c.scanCache == "" {
		c.scanCache = filepath.Join(c.work, "scan-cache")
	}
	if c.store == "postgres" {
		dbURL, err := storetest.NewPostgresDatabase()
		if err != nil {
			return "", false, err
		}
		defer storetest.StopCluster()
		c.env = append(c.env, "LINEAGE_DATABASE_URL="+dbURL)
	}

	// The imports' files, made before anything is timed.
	csvFiles, err := makeCSV(c)
	if err != nil {
		return "", false, err
	}
	csvFile := csvFiles[0]
	wantRecords, err := countRecords(csvFile)
	if err != nil {
		return "", false, err
	}
	gedFile, wantPeople, err := makeGEDCOM(c)
	if err != nil {
		return "", false, err
	}

	port, err := freeport.Pick()
	if err != nil {
		return "", false, err
	}
	s := &soak{cfg: c, base: "http://127.0.0.1:" + strconv.Itoa(port)}
	s.relay, err = newRelay("127.0.0.1:" + strconv.Itoa(port))
	if err != nil {
		return "", false, err
	}
	defer s.relay.close()

	logFile, err := os.Create(filepath.Join(c.work, "server.log"))
	if err != nil {
		return "", false, err
	}
	defer logFile.Close()
	srv := c.lineageCmd("serve", "--addr", "127.0.0.1:"+strconv.Itoa(port), "--data", data, "--demo", "--web", c.web, "--demo-dir", c.demoDir)
	srv.Env = append(srv.Env,
		"LINEAGE_PUBLIC_URL="+s.base,
		"LINEAGE_CONTENT_API=http://"+s.relay.addr()+"/content/api/v2",
		"LINEAGE_DEMO_SCAN_CACHE="+c.scanCache,
	)
	srv.Stdout, srv.Stderr = logFile, logFile
	if err := srv.Start(); err != nil {
		return "", false, err
	}
	s.serverPid = srv.Process.Pid
	defer func() {
		srv.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			srv.Process.Kill()
			<-done
		}
	}()
	// A cold start draws and tiles the demo scans.
	if err := ready.Wait(s.base+"/readyz", 15*time.Minute); err != nil {
		return "", false, fmt.Errorf("%v (server log: %s)", err, logFile.Name())
	}
	if err := s.addUsers(data); err != nil {
		return "", false, err
	}
	if err := s.discover(); err != nil {
		return "", false, err
	}
	if c.reference > 0 {
		report, met, err := s.runPhased(data, csvFiles, wantRecords, gedFile, wantPeople, logFile.Name())
		return report, met, err
	}

	load0 := loadavg.Read(3)
	s.t0 = time.Now()
	ctx, stop := context.WithTimeout(context.Background(), c.duration)
	defer stop()

	var wg sync.WaitGroup
	for i := 0; i < c.conns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.worker(ctx, c.classOf(i), int64(i))
		}()
	}
	faults := make(chan struct{})
	go func() {
		defer close(faults)
		if c.faults {
			s.faults(ctx)
		}
	}()
	imports := make(chan []importResult, 1)
	go func() { imports <- s.imports(data, csvFile, gedFile, wantRecords, wantPeople) }()

	wg.Wait()
	trafficEnd := s.since()
	<-faults
	loadEnd := loadavg.Read(3)
	var results []importResult
	select {
	case results = <-imports:
	case <-time.After(20 * time.Minute):
		return "", false, errors.New("the imports did not end within 20 minutes of the traffic")
	}
	for i := range results {
		s.checkImport(&results[i])
	}
	report, met = s.report(c.conns, trafficEnd, load0, loadEnd, results, logFile.Name())
	return report, met, nil
}

// classOf is the class of connection i: of every sum of the active classes' shares,
// the first share go to the first class, and so on.
func (c *config) classOf(i int) string {
	sum := 0
	for _, tc := range c.active {
		sum += tc.share
	}
	slot := i % sum
	for _, tc := range c.active {
		if slot < tc.share {
			return tc.name
		}
		slot -= tc.share
	}
	return c.active[0].name
}

// connsOf is how many of the connections go to class.
func (c *config) connsOf(class string) int {
	n := 0
	for i := range c.conns {
		if c.classOf(i) == class {
			n++
		}
	}
	return n
}

// makeCSV writes the demo generator's CSV files, one a collection, and lists them
// largest first.
func makeCSV(c config) ([]string, error) {
	dir := filepath.Join(c.work, "csv")
	cmd := c.lineageCmd("demo", "generate", "--records", strconv.Itoa(c.records), "--seed", "7", "--out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("demo generate: %v: %s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	if len(files) == 0 {
		return nil, errors.New("demo generate wrote no CSV file")
	}
	size := func(f string) int64 {
		fi, err := os.Stat(f)
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	sort.Slice(files, func(i, j int) bool { return size(files[i]) > size(files[j]) })
	return files, nil
}

// countRecords counts the records of a generated CSV file: each of several rows (one
// per person), told apart by record_id.
func countRecords(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReaderSize(f, 1<<20))
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return 0, err
	}
	col := slices.Index(head, "record_id")
	if col < 0 {
		return 0, fmt.Errorf("%s has no record_id column", path)
	}
	ids := map[string]struct{}{}
	for {
		row, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		ids[row[col]] = struct{}{}
	}
	return int64(len(ids)), nil
}

// makeGEDCOM writes a generated tree and counts its individuals.
func makeGEDCOM(c config) (string, int64, error) {
	path := filepath.Join(c.work, "soak.ged")
	f, err := os.Create(path)
	if err != nil {
		return "", 0, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := trees.GenerateGEDCOM(bw, c.people, 7); err != nil {
		f.Close()
		return "", 0, err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return "", 0, err
	}
	if err := f.Close(); err != nil {
		return "", 0, err
	}
	f, err = os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	var n int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "0 @") && strings.HasSuffix(line, " INDI") {
			n++
		}
	}
	return path, n, sc.Err()
}

// lineageCmd runs the lineage binary without the caller's LINEAGE_* settings (but for
// LINEAGE_SSR_*, to soak other SSR settings): a LINEAGE_DATABASE_URL left in the shell
// must not turn the throwaway data folder into someone's PostgreSQL. The run's own
// database (c.env) is given to every command.
func (c *config) lineageCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(c.lineage, args...)
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "LINEAGE_") && !strings.HasPrefix(kv, "LINEAGE_SSR_") {
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, c.env...)
	return cmd
}

const soakPassword = "soak-password-1"

// adminEmail is the staff account that deletes the imported tree (-reference).
const adminEmail = "soak-admin@example.org"

// addUsers makes the accounts the sign-in traffic uses, and a staff account, with the
// CLI, while the server runs.
func (s *soak) addUsers(data string) error {
	for i := 0; i <= 8; i++ {
		email, role := fmt.Sprintf("soak%d@example.org", i), "member"
		if i == 0 {
			email, role = adminEmail, "admin"
		}
		out, err := s.cfg.lineageCmd("user", "add", "--data", data, "--email", email, "--password", soakPassword, "--name", fmt.Sprintf("Soak %d", i), "--role", role).CombinedOutput()
		if err != nil {
			return fmt.Errorf("user add: %v: %s", err, out)
		}
		if i > 0 {
			s.users = append(s.users, email)
		}
	}
	return nil
}

// discover collects the URLs the traffic uses: the sitemap's pages, records found
// by the search API, and the tiles of the demo scans.
func (s *soak) discover() error {
	var sm struct {
		URLs []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := getXML(s.base+"/sitemap.xml", &sm); err != nil {
		return fmt.Errorf("sitemap: %w", err)
	}
	for _, u := range sm.URLs {
		if p, err := url.Parse(u.Loc); err == nil && p.Path != "" {
			s.pages = append(s.pages, p.RequestURI())
		}
	}
	if len(s.pages) < 10 {
		return fmt.Errorf("the sitemap lists only %d pages", len(s.pages))
	}
	for _, q := range []string{
		"surname=Smith", "surname=Cooper", "surname=Taylor&surname_mode=exact", "surname=Brown&year=1820&year_pm=20",
		"surname=Jon*&surname_mode=wildcard", "surname=Whyte", "surname=Baker&place=Yorkshire", "surname=Clark&collection=parish-baptisms",
	} {
		s.searches = append(s.searches, "/api/research/search?"+q)
		var res struct {
			Results []struct {
				ID int64 `json:"id"`
			} `json:"results"`
		}
		if err := getJSON(s.base+"/api/research/search?"+q, &res); err != nil {
			return fmt.Errorf("search %s: %w", q, err)
		}
		for _, r := range res.Results {
			s.records = append(s.records, strconv.FormatInt(r.ID, 10))
		}
	}
	if len(s.records) == 0 {
		return errors.New("the demo searches found no record")
	}
	for _, id := range s.records[:min(10, len(s.records))] {
		s.pages = append(s.pages, "/research-hub/our-collections/records/"+id)
	}
	s.pages = append(s.pages, "/research-hub/our-collections/searchexplore?surname=Smith",
		"/research-hub/our-collections/family-trees/"+trees.DemoSlug, "/image-viewer")
	for _, id := range []string{"demo-register-1851-p001", "demo-register-1851-p002", "demo-register-1851-p003", "demo-memorial-card-1-p001", "demo-memorial-card-1-p002"} {
		var in iiiftiles.Info
		if err := getJSON(s.base+"/iiif/3/"+id+"/info.json", &in); err != nil {
			return fmt.Errorf("info.json of %s: %w", id, err)
		}
		s.tiles = append(s.tiles, iiiftiles.Paths(id, &in)...)
		s.tiles = append(s.tiles, "/iiif/3/"+id+"/full/!400,400/0/default.jpg")
	}
	return nil
}

func getJSON(target string, v any) error {
	return get(target, func(body io.Reader) error { return json.NewDecoder(body).Decode(v) })
}

func getXML(target string, v any) error {
	return get(target, func(body io.Reader) error { return xml.NewDecoder(body).Decode(v) })
}

// get fetches target and decodes its body when the answer is 200.
func get(target string, decode func(body io.Reader) error) error {
	res, err := http.Get(target)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("GET %s: %s", target, res.Status)
	}
	return decode(res.Body)
}

// worker is one connection: it repeats its class's action, with a random pause
// around cfg.think, until ctx ends.
func (s *soak) worker(ctx context.Context, class string, seed int64) {
	rnd := rand.New(rand.NewPCG(uint64(seed), 99))
	tr := &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1, IdleConnTimeout: time.Minute}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	var local []sample
	var signIns []signInSample
	defer func() {
		s.mu.Lock()
		s.samples = append(s.samples, local...)
		s.signIns = append(s.signIns, signIns...)
		s.mu.Unlock()
	}()
	do := func(c *http.Client, method, path, what string, body io.Reader, hdr http.Header) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, method, s.base+path, body)
		for k, v := range hdr {
			req.Header[k] = v
		}
		req.Header.Set("Accept-Encoding", "gzip")
		sm := sample{class: class, what: what, start: s.since()}
		res, err := c.Do(req)
		if err == nil {
			_, err = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
		sm.end = s.since()
		if ctx.Err() != nil {
			return nil // the end of the run cut this request short
		}
		if res != nil {
			sm.status = res.StatusCode
			sm.cache = res.Header.Get("X-Lineage-Cache")
			sm.retryAfter = res.Header.Get("Retry-After") != ""
		}
		if err != nil {
			sm.err = errorKind(err)
		}
		local = append(local, sm)
		if err != nil {
			return nil
		}
		return res
	}
	pick := func(list []string) string { return list[rnd.IntN(len(list))] }
	for ctx.Err() == nil {
		switch class {
		case "pages":
			page := pick(s.pages)
			do(client, "GET", page, "GET "+page, nil, nil)
		case "search":
			if rnd.IntN(4) == 0 {
				do(client, "GET", "/api/research/records/"+pick(s.records), "GET /api/research/records/{id}", nil, nil)
			} else {
				do(client, "GET", pick(s.searches), "GET /api/research/search", nil, nil)
			}
		case "tiles":
			do(client, "GET", pick(s.tiles), "GET /iiif/3/…", nil, nil)
		case "sign-in":
			if si := s.signIn(tr, do, pick(s.users)); ctx.Err() == nil {
				signIns = append(signIns, si)
			}
		}
		pause := time.Duration(rnd.Int64N(int64(2*s.cfg.think) + 1))
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
	}
}

type doFunc func(c *http.Client, method, path, what string, body io.Reader, hdr http.Header) *http.Response

// signIn is what the web app does for a visitor who signs in and out: a session and
// its CSRF token, the credentials, the account, sign-out.
func (s *soak) signIn(tr *http.Transport, do doFunc, email string) signInSample {
	c, hdr, si := s.signedIn(tr, do, email)
	if !si.ok {
		return si
	}
	if res := do(c, "GET", "/api/user", "GET /api/user", nil, http.Header{"Accept": {"application/json"}}); res == nil || res.StatusCode != 200 {
		si.ok, si.failed, si.end = false, "GET /api/user", s.since()
		return si
	}
	s.refreshToken(c, hdr)
	if res := do(c, "POST", "/logout", "POST /logout", nil, hdr); res == nil || res.StatusCode != 204 {
		si.ok, si.failed = false, "POST /logout"
	}
	si.end = s.since()
	return si
}

// signedIn creates a session and signs email in on it: the client holding the
// session's cookies and the headers its unsafe requests need.
func (s *soak) signedIn(tr *http.Transport, do doFunc, email string) (*http.Client, http.Header, signInSample) {
	si := signInSample{start: s.since()}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Transport: tr, Jar: jar, Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	res := do(c, "GET", "/sanctum/csrf-cookie", "GET /sanctum/csrf-cookie", nil, nil)
	si.session, si.end = s.since()-si.start, s.since()
	if res == nil || res.StatusCode != 204 {
		si.failed = "GET /sanctum/csrf-cookie"
		return c, nil, si
	}
	hdr := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}, "Origin": {s.base}}
	s.refreshToken(c, hdr)
	body := fmt.Sprintf(`{"email":%q,"password":%q}`, email, soakPassword)
	res = do(c, "POST", "/login", "POST /login", strings.NewReader(body), hdr)
	si.end = s.since()
	if res == nil || res.StatusCode != 204 {
		si.failed = "POST /login"
		return c, hdr, si
	}
	si.ok = true
	s.refreshToken(c, hdr)
	return c, hdr, si
}

// refreshToken puts the session's current CSRF token in hdr.
func (s *soak) refreshToken(c *http.Client, hdr http.Header) {
	u, _ := url.Parse(s.base)
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == "XSRF-TOKEN" {
			hdr.Set("X-Xsrf-Token", ck.Value)
		}
	}
}

func errorKind(err error) string {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed early"
	}
	return "transport error"
}

// faults runs the fault plan at fixed fractions of the run.
func (s *soak) faults(ctx context.Context) {
	d := s.cfg.duration
	at := func(frac float64) bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Until(s.t0.Add(time.Duration(frac * float64(d))))):
			return true
		}
	}
	if at(0.20) {
		s.killSSR()
	}
	if at(0.35) {
		s.cutContent()
	}
	if at(0.70) {
		s.freezeSSR()
	}
}

func (s *soak) addWindow(w window) {
	s.mu.Lock()
	s.windows = append(s.windows, w)
	s.mu.Unlock()
}

// grace is how long after a fault has visibly ended its window stays open, for
// requests already on their way.
const grace = time.Second

func (s *soak) killSSR() {
	pid, err := ssrChild(s.serverPid)
	if err != nil {
		s.note("SSR kill skipped: %v", err)
		return
	}
	start := s.since()
	syscall.Kill(pid, syscall.SIGKILL)
	ready, newPid := s.waitSSR(pid, 2*time.Minute)
	s.addWindow(window{name: "SSR child killed (SIGKILL)", start: start, end: ready + grace, ssr: true,
		note: fmt.Sprintf("pid %d killed; new child %d; /readyz 200 again after %.1f s", pid, newPid, (ready - start).Seconds())})
}

func (s *soak) freezeSSR() {
	pid, err := ssrChild(s.serverPid)
	if err != nil {
		s.note("SSR freeze skipped: %v", err)
		return
	}
	start := s.since()
	syscall.Kill(pid, syscall.SIGSTOP)
	notReady := time.Duration(-1)
	restarted := time.Duration(-1)
	var newPid int
	deadline := start + 20*time.Second
	for s.since() < deadline {
		if notReady < 0 && readyzStatus(s.base) == 503 {
			notReady = s.since()
		}
		if p, err := ssrChild(s.serverPid); err == nil && p != pid {
			restarted, newPid = s.since(), p
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if restarted < 0 {
		// The supervisor did not replace it: let it go on, as an operator would.
		syscall.Kill(pid, syscall.SIGCONT)
		s.note("the frozen SSR child %d was not restarted within 20 s; continued it", pid)
	}
	ready, _ := s.waitSSR(pid, 2*time.Minute)
	note := fmt.Sprintf("pid %d stopped", pid)
	if notReady >= 0 {
		note += fmt.Sprintf("; /readyz 503 after %.1f s", (notReady - start).Seconds())
	}
	if restarted >= 0 {
		note += fmt.Sprintf("; killed and replaced by %d after %.1f s", newPid, (restarted - start).Seconds())
	}
	note += fmt.Sprintf("; /readyz 200 again after %.1f s", (ready - start).Seconds())
	s.addWindow(window{name: "SSR child frozen (SIGSTOP)", start: start, end: ready + grace, note: note, ssr: true})
}

// waitSSR waits until a child other than old runs and /readyz answers 200.
func (s *soak) waitSSR(old int, within time.Duration) (time.Duration, int) {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if p, err := ssrChild(s.serverPid); err == nil && p != old && readyzStatus(s.base) == 200 {
			return s.since(), p
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.note("the SSR child was not back within %s", within)
	return s.since(), 0
}

func readyzStatus(base string) int {
	c := &http.Client{Timeout: 5 * time.Second}
	res, err := c.Get(base + "/readyz")
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

func (s *soak) cutContent() {
	start := s.since()
	s.relay.setOn(false)
	time.Sleep(30 * time.Second)
	s.relay.setOn(true)
	end := s.since()
	s.addWindow(window{name: "content API unavailable", start: start, end: end + grace,
		note: fmt.Sprintf("the relay in front of /content/api/v2 refused and dropped connections for %.1f s", (end - start).Seconds())})
}

// ssrChild finds one of the server's SSR workers: a Node child running the web build's
// server entry (build/server/serve.mjs). With several workers the faults hit one of
// them, and the others keep answering.
func ssrChild(serverPid int) (int, error) {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", serverPid))
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			pid, err := strconv.Atoi(f)
			if err != nil {
				continue
			}
			if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && strings.Contains(string(cmd), "build/server/") {
				return pid, nil
			}
		}
	}
	return 0, errors.New("no SSR child found")
}

// runCLI runs an import with the CLI and records in r when it started and ended, its
// error and the last lines it wrote.
func (s *soak) runCLI(r *importResult, args ...string) {
	r.start = s.since()
	out, err := s.cfg.lineageCmd(args...).CombinedOutput()
	r.end, r.err = s.since(), err
	r.output = lastLines(string(out), 3)
}

// imports runs the CSV import and, a little later, the GEDCOM import, each with the
// CLI against the running server's data folder.
func (s *soak) imports(data, csvFile, gedFile string, wantRecords, wantPeople int64) []importResult {
	d := s.cfg.duration
	run := func(delay time.Duration, what string, want int64, args ...string) importResult {
		time.Sleep(time.Until(s.t0.Add(delay)))
		r := importResult{what: what, want: want}
		if strings.HasPrefix(what, "CSV") {
			r.collection = "soak-records"
		} else {
			r.tree = "soak-tree"
		}
		s.runCLI(&r, args...)
		return r
	}
	var wg sync.WaitGroup
	results := make([]importResult, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		results[0] = run(d/10, fmt.Sprintf("CSV: `lineage import records` (%s)", filepath.Base(csvFile)), wantRecords,
			"import", "records", "--data", data, "--collection", "soak-records", "--title", "Soak records", "--bulk", s.cfg.bulk, "--quiet", csvFile)
	}()
	go func() {
		defer wg.Done()
		results[1] = run(d*3/20, "GEDCOM: `lineage import gedcom`", wantPeople,
			"import", "gedcom", "--data", data, "--tree", "soak-tree", "--quiet", gedFile)
	}()
	wg.Wait()
	return results
}

// checkImport counts what the import left, through the API.
func (s *soak) checkImport(r *importResult) {
	switch {
	case r.collection != "":
		var res struct {
			Collection struct {
				Count int64 `json:"count"`
			} `json:"collection"`
		}
		if err := getJSON(s.base+"/api/research/collections/"+r.collection, &res); err != nil {
			r.got = -1
			return
		}
		r.got = res.Collection.Count
		return
	case r.gone != "":
		r.got = -1
		if res, err := http.Get(s.base + "/api/trees/" + r.gone); err == nil {
			res.Body.Close()
			if res.StatusCode == 404 {
				r.got = 0
			}
		}
		return
	}
	var res struct {
		Counts struct {
			People int64 `json:"people"`
		} `json:"counts"`
	}
	if err := getJSON(s.base+"/api/trees/"+r.tree, &res); err != nil {
		r.got = -1
		return
	}
	r.got = res.Counts.People
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

func (s *soak) inWindow(sm sample) bool { return s.windowOf(sm) >= 0 }

// windowOf is the index of the first fault window a page request overlaps, or -1.
func (s *soak) windowOf(sm sample) int {
	if sm.class != pageClass {
		return -1
	}
	for i, w := range s.windows {
		if sm.start <= w.end && sm.end >= w.start {
			return i
		}
	}
	return -1
}

// windowAnswer sorts a page answer inside a fault window: from the page cache, rendered
// by a worker still answering, the "starting" page with Retry-After, or something else
// (a failure inside an SSR child's window).
func windowAnswer(sm sample) string {
	switch {
	case sm.err != "":
		return sm.err
	case sm.status == 200 && (sm.cache == "hit" || sm.cache == "stale"):
		return "cache"
	case sm.status == 200:
		return "rendered"
	case sm.status == 503 && sm.retryAfter:
		return "retry"
	case sm.status == 503:
		return "503 without Retry-After"
	}
	return strconv.Itoa(sm.status)
}

// windowTable writes how the page requests inside each fault window were answered,
// and returns how many of those inside an SSR child's window were failures.
func (s *soak) windowTable(p func(string, ...any)) (failures int) {
	type counts struct {
		n, cache, hit, rendered, retry int
		other                          map[string]int
	}
	per := make([]counts, len(s.windows))
	for _, sm := range s.samples {
		i := s.windowOf(sm)
		if i < 0 {
			continue
		}
		c := &per[i]
		c.n++
		switch a := windowAnswer(sm); a {
		case "cache":
			c.cache++
			if sm.cache == "hit" {
				c.hit++
			}
		case "rendered":
			c.rendered++
		case "retry":
			c.retry++
		default:
			if c.other == nil {
				c.other = map[string]int{}
			}
			c.other[a]++
		}
	}
	p("\nPage requests inside each fault window, by how they were answered (a request overlapping two windows counts in the first). Inside an SSR child's window a page must come from the page cache (`X-Lineage-Cache: hit` or `stale`), be rendered by a worker still answering, or be the \"starting\" page (503 with `Retry-After`); anything else is a failure. The content API's window excuses any answer.\n\n")
	p("| fault | page requests | 200 from the page cache (hit / stale) | 200 rendered | 503 with Retry-After | other answers | **failures** |\n|---|---|---|---|---|---|---|\n")
	for i, w := range s.windows {
		c := per[i]
		other := "—"
		n := 0
		if len(c.other) > 0 {
			keys := make([]string, 0, len(c.other))
			for k, v := range c.other {
				keys = append(keys, k)
				n += v
			}
			sort.Strings(keys)
			parts := make([]string, len(keys))
			for j, k := range keys {
				parts[j] = fmt.Sprintf("%s × %d", k, c.other[k])
			}
			other = strings.Join(parts, ", ")
		}
		fail := "excused"
		if w.ssr {
			fail = strconv.Itoa(n)
			failures += n
		}
		p("| %s | %d | %d (%d / %d) | %d | %d | %s | **%s** |\n", w.name, c.n, c.cache, c.hit, c.cache-c.hit, c.rendered, c.retry, other, fail)
	}
	return failures
}

// report writes the Markdown report and says whether the target was met.
func (s *soak) report(conns int, trafficEnd time.Duration, load0, loadEnd string, imports []importResult, logPath string) (string, bool) {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	shares := make([]string, len(s.cfg.active))
	for i, c := range s.cfg.active {
		shares[i] = fmt.Sprintf("%s %d", c.name, s.cfg.connsOf(c.name))
	}
	p("%d connections (%s), %.0f s of traffic, a pause of 0–%s between a connection's actions; load average before: %s, at the end: %s.\n\n",
		conns, strings.Join(shares, ", "), trafficEnd.Seconds(), 2*s.cfg.think, load0, loadEnd)

	p("Fault windows (seconds from the start; a page request that overlaps one may fail):\n\n")
	p("| fault | from | to | what happened |\n|---|---|---|---|\n")
	sort.Slice(s.windows, func(i, j int) bool { return s.windows[i].start < s.windows[j].start })
	for _, w := range s.windows {
		p("| %s | %.1f | %.1f | %s |\n", w.name, w.start.Seconds(), w.end.Seconds(), w.note)
	}

	type agg struct {
		n, s2, s3, s4, s5in, s5out, terrIn, terrOut int
		lat, all                                    []time.Duration // outside windows; all
	}
	per := map[string]*agg{}
	kinds := map[[3]string]int{}
	for _, sm := range s.samples {
		a := per[sm.class]
		if a == nil {
			a = &agg{}
			per[sm.class] = a
		}
		a.n++
		in := s.inWindow(sm)
		where, what := "outside", sm.class+": "+sm.what
		if in {
			// Inside a window one line for all pages is enough; outside, each counts.
			where, what = "inside", sm.class+": GET (any page)"
		}
		switch {
		case sm.err != "":
			if in {
				a.terrIn++
			} else {
				a.terrOut++
			}
			kinds[[3]string{what, sm.err, where}]++
			continue
		case sm.status >= 500:
			if in {
				a.s5in++
			} else {
				a.s5out++
			}
		case sm.status >= 400:
			a.s4++
		case sm.status >= 300:
			a.s3++
		default:
			a.s2++
		}
		if sm.status >= 400 {
			kinds[[3]string{what, strconv.Itoa(sm.status), where}]++
		}
		a.all = append(a.all, sm.end-sm.start)
		if !in {
			a.lat = append(a.lat, sm.end-sm.start)
		}
	}
	p("\n| class | requests | 2xx | 3xx | 4xx | 5xx in windows | **5xx outside** | transport errors in / outside | p50 ms | p99 ms | p99 ms with windows |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	total5 := 0
	for _, c := range classes {
		a := per[c.name]
		if a == nil {
			continue
		}
		total5 += a.s5out + a.terrOut
		p("| %s | %d | %d | %d | %d | %d | **%d** | %d / %d | %.1f | %.1f | %.1f |\n", c.name, a.n, a.s2, a.s3, a.s4, a.s5in, a.s5out, a.terrIn, a.terrOut,
			percentile(a.lat, 0.50), percentile(a.lat, 0.99), percentile(a.all, 0.99))
	}
	windowFailures := s.windowTable(p)
	if len(kinds) > 0 {
		p("\nErrors by kind:\n\n| request | answer | in a window? | count |\n|---|---|---|---|\n")
		keys := make([][3]string, 0, len(kinds))
		for k := range kinds {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if kinds[keys[i]] != kinds[keys[j]] {
				return kinds[keys[i]] > kinds[keys[j]]
			}
			return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j])
		})
		for i, k := range keys {
			if i == 20 {
				p("| … %d more rows | | | |\n", len(keys)-i)
				break
			}
			p("| %s | %s | %s | %d |\n", k[0], k[1], k[2], kinds[k])
		}
	}

	p("\nImports, run with the CLI into the serving store during the traffic:\n\n| import | from s | to s | result | expected | loaded |\n|---|---|---|---|---|---|\n")
	lost := false
	for _, r := range imports {
		res, l := r.outcome()
		lost = lost || l
		p("| %s | %.1f | %.1f | %s | %d | %d |\n", r.what, r.start.Seconds(), r.end.Seconds(), res, r.want, r.got)
	}
	b.WriteString(s.notesAndErrors(logPath))
	verdict := "**Target met**: no 5xx or transport error outside the fault windows, every page inside an SSR child's window came from the page cache, a worker still answering or the \"starting\" page with Retry-After, and every imported record and person is there."
	if total5 > 0 || windowFailures > 0 || lost {
		verdict = fmt.Sprintf("**Target missed**: %d 5xx or transport errors outside the fault windows; %d page answers inside an SSR child's window neither cached nor \"starting\" with Retry-After; imports complete: %v.", total5, windowFailures, !lost)
	}
	p("\n%s\n", verdict)
	return b.String(), total5 == 0 && windowFailures == 0 && !lost
}

// percentile of lat in milliseconds; it sorts lat.
func percentile(lat []time.Duration, q float64) float64 {
	if len(lat) == 0 {
		return 0
	}
	slices.Sort(lat)
	return float64(lat[min(len(lat)-1, int(float64(len(lat))*q))].Microseconds()) / 1000
}

// topErrors counts the server log's ERROR lines by message, but for the request log
// lines, whose statuses the tables count already: what is left says why.
func topErrors(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "level=ERROR") || logField(line, "msg") == "request" {
			continue
		}
		key := logField(line, "msg")
		for _, k := range []string{"err"} {
			if v := logField(line, k); v != "" {
				if len(v) > 100 {
					v = v[:100] + "…"
				}
				key += " " + k + "=" + v
			}
		}
		counts[key]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	var b strings.Builder
	for _, k := range keys[:min(n, len(keys))] {
		fmt.Fprintf(&b, "- %d × `%s`\n", counts[k], strings.ReplaceAll(k, "`", "'"))
	}
	return b.String()
}

// logField reads key's value from a slog text line.
func logField(line, key string) string {
	i := strings.Index(line, " "+key+"=")
	if i < 0 {
		return ""
	}
	v := line[i+len(key)+2:]
	if strings.HasPrefix(v, `"`) {
		if q, err := strconv.QuotedPrefix(v); err == nil {
			u, _ := strconv.Unquote(q)
			return u
		}
		return v
	}
	if j := strings.IndexByte(v, ' '); j >= 0 {
		v = v[:j]
	}
	return v
}

// relay passes TCP connections on to target while on; when switched off it closes
// the connections it carries and closes new ones at once.
type relay struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	on     bool
	conns  map[net.Conn]struct{}
}

func newRelay(target string) (*relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &relay{ln: ln, target: target, on: true, conns: map[net.Conn]struct{}{}}
	go r.serve()
	return r, nil
}

func (r *relay) addr() string { return r.ln.Addr().String() }

func (r *relay) close() { r.ln.Close(); r.setOn(false) }

func (r *relay) setOn(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = on
	if !on {
		for c := range r.conns {
			c.Close()
		}
		clear(r.conns)
	}
}

func (r *relay) track(cs ...net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.on {
		return false
	}
	for _, c := range cs {
		r.conns[c] = struct{}{}
	}
	return true
}

func (r *relay) serve() {
	for {
		in, err := r.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			out, err := net.DialTimeout("tcp", r.target, 5*time.Second)
			if err != nil {
				in.Close()
				return
			}
			if !r.track(in, out) {
				in.Close()
				out.Close()
				return
			}
			done := make(chan struct{}, 2)
			go func() { io.Copy(out, in); done <- struct{}{} }()
			go func() { io.Copy(in, out); done <- struct{}{} }()
			<-done
			in.Close()
			out.Close()
			r.mu.Lock()
			delete(r.conns, in)
			delete(r.conns, out)
			r.mu.Unlock()
		}()
	}
}

// notesAndErrors ends a report: what the run noted on the way, and the server's most
// frequent ERROR lines.
func (s *soak) notesAndErrors(logPath string) string {
	var b strings.Builder
	if len(s.notes) > 0 {
		b.WriteString("\nNotes:\n\n")
		for _, n := range s.notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	if top := topErrors(logPath, 5); top != "" {
		fmt.Fprintf(&b, "\nThe server's most frequent ERROR log messages:\n\n%s", top)
	}
	return b.String()
}
