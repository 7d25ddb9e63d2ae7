// Package stripetest starts Stripe's own API mock, github.com/stripe/stripe-mock, as a
// real peer for tests of every call Lineage makes to Stripe.
//
// stripe-mock is a tool dependency of the module (the `tool` line in go.mod), so its
// exact version and checksums are pinned by go.mod and go.sum, and `go build` finds it
// in the module cache of a fresh clone with nothing but the Go module proxy. The binary
// is built once per version into the user's cache directory and reused; each test (or
// package, from TestMain) starts its own process on a free port and stops it at the end.
//
// stripe-mock is stateless: it validates each request against Stripe's OpenAPI
// description and answers a fixture. A test learns from it that a request is one
// Stripe accepts, not what Stripe would store.
//
// Only tests import this package.
package stripetest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Key is a secret key stripe-mock accepts: it checks only the key's shape
// (sk_test_<something without an underscore>).
const Key = "sk_test_lineage"

const module = "github.com/stripe/stripe-mock"

// Server is a running stripe-mock.
type Server struct {
	URL string // http://127.0.0.1:PORT, the base URL for LINEAGE_STRIPE_API

	cmd  *exec.Cmd
	done chan struct{}
}

// Start runs a stripe-mock for the test and stops it when the test ends. It fails the
// test when the mock cannot be built or started.
func Start(tb testing.TB) *Server {
	tb.Helper()
	s, err := StartProcess()
	if err != nil {
		tb.Fatalf("stripetest: %v", err)
	}
	tb.Cleanup(s.Stop)
	return s
}

// StartProcess runs a stripe-mock that the caller stops with Stop (for TestMain).
func StartProcess() (*Server, error) {
	bin, err := binary()
	if err != nil {
		return nil, err
	}
	// Both listeners on loopback with ports the system chooses: stripe-mock otherwise
	// also opens HTTPS on 12112, which two test processes at once would fight over.
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &Server{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	var log strings.Builder
	var logMu sync.Mutex
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			logMu.Lock()
			if log.Len() < 4096 {
				log.WriteString(line + "\n")
			}
			logMu.Unlock()
			if m := listenLine.FindStringSubmatch(line); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, out)
		cmd.Wait()
	}()
	select {
	case a := <-addr:
		s.URL = "http://" + a
	case <-s.done:
		logMu.Lock()
		defer logMu.Unlock()
		return nil, fmt.Errorf("stripe-mock exited before listening:\n%s", log.String())
	case <-time.After(60 * time.Second):
		s.Stop()
		return nil, errors.New("stripe-mock did not say where it listens within 60 s")
	}
	if err := s.waitReady(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

var listenLine = regexp.MustCompile(`Listening for HTTP at address: (\S+)`)

// waitReady asks until the mock answers an authenticated request.
func (s *Server) waitReady() error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		req, _ := http.NewRequest("GET", s.URL+"/v1/products/prod_ready", nil)
		req.Header.Set("Authorization", "Bearer "+Key)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			return fmt.Errorf("stripe-mock answered %s to a product lookup", resp.Status)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("stripe-mock at %s did not answer: %v", s.URL, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop ends the process and waits for it.
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
	}
	<-s.done
}

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
)

// binary builds stripe-mock at the module's pinned version, once per version per
// machine, and returns its path.
func binary() (string, error) {
	buildOnce.Do(func() { buildPath, buildErr = build() })
	return buildPath, buildErr
}

func build() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	goBin := "go" // tests run under `go test`, so the go command is on PATH
	v, err := exec.CommandContext(ctx, goBin, "list", "-m", "-f", "{{.Version}}", module).Output()
	if err != nil {
		return "", fmt.Errorf("find the pinned %s version (is it still a tool in go.mod?): %v", module, stderrOf(err))
	}
	version := strings.TrimSpace(string(v))
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "lineage-stripetest")
	path := filepath.Join(dir, "stripe-mock-"+version)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Build to a private name and rename, so two test processes building at once never
	// run a half-written binary.
	tmp, err := os.CreateTemp(dir, "stripe-mock-build-*")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := exec.CommandContext(ctx, goBin, "build", "-o", tmp.Name(), module)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s@%s: %v\n%s", module, version, err, out)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", err
	}
	return path, nil
}

func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return strings.TrimSpace(string(ee.Stderr))
	}
	return err.Error()
}
