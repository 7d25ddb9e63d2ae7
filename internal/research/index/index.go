package index

import (
	"context"
	"database/sql"
	"time"

	"lineage/internal/names"
	"lineage/internal/store"
)

// Index is what ingest and search share about one store: the database, the
// vocabularies of record types and roles, the name groups that make the
// dictionaries' keys, and the clock that stamps collections.
type Index struct {
	DB       *store.DB
	Types    *Vocab // record types
	Roles    *Vocab // person roles
	Given    *names.GivenNames
	Variants *names.SurnameVariants
	Now      func() time.Time
}

// New is the index of a store. given and variants nil mean the shipped groups and
// clusters; now nil means time.Now.
func New(db *store.DB, given *names.GivenNames, variants *names.SurnameVariants, now func() time.Time) *Index {
	if given == nil {
		given = names.DefaultGivenNames()
	}
	if variants == nil {
		variants = names.DefaultSurnameVariants()
	}
	if now == nil {
		now = time.Now
	}
	return &Index{
		DB: db, Given: given, Variants: variants, Now: now,
		Types: NewVocab("record_types", RecordTypeLabels),
		Roles: NewVocab("person_roles", nil),
	}
}

// Queryer is what reads go to: the pool, one connection or a transaction.
type Queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}
