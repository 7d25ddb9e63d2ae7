package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logBuffer batches what serve logs: a busy instance writes a line per request, and one
// write(2) per line cost about a twelfth of a cached page's CPU (perf on a cached home
// page under wrk). Lines reach w at least every interval, when 64 KiB are waiting, at
// once for a warning or an error (flushOnWarn), and on Close. A crash that no deferred
// Close sees loses at most one interval of info lines.
type logBuffer struct {
	w        io.Writer
	mu       sync.Mutex
	buf      []byte
	stop     chan struct{}
	stopped  chan struct{}
	stopOnce sync.Once
}

const logBufferMax = 64 << 10

func newLogBuffer(w io.Writer, interval time.Duration) *logBuffer {
	b := &logBuffer{w: w, buf: make([]byte, 0, logBufferMax), stop: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(b.stopped)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.Flush()
			case <-b.stop:
				return
			}
		}
	}()
	return b
}

// Write keeps p (slog writes one whole line per call).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf)+len(p) > logBufferMax {
		if err := b.flushLocked(); err != nil {
			return 0, err
		}
	}
	if len(p) > logBufferMax {
		return b.w.Write(p)
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *logBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *logBuffer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

// Close stops the timer and writes what is left.
func (b *logBuffer) Close() error {
	b.stopOnce.Do(func() { close(b.stop) })
	<-b.stopped
	return b.Flush()
}

// flushOnWarn is a handler that writes through a logBuffer and has it flush after a
// record of warning level or above: those are read when something is wrong, often
// just before the process ends.
type flushOnWarn struct {
	slog.Handler
	buf *logBuffer
}

func (h flushOnWarn) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		h.buf.Flush()
	}
	return err
}

func (h flushOnWarn) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushOnWarn{h.Handler.WithAttrs(attrs), h.buf}
}

func (h flushOnWarn) WithGroup(name string) slog.Handler {
	return flushOnWarn{h.Handler.WithGroup(name), h.buf}
}
