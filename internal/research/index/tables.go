package index

import (
	"context"
	"strings"

	"lineage/internal/store"
)

// SearchTable is one order of the search index.
type SearchTable struct {
	Name string
	Cols []string // key columns first, as the table declares them
	NKey int
}

var SearchTables = []SearchTable{
	{"search_keys_surname", []string{"surname_id", "span", "jdn_lo", "id", "jdn_hi", "dq", "given_id", "place_id", "county_id", "collection_id", "type_id", "role_id"}, 4},
	{"search_keys_given", []string{"surname_id", "given_id", "span", "jdn_lo", "id", "jdn_hi", "dq", "place_id", "county_id", "collection_id", "type_id", "role_id"}, 5},
}

// CreateSQL creates t under name.
func (t SearchTable) CreateSQL(name string) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + name + " (")
	for _, c := range t.Cols {
		b.WriteString(c + " INTEGER NOT NULL, ")
	}
	b.WriteString("PRIMARY KEY (" + strings.Join(t.Cols[:t.NKey], ", ") + ")) WITHOUT ROWID")
	return b.String()
}

// HaveSearchTables reports whether the store answers from the search tables: SQLite
// with both of them built.
func (x *Index) HaveSearchTables(ctx context.Context) (bool, error) {
	if x.DB.Dialect != store.SQLite {
		return false, nil
	}
	var n int
	err := x.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('search_keys_surname', 'search_keys_given')`).Scan(&n)
	return n == len(SearchTables), err
}
