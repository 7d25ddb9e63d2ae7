package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

func TestGate(t *testing.T) {
	ready := NewReadiness("starting: migrating the database")
	g := NewGate(ready)
	if w := get(t, g, "/healthz"); w.Code != 200 {
		t.Fatalf("healthz while starting: %d", w.Code)
	}
	w := get(t, g, "/readyz")
	if w.Code != 503 || w.Body.String() != "starting: migrating the database\n" || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("readyz while starting: %d %q %q", w.Code, w.Body, w.Header())
	}
	ready.Set("starting: preparing the rooms")
	if w := get(t, g, "/readyz"); !strings.Contains(w.Body.String(), "preparing the rooms") {
		t.Fatalf("readyz did not follow the reason: %q", w.Body)
	}
	w = get(t, g, "/news")
	if w.Code != 503 || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "starting") {
		t.Fatalf("page while starting: %d %q %q", w.Code, w.Header(), w.Body)
	}
	g.Open(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("opened " + r.URL.Path)) }))
	for _, p := range []string{"/news", "/readyz", "/healthz"} {
		if w := get(t, g, p); w.Code != 200 || w.Body.String() != "opened "+p {
			t.Fatalf("%s after Open: %d %q", p, w.Code, w.Body)
		}
	}
}

func TestReadyzReasons(t *testing.T) {
	ready := NewReadiness("")
	var storage, queue error
	s := New(Options{
		DB:        fakePing{},
		Log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		Readiness: ready,
		Checks: []Check{{Name: "images", Err: func() error { return storage }, Warn: true},
			{Name: "queue", Err: func() error { return queue }}},
	})
	body := func() string {
		t.Helper()
		w := get(t, s, "/readyz")
		if w.Code != 503 { // no SSR child in this test: never ready
			t.Fatalf("readyz %d", w.Code)
		}
		return w.Body.String()
	}
	if b := body(); strings.Contains(b, "draining") || strings.Contains(b, "images") || strings.Contains(b, "queue") {
		t.Fatalf("readyz names problems it does not have: %q", b)
	}
	ready.Set("draining: shutting down")
	storage = errors.New("tiles of scan x are not in this instance's storage")
	queue = errors.New("stuck")
	b := body()
	if !strings.HasPrefix(b, "draining: shutting down\n") || !strings.Contains(b, "images: tiles of scan x are not in this instance's storage\n") ||
		!strings.Contains(b, "queue: stuck\n") {
		t.Fatalf("readyz body %q", b)
	}
}

// TestReadyzWarnings: a Warn check is listed under "ready" with a 200; another makes
// the instance not ready.
func TestReadyzWarnings(t *testing.T) {
	var storage, queue error
	s := New(Options{
		DB:  fakePing{},
		SSR: readySSR(t),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Checks: []Check{{Name: "images", Err: func() error { return storage }, Warn: true},
			{Name: "queue", Err: func() error { return queue }}},
	})
	if w := get(t, s, "/readyz"); w.Code != 200 || w.Body.String() != "ready\n" {
		t.Fatalf("readyz %d %q", w.Code, w.Body)
	}
	storage = errors.New("scan x missing")
	if w := get(t, s, "/readyz"); w.Code != 200 || w.Body.String() != "ready\nimages: scan x missing\n" {
		t.Fatalf("readyz with a warning: %d %q", w.Code, w.Body)
	}
	queue = errors.New("stuck")
	if w := get(t, s, "/readyz"); w.Code != 503 || w.Body.String() != "queue: stuck\nimages: scan x missing\n" {
		t.Fatalf("readyz with a problem: %d %q", w.Code, w.Body)
	}
}

// readySSR runs the fake web app's child until the test ends.
func readySSR(t *testing.T) *SSR {
	t.Helper()
	ssr := &SSR{
		WebDir:   fakeWebApp(t),
		Env:      []string{"LINEAGE_CONTENT_API=http://127.0.0.1:1/content/api/v2"},
		Log:      slog.New(slog.NewTextHandler(io.Discard, nil)),
		Settings: SSRSettings{Workers: 1},
	}
	ctx, cancel := context.WithCancel(context.Background())
	done, err := ssr.Run(ctx)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-done })
	return ssr
}
