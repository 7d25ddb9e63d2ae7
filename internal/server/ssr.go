package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"lineage/internal/freeport"
)

// SSR supervises the React Router server: it runs it as several worker processes
// (Settings.Workers, one per core by default) with the Node 24 that the web app pins
// (web/node_modules/node), each on its own loopback port with a bounded V8 heap,
// restarts a worker with backoff when it dies, prefixes their log lines, and stops
// them on shutdown. A worker that is alive but no longer answers (stopped, or its event
// loop stuck) is found by its own health probe and killed, so its loop restarts it.
// Page requests go to the answering worker with the fewest requests in flight
// (Transport); see docs/decisions/016-ssr-workers.md.
type SSR struct {
	WebDir   string
	Env      []string // extra environment for the workers (LINEAGE_* URLs)
	Log      *slog.Logger
	Settings SSRSettings // zero fields take the defaults

	pool atomic.Pointer[[]*ssrWorker] // set once by Run
	// turn rotates where the search for the least busy worker starts, so that idle
	// workers share the requests instead of the first one taking them all.
	turn atomic.Uint64
}

// ssrWorker is one Node process of the SSR and its supervision record.
type ssrWorker struct {
	ssr  *SSR
	n    int // 1-based, in log lines
	port int // kept across restarts
	mu   sync.Mutex
	cmd  *exec.Cmd
	up   bool
	// failures counts the current process's consecutive unanswered probes; probeErr is
	// the last one's error. downErr says why the last process ended.
	failures int
	probeErr error
	downErr  error
	// lastAnswer is when the worker last sent response headers, to a probe or to a
	// proxied request (UnixNano). A probe that times out while the worker answers
	// others is a busy worker, not a frozen one.
	lastAnswer atomic.Int64
	// inFlight counts the proxied requests sent to it whose response body is not
	// closed yet.
	inFlight atomic.Int64
}

// SSRProbePath is the web app's cheap route that the health probe asks
// (web/app/routes/ssr-health.ts).
const SSRProbePath = "/ssr-health"

// SSRSettings bound how long the site waits for the child. A frozen child is killed
// at most max(ProbeInterval, ProbeTimeout) + ProbeFailures × ProbeTimeout after it
// last answered.
type SSRSettings struct {
	// ResponseTimeout is how long a proxied page request waits for the child's response
	// headers before it is answered 503 with Retry-After (LINEAGE_SSR_RESPONSE_TIMEOUT).
	// Loaders run before the headers, and the web app bounds each of its own calls
	// (Go API 10 s, content API 8 s, possibly one after the other), so the default
	// leaves room for those to fail and the app to show its own error page. A child
	// that is stuck altogether is the probe's to find, sooner.
	ResponseTimeout time.Duration
	// ProbeInterval is the pause between two answered probes (LINEAGE_SSR_PROBE_INTERVAL).
	ProbeInterval time.Duration
	// ProbeTimeout is how long one probe waits for an answer (LINEAGE_SSR_PROBE_TIMEOUT).
	ProbeTimeout time.Duration
	// ProbeFailures is how many probes in a row may go unanswered, while the child
	// answers nothing else either, before the child is killed and restarted
	// (LINEAGE_SSR_PROBE_FAILURES).
	ProbeFailures int
	// Workers is how many Node processes render pages (LINEAGE_SSR_WORKERS); zero
	// means one per core this process may use (GOMAXPROCS, which follows the cgroup's
	// CPU limit). Rendering is CPU work on one thread per process, so more workers
	// than cores only adds memory.
	Workers int
	// MaxOldSpaceMB is each worker's V8 old-generation heap limit in MiB, passed as
	// --max-old-space-size (LINEAGE_SSR_MAX_OLD_SPACE_MB). V8 collects harder as the
	// heap nears it, which keeps a worker's memory flat under load; a worker that
	// needs more than this dies ("heap out of memory") and is restarted.
	MaxOldSpaceMB int
	// MaxSemiSpaceMB bounds each of V8's young-generation semi-spaces in MiB, passed as
	// --max-semi-space-size (LINEAGE_SSR_MAX_SEMI_SPACE_MB). Node's own default lets
	// them grow to 64 MiB under load, which made a worker's resident set grow by about
	// 100 MB and cost more CPU per page, not less; 4 MiB keeps it 10–20 MB under
	// 8 MiB's for the same CPU per page, and 2 MiB costs more CPU (decision 016).
	MaxSemiSpaceMB int
}

