// Package bulk writes many rows into a table, as fast as each database takes them:
// the one way the importers (research records, family trees) write their rows.
//
// A Writer is made for one import on one connection (New) and writes rows inside the
// caller's transaction on that connection. On SQLite it binds each row to INSERT
// statements compiled once (SQLiteConn); on PostgreSQL it sends the rows with COPY,
// or, when conflicts are to be ignored or merged, as one array parameter per column
// that unnest turns back into rows. Callers never ask which database they write to
// (docs/decisions/012-one-bulk-writer.md).
package bulk

import (
	"context"
	"database/sql"
	"strings"

	"lineage/internal/store"
)

// Table is where rows go: a table and the columns that each row gives a value for,
// in order.
type Table struct {
	Name string
	Cols []string
	// OnConflict is what a row that breaks a unique constraint does: "" fails the
	// statement (and the caller then rolls its transaction back); Ignore skips the
	// row; any other text is an upsert clause, written the same for both databases
	// ("ON CONFLICT (a, b) DO UPDATE SET n = t.n + excluded.n"). Rows of one call
	// that an upsert merges must have distinct keys (PostgreSQL's rule).
	OnConflict string
}

// Ignore is Table.OnConflict for rows to be skipped when they break a unique
// constraint.
const Ignore = "ON CONFLICT DO NOTHING"

// Writer writes rows into tables inside the caller's transaction.
//
// Values are nil (NULL), int, int64 or string; a NUL in a string is stored as
// U+FFFD, in every database (PostgreSQL's texts cannot hold NUL). Errors name the
// table. A Writer belongs to one goroutine.
type Writer interface {
	// Insert writes rows into t within tx, which must be a transaction on the
	// Writer's connection when it has one (New).
	Insert(ctx context.Context, tx *sql.Tx, t Table, rows [][]any) error
	// InsertInts is Insert for rows of integers only, given one after another
	// (len(t.Cols) values a row), with no value boxed.
	InsertInts(ctx context.Context, tx *sql.Tx, t Table, vals []int64) error
	// Close frees what the Writer holds; the connection stays open.
	Close()
}

// New returns the Writer for db. conn is the connection that the caller's
// transactions will be on; it may be nil when they come from the pool (the Writer
// then writes through each transaction it is given, more slowly on SQLite).
func New(db *store.DB, conn *sql.Conn) Writer {
	if db.Dialect == store.Postgres {
		return newPostgres(conn)
	}
	return newSQLite(conn)
}

// cleanText is s with each NUL as U+FFFD, as store.WriteLiteral writes it.
func cleanText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		return strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return s
}
