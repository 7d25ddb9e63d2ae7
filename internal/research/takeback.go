package research

import (
	"context"
	"io"

	"lineage/internal/research/ingest"
)

// ErrNotEmpty: DeleteEmptyCollection found records in the collection.
var ErrNotEmpty = ingest.ErrNotEmpty

// RemoveRecords takes records out of a collection by record_id, with their search
// rows, name statistics, count and summary; it answers how many it removed. It is how
// an import that stopped part way is taken back.
func (s *Service) RemoveRecords(ctx context.Context, collection string, keys []string) (int, error) {
	return s.ingest.RemoveRecords(ctx, collection, keys)
}

// WriteCanonical writes the records of a collection with these record_ids as the
// canonical CSV, which ImportRecords reads back into the same records.
func (s *Service) WriteCanonical(ctx context.Context, collection string, keys []string, w io.Writer) (int, error) {
	return s.ingest.WriteCanonical(ctx, collection, keys, w)
}

// DeleteEmptyCollection deletes a collection without records (ErrNotEmpty otherwise).
func (s *Service) DeleteEmptyCollection(ctx context.Context, slug string) error {
	return s.ingest.DeleteEmptyCollection(ctx, slug)
}

// CSVRows reads the rows of a CSV file under CSVLimits (ingest/csvrows.go).
type CSVRows = ingest.CSVRows

// NewCSVRows reads CSV rows with the delimiter comma.
func NewCSVRows(r io.Reader, comma rune, lim CSVLimits) *CSVRows {
	return ingest.NewCSVRows(r, comma, lim)
}

// HeaderKey is a header cell as imports compare them: "Given Names" is given_names.
func HeaderKey(s string) string { return ingest.HeaderKey(s) }