// DefaultSSRSettings: a frozen worker is killed 8 s after it last answered at the
// latest, a page waits at most 30 s for a worker that answers probes, one worker per
// core, 128 MiB of old-generation heap and 4 MiB semi-spaces each
// (docs/decisions/016-ssr-workers.md).
var DefaultSSRSettings = SSRSettings{
	ResponseTimeout: 30 * time.Second,
	ProbeInterval:   2 * time.Second,
	ProbeTimeout:    2 * time.Second,
	ProbeFailures:   3,
	MaxOldSpaceMB:   128,
	MaxSemiSpaceMB:  4,
}

// SSRSettingsFromEnv reads the LINEAGE_SSR_* settings through getenv; an unset one
// takes its default. Durations are Go durations ("10s", "1500ms").
func SSRSettingsFromEnv(getenv func(string) string) (SSRSettings, error) {
	s := DefaultSSRSettings
	for _, d := range []struct {
		key string
		dst *time.Duration
	}{
		{"LINEAGE_SSR_RESPONSE_TIMEOUT", &s.ResponseTimeout},
		{"LINEAGE_SSR_PROBE_INTERVAL", &s.ProbeInterval},
		{"LINEAGE_SSR_PROBE_TIMEOUT", &s.ProbeTimeout},
	} {
		v := getenv(d.key)
		if v == "" {
			continue
		}
		t, err := time.ParseDuration(v)
		if err != nil || t <= 0 {
			return s, fmt.Errorf("%s must be a positive duration such as 10s, got %q", d.key, v)
		}
		*d.dst = t
	}
	for _, n := range []struct {
		key string
		min int
		dst *int
	}{
		{"LINEAGE_SSR_PROBE_FAILURES", 1, &s.ProbeFailures},
		{"LINEAGE_SSR_WORKERS", 1, &s.Workers},
		{"LINEAGE_SSR_MAX_OLD_SPACE_MB", 32, &s.MaxOldSpaceMB},
		{"LINEAGE_SSR_MAX_SEMI_SPACE_MB", 1, &s.MaxSemiSpaceMB},
	} {
		v := getenv(n.key)
		if v == "" {
			continue
		}
		i, err := strconv.Atoi(v)
		if err != nil || i < n.min {
			return s, fmt.Errorf("%s must be a whole number of at least %d, got %q", n.key, n.min, v)
		}
		*n.dst = i
	}
	return s, nil
}

// settings fills the zero fields of s.Settings with the defaults.
func (s *SSR) settings() SSRSettings {
	c, d := s.Settings, DefaultSSRSettings
	if c.ResponseTimeout <= 0 {
		c.ResponseTimeout = d.ResponseTimeout
	}
	if c.ProbeInterval <= 0 {
		c.ProbeInterval = d.ProbeInterval
	}
	if c.ProbeTimeout <= 0 {
		c.ProbeTimeout = d.ProbeTimeout
	}
	if c.ProbeFailures <= 0 {
		c.ProbeFailures = d.ProbeFailures
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.MaxOldSpaceMB <= 0 {
		c.MaxOldSpaceMB = d.MaxOldSpaceMB
	}
	if c.MaxSemiSpaceMB <= 0 {
		c.MaxSemiSpaceMB = d.MaxSemiSpaceMB
	}
	return c
}

// ErrWebNotBuilt says what to run when the built web app is missing.
type ErrWebNotBuilt struct{ Missing string }

func (e ErrWebNotBuilt) Error() string {
	return fmt.Sprintf("%s is missing: build the web app first with `make build` (or `cd web && npm ci && npm run build`)", e.Missing)
}

func (s *SSR) serverEntry() string { return filepath.Join(s.WebDir, "build", "server", "index.js") }

// nodeBinary finds the Node of the `node` npm package, so the child runs on Node 24
// even where the system Node is older.
func (s *SSR) nodeBinary() (string, error) {
	candidates := []string{
		filepath.Join(s.WebDir, "node_modules", "node", "bin", "node"),
		filepath.Join(s.WebDir, "node_modules", ".bin", "node"),
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
			return c, nil
		}
	}
	return "", ErrWebNotBuilt{Missing: filepath.Join(s.WebDir, "node_modules", "node") + " (Node 24)"}
}

