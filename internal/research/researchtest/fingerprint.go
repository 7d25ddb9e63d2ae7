package researchtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"lineage/internal/research/index"
	"lineage/internal/store"
)

// Fingerprint is everything an import writes that searches and pages read, as text:
// records (but the hash and run that say which import wrote them), the search index,
// the name statistics, and the collections' counts and summaries. Two stores with
// the same fingerprint answer every search alike.
func Fingerprint(t testing.TB, db *store.DB) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	dump := func(q string) {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%v|", v)
			}
			b.WriteByte('\n')
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	dump(`SELECT c.slug, r.id, r.key, r.type_id, r.date_text, r.jdn_lo, r.jdn_hi, r.date_kind, r.place_id, r.county_id, r.place_text,
		r.transcript, r.source, r.access, r.images, r.persons FROM records r JOIN collections c ON c.id = r.collection_id ORDER BY c.slug, r.key`)
	dump(`SELECT * FROM search_keys ORDER BY id`)
	dump(`SELECT surname_id, collection_id, type_id, facet, value, records FROM name_facets ORDER BY surname_id, collection_id, type_id, facet, value`)
	dump(`SELECT slug, record_count, summary FROM collections ORDER BY slug`)
	if db.Dialect == store.SQLite {
		for _, st := range index.SearchTables {
			dump(`SELECT * FROM ` + st.Name + ` ORDER BY id`)
		}
	}
	return b.String()
}
