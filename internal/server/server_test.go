package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type fakePing struct{ err error }

func (f fakePing) Ping(context.Context) error { return f.err }

func newTestServer(t *testing.T, db Pinger) (*Server, string) {
	t.Helper()
	web := t.TempDir()
	assets := filepath.Join(web, "build", "client", "assets")
	uv := filepath.Join(web, "node_modules", "universalviewer", "dist", "umd")
	for _, d := range []string{assets, uv} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(assets, "app-abc123.js"), []byte(strings.Repeat("console.log(1);\n", 200)), 0o644)
	os.WriteFile(filepath.Join(uv, "UV.js"), []byte("/* uv */"), 0o644)
	os.WriteFile(filepath.Join(web, "build", "secret.txt"), []byte("secret"), 0o644)
	s := New(Options{
		WebDir:    web,
		PublicURL: "https://lineage.example.org",
		DB:        db,
		Log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		Mounts: []Mount{{Pattern: "GET /api/echo", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("echo"))
		})}},
	})
	return s, web
}

func get(t *testing.T, h http.Handler, target string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	return do(h, "GET", target, hdr...)
}

func TestHealthAndReady(t *testing.T) {
	s, _ := newTestServer(t, fakePing{})
	if w := get(t, s, "/healthz"); w.Code != 200 {
		t.Fatalf("healthz %d", w.Code)
	}
	// No SSR child: not ready, and it says why.
	w := get(t, s, "/readyz")
	if w.Code != 503 || !strings.Contains(w.Body.String(), "ssr") {
		t.Fatalf("readyz %d %q", w.Code, w.Body)
	}
	s2, _ := newTestServer(t, fakePing{err: errors.New("down")})
	if w := get(t, s2, "/readyz"); !strings.Contains(w.Body.String(), "database: down") {
		t.Fatalf("readyz body %q", w.Body)
	}
}

func TestStaticFiles(t *testing.T) {
	s, _ := newTestServer(t, fakePing{})
	tests := []struct {
		name, path string
		want       int
	}{
		{"OK", "/assets/app-abc123.js", 200},
		{"UV", "/uv/umd/UV.js", 200},
		{"ErrNotFound", "/assets/nope.js", 404},
		{"ErrDirectory", "/assets/", 404},
		{"ErrTraversal", "/assets/../secret.txt", 404},
		{"ErrEncodedTraversal", "/assets/%2e%2e/secret.txt", 404},
		{"ErrDotFile", "/assets/.env", 404},
		{"ErrBackslash", "/assets/..%5csecret.txt", 404},
		{"ErrUVTraversal", "/uv/umd/%2e%2e/%2e%2e/%2e%2e/%2e%2e/build/secret.txt", 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := get(t, s, tt.path)
			if w.Code != tt.want {
				t.Fatalf("%s: status %d, want %d", tt.path, w.Code, tt.want)
			}
			if strings.Contains(w.Body.String(), "secret") {
				t.Fatal("served a file outside the root")
			}
		})
	}
	w := get(t, s, "/assets/app-abc123.js")
	if cc := w.Header().Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("assets Cache-Control %q", cc)
	}
	if w := get(t, s, "/assets/nope.js"); strings.Contains(w.Header().Get("Cache-Control"), "immutable") {
		t.Error("a 404 must not be cached forever")
	}
}

func TestSecurityHeaders(t *testing.T) {
	s, _ := newTestServer(t, fakePing{})
	w := get(t, s, "/api/echo")
	h := w.Header()
	for k, want := range map[string]string{
		"X-Content-Type-Options":    "nosniff",
		"Referrer-Policy":           "strict-origin-when-cross-origin",
		"Strict-Transport-Security": "max-age=",
	} {
		if !strings.Contains(h.Get(k), want) {
			t.Errorf("%s = %q, want it to contain %q", k, h.Get(k), want)
		}
	}
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"frame-ancestors 'self'", "script-src 'self';", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	// An answer without inline scripts of its own admits none (pages: TestPageCSP).
	for _, d := range strings.Split(csp, "; ") {
		if strings.HasPrefix(d, "script-src") && d != "script-src 'self'" {
			t.Errorf("script-src %q: want only 'self' for an answer without inline scripts", d)
		}
	}
}

func TestCompression(t *testing.T) {
	s, _ := newTestServer(t, fakePing{})
	w := get(t, s, "/assets/app-abc123.js", "Accept-Encoding", "gzip")
	if w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", w.Header().Get("Content-Encoding"))
	}
}

func TestQueryKeyLimit(t *testing.T) {
	s, _ := newTestServer(t, fakePing{})
	many := strings.TrimSuffix(strings.Repeat("a=1&", 1001), "&")
	if w := get(t, s, "/api/echo?"+many); w.Code != 400 {
		t.Fatalf("1001 keys: %d", w.Code)
	}
	few := strings.TrimSuffix(strings.Repeat("a=1&", 1000), "&")
	if w := get(t, s, "/api/echo?"+few); w.Code != 200 {
		t.Fatalf("1000 keys: %d", w.Code)
	}
}