// serveScript is the worker's HTTP server (web/server.mjs, copied there by the build).
func (s *SSR) serveScript() string {
	return filepath.Join(s.WebDir, "build", "server", "serve.mjs")
}

// Check reports whether everything needed to start the child is present.
func (s *SSR) Check() error {
	if _, err := os.Stat(s.serverEntry()); err != nil {
		return ErrWebNotBuilt{Missing: s.serverEntry()}
	}
	if _, err := os.Stat(s.serveScript()); err != nil {
		return ErrWebNotBuilt{Missing: s.serveScript()}
	}
	_, err := s.nodeBinary()
	return err
}

// list is the workers Run started; empty before.
func (s *SSR) list() []*ssrWorker {
	if p := s.pool.Load(); p != nil {
		return *p
	}
	return nil
}

func (w *ssrWorker) addr() string { return "127.0.0.1:" + strconv.Itoa(w.port) }

// Health says why no worker can take page requests now, or nil while at least one
// can: a worker cannot while it is not listening yet (starting or restarting) or its
// last probe went unanswered. Fewer workers answering is less capacity, not an
// unready site; each worker's trouble is logged.
func (s *SSR) Health() error {
	workers := s.list()
	if len(workers) == 0 {
		return errors.New("starting")
	}
	why := make([]string, 0, len(workers))
	for _, w := range workers {
		err := w.health()
		if err == nil {
			return nil
		}
		if len(workers) == 1 {
			return err
		}
		why = append(why, fmt.Sprintf("worker %d: %v", w.n, err))
	}
	return fmt.Errorf("none of %d workers answers: %s", len(workers), strings.Join(why, "; "))
}

func (w *ssrWorker) health() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case !w.up && w.downErr != nil:
		return fmt.Errorf("restarting (%v)", w.downErr)
	case !w.up:
		return errors.New("starting")
	case w.failures > 0:
		return fmt.Errorf("not answering: %d of %d probes in a row failed (%v)", w.failures, w.ssr.settings().ProbeFailures, w.probeErr)
	}
	return nil
}

// answered records that the worker sent response headers.
func (w *ssrWorker) answered() { w.lastAnswer.Store(time.Now().UnixNano()) }

// pick is the answering worker with the fewest requests in flight, other than those in
// skip, or nil. The search starts at the next worker in turn, so that among equally
// busy ones each gets its share.
func (s *SSR) pick(skip []*ssrWorker) *ssrWorker {
	workers := s.list()
	if len(workers) == 0 {
		return nil
	}
	start := int(s.turn.Add(1) % uint64(len(workers)))
	var best *ssrWorker
	var bestLoad int64
	for i := range workers {
		w := workers[(start+i)%len(workers)]
		if slices.Contains(skip, w) || w.health() != nil {
			continue
		}
		if load := w.inFlight.Load(); best == nil || load < bestLoad {
			best, bestLoad = w, load
		}
	}
	return best
}

// errNoWorker is the proxy's error when no worker answers.
var errNoWorker = errors.New("no SSR worker answers")

// Transport wraps the proxy's transport to the workers: it sends each request to the
// answering worker with the fewest requests in flight, whatever host the request
// names, and counts the request in flight until its response body is closed. A
// request without a body whose connection is refused (its worker has just died and
// is not marked down yet) never reached that worker, so it is sent to another.
func (s *SSR) Transport(base http.RoundTripper) http.RoundTripper {
	return &ssrTransport{ssr: s, base: base}
}

type ssrTransport struct {
	ssr  *SSR
	base http.RoundTripper
}

func (t *ssrTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var refused []*ssrWorker
	for {
		w := t.ssr.pick(refused)
		if w == nil {
			if len(refused) > 0 {
				return nil, fmt.Errorf("%w: %d refused the connection", errNoWorker, len(refused))
			}
			return nil, errNoWorker
		}
		out := req.Clone(req.Context())
		out.URL.Host = w.addr()
		w.inFlight.Add(1)
		resp, err := t.base.RoundTrip(out)
		if err != nil {
			w.inFlight.Add(-1)
			if req.Body == nil && errors.Is(err, syscall.ECONNREFUSED) {
				refused = append(refused, w)
				continue
			}
			return nil, err
		}
		w.answered()
		resp.Body = &inFlightBody{ReadCloser: resp.Body, w: w}
		return resp, nil
	}
}

