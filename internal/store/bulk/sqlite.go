package bulk

import (
	"context"
	"database/sql"
	"fmt"

	"lineage/internal/store"
)

// sqliteRowsPerStmt is how many rows one compiled INSERT writes: enough that SQLite
// opens the table's cursors once for many rows. The rows of a call that do not fill
// such a statement go one by one through a one-row INSERT, so that each table has
// two compiled statements, whatever the sizes of the calls.
const sqliteRowsPerStmt = 32

// literalRowsPerStmt is how many rows one INSERT of literals writes, when there is no
// SQLiteConn (the driver prepares every statement afresh and binds parameters slowly,
// so literals then cost less than parameters).
const literalRowsPerStmt = 200

// sqliteWriter is the Writer on SQLite: compiled statements on the caller's
// connection, or literal INSERTs through the caller's transaction when it has no
// connection or the driver is not of the shape SQLiteConn knows.
type sqliteWriter struct {
	conn *sql.Conn
	c    *SQLiteConn // nil: literal INSERTs
	// fkWas is the connection's foreign_keys before ForeignKeysOff ("": untouched).
	fkWas string
}

func newSQLite(conn *sql.Conn) *sqliteWriter {
	w := &sqliteWriter{conn: conn}
	if conn != nil {
		w.c = NewSQLiteConn(conn)
	}
	return w
}

// sqliteVerb is the INSERT of t and what follows its VALUES. OR FAIL (or IGNORE)
// spares SQLite a statement journal: a failed statement fails the caller's
// transaction anyway.
func sqliteVerb(t Table) (verb, suffix string) {
	switch t.OnConflict {
	case "":
		return "INSERT OR FAIL", ""
	case Ignore:
		return "INSERT OR IGNORE", ""
	}
	return "INSERT", " " + t.OnConflict
}

func (w *sqliteWriter) Insert(ctx context.Context, tx *sql.Tx, t Table, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	verb, suffix := sqliteVerb(t)
	var err error
	if w.c == nil {
		err = w.literal(ctx, tx, verb, suffix, t, rows)
	} else {
		err = w.locked(ctx, func() error {
			full := len(rows) / sqliteRowsPerStmt * sqliteRowsPerStmt
			if full > 0 {
				if err := w.c.execGroups(InsertRowsSQL(verb, t.Name, t.Cols, sqliteRowsPerStmt)+suffix, rows[:full], sqliteRowsPerStmt); err != nil {
					return err
				}
			}
			return w.c.execGroups(InsertSQL(verb, t.Name, t.Cols)+suffix, rows[full:], 1)
		})
	}
	if err != nil {
		return fmt.Errorf("insert into %s: %w", t.Name, err)
	}
	return nil
}

func (w *sqliteWriter) InsertInts(ctx context.Context, tx *sql.Tx, t Table, vals []int64) error {
	n := len(t.Cols)
	if len(vals)%n != 0 {
		return fmt.Errorf("insert into %s: %d values for rows of %d columns", t.Name, len(vals), n)
	}
	if len(vals) == 0 {
		return nil
	}
	if w.c == nil {
		return w.Insert(ctx, tx, t, intRows(vals, n))
	}
	verb, suffix := sqliteVerb(t)
	err := w.locked(ctx, func() error {
		per := sqliteRowsPerStmt * n
		full := len(vals) / per * per
		if full > 0 {
			q := InsertRowsSQL(verb, t.Name, t.Cols, sqliteRowsPerStmt) + suffix
			for i := 0; i < full; i += per {
				if err := w.c.execInts(q, vals[i:i+per]); err != nil {
					return err
				}
			}
		}
		q := InsertSQL(verb, t.Name, t.Cols) + suffix
		for i := full; i < len(vals); i += n {
			if err := w.c.execInts(q, vals[i:i+n]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("insert into %s: %w", t.Name, err)
	}
	return nil
}

// locked runs fn on the connection holding its lock, as database/sql does for its
// own calls: when the caller's context is cancelled, database/sql rolls the
// transaction back from another goroutine, and the two must not use the connection
// at once. After such a rollback the connection is outside any transaction, and
// locked refuses (ErrNoTransaction) to write rows that would then commit on their
// own.
func (w *sqliteWriter) locked(ctx context.Context, fn func() error) error {
	return w.conn.Raw(func(any) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !w.c.InTransaction() {
			return ErrNoTransaction
		}
		return w.c.unlocked(fn)
	})
}

func (w *sqliteWriter) literal(ctx context.Context, tx *sql.Tx, verb, suffix string, t Table, rows [][]any) error {
	for _, q := range LiteralInserts(verb, t.Name, t.Cols, rows, literalRowsPerStmt) {
		if _, err := tx.ExecContext(ctx, q+suffix); err != nil {
			return err
		}
	}
	return nil
}

func (w *sqliteWriter) Close() {
	if w.c != nil {
		// Under the connection's lock: a cancelled transaction's rollback may still be
		// running on it.
		w.conn.Raw(func(any) error { w.c.Close(); return nil })
	}
	if w.fkWas != "" {
		w.conn.ExecContext(context.Background(), `PRAGMA foreign_keys = `+w.fkWas)
		w.fkWas = ""
	}
}

// NextIDs: the transaction holds the write lock (store begins every transaction
// IMMEDIATE), so the ids after the largest the table has had are the caller's.
func (w *sqliteWriter) NextIDs(ctx context.Context, tx *sql.Tx, table string, n int) ([]int64, error) {
	var maxID, seq int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM `+table).Scan(&maxID); err != nil {
		return nil, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM sqlite_sequence WHERE name = ?`, table).Scan(&seq); err != nil {
		return nil, err
	}
	ids := make([]int64, n)
	next := max(maxID, seq) + 1
	for i := range ids {
		ids[i] = next
		next++
	}
	return ids, nil
}

// Budget: one write lock serves every writer, held by a transaction to its end.
func (w *sqliteWriter) Budget(n int) *Budget { return &Budget{n: n, bounded: true} }

// ForeignKeysOff sets the pragma on the Writer's connection; with none (the pool)
// the checks stay.
func (w *sqliteWriter) ForeignKeysOff(ctx context.Context) (bool, error) {
	if w.conn == nil {
		return false, nil
	}
	var was string
	if err := w.conn.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&was); err != nil {
		return false, fmt.Errorf("PRAGMA foreign_keys: %w", err)
	}
	if _, err := w.conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return false, fmt.Errorf("PRAGMA foreign_keys = OFF: %w", err)
	}
	w.fkWas = was
	return true, nil
}

// sqliteSchemaNames lists the names of the tables and indexes (Indexes.Repair).
const sqliteSchemaNames = `SELECT name FROM sqlite_master WHERE type IN ('index', 'table')`

// analyzeSQLite: a sampled ANALYZE, as exact statistics of ten million rows are not
// worth a minute.
func analyzeSQLite(ctx context.Context, db *store.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA analysis_limit = 2000`); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `ANALYZE`)
	return err
}

// intRows boxes vals as rows of n values.
func intRows(vals []int64, n int) [][]any {
	rows := make([][]any, 0, len(vals)/n)
	for i := 0; i+n <= len(vals); i += n {
		row := make([]any, n)
		for j, v := range vals[i : i+n] {
			row[j] = v
		}
		rows = append(rows, row)
	}
	return rows
}
