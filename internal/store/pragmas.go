package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Pragma is a SQLite pragma's name and the value to give it.
type Pragma struct{ Name, Value string }

// SetPragmas gives conn's SQLite pragmas the values of a long job on that one
// connection (an import, an index build) and returns what sets them back to the
// values they had, for when conn goes back to the pool: every pragma set is put
// back, so no connection leaves a job with its page cache, memory map or checks
// changed. On PostgreSQL it does nothing. When one fails, those already set are put
// back before it returns.
func (db *DB) SetPragmas(ctx context.Context, conn *sql.Conn, pragmas []Pragma) (restore func(), err error) {
	var old []Pragma
	restore = func() {
		for i := len(old) - 1; i >= 0; i-- {
			conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA `+old[i].Name+` = `+old[i].Value)
		}
	}
	if db.Dialect != SQLite {
		return restore, nil
	}
	for _, p := range pragmas {
		var was string
		if err := conn.QueryRowContext(ctx, `PRAGMA `+p.Name).Scan(&was); err != nil {
			restore()
			return nil, fmt.Errorf("PRAGMA %s: %w", p.Name, err)
		}
		if _, err := conn.ExecContext(ctx, `PRAGMA `+p.Name+` = `+p.Value); err != nil {
			restore()
			return nil, fmt.Errorf("PRAGMA %s = %s: %w", p.Name, p.Value, err)
		}
		old = append(old, Pragma{p.Name, was})
	}
	return restore, nil
}
