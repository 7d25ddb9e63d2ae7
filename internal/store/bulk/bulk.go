// Package bulk writes many rows into a table, as fast as each database takes them:
// the one way the importers (research records, family trees) write their rows.
//
// A Writer is made for one import on one connection (New) and writes rows inside the
// caller's transaction on that connection. On SQLite it binds each row to INSERT
// statements compiled once (SQLiteConn); on PostgreSQL it sends the rows with COPY,
// or, when conflicts are to be ignored or merged, as one array parameter per column
// that unnest turns back into rows. Callers never ask which database they write to
// (docs/decisions/012-one-bulk-writer.md).
//
// What else a bulk load does differently on each database is here too, so that the
// importers stay free of it: the ids it gives new rows (Writer.NextIDs), the size of
// its transactions where one write lock serves all writers (Budget), its foreign key
// checks (Writer.ForeignKeysOff), the indexes it drops and builds again (Plan,
// Indexes) and the planner's statistics after it (Analyze).
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
	// NextIDs reserves n ids of table's id column (INTEGER PRIMARY KEY
	// AUTOINCREMENT on SQLite, serial on PostgreSQL), never given before, for rows
	// the caller writes within tx: no other writer gets them.
	NextIDs(ctx context.Context, tx *sql.Tx, table string, n int) ([]int64, error)
	// Budget sizes the transactions of a long job that writes through the Writer,
	// starting at n items a transaction.
	Budget(n int) *Budget
	// ForeignKeysOff turns off the foreign key checks of the Writer's connection
	// until Close, where checking each row costs most (SQLite: a row that is
	// checked makes every multi-row INSERT keep a statement journal), and reports
	// whether it did: the caller then checks its rows' parents itself, once a
	// transaction. Call it outside a transaction.
	ForeignKeysOff(ctx context.Context) (bool, error)
	// Close frees what the Writer holds and puts back the connection's foreign key
	// checks; the connection stays open.
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
