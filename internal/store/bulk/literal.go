package bulk

import (
	"strings"

	"lineage/internal/store"
)

// InsertSQL is the one-row INSERT of cols into table that a bulk writer compiles;
// verb is "INSERT", "INSERT OR FAIL", "INSERT OR IGNORE"….
func InsertSQL(verb, table string, cols []string) string {
	return InsertRowsSQL(verb, table, cols, 1)
}

// InsertRowsSQL is InsertSQL for n rows in one statement, whose parameters are the
// rows' values one row after another: SQLite then opens the table's cursors once for
// the n rows instead of once a row.
func InsertRowsSQL(verb, table string, cols []string, n int) string {
	row := "(" + store.Placeholders(len(cols)) + ")"
	return verb + " INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " + strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}

// LiteralInserts writes multi-row INSERTs of literal values into table: one statement
// per rowsPerStmt rows, each "verb INTO table (cols) VALUES (…),(…)"; verb is
// "INSERT", "INSERT OR FAIL", "INSERT OR IGNORE"…. It is the SQLite Writer's path when no
// SQLiteConn is at hand: the modernc driver compiles every statement
// afresh and binds parameters slowly, so literals cost less than bound parameters.
// Values are written by store.WriteLiteral. No rows, no statements.
func LiteralInserts(verb, table string, cols []string, rows [][]any, rowsPerStmt int) []string {
	if rowsPerStmt < 1 {
		rowsPerStmt = 1
	}
	head := verb + " INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES "
	var out []string
	var b strings.Builder
	for i := 0; i < len(rows); i += rowsPerStmt {
		b.Reset()
		b.WriteString(head)
		for j, r := range rows[i:min(i+rowsPerStmt, len(rows))] {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('(')
			for k, v := range r {
				if k > 0 {
					b.WriteByte(',')
				}
				store.WriteLiteral(&b, v)
			}
			b.WriteByte(')')
		}
		out = append(out, b.String())
	}
	return out
}

// PGColumn gathers column j of rows into one typed array parameter for PostgreSQL's
// unnest (the PostgreSQL Writer's path for
// upserts and pool transactions): []string and "text" when any row holds
// a string there (a NUL becomes U+FFFD, as in store.WriteLiteral; a non-string is ""),
// otherwise []*int64 and "bigint", nil for anything that is not an int or int64.
func PGColumn(rows [][]any, j int) (any, string) {
	for _, r := range rows {
		if _, ok := r[j].(string); ok {
			out := make([]string, len(rows))
			for i, r := range rows {
				x, _ := r[j].(string)
				if strings.IndexByte(x, 0) >= 0 {
					x = strings.ReplaceAll(x, "\x00", "\uFFFD")
				}
				out[i] = x
			}
			return out, "text"
		}
	}
	out := make([]*int64, len(rows))
	for i, r := range rows {
		switch x := r[j].(type) {
		case int:
			v := int64(x)
			out[i] = &v
		case int64:
			v := x
			out[i] = &v
		}
	}
	return out, "bigint"
}
