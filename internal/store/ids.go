package store

import (
	"context"
	"database/sql"
)

// Querier is a *sql.DB, *sql.Tx or *sql.Conn: what runs a statement, in a transaction
// or not.
type Querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// ReadIDs reads the ids of keys into into, perQuery keys at a time: query(chunk)
// gives the statement (and its arguments) that selects (key, id) rows for one chunk
// of keys, e.g. "SELECT folded, id FROM surnames WHERE folded IN (…)". Keys with no
// row are left out of into. It serves the imports' dictionary tables (surnames,
// given names, places).
func ReadIDs(ctx context.Context, q Querier, keys []string, perQuery int, query func(chunk []string) (string, []any), into map[string]int64) error {
	if perQuery < 1 {
		perQuery = 1
	}
	for len(keys) > 0 {
		n := min(len(keys), perQuery)
		chunk := keys[:n]
		keys = keys[n:]
		text, args := query(chunk)
		rows, err := q.QueryContext(ctx, text, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var k string
			var id int64
			if err := rows.Scan(&k, &id); err != nil {
				rows.Close()
				return err
			}
			into[k] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}
