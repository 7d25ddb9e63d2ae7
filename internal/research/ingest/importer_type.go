package ingest

import (
	"log/slog"

	"lineage/internal/research/index"
)

// Importer writes records, and what searches read of them, into a store's index.
type Importer struct {
	*index.Index
	log *slog.Logger
}

// New is the importer of an index.
func New(idx *index.Index, log *slog.Logger) *Importer {
	if log == nil {
		log = slog.Default()
	}
	return &Importer{Index: idx, log: log}
}
