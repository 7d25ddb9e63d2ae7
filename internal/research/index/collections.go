package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"lineage/internal/access"
	"lineage/internal/store"
)

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// ValidSlug reports whether s can name a collection in a URL: lower-case letters and
// digits in words joined by hyphens, at most 100 characters.
func ValidSlug(s string) bool { return len(s) <= 100 && slugPattern.MatchString(s) }

// ErrNotFound is returned for an unknown collection or record.
var ErrNotFound = errors.New("not found")

const collectionColumns = `id, slug, kind, title, description, access, access_level, record_count, created_at, updated_at`

func scanCollection(row store.Row) (*Collection, error) {
	c := &Collection{}
	var code int
	var text string
	var created, updated int64
	if err := row.Scan(&c.ID, &c.Slug, &c.Kind, &c.Title, &c.Description, &code, &text, &c.Count, &created, &updated); err != nil {
		return nil, err
	}
	var err error
	if c.Level, err = StoredLevel(code, text); err != nil {
		return nil, fmt.Errorf("collection %s: %w", c.Slug, err)
	}
	c.Access = c.Level.String()
	c.CreatedAt, c.UpdatedAt = store.Time(created), store.Time(updated)
	return c, nil
}

// NewCollection describes a collection to create.
type NewCollection struct {
	Slug, Kind, Title, Description, Access string
}

// EnsureCollection returns the collection with the slug, creating it when it does not
// exist (Kind defaults to record_set, Title to the slug, Access to public).
func (x *Index) EnsureCollection(ctx context.Context, nc NewCollection) (*Collection, bool, error) {
	if !ValidSlug(nc.Slug) {
		return nil, false, fmt.Errorf("collection slug %q: use lower-case letters, digits and hyphens", nc.Slug)
	}
	if c, err := x.CollectionBySlug(ctx, nc.Slug); err == nil {
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
	code, text := LevelColumns(level)
	if strings.TrimSpace(nc.Title) == "" {
		nc.Title = nc.Slug
	}
	now := x.Now().Unix()
	_, err = x.DB.ExecContext(ctx, x.DB.Rebind(`INSERT INTO collections (slug, kind, title, description, access, access_level, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING`),
		nc.Slug, nc.Kind, strings.TrimSpace(nc.Title), nc.Description, code, text, now, now)
	if err != nil {
		return nil, false, err
	}
	c, err := x.CollectionBySlug(ctx, nc.Slug)
	return c, err == nil, err
}

// CollectionBySlug returns one collection.
func (x *Index) CollectionBySlug(ctx context.Context, slug string) (*Collection, error) {
	c, err := scanCollection(x.DB.QueryRowContext(ctx, x.DB.Rebind(`SELECT `+collectionColumns+` FROM collections WHERE slug = ?`), slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return c, err
}

// Collections lists every collection, by kind then title.
func (x *Index) Collections(ctx context.Context) ([]*Collection, error) {
	rows, err := x.DB.QueryContext(ctx, `SELECT `+collectionColumns+` FROM collections ORDER BY kind, title, id`)
	return store.Collect(rows, err, scanCollection)
}

// CollectionsByID loads the named collections.
func (x *Index) CollectionsByID(ctx context.Context) (map[int64]*Collection, error) {
	all, err := x.Collections(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*Collection, len(all))
	for _, c := range all {
		out[c.ID] = c
	}
	return out, nil
}
