package ingest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"lineage/internal/store"
)

// removeChunk is how many records RemoveRecords takes out a transaction.
const removeChunk = 500

// RemoveRecords takes records out of a collection by their record_ids, with what
// imports wrote of them: their search-index rows, their name statistics, the
// collection's count and summary. It is how an import that stopped part way is taken
// back (internal/staff); keys not in the collection are passed over. It answers how
// many records it removed.
func (s *Importer) RemoveRecords(ctx context.Context, slug string, keys []string) (int, error) {
	coll, err := s.CollectionBySlug(ctx, slug)
	if err != nil {
		return 0, err
	}
	st, err := s.begin(ctx, coll, removeChunk)
	if err != nil {
		return 0, err
	}
	defer st.end(ctx)
	if st.tables, err = s.HaveSearchTables(ctx); err != nil {
		return 0, err
	}
	removed := 0
	for len(keys) > 0 {
		n := min(len(keys), removeChunk)
		chunk := keys[:n]
		keys = keys[n:]
		err := st.inTx(ctx, func(tx *sql.Tx) error {
			args := make([]any, 0, n+1)
			args = append(args, coll.ID)
			for _, k := range chunk {
				args = append(args, k)
			}
			rows, err := tx.QueryContext(ctx, s.DB.Rebind(`SELECT id FROM records WHERE collection_id = ? AND key IN (`+store.Placeholders(n)+`)`), args...)
			if err != nil {
				return err
			}
			var gone []*prepared
			var ids []any
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return err
				}
				gone = append(gone, &prepared{oldID: id})
				ids = append(ids, id)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			if len(gone) == 0 {
				return nil
			}
			stats := statDeltas{}
			if err := st.retire(ctx, tx, gone, stats); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, s.DB.Rebind(`DELETE FROM records WHERE id IN (`+store.Placeholders(len(ids))+`)`), ids...); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, s.DB.Rebind(`UPDATE collections SET record_count = record_count - ?, updated_at = ? WHERE id = ?`),
				len(gone), s.Now().Unix(), coll.ID); err != nil {
				return err
			}
			if err := st.applyStats(ctx, tx, stats); err != nil {
				return err
			}
			if len(st.search.Tables) > 0 {
				if _, err := tx.ExecContext(ctx, `UPDATE search_epoch SET n = n + 1`); err != nil {
					return err
				}
			}
			removed += len(gone)
			return nil
		})
		if err != nil {
			return removed, fmt.Errorf("research: remove records: %w", err)
		}
		s.DB.YieldToWriters()
	}
	if removed > 0 {
		if err := s.RefreshSummary(ctx, coll.ID); err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// ErrNotEmpty: DeleteEmptyCollection found records in the collection.
var ErrNotEmpty = errors.New("research: the collection holds records")

// DeleteEmptyCollection deletes a collection that holds no records (one an import
// created and then took back).
func (s *Importer) DeleteEmptyCollection(ctx context.Context, slug string) error {
	res, err := s.DB.ExecContext(ctx, s.DB.Rebind(`DELETE FROM collections WHERE slug = ?
		AND NOT EXISTS (SELECT 1 FROM records r WHERE r.collection_id = collections.id)`), slug)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.CollectionBySlug(ctx, slug); err != nil {
			return err
		}
		return ErrNotEmpty
	}
	return nil
}
