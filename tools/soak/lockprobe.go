package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// probeSample is one wait of the write-lock probe for SQLite's write lock.
type probeSample struct {
	at   time.Duration
	wait time.Duration
}

// probeLock measures, every 20 ms until ctx ends, how long a writer of another
// process waits for the SQLite store's write lock: BEGIN IMMEDIATE, tried again every
// 0.5 ms as the store's busy handler does (internal/store/sqlitebusy.go), then ROLLBACK
// at once, having written nothing. Set beside the sign-ins' latencies it tells the wait
// for the lock (the imports' transactions) from the rest (CPU, the request itself).
func (s *soak) probeLock(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		at := s.since()
		start := time.Now()
		for {
			_, err = conn.ExecContext(ctx, "BEGIN IMMEDIATE")
			var se *sqlite.Error
			if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY {
				break
			}
			time.Sleep(500 * time.Microsecond)
		}
		wait := time.Since(start)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("write-lock probe: %w", err)
		}
		if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil && ctx.Err() == nil {
			return fmt.Errorf("write-lock probe: %w", err)
		}
		s.mu.Lock()
		s.probes = append(s.probes, probeSample{at: at, wait: wait})
		s.mu.Unlock()
	}
}
