package research

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"lineage/internal/names"
	"lineage/internal/research/gazetteer"
	"lineage/internal/research/index"
	"lineage/internal/research/ingest"
	"lineage/internal/research/search"
	"lineage/internal/store"
)

// Membership tells which scopes the requester holds (auth.User.Scope; nil for an
// anonymous one), which an access.Level opens or not. The request has passed auth's
// middleware; cmd/lineage adapts the auth room to it.
type Membership interface {
	Scope(r *http.Request) []string
}

// Options configure a Service; the zero value works.
type Options struct {
	Members Membership // nil: nobody holds a scope
	Log     *slog.Logger
	// Cap is the number of candidate persons a search scores exactly in memory; a
	// broader search streams its results class by class and estimates its total
	// (docs/research.md). Zero means DefaultCap.
	Cap             int
	GivenNames      *names.GivenNames      // nil: the shipped groups
	SurnameVariants *names.SurnameVariants // nil: the shipped clusters
}

// DefaultCap is Options.Cap's default.
const DefaultCap = search.DefaultCap

// Service is the research room.
type Service struct {
	db      *store.DB
	log     *slog.Logger
	members Membership
	idx     *index.Index
	search  *search.Engine
	ingest  *ingest.Importer
	trees   TreeSearcher // the 'family trees' group of the global search (global.go)
	// Now is the clock; tests replace it.
	Now func() time.Time

	initOnce sync.Once
	initErr  error
}

// New builds the room on an open, migrated store.
func New(db *store.DB, opts Options) *Service {
	s := &Service{db: db, log: opts.Log, members: opts.Members, Now: time.Now}
	s.idx = index.New(db, opts.GivenNames, opts.SurnameVariants, func() time.Time { return s.Now() })
	if s.log == nil {
		s.log = slog.Default()
	}
	s.search = search.New(s.idx, s.log, opts.Cap)
	s.ingest = ingest.New(s.idx, s.log)
	return s
}

// Init loads the shipped gazetteer into a store without places. Imports and the
// server call it; it runs once per Service.
func (s *Service) Init(ctx context.Context) error {
	s.initOnce.Do(func() { s.initErr = gazetteer.Ensure(ctx, s.db) })
	return s.initErr
}

// DB is the store the room works on (for the command line's reports).
func (s *Service) DB() *store.DB { return s.db }

// EnsureCollection returns the collection with the slug, creating it when it does not
// exist (Kind defaults to record_set, Title to the slug, Access to public).
func (s *Service) EnsureCollection(ctx context.Context, nc NewCollection) (*Collection, bool, error) {
	return s.idx.EnsureCollection(ctx, nc)
}

// CollectionBySlug returns one collection.
func (s *Service) CollectionBySlug(ctx context.Context, slug string) (*Collection, error) {
	return s.idx.CollectionBySlug(ctx, slug)
}

// Collections lists every collection, by kind then title.
func (s *Service) Collections(ctx context.Context) ([]*Collection, error) {
	return s.idx.Collections(ctx)
}

// LoadGazetteer adds the places of a gazetteer file (the format of the shipped
// gazetteer.txt) that the store lacks. Parents must come before their children.
func (s *Service) LoadGazetteer(ctx context.Context, r io.Reader, source string) (int, error) {
	return gazetteer.Load(ctx, s.db, r, source)
}

// Places lists the gazetteer's places under a parent (0: the countries and other
// top-level places), by name.
func (s *Service) Places(ctx context.Context, parent int64) ([]*Place, error) {
	return gazetteer.Children(ctx, s.db, parent)
}

// PlacesNamed lists up to limit places whose name begins with the text typed (for a
// place picker), larger places first.
func (s *Service) PlacesNamed(ctx context.Context, text string, limit int) ([]*Place, error) {
	return gazetteer.Named(ctx, s.db, text, limit)
}

// Search runs a query for a requester holding scope (nil: anonymous); the records
// their scope does not open are teasers.
func (s *Service) Search(ctx context.Context, q *Query, scope []string) (*SearchResult, error) {
	return s.search.Search(ctx, q, scope)
}

// Count answers how many records a query finds, cheaply: no results, no facets.
func (s *Service) Count(ctx context.Context, q *Query, scope []string) (total int64, exact bool, err error) {
	return s.search.Count(ctx, q, scope)
}

// ImportRecords reads records from src (the canonical CSV, or another layout through
// m) into a collection. It streams, writing BatchSize records per transaction; a record
// with a bad row is skipped whole and reported with its line numbers. Re-importing a
// file is idempotent: records are matched by record_id within the collection, unchanged
// ones are left alone and changed ones updated in place. sizeHint (bytes, 0 if unknown)
// lets BulkAuto decide.
func (s *Service) ImportRecords(ctx context.Context, src io.Reader, m *Mapping, opts ImportOptions, sizeHint int64) (*ImportReport, error) {
	if err := s.Init(ctx); err != nil {
		return nil, err
	}
	return s.ingest.ImportRecords(ctx, src, m, opts, sizeHint)
}

// BuildSearchIndexes builds the search indexes that imports with BulkDefer left out
// and refreshes the planner's statistics; it reports whether there was anything to
// build.
func (s *Service) BuildSearchIndexes(ctx context.Context) (bool, error) {
	return s.ingest.BuildSearchIndexes(ctx)
}

// RepairIndexes recreates search indexes that an interrupted bulk import left
// missing; it does nothing when they are all there.
func (s *Service) RepairIndexes(ctx context.Context) error { return s.ingest.RepairIndexes(ctx) }

// Analyze refreshes the query planner's statistics of the research tables.
func (s *Service) Analyze(ctx context.Context) error { return s.ingest.Analyze(ctx) }

// HasRecords reports whether the store holds any research collection (serve --demo
// loads the demo set only into an empty one).
func (s *Service) HasRecords(ctx context.Context) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM collections`).Scan(&n)
	return n > 0, err
}
