package research

import "context"

// DecadeOf exposes the decade rule of name_facets to the external tests.
func DecadeOf(lo, hi int64) int64 { return int64(decadeOf(true, int(lo), int(hi))) }

// RelativeRowsPlan is SQLite's plan for reading the rows that could be a query's
// relative from a thousand records (withRelative), for TestRelativeRowsPlan.
func RelativeRowsPlan(ctx context.Context, s *Service, q *Query) ([]string, error) {
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
func explain(ctx context.Context, s *Service, query string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query)
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

// SetMaxSortedBuild changes the largest index buildSQLite sorts in memory, for
// TestBuildSearchTables; the returned function restores it.
func SetMaxSortedBuild(n int64) (restore func()) {
	old := maxSortedBuild
	maxSortedBuild = n
	return func() { maxSortedBuild = old }
}

// SetBuildChunks makes buildSQLite write n rows a transaction and call after (when
// not nil) after each, for TestBuildSearchTables; the returned function restores both.
func SetBuildChunks(n int, after func()) (restore func()) {
	oldN, oldAfter := buildChunkRows, afterBuildChunk
	buildChunkRows, afterBuildChunk = n, after
	return func() { buildChunkRows, afterBuildChunk = oldN, oldAfter }
}

// SearchTablesUsed lists the search_keys tables SQLite's plan reads for a query's
// candidates (candidateSQL), for TestSearchTablesPlan.
func SearchTablesUsed(ctx context.Context, s *Service, q *Query) ([]string, error) {
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
