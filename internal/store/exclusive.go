package store

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
)

// Exclusive runs fn while holding the installation-wide lock called name, waiting for
// it as long as ctx allows: every process on this database (another `lineage serve`,
// `lineage migrate`) that asks for the same name runs its fn one after another, never
// at once. Migrations run under "migrate"; serve builds its rooms, which seed an empty
// store (the gazetteer, --demo's content), under "start-up".
//
// On PostgreSQL the lock is a session advisory lock held on a connection of its own for
// the whole of fn; on SQLite it is an flock on a file beside the database. Either way
// it goes when the process dies, so a killed holder never blocks the others.
func (db *DB) Exclusive(ctx context.Context, name string, fn func(ctx context.Context) error) error {
	unlock, err := db.lock(ctx, name)
	if err != nil {
		return fmt.Errorf("store: lock %q: %w", name, err)
	}
	defer unlock()
	return fn(ctx)
}

// lockNamespace keeps Lineage's advisory lock keys apart from any other program's on the
// same PostgreSQL server (the key is a 64-bit hash of this prefix and the name).
const lockNamespace = "lineage:"

// advisoryKey is the PostgreSQL advisory lock key of a lock name.
func advisoryKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(lockNamespace + name))
	return int64(h.Sum64())
}

func (db *DB) lock(ctx context.Context, name string) (unlock func(), err error) {
	if db.Dialect != Postgres {
		return lockFile(ctx, filepath.Join(filepath.Dir(db.Where), "lineage.db."+name+".lock"))
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	key := advisoryKey(name)
	// pg_advisory_lock waits; cancelling ctx cancels the wait (pgx sends a cancel request).
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		conn.Close()
		return nil, err
	}
	return func() {
		// Unlock on a fresh context: fn's may have ended. Should the unlock fail, closing
		// the connection still ends the session and with it the lock.
		conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, key)
		conn.Close()
	}, nil
}