// inFlightBody ends its worker's count of the request when closed (once).
type inFlightBody struct {
	io.ReadCloser
	w    *ssrWorker
	once sync.Once
}

func (b *inFlightBody) Close() error {
	b.once.Do(func() { b.w.inFlight.Add(-1) })
	return b.ReadCloser.Close()
}

// URL is the proxy's target for page requests; Transport replaces its host with a
// worker's address.
func (s *SSR) URL() *url.URL { return &url.URL{Scheme: "http", Host: "ssr-worker.invalid"} }

// Run starts the workers and keeps them running until ctx ends. It returns once each
// worker's first start has answered on its port, or at the first that failed.
func (s *SSR) Run(ctx context.Context) (<-chan struct{}, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	workers := make([]*ssrWorker, s.settings().Workers)
	for i := range workers {
		port, err := freeport.Pick()
		if err != nil {
			return nil, err
		}
		workers[i] = &ssrWorker{ssr: s, n: i + 1, port: port}
	}
	s.pool.Store(&workers)
	firsts := make([]chan error, len(workers))
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i, w := range workers {
		firsts[i] = make(chan error, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.supervise(ctx, firsts[i])
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	for _, first := range firsts {
		select {
		case err := <-first:
			if err != nil {
				return done, err
			}
		case <-ctx.Done():
			return done, ctx.Err()
		}
	}
	return done, nil
}

// supervise runs the worker's process, and a new one with backoff whenever it ends,
// until ctx ends.
func (w *ssrWorker) supervise(ctx context.Context, first chan<- error) {
	backoff := 250 * time.Millisecond
	for {
		started := time.Now()
		err := w.runOnce(ctx, first)
		if ctx.Err() != nil {
			return
		}
		if time.Since(started) > time.Minute {
			backoff = 250 * time.Millisecond
		}
		w.ssr.Log.Error("ssr: child exited; restarting", "worker", w.n, "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 15*time.Second)
	}
}

func (w *ssrWorker) runOnce(ctx context.Context, first chan<- error) error {
	s := w.ssr
	node, err := s.nodeBinary()
	if err != nil {
		signal(first, err)
		return err
	}
	set := s.settings()
	cmd := exec.Command(node,
		"--max-old-space-size="+strconv.Itoa(set.MaxOldSpaceMB),
		"--max-semi-space-size="+strconv.Itoa(set.MaxSemiSpaceMB),
		s.serveScript(), s.serverEntry())
	cmd.Dir = s.WebDir
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Env = append(cmd.Env, "PORT="+strconv.Itoa(w.port), "HOST=127.0.0.1", "NODE_ENV=production")
	if !slices.ContainsFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "MALLOC_ARENA_MAX=") }) {
		// glibc gives each of Node's threads its own malloc arena; under load their
		// fragments kept a worker's resident set growing by about 25 MB that two
		// arenas do not (decision 016). An operator's own setting is kept.
		cmd.Env = append(cmd.Env, "MALLOC_ARENA_MAX=2")
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		signal(first, err)
		return err
	}
	go w.pipeLog(stdout, slog.LevelInfo)
	go w.pipeLog(stderr, slog.LevelWarn)
	w.mu.Lock()
	w.cmd = cmd
	w.mu.Unlock()

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	// Wait for the port to answer, the process to die, or the context to end.
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(60 * time.Second)
wait:
	for {
		select {
		case err := <-exited:
			err = fmt.Errorf("ssr child exited before listening: %v", err)
			signal(first, err)
			return err
		case <-deadline:
			signal(first, errors.New("ssr child did not listen within 60s"))
			break wait
		case <-ctx.Done():
			stopGroup(cmd, exited)
			return ctx.Err()
		case <-tick.C:
			if c, err := net.DialTimeout("tcp", w.addr(), 200*time.Millisecond); err == nil {
				c.Close()
				w.setUp()
				s.Log.Info("ssr: ready", "worker", w.n, "addr", w.addr(), "pid", cmd.Process.Pid)
				signal(first, nil)
				break wait
			}
		}
	}
	probeCtx, stopProbe := context.WithCancel(ctx)
	defer stopProbe()
	frozen := make(chan error, 1)
	go w.probe(probeCtx, frozen)
	select {
	case err := <-exited:
		w.setDown(fmt.Errorf("the child exited: %v", err))
		return err
	case err := <-frozen:
		w.setDown(err)
		// A stopped process keeps SIGTERM pending until it is continued; SIGKILL is
		// the one signal it cannot miss.
		s.Log.Error("ssr: child does not answer; killing it", "worker", w.n, "pid", cmd.Process.Pid, "err", err)
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		return err
	case <-ctx.Done():
		w.setDown(errors.New("shutting down"))
		stopGroup(cmd, exited)
		return ctx.Err()
	}
}

