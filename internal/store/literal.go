package store

import (
	"fmt"
	"strconv"
	"strings"
)

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
