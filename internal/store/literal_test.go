package store_test

import (
	"math"
	"strings"
	"testing"

	"lineage/internal/store"
)

// TestWriteLiteral: each supported value's literal text, quotes doubled and NUL
// replaced; an unsupported type panics.
func TestWriteLiteral(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "NULL"},
		{0, "0"},
		{-42, "-42"},
		{int64(math.MinInt64), "-9223372036854775808"},
		{"", "''"},
		{"plain", "'plain'"},
		{"O'Brien", "'O''Brien'"},
		{"''", "''''''"},
		{"a\x00b", "'a\uFFFDb'"},
		{"\x00'\x00", "'\uFFFD''\uFFFD'"},
		{"Zoë 名", "'Zoë 名'"},
	} {
		var b strings.Builder
		store.WriteLiteral(&b, c.v)
		if b.String() != c.want {
			t.Errorf("WriteLiteral(%#v) = %q, want %q", c.v, b.String(), c.want)
		}
	}
	for _, v := range []any{1.5, true, []byte("x"), int32(1)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WriteLiteral(%#v) did not panic", v)
				}
			}()
			var b strings.Builder
			store.WriteLiteral(&b, v)
		}()
	}
}
