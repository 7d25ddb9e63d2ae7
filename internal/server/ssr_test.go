package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestMain lets this test binary stand in for the Node SSR server: the fake web app's
// "node" is a script that re-runs the binary with LINEAGE_FAKE_SSR set.
func TestMain(m *testing.M) {
	if os.Getenv("LINEAGE_FAKE_SSR") == "1" {
		fakeSSRChild()
		return
	}
	os.Exit(m.Run())
}

// fakeSSRChild serves PORT on HOST like build/server/serve.mjs, and logs a line to stdout.
func fakeSSRChild() {
	addr := os.Getenv("HOST") + ":" + os.Getenv("PORT")
	fmt.Printf("fake ssr listening on %s with content API %s\n", addr, os.Getenv("LINEAGE_CONTENT_API"))
	http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "page %s nonce=%s pid=%d args=%q malloc-arenas=%q accept-encoding=%q", r.URL.Path, r.Header.Get(nonceHeader), os.Getpid(), os.Args[2:], os.Getenv("MALLOC_ARENA_MAX"), r.Header.Get("Accept-Encoding"))
	}))
}

// fakeWebApp lays out a web directory whose node runs the fake child.
func fakeWebApp(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	web := t.TempDir()
	for _, f := range []string{"build/server/index.js", "build/server/serve.mjs"} {
		p := filepath.Join(web, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("// fake"), 0o644)
	}
	node := filepath.Join(web, "node_modules", "node", "bin", "node")
	os.MkdirAll(filepath.Dir(node), 0o755)
	// The arguments node is given follow, for the child to show them.
	script := fmt.Sprintf("#!/bin/sh\nLINEAGE_FAKE_SSR=1 exec %q -test.run=^$ \"$@\"\n", self)
	if err := os.WriteFile(node, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return web
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	waitForWithin(t, 20*time.Second, what, cond)
}

// waitForWithin is waitFor with a deadline for slower events, such as Node starting on
// a busy machine. The deadline only stops a test that would otherwise hang.
func waitForWithin(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestSSRSupervisor(t *testing.T) {
	logs := &syncBuffer{}
	ssr := &SSR{
		WebDir:   fakeWebApp(t),
		Env:      []string{"LINEAGE_CONTENT_API=http://127.0.0.1:1/content/api/v2"},
		Log:      slog.New(slog.NewTextHandler(logs, nil)),
		Settings: SSRSettings{Workers: 1},
	}
	ctx, cancel := context.WithCancel(context.Background())
	done, err := ssr.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := ssr.Health(); err != nil {
		t.Fatalf("not ready after Run returned: %v", err)
	}

	s := New(Options{WebDir: ssr.WebDir, DB: fakePing{}, SSR: ssr, Log: slog.New(slog.NewTextHandler(logs, nil))})
	page := func() string {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", "/news", nil))
		return w.Body.String()
	}
	t.Run("ProxiesWithNonce", func(t *testing.T) {
		body := page()
		if !strings.HasPrefix(body, "page /news nonce=") || strings.Contains(body, "nonce= ") {
			t.Fatalf("body %q", body)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", "/readyz", nil))
		if w.Code != 200 {
			t.Fatalf("readyz %d %s", w.Code, w.Body)
		}
	})
	t.Run("LogsArePrefixed", func(t *testing.T) {
		waitFor(t, "child log line", func() bool { return strings.Contains(logs.String(), "[ssr] fake ssr listening") })
	})
	t.Run("AsksForUncompressed", func(t *testing.T) {
		// Go compresses once, on the way out; the worker must not spend CPU on it.
		r := httptest.NewRequest("GET", "/news", nil)
		r.Header.Set("Accept-Encoding", "gzip")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if body := w.Body.String(); !strings.HasSuffix(body, `accept-encoding=""`) {
			t.Fatalf("the worker was asked for an encoding: %q", body)
		}
	})
	t.Run("HeapBounded", func(t *testing.T) {
		body := page()
		if !strings.Contains(body, `args=["--max-old-space-size=128" "--max-semi-space-size=4" `) {
			t.Fatalf("node was not given the default heap limit: %q", body)
		}
		if !strings.Contains(body, `malloc-arenas="2"`) {
			t.Fatalf("node was not given two malloc arenas: %q", body)
		}
	})
	t.Run("RestartsAfterCrash", func(t *testing.T) {
		pid := childPid(ssr)
		syscall.Kill(pid, syscall.SIGKILL)
		waitFor(t, "the child to be restarted", func() bool {
			return childPid(ssr) != pid && ssr.Health() == nil
		})
		if body := page(); !strings.HasPrefix(body, "page /news") {
			t.Fatalf("after restart: %q", body)
		}
		if !strings.Contains(logs.String(), "restarting") {
			t.Fatal("the crash was not logged")
		}
	})
	t.Run("StopsOnCancel", func(t *testing.T) {
		pid := childPid(ssr)
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("supervisor did not stop")
		}
		if err := syscall.Kill(pid, 0); err == nil {
			t.Fatalf("child %d still runs after shutdown", pid)
		}
	})
}

// childPid is the pid of the first worker's process now.
func childPid(ssr *SSR) int { return workerPid(ssr.list()[0]) }

// workerPid is the pid of the worker's process now.
func workerPid(w *ssrWorker) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cmd.Process.Pid
}

// stop sends SIGSTOP to pid and waits until every thread of it has stopped: the signal
// is delivered asynchronously, and a thread still running could answer one more request.
func stop(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitFor(t, fmt.Sprintf("process %d to stop", pid), func() bool {
		stats, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		for _, f := range stats {
			b, err := os.ReadFile(f)
			if err != nil {
				continue // the thread has ended
			}
			// The state follows the command name in parentheses, which may hold spaces.
			i := bytes.LastIndexByte(b, ')')
			if i < 0 || i+2 >= len(b) || b[i+2] != 'T' {
				return false
			}
		}
		return len(stats) > 0
	})
}

// serve sends one request through the front door without waiting more than within for
// the answer, so a hanging proxy fails the test instead of stopping it.
func serve(t *testing.T, h http.Handler, within time.Duration, target string) *httptest.ResponseRecorder {
	t.Helper()
	answer := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		answer <- w
	}()
	select {
	case w := <-answer:
		return w
	case <-time.After(within):
		t.Fatalf("GET %s: no answer within %s", target, within)
		return nil
	}
}

