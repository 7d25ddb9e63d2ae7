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
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// SSR supervises the React Router server: it starts it with the Node 24 that the web
// app pins (web/node_modules/node), restarts it with backoff when it dies, prefixes its
// log lines, and stops it on shutdown. A child that is alive but no longer answers
// (stopped, or its event loop stuck) is found by a health probe and killed, so the
// same loop restarts it.
type SSR struct {
	WebDir   string
	Env      []string // extra environment for the child (LINEAGE_* URLs)
	Log      *slog.Logger
	Settings SSRSettings // zero fields take the defaults

	port int
	mu   sync.Mutex
	cmd  *exec.Cmd
	up   bool
	// failures counts the current child's consecutive unanswered probes; probeErr is
	// the last one's error. downErr says why the last child ended.
	failures int
	probeErr error
	downErr  error
	// lastAnswer is when the child last sent response headers, to a probe or to a
	// proxied request (UnixNano). A probe that times out while the child answers
	// others is a busy child, not a frozen one.
	lastAnswer atomic.Int64
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
}

// DefaultSSRSettings: a frozen child is killed 8 s after it last answered at the
// latest, and a page waits at most 30 s for a child that answers probes.
var DefaultSSRSettings = SSRSettings{
	ResponseTimeout: 30 * time.Second,
	ProbeInterval:   2 * time.Second,
	ProbeTimeout:    2 * time.Second,
	ProbeFailures:   3,
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
	if v := getenv("LINEAGE_SSR_PROBE_FAILURES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return s, fmt.Errorf("LINEAGE_SSR_PROBE_FAILURES must be a whole number of at least 1, got %q", v)
		}
		s.ProbeFailures = n
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

func (s *SSR) serveScript() string {
	return filepath.Join(s.WebDir, "node_modules", "@react-router", "serve", "bin.cjs")
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

// Addr is the loopback address the child listens on.
func (s *SSR) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Health says why the child cannot take page requests now, or nil when it can: it is
// not listening yet (starting or restarting), or its last probe went unanswered.
func (s *SSR) Health() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.up && s.downErr != nil:
		return fmt.Errorf("restarting (%v)", s.downErr)
	case !s.up:
		return errors.New("starting")
	case s.failures > 0:
		return fmt.Errorf("not answering: %d of %d probes in a row failed (%v)", s.failures, s.settings().ProbeFailures, s.probeErr)
	}
	return nil
}

// answered records that the child sent response headers.
func (s *SSR) answered() { s.lastAnswer.Store(time.Now().UnixNano()) }

// Run starts the child and keeps it running until ctx ends. It returns once the first
// start has either answered on its port or failed.
func (s *SSR) Run(ctx context.Context) (<-chan struct{}, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s.port = port
	first := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		backoff := 250 * time.Millisecond
		for attempt := 0; ; attempt++ {
			started := time.Now()
			err := s.runOnce(ctx, first)
			if ctx.Err() != nil {
				return
			}
			if time.Since(started) > time.Minute {
				backoff = 250 * time.Millisecond
			}
			s.Log.Error("ssr: child exited; restarting", "err", err, "in", backoff)
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(backoff*2, 15*time.Second)
		}
	}()
	select {
	case err := <-first:
		return done, err
	case <-ctx.Done():
		return done, ctx.Err()
	}
}

