package store_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
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

// TestPlaceholders: n question marks joined by ", ", nothing for n ≤ 0, and the list
// binds n arguments on both stores.
func TestPlaceholders(t *testing.T) {
	for n, want := range map[int]string{-1: "", 0: "", 1: "?", 2: "?, ?", 4: "?, ?, ?, ?"} {
		if got := store.Placeholders(n); got != want {
			t.Errorf("Placeholders(%d) = %q, want %q", n, got, want)
		}
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		things(t, db)
		rs, err := db.QueryContext(context.Background(), db.Rebind(`SELECT id FROM things WHERE id IN (`+store.Placeholders(3)+`) ORDER BY id`), 2, 7, 1)
		if ids, err := store.Collect(rs, err, store.Scalar[int64]); err != nil || len(ids) != 2 || ids[0] != 1 || ids[1] != 2 {
			t.Fatalf("IN list: %v %v", ids, err)
		}
	})
}
