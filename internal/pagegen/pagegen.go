// Package pagegen is the page generation: one counter per store that anything changing
// what anonymous visitors see raises — publishing or importing content, importing
// records, collections or scans, importing, publishing or deleting a family tree,
// editing the membership plans /subscribe lists — from whichever process does it (a
// server handling an editor's request, or a `lineage` command beside it). Every server
// watches the counter and empties its page cache when it moves: on PostgreSQL it is
// told at once by LISTEN/NOTIFY, on SQLite (one machine) it reads the one-row table a
// few times a second. docs/decisions/015-page-cache-and-csp.md says why everything is
// purged rather than the pages that show the change.
package pagegen

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/stdlib"

	"lineage/internal/store"
)

// channel is the PostgreSQL notification channel; the payload is the new generation.
const channel = "lineage_pages"

// Raise raises the generation of db's store and returns the new value. On PostgreSQL
// the notification goes out with the same commit, so no server can see the new value
// without also being told, or be told before the value is readable.
func Raise(ctx context.Context, db *store.DB) (int64, error) {
	var n int64
	err := db.InTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `UPDATE page_generation SET n = n + 1 WHERE id = 1 RETURNING n`).Scan(&n); err != nil {
			return err
		}
		if db.Dialect == store.Postgres {
			_, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, channel, strconv.FormatInt(n, 10))
			return err
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("pagegen: raise: %w", err)
	}
	return n, nil
}

// Current reads the generation of db's store.
func Current(ctx context.Context, db *store.DB) (int64, error) {
	var n int64
	if err := db.QueryRowContext(ctx, `SELECT n FROM page_generation WHERE id = 1`).Scan(&n); err != nil {
		return 0, fmt.Errorf("pagegen: read: %w", err)
	}
	return n, nil
}

// Watcher tells one server when the generation moves.
type Watcher struct {
	db      *store.DB
	changed func(local bool)

	// Poll is how often the row is read: the only way to learn of a change on SQLite,
	// and a safety net on PostgreSQL for notifications missed while reconnecting.
	// Zero means half a second on SQLite and five seconds on PostgreSQL.
	Poll time.Duration

	mu   sync.Mutex
	seen int64
}

// NewWatcher returns a watcher that calls changed once for every move of db's
// generation past the value it last saw: local is true when this process raised it
// through the watcher's Raise, false when another process (a command, another
// instance) did.
func NewWatcher(db *store.DB, changed func(local bool)) *Watcher {
	return &Watcher{db: db, changed: changed}
}

// Raise raises the generation for a change made by this process and calls changed at
// once (other servers learn of it by watching). The notification of this raise that
// comes back to this watcher is not reported again.
func (w *Watcher) Raise(ctx context.Context) error {
	w.mu.Lock()
	n, err := Raise(ctx, w.db)
	fire := err == nil && n > w.seen
	if fire {
		w.seen = n
	}
	w.mu.Unlock()
	if fire {
		w.changed(true)
	}
	return err
}

// note records generation n and calls changed when it is new.
func (w *Watcher) note(n int64, local bool) {
	w.mu.Lock()
	if n <= w.seen {
		w.mu.Unlock()
		return
	}
	w.seen = n
	w.mu.Unlock()
	w.changed(local)
}

// Check reads the generation once and calls changed when it moved.
func (w *Watcher) Check(ctx context.Context) error {
	n, err := Current(ctx, w.db)
	if err != nil {
		return err
	}
	w.note(n, false)
	return nil
}

// Start reads the store's current generation (a fresh server has nothing cached to
// purge) and watches for raises in the background until ctx ends.
func (w *Watcher) Start(ctx context.Context) error {
	n, err := Current(ctx, w.db)
	if err != nil {
		return err
	}
	w.mu.Lock()
	if n > w.seen {
		w.seen = n
	}
	w.mu.Unlock()
	poll := w.Poll
	if poll <= 0 {
		poll = 500 * time.Millisecond
		if w.db.Dialect == store.Postgres {
			poll = 5 * time.Second
		}
	}
	if w.db.Dialect == store.Postgres {
		go w.listen(ctx)
	}
	go w.poll(ctx, poll)
	return nil
}

func (w *Watcher) poll(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			// A failed read is tried again at the next tick; a store that stays
			// away fails /readyz.
			w.Check(ctx)
		}
	}
}

// listen holds a connection that LISTENs for raises, reconnecting after failures.
func (w *Watcher) listen(ctx context.Context) {
	for ctx.Err() == nil {
		w.listenOnce(ctx)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

func (w *Watcher) listenOnce(ctx context.Context) error {
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var failed error
	conn.Raw(func(dc any) error {
		failed = w.waitForRaises(ctx, dc)
		// The connection still LISTENs: close it rather than return it to the pool.
		return driver.ErrBadConn
	})
	return failed
}

func (w *Watcher) waitForRaises(ctx context.Context, dc any) error {
	sc, ok := dc.(*stdlib.Conn)
	if !ok {
		return errors.New("pagegen: not a pgx connection")
	}
	pc := sc.Conn()
	if _, err := pc.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	// Raises made while no connection listened are read once listening.
	if err := w.Check(ctx); err != nil {
		return err
	}
	for {
		note, err := pc.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n, err := strconv.ParseInt(note.Payload, 10, 64); err == nil {
			w.note(n, false)
		}
	}
}
