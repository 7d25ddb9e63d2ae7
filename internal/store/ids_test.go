package store_test

import (
	"context"
	"maps"
	"strings"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestReadIDs: keys are read in chunks of perQuery, missing keys stay out of the map,
// ids already in it are kept, and a bad statement's error comes back.
func TestReadIDs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.ExecContext(ctx, `CREATE TABLE dict (id INTEGER PRIMARY KEY, folded TEXT NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO dict (id, folded) VALUES (1, 'smith'), (2, 'jones'), (3, 'o''brien'), (4, 'brown')`); err != nil {
			t.Fatal(err)
		}
		var chunks []int
		query := func(chunk []string) (string, []any) {
			chunks = append(chunks, len(chunk))
			args := make([]any, len(chunk))
			for i, k := range chunk {
				args[i] = k
			}
			return db.Rebind(`SELECT folded, id FROM dict WHERE folded IN (?` + strings.Repeat(", ?", len(chunk)-1) + `)`), args
		}
		got := map[string]int64{"kept": 9}
		if err := store.ReadIDs(ctx, db, []string{"smith", "nobody", "o'brien", "brown", "jones"}, 2, query, got); err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"kept": 9, "smith": 1, "o'brien": 3, "brown": 4, "jones": 2}
		if !maps.Equal(got, want) {
			t.Errorf("ids %v, want %v", got, want)
		}
		if len(chunks) != 3 || chunks[0] != 2 || chunks[1] != 2 || chunks[2] != 1 {
			t.Errorf("chunks %v, want [2 2 1]", chunks)
		}
		if err := store.ReadIDs(ctx, db, nil, 2, query, got); err != nil || len(chunks) != 3 {
			t.Errorf("no keys: err %v, %d queries", err, len(chunks)-3)
		}
		bad := func([]string) (string, []any) { return `SELECT folded, id FROM no_such_table`, nil }
		if err := store.ReadIDs(ctx, db, []string{"smith"}, 2, bad, got); err == nil {
			t.Error("a bad statement gave no error")
		}
	})
}
