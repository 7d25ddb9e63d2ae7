package video

import (
	"bytes"
	"context"
	"crypto/sha256"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lineage/internal/video/videotest"
)

// harness is one fake video host, one file to send and an Uploader with a fake clock
// that records every wait instead of sleeping it.
type harness struct {
	t    *testing.T
	fake *videotest.Server
	up   *Uploader
	file string
	data []byte
	out  *bytes.Buffer

	mu     sync.Mutex
	clock  time.Time
	sleeps []time.Duration
	online func() bool // nil: always reachable
	dials  []string
}

const testChunk = 64 << 10

func newHarness(t *testing.T, size int) *harness {
	t.Helper()
	h := &harness{t: t, fake: videotest.New(t), out: &bytes.Buffer{}, clock: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	h.data = randomBytes(size, 1)
	h.file = filepath.Join(t.TempDir(), "lecture-2026-03.mp4")
	if err := os.WriteFile(h.file, h.data, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(Settings{APIURL: h.fake.URL, AccessToken: videotest.AccessToken}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.up = &Uploader{
		Client:    c,
		StateDir:  filepath.Join(t.TempDir(), StateDirName),
		Progress:  NewProgress(&lockedWriter{w: h.out}, false, h.now),
		ChunkSize: testChunk,
		Now:       h.now,
		Sleep:     h.sleep,
		Reachable: h.reachable,
	}
	return h
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed*7+1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

func (h *harness) now() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clock = h.clock.Add(time.Millisecond) // time passes a little with every look
	return h.clock
}

func (h *harness) sleep(ctx context.Context, d time.Duration) error {
	h.mu.Lock()
	h.sleeps = append(h.sleeps, d)
	h.clock = h.clock.Add(d)
	h.mu.Unlock()
	return ctx.Err()
}

func (h *harness) reachable(ctx context.Context, rawURL string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dials = append(h.dials, rawURL)
	return h.online == nil || h.online()
}

func (h *harness) slept() []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]time.Duration(nil), h.sleeps...)
}

// checkStored compares, byte for byte by SHA-256, what tusd holds for uri with want.
func (h *harness) checkStored(uri string, want []byte) {
	h.t.Helper()
	got, size, err := h.fake.Stored(uri)
	if err != nil {
		h.t.Fatalf("stored bytes of %s: %v", uri, err)
	}
	if size != int64(len(want)) {
		h.t.Errorf("upload of %s was created for %d bytes, want %d", uri, size, len(want))
	}
	if sha256.Sum256(got) != sha256.Sum256(want) {
		h.t.Fatalf("tusd holds %d bytes for %s whose SHA-256 differs from the file's (%d bytes)", len(got), uri, len(want))
	}
}

// stateFiles lists the resume state files left in the state directory.
func (h *harness) stateFiles() []string {
	entries, _ := os.ReadDir(h.up.StateDir)
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	return names
}

func ms(v ...int) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, n := range v {
		out[i] = time.Duration(n) * time.Millisecond
	}
	return out
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lockedWriter lets the progress display be written while a test reads it.
type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
