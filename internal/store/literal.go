package store

import (
	"fmt"
	"strconv"
	"strings"
)

// LiteralInserts writes multi-row INSERTs of literal values into table: one statement
// per rowsPerStmt rows, each "verb INTO table (cols) VALUES (…),(…)"; verb is
// "INSERT", "INSERT OR FAIL", "INSERT OR IGNORE"…. It is the SQLite path of the bulk
// imports when no SQLiteBulk is at hand: the modernc driver compiles every statement
// afresh and binds parameters slowly, so literals cost less than bound parameters.
// Values are written by WriteLiteral. No rows, no statements.
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
				WriteLiteral(&b, v)
			}
			b.WriteByte(')')
		}
		out = append(out, b.String())
	}
	return out
}

// Placeholders is n comma-separated question marks ("?, ?, ?"), for an IN list or a
// VALUES row; "" for n ≤ 0.
func Placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

// WriteLiteral writes v as an SQL literal: NULL for nil, decimal for int and int64,
// a single-quoted string (quotes doubled) for string. A NUL in a string becomes
// U+FFFD, as no SQL text may hold NUL. Any other type is a programming error and
// panics.
func WriteLiteral(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("NULL")
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case string:
		b.WriteByte('\'')
		if strings.IndexByte(x, 0) >= 0 {
			x = strings.ReplaceAll(x, "\x00", "\uFFFD")
		}
		if strings.IndexByte(x, '\'') >= 0 {
			x = strings.ReplaceAll(x, "'", "''")
		}
		b.WriteString(x)
		b.WriteByte('\'')
	default:
		panic(fmt.Sprintf("store: no SQL literal for %T", v))
	}
}

// PGColumn gathers column j of rows into one typed array parameter for PostgreSQL's
// unnest (the bulk imports' PostgreSQL path): []string and "text" when any row holds
// a string there (a NUL becomes U+FFFD, as in WriteLiteral; a non-string is ""),
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
