package ingest

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"lineage/internal/research/index"
	"lineage/internal/store"
)

// WriteCanonical writes the records of a collection whose record_ids are in keys as
// the canonical CSV, which ImportRecords reads back into the same records (the type
// as its slug, the access mark as members or nothing). An import keeps the records it
// is about to change this way, to put them back if it stops part way (internal/staff).
// It answers how many records it wrote.
func (s *Importer) WriteCanonical(ctx context.Context, slug string, keys []string, w io.Writer) (int, error) {
	coll, err := s.CollectionBySlug(ctx, slug)
	if err != nil {
		return 0, err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(append(slices.Clone(recordFields), personFields...)); err != nil {
		return 0, err
	}
	n := 0
	for len(keys) > 0 {
		k := min(len(keys), removeChunk)
		args := make([]any, 0, k+1)
		args = append(args, coll.ID)
		for _, key := range keys[:k] {
			args = append(args, key)
		}
		keys = keys[k:]
		rows, err := s.DB.QueryContext(ctx, s.DB.Rebind(`SELECT r.key, t.slug, r.date_text, r.place_text, r.transcript, r.source, r.access, r.images, r.persons
			FROM records r JOIN record_types t ON t.id = r.type_id WHERE r.collection_id = ? AND r.key IN (`+store.Placeholders(k)+`) ORDER BY r.id`), args...)
		if err != nil {
			return n, err
		}
		for rows.Next() {
			var key, typ, date, place, transcript, source, images, persons string
			var acc int
			if err := rows.Scan(&key, &typ, &date, &place, &transcript, &source, &acc, &images, &persons); err != nil {
				rows.Close()
				return n, err
			}
			var imgs []string
			var ps []index.Person
			if err := json.Unmarshal([]byte(images), &imgs); err != nil {
				rows.Close()
				return n, fmt.Errorf("record %s: images: %w", key, err)
			}
			if err := json.Unmarshal([]byte(persons), &ps); err != nil {
				rows.Close()
				return n, fmt.Errorf("record %s: persons: %w", key, err)
			}
			mark := ""
			if acc == index.AccessCode(index.AccessMembers) {
				mark = index.AccessMembers
			}
			rec := []string{key, typ, date, place, transcript, source, mark, strings.Join(imgs, "|")}
			for i, p := range ps {
				if i > 0 {
					// The record's own fields once: later rows of a record leave them empty.
					rec = []string{key, "", "", "", "", "", "", ""}
				}
				if err := cw.Write(append(rec, p.Role, p.Surname, p.GivenNames, p.Sex, p.Age)); err != nil {
					rows.Close()
					return n, err
				}
			}
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return n, err
		}
	}
	cw.Flush()
	return n, cw.Error()
}