// TestSSRProxyTimeout: a page request to a child that takes the connection but never
// answers (here: stopped, with the probe too slow to notice) is answered 503 with
// Retry-After once the response-header timeout passes, instead of hanging.
func TestSSRProxyTimeout(t *testing.T) {
	ssr, logs := fakeSSR(t, SSRSettings{ResponseTimeout: 300 * time.Millisecond, ProbeInterval: time.Hour, Workers: 1})
	s := New(Options{WebDir: ssr.WebDir, DB: fakePing{}, SSR: ssr, Log: slog.New(slog.NewTextHandler(logs, nil))})
	if w := serve(t, s, 20*time.Second, "/news"); w.Code != 200 {
		t.Fatalf("before the freeze: %d %s", w.Code, w.Body)
	}
	pid := childPid(ssr)
	defer syscall.Kill(pid, syscall.SIGCONT)
	stop(t, pid)
	w := serve(t, s, 20*time.Second, "/news")
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Fatalf("frozen child: status %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	if !strings.Contains(w.Body.String(), "Lineage is starting") {
		t.Fatalf("body %q", w.Body)
	}
}

// TestSSRFrozenChild: a stopped child is found by the probe, reported by /readyz,
// answered around with 503 + Retry-After, killed and restarted; then pages work again.
func TestSSRFrozenChild(t *testing.T) {
	ssr, logs := fakeSSR(t, SSRSettings{
		ResponseTimeout: time.Minute, // the probe must find the freeze, not this
		ProbeInterval:   50 * time.Millisecond,
		ProbeTimeout:    time.Second,
		ProbeFailures:   2,
		Workers:         1,
	})
	s := New(Options{WebDir: ssr.WebDir, DB: fakePing{}, SSR: ssr, Log: slog.New(slog.NewTextHandler(logs, nil))})
	testFrozenChild(t, s, ssr, 20*time.Second, "/news")
}