// probe asks the worker's SSRProbePath every ProbeInterval and, after ProbeFailures
// unanswered probes in a row during which the worker answered nothing else either,
// sends the last error on frozen and returns. An unanswered probe is asked again
// without the interval's pause (but not sooner than ProbeTimeout after the last one
// was sent), so a frozen worker is found at most max(ProbeInterval, ProbeTimeout) +
// ProbeFailures × ProbeTimeout after it last answered anything.
func (w *ssrWorker) probe(ctx context.Context, frozen chan<- error) {
	set := w.ssr.settings()
	client := &http.Client{
		Transport: &http.Transport{DisableKeepAlives: true, Proxy: nil},
		Timeout:   set.ProbeTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	url := "http://" + w.addr() + SSRProbePath
	var wait time.Duration // the first probe goes as soon as the worker listens
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		sent := time.Now()
		err := probeOnce(ctx, client, url)
		if ctx.Err() != nil {
			return
		}
		w.mu.Lock()
		switch {
		case err == nil:
			w.failures, w.probeErr = 0, nil
			wait = set.ProbeInterval
		case w.lastAnswer.Load() >= sent.UnixNano():
			// Busy: the answer to the probe is queued behind pages being rendered. Ask
			// again at once, so that a worker frozen just now is not given an interval
			// more.
			w.failures, w.probeErr = 0, nil
			wait = max(0, set.ProbeTimeout-time.Since(sent))
		default:
			w.failures++
			w.probeErr = err
			wait = max(0, set.ProbeTimeout-time.Since(sent))
		}
		failures := w.failures
		w.mu.Unlock()
		if err == nil {
			w.answered()
		} else if failures > 0 {
			w.ssr.Log.Warn("ssr: probe failed", "worker", w.n, "failures", failures, "of", set.ProbeFailures, "err", err)
		}
		if failures >= set.ProbeFailures {
			frozen <- fmt.Errorf("ssr child did not answer %d probes in a row: %w", failures, err)
			return
		}
	}
}

// probeOnce counts any HTTP answer as alive: even an error page proves that the
// event loop and the request handler run.
func probeOnce(ctx context.Context, client *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64*1024))
	resp.Body.Close()
	return nil
}

// stopGroup asks the process group to end and kills it after five seconds.
func stopGroup(cmd *exec.Cmd, exited <-chan error) {
	pgid := -cmd.Process.Pid
	syscall.Kill(pgid, syscall.SIGTERM)
	// A stopped process only acts on SIGTERM once continued.
	syscall.Kill(pgid, syscall.SIGCONT)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		syscall.Kill(pgid, syscall.SIGKILL)
		<-exited
	}
}

// setUp marks a new process listening, with a clean probe record.
func (w *ssrWorker) setUp() {
	w.mu.Lock()
	w.up = true
	w.failures, w.probeErr, w.downErr = 0, nil, nil
	w.mu.Unlock()
}

// setDown marks the process gone, and why.
func (w *ssrWorker) setDown(why error) {
	w.mu.Lock()
	w.up = false
	w.failures, w.probeErr, w.downErr = 0, nil, why
	w.mu.Unlock()
}

func (w *ssrWorker) pipeLog(r io.Reader, level slog.Level) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line != "" {
			w.ssr.Log.Log(context.Background(), level, "[ssr] "+line, "worker", w.n)
		}
	}
}

func signal(ch chan<- error, err error) {
	select {
	case ch <- err:
	default:
	}
}
