package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// SSR supervises the React Router server: it starts it with the Node 24 that the web
// app pins (web/node_modules/node), restarts it with backoff when it dies, prefixes its
// log lines, and stops it on shutdown.
type SSR struct {
	WebDir string
	Env    []string // extra environment for the child (LINEAGE_* URLs)
	Log    *slog.Logger

	port int
	mu   sync.Mutex
	cmd  *exec.Cmd
	up   bool
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

// Ready reports whether the child accepts connections.
func (s *SSR) Ready() bool {
	s.mu.Lock()
	up := s.up
	s.mu.Unlock()
	if !up {
		return false
	}
	c, err := net.DialTimeout("tcp", s.Addr(), 500*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

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
				s.setUp(true)
				s.Log.Info("ssr: ready", "addr", s.Addr(), "pid", cmd.Process.Pid)
				signal(first, nil)
				break wait
			}
		}
	}
	select {
	case err := <-exited:
		s.setUp(false)
		return err
	case <-ctx.Done():
		s.setUp(false)
		s.stop(cmd, exited)
		return ctx.Err()
	}
}

// stop asks the child's process group to end and kills it after five seconds.
func (s *SSR) stop(cmd *exec.Cmd, exited <-chan error) {
	pgid := -cmd.Process.Pid
	syscall.Kill(pgid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		syscall.Kill(pgid, syscall.SIGKILL)
		<-exited
	}
}

func (s *SSR) setUp(up bool) {
	s.mu.Lock()
	s.up = up
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
