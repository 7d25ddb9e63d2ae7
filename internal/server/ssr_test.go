package server

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// fakeSSRChild serves PORT on HOST like react-router-serve, and logs a line to stdout.
func fakeSSRChild() {
	addr := os.Getenv("HOST") + ":" + os.Getenv("PORT")
	fmt.Printf("fake ssr listening on %s with content API %s\n", addr, os.Getenv("LINEAGE_CONTENT_API"))
	http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "page %s nonce=%s pid=%d", r.URL.Path, r.Header.Get(nonceHeader), os.Getpid())
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
	for _, f := range []string{"build/server/index.js", "node_modules/@react-router/serve/bin.cjs"} {
		p := filepath.Join(web, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("// fake"), 0o644)
	}
	node := filepath.Join(web, "node_modules", "node", "bin", "node")
	os.MkdirAll(filepath.Dir(node), 0o755)
	script := fmt.Sprintf("#!/bin/sh\nLINEAGE_FAKE_SSR=1 exec %q -test.run=^$\n", self)
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
	deadline := time.Now().Add(20 * time.Second)
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
		WebDir: fakeWebApp(t),
		Env:    []string{"LINEAGE_CONTENT_API=http://127.0.0.1:1/content/api/v2"},
		Log:    slog.New(slog.NewTextHandler(logs, nil)),
	}
	ctx, cancel := context.WithCancel(context.Background())
	done, err := ssr.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !ssr.Ready() {
		t.Fatal("not ready after Run returned")
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
	t.Run("RestartsAfterCrash", func(t *testing.T) {
		ssr.mu.Lock()
		pid := ssr.cmd.Process.Pid
		ssr.mu.Unlock()
		syscall.Kill(pid, syscall.SIGKILL)
		waitFor(t, "the child to be restarted", func() bool {
			ssr.mu.Lock()
			defer ssr.mu.Unlock()
			return ssr.cmd.Process.Pid != pid && ssr.up
		})
		if body := page(); !strings.HasPrefix(body, "page /news") {
			t.Fatalf("after restart: %q", body)
		}
		if !strings.Contains(logs.String(), "restarting") {
			t.Fatal("the crash was not logged")
		}
	})
	t.Run("StopsOnCancel", func(t *testing.T) {
		ssr.mu.Lock()
		pid := ssr.cmd.Process.Pid
		ssr.mu.Unlock()
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
