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
