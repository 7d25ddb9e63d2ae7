package main

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is the log's destination, read while the ticker may write to it.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLogBufferBatchesInfoAndFlushesWarnings(t *testing.T) {
	dst := &lockedBuffer{}
	buf := newLogBuffer(dst, time.Hour) // no tick within the test: only the rules below write
	log := slog.New(flushOnWarn{logHandler(buf), buf})
	for i := range 100 {
		log.Info("request", "n", i)
	}
	if got := dst.String(); got != "" {
		t.Fatalf("info lines written before a flush: %q", got)
	}
	log.With("room", "ssr").Warn("child does not answer")
	got := dst.String()
	if strings.Count(got, "msg=request") != 100 || !strings.Contains(got, `level=WARN msg="child does not answer" room=ssr`) {
		t.Fatalf("after a warning, the log holds:\n%s", got)
	}
	if dst.writes != 1 {
		t.Fatalf("%d writes for 101 lines, want 1", dst.writes)
	}
	log.Info("last words")
	if err := buf.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(dst.String(), "msg=\"last words\"\n") {
		t.Fatalf("Close did not write what was left:\n%s", dst.String())
	}
}

func TestLogBufferWritesOnItsTickAndWhenFull(t *testing.T) {
	dst := &lockedBuffer{}
	buf := newLogBuffer(dst, 10*time.Millisecond)
	defer buf.Close()
	buf.Write([]byte("a line\n"))
	deadline := time.Now().Add(10 * time.Second)
	for dst.String() != "a line\n" {
		if time.Now().After(deadline) {
			t.Fatal("a buffered line was never written by the ticker")
		}
		time.Sleep(5 * time.Millisecond)
	}
	big := bytes.Repeat([]byte("x"), logBufferMax+10)
	if n, err := buf.Write(big); err != nil || n != len(big) {
		t.Fatalf("a line longer than the buffer: %d, %v", n, err)
	}
	if !strings.HasSuffix(dst.String(), string(big)) {
		t.Fatal("a line longer than the buffer was not written through")
	}
}
