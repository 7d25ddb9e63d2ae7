package server

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSSRWorkerServer: the workers run the web app's own small server
// (web/server.mjs, built to build/server/serve.mjs), not react-router-serve: a page
// asked for with gzip comes back uncompressed (Go compresses once, decision 016) and
// the worker writes no log line of its own per request (Go logs each one).
func TestSSRWorkerServer(t *testing.T) {
	worker, logs := oneRealWorker(t)
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", workerPid(worker)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cmdline), "build/server/serve.mjs\x00") {
		t.Errorf("worker command line %q", cmdline)
	}
	const path = "/a-page-nobody-has-made-9431"
	req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d%s", worker.port, path), nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if ce := res.Header.Get("Content-Encoding"); ce != "" || !strings.Contains(string(body), "<html") {
		t.Errorf("the worker's page: Content-Encoding %q, %d bytes: %.200s", ce, len(body), body)
	}
	if strings.Contains(logs.String(), path) {
		t.Errorf("the worker logged the request itself:\n%s", logs)
	}
}

// oneRealWorker starts the web app's build in one real worker behind a front door,
// and returns the worker once it has answered a page.
func oneRealWorker(t *testing.T) (*ssrWorker, *syncBuffer) {
	t.Helper()
	ssr, web, logs := realSSR(t, SSRSettings{Workers: 1, MaxOldSpaceMB: 96, MaxSemiSpaceMB: 4})
	s := New(Options{WebDir: web, DB: fakePing{}, SSR: ssr, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if w := serve(t, s, 90*time.Second, "/robots.txt"); w.Code != 200 {
		t.Fatalf("robots.txt: %d %s\n%s", w.Code, w.Body, logs)
	}
	return ssr.list()[0], logs
}