func (s *SSR) runOnce(ctx context.Context, first chan<- error) error {
	node, err := s.nodeBinary()
	if err != nil {
		signal(first, err)
		return err
	}
	cmd := exec.Command(node, s.serveScript(), s.serverEntry())
	cmd.Dir = s.WebDir
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Env = append(cmd.Env, "PORT="+strconv.Itoa(s.port), "HOST=127.0.0.1", "NODE_ENV=production")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		signal(first, err)
		return err
	}
	go s.pipeLog(stdout, slog.LevelInfo)
	go s.pipeLog(stderr, slog.LevelWarn)
	s.mu.Lock()
	s.cmd = cmd
	s.mu.Unlock()

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	// Wait for the port to answer, the child to die, or the context to end.
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
			s.stop(cmd, exited)
			return ctx.Err()
		case <-tick.C:
			if c, err := net.DialTimeout("tcp", s.Addr(), 200*time.Millisecond); err == nil {
				c.Close()
				s.setUp()
				s.Log.Info("ssr: ready", "addr", s.Addr(), "pid", cmd.Process.Pid)
				signal(first, nil)
				break wait
			}
		}
	}
	probeCtx, stopProbe := context.WithCancel(ctx)
	defer stopProbe()
	frozen := make(chan error, 1)
	go s.probe(probeCtx, frozen)
	select {
	case err := <-exited:
		s.setDown(fmt.Errorf("the child exited: %v", err))
		return err
	case err := <-frozen:
		s.setDown(err)
		// A stopped process keeps SIGTERM pending until it is continued; SIGKILL is
		// the one signal it cannot miss.
		s.Log.Error("ssr: child does not answer; killing it", "pid", cmd.Process.Pid, "err", err)
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		return err
	case <-ctx.Done():
		s.setDown(errors.New("shutting down"))
		s.stop(cmd, exited)
		return ctx.Err()
	}
}

// probe asks the child's SSRProbePath every ProbeInterval and, after ProbeFailures
// unanswered probes in a row during which the child answered nothing else either,
// sends the last error on frozen and returns. An unanswered probe is asked again
// without the interval's pause (but not sooner than ProbeTimeout after the last one
// was sent), so a frozen child is found at most max(ProbeInterval, ProbeTimeout) +
// ProbeFailures × ProbeTimeout after it last answered anything.
func (s *SSR) probe(ctx context.Context, frozen chan<- error) {
	set := s.settings()
	client := &http.Client{
		Transport: &http.Transport{DisableKeepAlives: true, Proxy: nil},
		Timeout:   set.ProbeTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	url := "http://" + s.Addr() + SSRProbePath
	var wait time.Duration // the first probe goes as soon as the child listens
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
		s.mu.Lock()
		switch {
		case err == nil:
			s.failures, s.probeErr = 0, nil
			wait = set.ProbeInterval
		case s.lastAnswer.Load() >= sent.UnixNano():
			// Busy: the answer to the probe is queued behind pages being rendered. Ask
			// again at once, so that a child frozen just now is not given an interval
			// more.
			s.failures, s.probeErr = 0, nil
			wait = max(0, set.ProbeTimeout-time.Since(sent))
		default:
			s.failures++
			s.probeErr = err
			wait = max(0, set.ProbeTimeout-time.Since(sent))
		}
		failures := s.failures
		s.mu.Unlock()
		if err == nil {
			s.answered()
		} else if failures > 0 {
			s.Log.Warn("ssr: probe failed", "failures", failures, "of", set.ProbeFailures, "err", err)
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

// stop asks the child's process group to end and kills it after five seconds.
func (s *SSR) stop(cmd *exec.Cmd, exited <-chan error) {
	pgid := -cmd.Process.Pid
	syscall.Kill(pgid, syscall.SIGTERM)
	// A stopped child only acts on SIGTERM once continued.
	syscall.Kill(pgid, syscall.SIGCONT)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		syscall.Kill(pgid, syscall.SIGKILL)
		<-exited
	}
}

// setUp marks a new child listening, with a clean probe record.
func (s *SSR) setUp() {
	s.mu.Lock()
	s.up = true
	s.failures, s.probeErr, s.downErr = 0, nil, nil
	s.mu.Unlock()
}

// setDown marks the child gone, and why.
func (s *SSR) setDown(why error) {
	s.mu.Lock()
	s.up = false
	s.failures, s.probeErr, s.downErr = 0, nil, why
	s.mu.Unlock()
}

func (s *SSR) pipeLog(r io.Reader, level slog.Level) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line != "" {
			s.Log.Log(context.Background(), level, "[ssr] "+line)
		}
	}
}

func signal(ch chan<- error, err error) {
	select {
	case ch <- err:
	default:
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