// testFrozenChild stops the only worker's process with SIGSTOP and follows the site
// through the probe's verdict, the restart and back to answering the page with 200.
func testFrozenChild(t *testing.T, s *Server, ssr *SSR, within time.Duration, page string) {
	t.Helper()
	// A probe may fail on a busy machine; wait until everything answers.
	answers := func() bool {
		return ssr.Health() == nil && serve(t, s, within, page).Code == 200 && serve(t, s, within, "/readyz").Code == 200
	}
	waitForWithin(t, within, "the child to answer", answers)
	pid := childPid(ssr)
	// Let a test that fails early leave no stopped process behind.
	defer syscall.Kill(pid, syscall.SIGKILL)
	stop(t, pid)

	// A request sent to the stopped child: it ends with the kill, or the response
	// timeout, whichever is first; either way it is answered 503, not left hanging.
	inFlight := make(chan *httptest.ResponseRecorder, 1)
	go func() { inFlight <- serve(t, s, within, page) }()

	var readyz string
	waitForWithin(t, within, "/readyz to report the frozen child", func() bool {
		w := serve(t, s, within, "/readyz")
		readyz = w.Body.String()
		return w.Code == http.StatusServiceUnavailable && strings.Contains(readyz, "ssr: ")
	})
	t.Logf("readyz while frozen or restarting: %q", readyz)
	select {
	case w := <-inFlight:
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
			t.Fatalf("page while frozen: status %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
		}
	case <-time.After(within):
		t.Fatal("a page request to the frozen child was not answered")
	}
	waitForWithin(t, within, "a new child that answers", func() bool { return childPid(ssr) != pid && answers() })
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("the frozen child %d still exists", pid)
	}
}

// TestSSRBusyChildIsNotRestarted: a probe that goes unanswered while the child
// answers other requests is a busy child, not a frozen one; it is asked again at once
// (the interval here is an hour), so that a child frozen meanwhile is found soon.
func TestSSRBusyChildIsNotRestarted(t *testing.T) {
	ssr := &SSR{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Settings: SSRSettings{ProbeInterval: time.Hour, ProbeTimeout: 500 * time.Millisecond, ProbeFailures: 1}}
	worker := &ssrWorker{ssr: ssr, n: 1}
	// A child that never answers a probe, while pages get answers (what the proxy
	// records) as long as busy is set.
	var probes atomic.Int32
	child := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		probes.Add(1)
		<-r.Context().Done()
	}))
	defer child.Close()
	busy := make(chan struct{})
	pagesDone := make(chan struct{})
	go func() {
		defer close(pagesDone)
		for {
			worker.answered()
			select {
			case <-busy:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	worker.port = child.Listener.Addr().(*net.TCPAddr).Port
	worker.setUp()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frozen := make(chan error, 1)
	go worker.probe(ctx, frozen)

	// Probes go one at a time, and one counted failure would end them: a third probe
	// means the first two were judged busy.
	waitFor(t, "three probes", func() bool {
		select {
		case err := <-frozen:
			t.Fatalf("a busy child was reported frozen: %v", err)
		default:
		}
		return probes.Load() >= 3
	})
	close(busy)
	<-pagesDone
	select {
	case err := <-frozen:
		if !strings.Contains(err.Error(), "did not answer 1 probes") {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("an idle child that does not answer was not reported")
	}
}

func TestSSRSettingsFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	got, err := SSRSettingsFromEnv(env())
	if err != nil || got != DefaultSSRSettings {
		t.Fatalf("defaults: %+v, %v", got, err)
	}
	if d := (&SSR{}).settings(); d.Workers != runtime.GOMAXPROCS(0) || d.MaxOldSpaceMB != 128 || d.MaxSemiSpaceMB != 4 {
		t.Fatalf("default workers %d (want one per core, %d), heap %d+%d MiB", d.Workers, runtime.GOMAXPROCS(0), d.MaxOldSpaceMB, d.MaxSemiSpaceMB)
	}
	got, err = SSRSettingsFromEnv(env("LINEAGE_SSR_RESPONSE_TIMEOUT", "30s", "LINEAGE_SSR_PROBE_FAILURES", "5", "LINEAGE_SSR_PROBE_INTERVAL", "500ms", "LINEAGE_SSR_PROBE_TIMEOUT", "1s", "LINEAGE_SSR_WORKERS", "3", "LINEAGE_SSR_MAX_OLD_SPACE_MB", "96", "LINEAGE_SSR_MAX_SEMI_SPACE_MB", "2"))
	if err != nil || got != (SSRSettings{ResponseTimeout: 30 * time.Second, ProbeInterval: 500 * time.Millisecond, ProbeTimeout: time.Second, ProbeFailures: 5, Workers: 3, MaxOldSpaceMB: 96, MaxSemiSpaceMB: 2}) {
		t.Fatalf("set: %+v, %v", got, err)
	}
	for _, tt := range []struct{ key, value string }{
		{"LINEAGE_SSR_RESPONSE_TIMEOUT", "10"},
		{"LINEAGE_SSR_RESPONSE_TIMEOUT", "-1s"},
		{"LINEAGE_SSR_PROBE_INTERVAL", "0s"},
		{"LINEAGE_SSR_PROBE_TIMEOUT", "soon"},
		{"LINEAGE_SSR_PROBE_FAILURES", "0"},
		{"LINEAGE_SSR_PROBE_FAILURES", "two"},
		{"LINEAGE_SSR_WORKERS", "0"},
		{"LINEAGE_SSR_WORKERS", "all"},
		{"LINEAGE_SSR_MAX_OLD_SPACE_MB", "8"},
		{"LINEAGE_SSR_MAX_OLD_SPACE_MB", "1g"},
		{"LINEAGE_SSR_MAX_SEMI_SPACE_MB", "0"},
	} {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			_, err := SSRSettingsFromEnv(env(tt.key, tt.value))
			if err == nil || !strings.Contains(err.Error(), tt.key) {
				t.Fatalf("err = %v, want one naming %s", err, tt.key)
			}
		})
	}
}

