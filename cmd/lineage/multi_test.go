package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// A test that needs a real `lineage` process (to kill it, or to run several) runs this
// test binary again as that process: childCommand starts it on one child test, which
// reads its command's arguments with childArgs.
const childArgsEnv = "LINEAGE_TEST_CHILD_ARGS"

// childCommand is this test binary run again for the child test named alone, with the
// environment and env, and args for the child's command.
func childCommand(test string, args []string, env ...string) *exec.Cmd {
	raw, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), env...), childArgsEnv+"="+string(raw))
	return cmd
}

// childArgs answers a child test's command arguments (childCommand); a child test that
// was not started by its parent test is skipped.
func childArgs(t *testing.T, parent string) []string {
	raw := os.Getenv(childArgsEnv)
	if raw == "" {
		t.Skip("run by " + parent)
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	return args
}

// TestServeChildProcess is one `lineage serve` of TestServeThreeAtOnce.
func TestServeChildProcess(t *testing.T) {
	args := childArgs(t, "TestServeThreeAtOnce")
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runServe(ctx, args); err != nil {
		slog.Error("serve", "err", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// serveChild is a running `lineage serve` and what it has logged.
type serveChild struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	lines  []string
	more   chan struct{} // closed and replaced at each line
	exited chan error
	base   string // http://host:port once it listens
}

func startServeChild(t *testing.T, env []string, args ...string) *serveChild {
	t.Helper()
	c := &serveChild{cmd: childCommand("TestServeChildProcess", args, env...), more: make(chan struct{}), exited: make(chan error, 1)}
	stderr, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.cmd.Stdout = io.Discard
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			c.mu.Lock()
			c.lines = append(c.lines, sc.Text())
			close(c.more)
			c.more = make(chan struct{})
			c.mu.Unlock()
		}
		c.exited <- c.cmd.Wait()
	}()
	t.Cleanup(func() {
		c.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("log of %s:\n%s", c.base, strings.Join(c.logged(), "\n"))
		}
	})
	return c
}

func (c *serveChild) logged() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lines...)
}

// count is how many lines logged so far contain every one of parts.
func (c *serveChild) count(parts ...string) int {
	n := 0
	for _, l := range c.logged() {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			n++
		}
	}
	return n
}

// waitLine waits until a logged line matches re and returns its submatches.
func (c *serveChild) waitLine(t *testing.T, re *regexp.Regexp, within time.Duration) []string {
	t.Helper()
	deadline := time.After(within)
	for seen := 0; ; {
		c.mu.Lock()
		lines, more := c.lines[seen:], c.more
		seen = len(c.lines)
		c.mu.Unlock()
		for _, l := range lines {
			if m := re.FindStringSubmatch(l); m != nil {
				return m
			}
		}
		select {
		case <-more:
		case <-deadline:
			t.Fatalf("no line matching %s within %s", re, within)
		}
	}
}

