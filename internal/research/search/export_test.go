package search

import (
	"context"

	"lineage/internal/research/index"
	"lineage/internal/store"
)

// engineOn is a search engine on db with the shipped name groups, as a test's
// service has.
func engineOn(db *store.DB) *Engine { return New(index.New(db, nil, nil, nil), nil, 0) }

// RelativeRowsPlan is SQLite's plan for reading the rows that could be a query's
// relative from a thousand records (withRelative), for TestRelativeRowsPlan.
func RelativeRowsPlan(ctx context.Context, db *store.DB, q *Query) ([]string, error) {
	s := engineOn(db)
	p, err := s.plan(ctx, q)
	if err != nil {
		return nil, err
	}
	recs := make([]int64, 1000)
	for i := range recs {
		recs[i] = int64(i + 1)
	}
	return explain(ctx, s, sqliteRecordRowsSQL(recs, p.relativeSQL()))
}

// explain is SQLite's query plan of a query, one detail a line.
func explain(ctx context.Context, s *Engine, query string) ([]string, error) {
	rows, err := s.DB.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return nil, err
		}
		out = append(out, detail)
	}
	return out, rows.Err()
}

// SearchTablesUsed lists the search_keys tables SQLite's plan reads for a query's
// candidates (candidateSQL), for TestSearchTablesPlan.
func SearchTablesUsed(ctx context.Context, db *store.DB, q *Query) ([]string, error) {
	s := engineOn(db)
	p, err := s.plan(ctx, q)
	if err != nil {
		return nil, err
	}
	return explain(ctx, s, candidateSQL(p, keyRowCols))
}

// SetGivenOrderRows changes givenOrderRows, for TestSearchTablesPlan; the returned
// function restores it.
func SetGivenOrderRows(n float64) (restore func()) {
	old := givenOrderRows
	givenOrderRows = n
	return func() { givenOrderRows = old }
}