// TestSSRRealChild runs the built web app's own React Router server under the
// supervisor: its probe route answers, a frozen child (SIGSTOP) is reported by /readyz,
// answered around with 503 + Retry-After and restarted, and so is a killed one. It
// needs the built web app (`make build`; LINEAGE_WEB_DIR names another web directory)
// and fails, saying so, without it: a supervision test that quietly does not run proves
// nothing.
func TestSSRRealChild(t *testing.T) {
	// The defaults but a shorter pause between probes (the test waits less) and one
	// worker, whose freeze makes the site unready.
	ssr, web, logs := realSSR(t, SSRSettings{ProbeInterval: 500 * time.Millisecond, Workers: 1})
	s := New(Options{WebDir: web, DB: fakePing{}, SSR: ssr, Log: slog.New(slog.NewTextHandler(logs, nil))})
	// Node starts slowly on a busy machine; these deadlines only stop a hung test.
	const within = 90 * time.Second

	t.Run("ProbeRoute", func(t *testing.T) {
		resp, err := http.Get("http://" + ssr.list()[0].addr() + SSRProbePath)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != "ok\n" {
			t.Fatalf("%s: %d %q (is web/build older than web/app/routes/ssr-health.ts?)", SSRProbePath, resp.StatusCode, body)
		}
	})
	t.Run("Frozen", func(t *testing.T) {
		testFrozenChild(t, s, ssr, within, "/robots.txt")
		if !strings.Contains(logs.String(), "child does not answer; killing it") {
			t.Errorf("the kill was not logged:\n%s", logs)
		}
	})
	t.Run("Killed", func(t *testing.T) {
		pid := childPid(ssr)
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		waitForWithin(t, within, "a new child", func() bool { return childPid(ssr) != pid && ssr.Health() == nil })
		if w := serve(t, s, within, "/robots.txt"); w.Code != 200 || !strings.Contains(w.Body.String(), "Sitemap: http://lineage.test/sitemap.xml") {
			t.Fatalf("after the restart: %d %s", w.Code, w.Body)
		}
	})
}

// pidOf reads the pid the fake child puts in its page.
func pidOf(t *testing.T, body string) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, " pid=")
	pid, _, _ := strings.Cut(rest, " ")
	if !ok || pid == "" {
		t.Fatalf("no pid in %q", body)
	}
	return pid
}