// readyz asks the child's /readyz.
func (c *serveChild) readyz() (int, string) {
	resp, err := http.Get(c.base + "/readyz")
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var listeningLine = regexp.MustCompile(`msg=listening addr=(\S+)`)

// TestServeThreeAtOnce starts three `lineage serve --demo` at the same moment on one
// empty PostgreSQL database: all three migrate it in turn, become ready, and the demo
// set is loaded once; each scheduler runs on one of them; when that one is stopped its
// /readyz says it is draining and another instance takes the scheduler over, and when
// that one is killed its lease runs out and the last instance takes it.
func TestServeThreeAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers")
	}
	url, err := storetest.NewPostgresDatabase()
	if err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"LINEAGE_DATABASE_URL=" + url, "LINEAGE_DRAIN=3s"}
	var children []*serveChild
	for range 3 {
		children = append(children, startServeChild(t, env, "--addr", "127.0.0.1:0", "--data", t.TempDir(),
			"--web", filepath.Join(repo, "web"), "--demo", "--demo-dir", filepath.Join(repo, "demo")))
	}
	for _, c := range children {
		c.base = "http://" + c.waitLine(t, listeningLine, time.Minute)[1]
	}

	// Each answers /readyz from the moment it listens: 503 with the step it is on, then
	// 200. (The time limit only stops a hung test.)
	var sawStarting bool
	for i, c := range children {
		deadline := time.Now().Add(4 * time.Minute)
		for {
			code, body := c.readyz()
			if code == 200 {
				break
			}
			if code == 503 && strings.HasPrefix(body, "starting: ") {
				sawStarting = true
			}
			select {
			case err := <-c.exited:
				t.Fatalf("instance %d exited before it was ready: %v", i, err)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("instance %d not ready: %d %q", i, code, body)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if !sawStarting {
		t.Error(`no /readyz answered 503 "starting: …" before the instance was ready`)
	}

	// The demo set went in once.
	db, err := store.Open(context.Background(), store.Options{DatabaseURL: url, SkipMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	files, _ := filepath.Glob(filepath.Join(repo, "demo", "content", "*.json"))
	for _, q := range []struct {
		sql  string
		want int
	}{
		{`SELECT count(*) FROM content_documents`, len(files)},
		{`SELECT count(*) FROM records`, demoResearchRecords},
		{`SELECT count(*) FROM trees`, 1},
	} {
		var n int
		if err := db.QueryRow(q.sql).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != q.want {
			t.Errorf("%s: %d, want %d", q.sql, n, q.want)
		}
	}
	for _, msg := range []string{"demo content loaded", "demo research records loaded", "demo family tree loaded", "demo membership plans loaded"} {
		n := 0
		for _, c := range children {
			n += c.count("msg=\"" + msg + "\"")
		}
		if n != 1 {
			t.Errorf("%q logged by %d instances, want 1", msg, n)
		}
	}

	// Each scheduler runs on exactly one instance.
	holderOf := func(job string) []int {
		var who []int
		for i, c := range children {
			if c.count("jobs: this instance runs the job", "job="+job+" ") > 0 {
				who = append(who, i)
			}
		}
		return who
	}
	for _, job := range []string{"auth-sweeper", "membership-renewals", "events", "newsletter"} {
		if who := holderOf(job); len(who) != 1 {
			t.Errorf("%s run by instances %v, want one", job, who)
		}
	}
	if t.Failed() {
		return
	}

	// Stop the newsletter's instance: it drains, exits cleanly, and another takes over.
	first := holderOf("newsletter")[0]
	stopped := children[first]
	if err := stopped.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for {
		code, body := stopped.readyz()
		if code == 503 && strings.HasPrefix(body, "draining: ") {
			break
		}
		if code != 200 {
			t.Fatalf("while draining /readyz answered %d %q", code, body)
		}
	}
	if resp, err := http.Get(stopped.base + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("a draining instance stopped answering: %v", err)
	} else {
		resp.Body.Close()
	}
	if err := <-stopped.exited; err != nil {
		t.Fatalf("the stopped instance exited with %v", err)
	}
	waitHolders := func(n int) []int {
		t.Helper()
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
			if who := holderOf("newsletter"); len(who) == n {
				return who
			}
			if time.Now().After(deadline) {
				t.Fatalf("the newsletter job was not taken over (run by %v)", holderOf("newsletter"))
			}
		}
	}
	who := waitHolders(2)

	// Kill the new holder: its lease runs out and the last instance takes the job over.
	second := who[0]
	if second == first {
		second = who[1]
	}
	killed := time.Now()
	children[second].cmd.Process.Kill()
	<-children[second].exited
	waitHolders(3)
	t.Logf("the newsletter job moved %s after its holder was killed", time.Since(killed).Round(time.Second))
	l, err := db.LeaseHeld(context.Background(), "newsletter", time.Now())
	if err != nil || l == nil || strings.Contains(l.Holder, "/"+strconv.Itoa(children[second].cmd.Process.Pid)+"/") {
		t.Fatalf("newsletter lease after the kill: %+v, %v", l, err)
	}
	for i, c := range children {
		if i != first && i != second {
			c.cmd.Process.Signal(syscall.SIGTERM)
			if err := <-c.exited; err != nil {
				t.Errorf("the last instance exited with %v", err)
			}
		}
	}
}

// TestServeWaitsForTheStartUpLock: an instance whose start-up waits for another's lock
// says so on /readyz, and stops cleanly when told to while it waits.
func TestServeWaitsForTheStartUpLock(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	url, err := storetest.NewPostgresDatabase()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, store.Options{DatabaseURL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	held, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- db.Exclusive(ctx, "start-up", func(ctx context.Context) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	defer func() { close(release); <-done }()

	repo, _ := filepath.Abs("../..")
	c := startServeChild(t, []string{"LINEAGE_DATABASE_URL=" + url, "LINEAGE_DRAIN=0"}, "--addr", "127.0.0.1:0",
		"--data", t.TempDir(), "--web", filepath.Join(repo, "web"))
	c.base = "http://" + c.waitLine(t, listeningLine, time.Minute)[1]
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		code, body := c.readyz()
		if code == 503 && body == "starting: preparing the rooms\n" {
			break
		}
		if code == 200 || time.Now().After(deadline) {
			t.Fatalf("readyz %d %q, want it waiting for the lock", code, body)
		}
	}
	if res, err := http.Get(c.base + "/news"); err != nil || res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a page while starting: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-c.exited; err != nil {
		t.Fatalf("stopped while waiting: %v", err)
	}
	if c.count("stopped while starting") != 1 {
		t.Fatal("no log line says it stopped while starting")
	}
}
