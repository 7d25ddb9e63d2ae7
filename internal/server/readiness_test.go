package server

import (
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
	var storage error
	s := New(Options{
		DB:        fakePing{},
		Log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		Readiness: ready,
		Checks:    []Check{{Name: "images", Err: func() error { return storage }}},
	})
	body := func() string {
		t.Helper()
		w := get(t, s, "/readyz")
		if w.Code != 503 { // no SSR child in this test: never ready
			t.Fatalf("readyz %d", w.Code)
		}
		return w.Body.String()
	}
	if b := body(); strings.Contains(b, "draining") || strings.Contains(b, "images") {
		t.Fatalf("readyz names problems it does not have: %q", b)
	}
	ready.Set("draining: shutting down")
	storage = errors.New("tiles of scan x are not in this instance's storage")
	b := body()
	if !strings.HasPrefix(b, "draining: shutting down\n") || !strings.Contains(b, "images: tiles of scan x are not in this instance's storage\n") {
		t.Fatalf("readyz body %q", b)
	}
}