// gone waits until every thread of the process has ended (a zombie, or reaped): the
// last one to end closes its sockets. The leader alone turns zombie first.
func gone(t *testing.T, pid int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("process %d to end", pid), func() bool {
		stats, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		for _, f := range stats {
			b, err := os.ReadFile(f)
			if err != nil {
				continue // reaped
			}
			i := bytes.LastIndexByte(b, ')')
			if i < 0 || i+2 >= len(b) || b[i+2] != 'Z' {
				return false
			}
		}
		return true
	})
}

// TestSSRWorkers: several workers start and share the pages; one that is killed or
// frozen leaves the pages to the others, /readyz stays 200 throughout, and it is
// restarted and takes pages again.
func TestSSRWorkers(t *testing.T) {
	ssr, logs := fakeSSR(t, SSRSettings{
		Workers:         3,
		ResponseTimeout: time.Minute, // the probe must find the freeze, not this
		ProbeInterval:   50 * time.Millisecond,
		ProbeTimeout:    time.Second,
		ProbeFailures:   2,
	})
	s := New(Options{WebDir: ssr.WebDir, DB: fakePing{}, SSR: ssr, Log: slog.New(slog.NewTextHandler(logs, nil))})
	workers := ssr.list()
	pids := map[string]*ssrWorker{}
	for _, w := range workers {
		if err := w.health(); err != nil {
			t.Fatalf("worker %d not ready after Run returned: %v", w.n, err)
		}
		pids[strconv.Itoa(workerPid(w))] = w
	}
	if len(workers) != 3 || len(pids) != 3 {
		t.Fatalf("%d workers with %d processes, want 3", len(workers), len(pids))
	}
	// page answers 200 from a worker, and says which.
	page := func() *ssrWorker {
		t.Helper()
		w := serve(t, s, 20*time.Second, "/news")
		if w.Code != 200 {
			t.Fatalf("page: %d %s", w.Code, w.Body)
		}
		return pids[pidOf(t, w.Body.String())]
	}
	ready := func() {
		t.Helper()
		if w := serve(t, s, 20*time.Second, "/readyz"); w.Code != 200 {
			t.Fatalf("readyz %d %s", w.Code, w.Body)
		}
	}
	// served collects who answered n pages; each asks for all of them to be answered.
	served := func(n int) map[*ssrWorker]int {
		t.Helper()
		by := map[*ssrWorker]int{}
		for range n {
			by[page()]++
		}
		return by
	}

	t.Run("Shared", func(t *testing.T) {
		by := served(30)
		for _, w := range workers {
			if by[w] == 0 {
				t.Errorf("worker %d answered none of 30 pages: %v", w.n, by)
			}
		}
	})
	t.Run("Killed", func(t *testing.T) {
		w := workers[0]
		pid := workerPid(w)
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// Pages sent once it is dead, marked down yet or not, are answered by others.
		gone(t, pid)
		served(20)
		ready()
		waitFor(t, "the killed worker to be restarted", func() bool { return workerPid(w) != pid && w.health() == nil })
		pids[strconv.Itoa(workerPid(w))] = w
		waitFor(t, "the new process to take pages", func() bool { return page() == w })
		if !strings.Contains(logs.String(), "restarting") {
			t.Error("the crash was not logged")
		}
	})
	t.Run("Frozen", func(t *testing.T) {
		w := workers[1]
		pid := workerPid(w)
		defer syscall.Kill(pid, syscall.SIGKILL)
		stop(t, pid)
		waitFor(t, "the probe to find the frozen worker", func() bool { return w.health() != nil })
		ready()
		for worker, n := range served(20) {
			if worker == w {
				t.Fatalf("the frozen worker was sent %d pages", n)
			}
		}
		waitFor(t, "the frozen worker to be replaced", func() bool { return workerPid(w) != pid && w.health() == nil })
		pids[strconv.Itoa(workerPid(w))] = w
		ready()
		waitFor(t, "the new process to take pages", func() bool { return page() == w })
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("the frozen process %d still exists", pid)
		}
	})
	t.Run("NoneAnswers", func(t *testing.T) {
		var stopped []int
		for _, w := range workers {
			pid := workerPid(w)
			defer syscall.Kill(pid, syscall.SIGKILL)
			stop(t, pid)
			stopped = append(stopped, pid)
		}
		waitFor(t, "every worker to be found frozen", func() bool { return ssr.Health() != nil })
		w := serve(t, s, 20*time.Second, "/readyz")
		if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "ssr: none of 3 workers answers: worker 1: ") {
			t.Fatalf("readyz with every worker frozen: %d %q", w.Code, w.Body)
		}
		if w := serve(t, s, 20*time.Second, "/news"); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
			t.Fatalf("page with every worker frozen: %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
		}
		waitFor(t, "the workers to be replaced", func() bool {
			for i, w := range workers {
				if workerPid(w) == stopped[i] || w.health() != nil {
					return false
				}
			}
			return true
		})
		ready()
	})
}

