package store

import (
	"context"
	"time"
)

// Checkpointer takes a SQLite writer's checkpoints off its hands: copying the
// write-ahead log back into the database file, which SQLite otherwise does in the
// commit that takes the log past wal_autocheckpoint pages, on the committing
// connection. A long import commits thousands of transactions on one goroutine
// (its bottleneck), and those copies took a large share of that goroutine's time
// (figures in docs/decisions/012-one-bulk-writer.md); a Checkpointer makes them on
// a connection and goroutine of their own while the writer goes on (a PASSIVE
// checkpoint never waits for the writer, nor it for one).
//
// The writer keeps its own auto-checkpoint as a backstop, set higher (see
// ImportAutocheckpoint): the log can only start again from its beginning once every
// frame in it has been copied when a transaction begins, which a checkpointer that
// runs behind a busy writer seldom sees, so the writer's own checkpoint copies the
// last few frames and lets the log restart when it reaches that size.
type Checkpointer struct {
	poke chan struct{}
	done chan struct{}
}

// ImportAutocheckpoint is wal_autocheckpoint for a writer that a Checkpointer helps:
// the largest the log grows (pages of 4 KiB) before the writer checkpoints itself.
const ImportAutocheckpoint = 100_000

// StartCheckpointer starts a Checkpointer that checkpoints at most once every
// interval after a Poke; it is nil (and its methods do nothing) on PostgreSQL.
func (db *DB) StartCheckpointer(ctx context.Context, interval time.Duration) *Checkpointer {
	if db.Dialect != SQLite {
		return nil
	}
	c := &Checkpointer{poke: make(chan struct{}, 1), done: make(chan struct{})}
	go c.run(ctx, db, interval)
	return c
}

func (c *Checkpointer) run(ctx context.Context, db *DB, interval time.Duration) {
	defer close(c.done)
	var last time.Time
	for range c.poke {
		if wait := interval - time.Since(last); wait > 0 {
			// Pokes meanwhile wait in the channel as one.
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return
			}
		}
		last = time.Now()
		// A failure (SQLITE_BUSY while a reader holds the oldest frames, a cancelled
		// context) leaves the work to the writer's own checkpoint: nothing is lost.
		db.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
	}
}

// Poke says that the writer has committed.
func (c *Checkpointer) Poke() {
	if c == nil {
		return
	}
	select {
	case c.poke <- struct{}{}:
	default:
	}
}

// Stop waits for a checkpoint under way and ends the Checkpointer.
func (c *Checkpointer) Stop() {
	if c == nil {
		return
	}
	close(c.poke)
	<-c.done
}
