package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// The probe cannot take the write lock while another connection holds it: a wait that
// began before the lock was let go lasts at least until then.
func TestProbeLockWaitsForTheWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lineage.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	holder, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, "CREATE TABLE t (x)"); err != nil {
		t.Fatal(err)
	}
	if _, err := holder.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}

	s := &soak{t0: time.Now()}
	pctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.probeLock(pctx, path) }()
	// Let go of the lock once the probe has begun at least one wait.
	for {
		time.Sleep(50 * time.Millisecond)
		if s.since() > 500*time.Millisecond {
			break
		}
	}
	released := s.since()
	if _, err := holder.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	for {
		s.mu.Lock()
		n := len(s.probes)
		s.mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	first := s.probes[0]
	if first.at >= released {
		t.Fatalf("the probe began at %v, after the lock was let go at %v", first.at, released)
	}
	if first.at+first.wait < released {
		t.Errorf("the probe began at %v and waited %v: it had the lock before it was let go at %v", first.at, first.wait, released)
	}
}
