package search

import (
	"database/sql"
	"log/slog"

	"lineage/internal/research/index"
)

// DefaultCap is the number of candidate persons a search scores exactly in memory
// when the room's options do not say.
const DefaultCap = 10_000

// Engine answers searches over a store's index. It only reads.
type Engine struct {
	*index.Index
	log *slog.Logger
	// cap is the number of candidate persons a search scores exactly in memory; a
	// broader search streams its results class by class and estimates its total.
	cap int
	// conn is the connection of one search (session); nil for the engine itself,
	// whose queries go to the pool.
	conn *sql.Conn
}

// New is the search engine of an index; cap <= 0 means DefaultCap.
func New(idx *index.Index, log *slog.Logger, cap int) *Engine {
	if log == nil {
		log = slog.Default()
	}
	if cap <= 0 {
		cap = DefaultCap
	}
	return &Engine{Index: idx, log: log, cap: cap}
}