// realSSR runs the built web app's workers (web/, or LINEAGE_WEB_DIR) with settings,
// the APIs they would call pointing at nothing, until the test ends; their log lines
// go to logs. A test of real workers is skipped with -short.
func realSSR(t *testing.T, settings SSRSettings) (ssr *SSR, web string, logs *syncBuffer) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs node")
	}
	web = os.Getenv("LINEAGE_WEB_DIR")
	if web == "" {
		web = filepath.Join("..", "..", "web")
	}
	web, _ = filepath.Abs(web)
	logs = &syncBuffer{}
	ssr = &SSR{
		WebDir:   web,
		Env:      []string{"LINEAGE_CONTENT_API=http://127.0.0.1:1/content/api/v2", "LINEAGE_API_URL=http://127.0.0.1:1", "LINEAGE_PUBLIC_URL=http://lineage.test"},
		Log:      slog.New(slog.NewTextHandler(logs, nil)),
		Settings: settings,
	}
	if err := ssr.Check(); err != nil {
		t.Fatal(err)
	}
	runSSR(t, ssr, logs)
	return ssr, web, logs
}

// fakeSSR runs workers of fakeWebApp with settings until the test ends; their log
// lines go to logs.
func fakeSSR(t *testing.T, settings SSRSettings) (*SSR, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	ssr := &SSR{WebDir: fakeWebApp(t), Log: slog.New(slog.NewTextHandler(logs, nil)), Settings: settings}
	runSSR(t, ssr, logs)
	return ssr, logs
}

// runSSR runs ssr until the test ends.
func runSSR(t *testing.T, ssr *SSR, logs *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done, err := ssr.Run(ctx)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs)
	}
	t.Cleanup(func() { cancel(); <-done })
}

// TestSSRRealWorkers runs two workers of the built web app's React Router server:
// both answer, each with the heap limit on its command line; one killed leaves the
// pages to the other and is restarted. Like TestSSRRealChild it needs the built app.
func TestSSRRealWorkers(t *testing.T) {
	ssr, web, logs := realSSR(t, SSRSettings{Workers: 2, MaxOldSpaceMB: 96, MaxSemiSpaceMB: 2})
	s := New(Options{WebDir: web, DB: fakePing{}, SSR: ssr, Log: slog.New(slog.NewTextHandler(logs, nil))})
	const within = 90 * time.Second
	robots := func() {
		t.Helper()
		if w := serve(t, s, within, "/robots.txt"); w.Code != 200 || !strings.Contains(w.Body.String(), "Sitemap: http://lineage.test/sitemap.xml") {
			t.Fatalf("robots.txt: %d %s\n%s", w.Code, w.Body, logs)
		}
	}
	workers := ssr.list()
	for _, w := range workers {
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", workerPid(w)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(cmdline, []byte("\x00--max-old-space-size=96\x00--max-semi-space-size=2\x00")) {
			t.Errorf("worker %d runs without the heap limit: %q", w.n, cmdline)
		}
		resp, err := http.Get("http://" + w.addr() + SSRProbePath)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("worker %d: %s answered %d", w.n, SSRProbePath, resp.StatusCode)
		}
	}
	robots()
	pid := workerPid(workers[0])
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	gone(t, pid)
	for range 10 {
		robots()
	}
	waitForWithin(t, within, "the killed worker to be restarted", func() bool {
		return workerPid(workers[0]) != pid && workers[0].health() == nil
	})
	robots()
}
