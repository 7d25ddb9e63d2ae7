package bulk

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"lineage/internal/store"
)

// Index is an index that a bulk load drops and creates again, or keeps: its name and
// the statement that creates it (CREATE INDEX IF NOT EXISTS …).
type Index struct{ Name, Create string }

// Indexes are what a bulk load of some tables drops for the load and builds again
// at its end, on one database: building an index from all its rows at once costs
// far less than inserting each row at its place in it.
type Indexes struct {
	// Dropped are dropped for a bulk load and created again, in this order, at its
	// end (Repair).
	Dropped []Index
	// Kept stay during a bulk load (an index whose one CREATE statement would hold
	// SQLite's write lock longer than a sign-in waits), and are created when missing.
	Kept []Index
	// Tables are tables derived from the loaded ones (SQLite's search tables),
	// dropped for a bulk load.
	Tables []string
	// Build, when set, builds what is missing of Dropped, Kept and Tables (their
	// names), on conn; otherwise Repair creates each missing index by its statement.
	Build func(ctx context.Context, conn *sql.Conn, missing []string) error

	// schema lists the names of the database's tables and indexes (Plan.For).
	schema string
}

// Plan is the Indexes of some tables on each database: the schema knowledge of the
// room that loads them. For picks the database's own, so that the room never asks
// which database it writes to.
type Plan struct{ SQLite, Postgres Indexes }

// For is p's Indexes on db.
func (p Plan) For(db *store.DB) Indexes {
	if db.Dialect == store.Postgres {
		ix := p.Postgres
		ix.schema = pgSchemaNames
		return ix
	}
	ix := p.SQLite
	ix.schema = sqliteSchemaNames
	return ix
}

// Drop drops the Dropped indexes and the Tables, on conn.
func (ix Indexes) Drop(ctx context.Context, conn *sql.Conn) error {
	for _, i := range ix.Dropped {
		if _, err := conn.ExecContext(ctx, `DROP INDEX IF EXISTS `+i.Name); err != nil {
			return err
		}
	}
	for _, t := range ix.Tables {
		if _, err := conn.ExecContext(ctx, `DROP TABLE IF EXISTS `+t); err != nil {
			return err
		}
	}
	return nil
}

// Repair builds, on conn, what of the Dropped and Kept indexes and the Tables the
// database does not have (a bulk load's end, or one that was interrupted), and
// says whether anything was missing.
func (ix Indexes) Repair(ctx context.Context, conn *sql.Conn) (bool, error) {
	missing, err := ix.missing(ctx, conn)
	if err != nil || len(missing) == 0 {
		return false, err
	}
	if ix.Build != nil {
		return true, ix.Build(ctx, conn, missing)
	}
	for _, i := range slices.Concat(ix.Dropped, ix.Kept) {
		if !slices.Contains(missing, i.Name) {
			continue
		}
		if _, err := conn.ExecContext(ctx, i.Create); err != nil {
			return false, fmt.Errorf("%s: %w", i.Name, err)
		}
	}
	return true, nil
}

// missing lists the names of Dropped, Kept and Tables that the database lacks.
func (ix Indexes) missing(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx, ix.schema)
	have, err := store.Set[string](rows, err)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, i := range slices.Concat(ix.Dropped, ix.Kept) {
		if !have[i.Name] {
			missing = append(missing, i.Name)
		}
	}
	for _, t := range ix.Tables {
		if !have[t] {
			missing = append(missing, t)
		}
	}
	return missing, nil
}

// Analyze refreshes the query planner's statistics after a bulk load: on SQLite of
// every table, sampled; on PostgreSQL of tables, with their visibility maps (which
// index-only scans rely on).
func Analyze(ctx context.Context, db *store.DB, tables []string) error {
	if db.Dialect == store.Postgres {
		return analyzePostgres(ctx, db, tables)
	}
	return analyzeSQLite(ctx, db)
}
