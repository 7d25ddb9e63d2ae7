package research

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"lineage/internal/access"
	"lineage/internal/names"
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
const DefaultCap = 10_000

// Service is the research room.
type Service struct {
	db       *store.DB
	log      *slog.Logger
	members  Membership
	cap      int
	given    *names.GivenNames
	variants *names.SurnameVariants
	types    *vocab
	roles    *vocab
	mux      *http.ServeMux
	trees    TreeSearcher // the 'family trees' group of the global search (global.go)
	// Now is the clock; tests replace it.
	Now func() time.Time

	initOnce sync.Once
	initErr  error
}

// New builds the room on an open, migrated store.
func New(db *store.DB, opts Options) *Service {
	s := &Service{
		db: db, log: opts.Log, members: opts.Members, cap: opts.Cap,
		given: opts.GivenNames, variants: opts.SurnameVariants,
		types: newVocab("record_types", recordTypeLabels),
		roles: newVocab("person_roles", nil),
		Now:   time.Now,
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.cap <= 0 {
		s.cap = DefaultCap
	}
	if s.given == nil {
		s.given = names.DefaultGivenNames()
	}
	if s.variants == nil {
		s.variants = names.DefaultSurnameVariants()
	}
	s.routes()
	return s
}

// Init loads the shipped gazetteer into a store without places. Imports and the
// server call it; it runs once per Service.
func (s *Service) Init(ctx context.Context) error {
	s.initOnce.Do(func() { s.initErr = s.ensureGazetteer(ctx) })
	return s.initErr
}

// DB is the store the room works on (for the command line's reports).
func (s *Service) DB() *store.DB { return s.db }

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// ValidSlug reports whether s can name a collection in a URL: lower-case letters and
// digits in words joined by hyphens, at most 100 characters.
func ValidSlug(s string) bool { return len(s) <= 100 && slugPattern.MatchString(s) }

// ErrNotFound is returned for an unknown collection or record.
var ErrNotFound = errors.New("not found")

const collectionColumns = `id, slug, kind, title, description, access, access_level, record_count, created_at, updated_at`

func scanCollection(row interface{ Scan(...any) error }) (*Collection, error) {
	c := &Collection{}
	var code int
	var text string
	var created, updated int64
	if err := row.Scan(&c.ID, &c.Slug, &c.Kind, &c.Title, &c.Description, &code, &text, &c.Count, &created, &updated); err != nil {
		return nil, err
	}
	var err error
	if c.level, err = storedLevel(code, text); err != nil {
		return nil, fmt.Errorf("collection %s: %w", c.Slug, err)
	}
	c.Access = c.level.String()
	c.CreatedAt, c.UpdatedAt = time.Unix(created, 0).UTC(), time.Unix(updated, 0).UTC()
	return c, nil
}

// NewCollection describes a collection to create.
type NewCollection struct {
	Slug, Kind, Title, Description, Access string
}

// EnsureCollection returns the collection with the slug, creating it when it does not
// exist (Kind defaults to record_set, Title to the slug, Access to public).
func (s *Service) EnsureCollection(ctx context.Context, nc NewCollection) (*Collection, bool, error) {
	if !ValidSlug(nc.Slug) {
		return nil, false, fmt.Errorf("collection slug %q: use lower-case letters, digits and hyphens", nc.Slug)
	}
	if c, err := s.CollectionBySlug(ctx, nc.Slug); err == nil {
		return c, false, nil
	} else if !errors.Is(err, ErrNotFound) {
		return nil, false, err
	}
	if nc.Kind == "" {
		nc.Kind = KindRecordSet
	}
	if !ValidKind(nc.Kind) {
		return nil, false, fmt.Errorf("collection kind %q: use one of %s", nc.Kind, strings.Join(Kinds, ", "))
	}
	level, err := access.Parse(nc.Access)
	if err != nil {
		return nil, false, fmt.Errorf("collection %s: %w", nc.Slug, err)
	}
	code, text := levelColumns(level)
	if strings.TrimSpace(nc.Title) == "" {
		nc.Title = nc.Slug
	}
	now := s.Now().Unix()
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO collections (slug, kind, title, description, access, access_level, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING`),
		nc.Slug, nc.Kind, strings.TrimSpace(nc.Title), nc.Description, code, text, now, now)
	if err != nil {
		return nil, false, err
	}
	c, err := s.CollectionBySlug(ctx, nc.Slug)
	return c, err == nil, err
}

// CollectionBySlug returns one collection.
func (s *Service) CollectionBySlug(ctx context.Context, slug string) (*Collection, error) {
	c, err := scanCollection(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+collectionColumns+` FROM collections WHERE slug = ?`), slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return c, err
}

// Collections lists every collection, by kind then title.
func (s *Service) Collections(ctx context.Context) ([]*Collection, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+collectionColumns+` FROM collections ORDER BY kind, title, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Collection
	for rows.Next() {
		c, err := scanCollection(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// collectionsByID loads the named collections.
func (s *Service) collectionsByID(ctx context.Context) (map[int64]*Collection, error) {
	all, err := s.Collections(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*Collection, len(all))
	for _, c := range all {
		out[c.ID] = c
	}
	return out, nil
}