func TestPagesWithoutSSR(t *testing.T) {
	s, _ := newTestServer(t, fakePing{})
	w := get(t, s, "/news")
	if w.Code != 503 || w.Header().Get("Retry-After") == "" {
		t.Fatalf("status %d", w.Code)
	}
}

func TestSSRCheckSaysHowToBuild(t *testing.T) {
	s := &SSR{WebDir: t.TempDir()}
	err := s.Check()
	var nb ErrWebNotBuilt
	if !errors.As(err, &nb) || !strings.Contains(err.Error(), "make build") {
		t.Fatalf("err = %v", err)
	}
}

func FuzzSafeRelPath(f *testing.F) {
	for _, s := range []string{"a.js", "../x", "a/../../b", "..\\x", ".env", "a//b", "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if !safeRelPath(p) {
			return
		}
		clean := filepath.Clean(filepath.FromSlash(p))
		if strings.HasPrefix(clean, "..") || filepath.IsAbs(clean) {
			t.Fatalf("%q escapes the root as %q", p, clean)
		}
	})
}

func TestDropOwnOrigin(t *testing.T) {
	s, _ := newTestServer(t, fakePing{}) // public URL https://lineage.example.org
	tests := []struct {
		name, host, origin string
		dropped            bool
	}{
		{"OK same host", "127.0.0.1:8080", "http://127.0.0.1:8080", true},
		{"OK same host, https in front", "127.0.0.1:8080", "https://127.0.0.1:8080", true},
		{"OK public URL", "10.0.0.5:8080", "https://lineage.example.org", true},
		{"OK public URL, other case", "10.0.0.5:8080", "https://Lineage.Example.org", true},
		{"foreign site", "127.0.0.1:8080", "https://evil.example", false},
		{"other port", "127.0.0.1:8080", "http://127.0.0.1:3000", false},
		{"public host over http", "10.0.0.5:8080", "http://lineage.example.org", false},
		{"null", "127.0.0.1:8080", "null", false},
		{"not a URL", "127.0.0.1:8080", "127.0.0.1:8080", false},
		{"with a path", "127.0.0.1:8080", "http://127.0.0.1:8080/x", false},
		{"other scheme", "127.0.0.1:8080", "ftp://127.0.0.1:8080", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := httptest.NewRequest("POST", "/sign-in", nil)
			in.Host = tt.host
			in.Header.Set("Origin", tt.origin)
			out := in.Clone(context.Background())
			s.dropOwnOrigin(out, in)
			if got := out.Header.Get("Origin") == ""; got != tt.dropped {
				t.Fatalf("dropped = %v, want %v", got, tt.dropped)
			}
		})
	}
}

// TestPrecompressedAssets: an asset with copies compressed at build time is answered
// with the copy the visitor accepts (brotli first), as it is: not compressed again by
// the front door, with the original's type and caching; without copies, the front door
// compresses as before.
func TestPrecompressedAssets(t *testing.T) {
	s, web := newTestServer(t, fakePing{})
	assets := filepath.Join(web, "build", "client", "assets")
	js := strings.Repeat("export const greeting = 'hello';\n", 100)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(js))
	zw.Close()
	br := []byte("not really brotli, but the bytes the build wrote")
	os.WriteFile(filepath.Join(assets, "page-1a2b3c.js"), []byte(js), 0o644)
	os.WriteFile(filepath.Join(assets, "page-1a2b3c.js.gz"), gz.Bytes(), 0o644)
	os.WriteFile(filepath.Join(assets, "page-1a2b3c.js.br"), br, 0o644)

	tests := []struct {
		name, accept, coding string
		body                 []byte
	}{
		{"Brotli", "gzip, deflate, br, zstd", "br", br},
		{"GzipWhenNoBrotli", "gzip, deflate", "gzip", gz.Bytes()},
		{"GzipWhenBrotliRefused", "br;q=0, gzip", "gzip", gz.Bytes()},
		{"Identity", "", "", []byte(js)},
		{"IdentityWhenBothRefused", "br;q=0, gzip;q=0", "", []byte(js)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := get(t, s, "/assets/page-1a2b3c.js", "Accept-Encoding", tt.accept)
			if w.Code != 200 || w.Header().Get("Content-Encoding") != tt.coding || !bytes.Equal(w.Body.Bytes(), tt.body) {
				t.Fatalf("status %d, coding %q (want %q), body of %d bytes (want %d)", w.Code, w.Header().Get("Content-Encoding"), tt.coding, w.Body.Len(), len(tt.body))
			}
			if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
				t.Errorf("Content-Type %q", ct)
			}
			if cc := w.Header().Get("Cache-Control"); !strings.Contains(cc, "immutable") {
				t.Errorf("Cache-Control %q", cc)
			}
			if tt.coding != "" && !strings.Contains(strings.Join(w.Header().Values("Vary"), ","), "Accept-Encoding") {
				t.Errorf("Vary %q", w.Header().Values("Vary"))
			}
		})
	}
	// An asset the build wrote no copies of is compressed by the front door.
	w := get(t, s, "/assets/app-abc123.js", "Accept-Encoding", "br, gzip")
	if w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("without copies: coding %q", w.Header().Get("Content-Encoding"))
	}
}
