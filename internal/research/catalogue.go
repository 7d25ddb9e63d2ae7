package research

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"lineage/internal/gendate"
	"lineage/internal/names"
)

// catalogueText is what a catalogue search matches: every field folded, one string.
func catalogueText(parts ...string) string {
	return " " + names.Fold(strings.Join(parts, " ")) + " "
}

// AddLibraryItem adds or updates (by Key within the collection) a library catalogue
// entry; the collection must be of kind library.
func (s *Service) AddLibraryItem(ctx context.Context, collection string, it LibraryItem) error {
	c, err := s.CollectionBySlug(ctx, collection)
	if err != nil {
		return err
	}
	if c.Kind != KindLibrary {
		return fmt.Errorf("collection %s is a %s collection, not a library", c.Slug, c.Kind)
	}
	if strings.TrimSpace(it.Key) == "" || strings.TrimSpace(it.Title) == "" {
		return errors.New("a library entry needs a key and a title")
	}
	var year any
	if it.Year != 0 {
		year = it.Year
	}
	text := catalogueText(it.Title, it.Authors, it.Publisher, it.Subjects, it.Shelfmark, strconv.Itoa(it.Year))
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO library_items (collection_id, key, title, authors, year, publisher, subjects, shelfmark, search_text)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (collection_id, key) DO UPDATE SET title = excluded.title, authors = excluded.authors, year = excluded.year,
		publisher = excluded.publisher, subjects = excluded.subjects, shelfmark = excluded.shelfmark, search_text = excluded.search_text`),
		c.ID, it.Key, it.Title, it.Authors, year, it.Publisher, it.Subjects, it.Shelfmark, text)
	if err != nil {
		return err
	}
	return s.recountCatalogue(ctx, c.ID, "library_items")
}

// AddArchiveItem adds or updates (by Reference within the collection) an archive
// catalogue entry; Parent, when given, is the reference of an entry added before.
func (s *Service) AddArchiveItem(ctx context.Context, collection string, it ArchiveItem) error {
	c, err := s.CollectionBySlug(ctx, collection)
	if err != nil {
		return err
	}
	if c.Kind != KindArchive {
		return fmt.Errorf("collection %s is a %s collection, not an archive", c.Slug, c.Kind)
	}
	if strings.TrimSpace(it.Reference) == "" || strings.TrimSpace(it.Title) == "" {
		return errors.New("an archive entry needs a reference and a title")
	}
	switch it.Level {
	case "":
		it.Level = "item"
	case "fonds", "series", "file", "item":
	default:
		return fmt.Errorf("archive level %q: use fonds, series, file or item", it.Level)
	}
	var parent int64
	if it.Parent != "" {
		err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT id FROM archive_items WHERE collection_id = ? AND reference = ?`), c.ID, it.Parent).Scan(&parent)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("archive entry %s: its parent %s is not in the catalogue", it.Reference, it.Parent)
		}
		if err != nil {
			return err
		}
	}
	var lo, hi any
	if d, err := gendate.Parse(it.Date); err == nil && d.HasRange() {
		lo, hi = d.Range.Earliest, d.Range.Latest
	}
	text := catalogueText(it.Reference, it.Title, it.Description, it.Date)
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO archive_items (collection_id, reference, title, date_text, jdn_lo, jdn_hi, level, description, parent_id, search_text)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (collection_id, reference) DO UPDATE SET title = excluded.title, date_text = excluded.date_text, jdn_lo = excluded.jdn_lo,
		jdn_hi = excluded.jdn_hi, level = excluded.level, description = excluded.description, parent_id = excluded.parent_id, search_text = excluded.search_text`),
		c.ID, it.Reference, it.Title, it.Date, lo, hi, it.Level, it.Description, parent, text)
	if err != nil {
		return err
	}
	return s.recountCatalogue(ctx, c.ID, "archive_items")
}

func (s *Service) recountCatalogue(ctx context.Context, collID int64, table string) error {
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE collections SET record_count = (SELECT COUNT(*) FROM `+table+` WHERE collection_id = ?), updated_at = ? WHERE id = ?`),
		collID, s.Now().Unix(), collID)
	return err
}

const (
	libraryCols = `l.id, c.slug, l.key, l.title, l.authors, COALESCE(l.year, 0), l.publisher, l.subjects, l.shelfmark`
	archiveCols = `a.id, c.slug, a.reference, a.title, a.date_text, a.level, a.description, COALESCE(p.reference, '')`
)

func scanLibrary(rows *sql.Rows) (LibraryItem, error) {
	var it LibraryItem
	err := rows.Scan(&it.ID, &it.Collection, &it.Key, &it.Title, &it.Authors, &it.Year, &it.Publisher, &it.Subjects, &it.Shelfmark)
	return it, err
}

func scanArchive(rows *sql.Rows) (ArchiveItem, error) {
	var it ArchiveItem
	err := rows.Scan(&it.ID, &it.Collection, &it.Reference, &it.Title, &it.Date, &it.Level, &it.Description, &it.Parent)
	return it, err
}

// catalogue pages a library or archive collection's entries by id.
func (s *Service) catalogue(ctx context.Context, c *Collection, after int64, limit int) ([]any, int64, error) {
	if limit <= 0 || limit > MaxLimit {
		limit = DefaultLimit
	}
	var q string
	if c.Kind == KindLibrary {
		q = `SELECT ` + libraryCols + ` FROM library_items l JOIN collections c ON c.id = l.collection_id WHERE l.collection_id = ? AND l.id > ? ORDER BY l.id LIMIT ?`
	} else {
		q = `SELECT ` + archiveCols + ` FROM archive_items a JOIN collections c ON c.id = a.collection_id LEFT JOIN archive_items p ON p.id = a.parent_id
			WHERE a.collection_id = ? AND a.id > ? ORDER BY a.id LIMIT ?`
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(q), c.ID, after, limit+1)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []any{}
	var ids []int64
	for rows.Next() {
		if c.Kind == KindLibrary {
			it, err := scanLibrary(rows)
			if err != nil {
				return nil, 0, err
			}
			out, ids = append(out, it), append(ids, it.ID)
		} else {
			it, err := scanArchive(rows)
			if err != nil {
				return nil, 0, err
			}
			out, ids = append(out, it), append(ids, it.ID)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if len(out) > limit {
		return out[:limit], ids[limit-1], nil
	}
	return out, 0, nil
}

// catalogueSearch finds catalogue entries containing every word of q (folded), up to
// limit, with the total.
func (s *Service) catalogueSearch(ctx context.Context, table, q string, limit int) ([]any, int64, error) {
	words := strings.Fields(names.Fold(q))
	if len(words) == 0 {
		return []any{}, 0, nil
	}
	if len(words) > 8 {
		words = words[:8]
	}
	alias := "l"
	if table == "archive_items" {
		alias = "a"
	}
	var conds []string
	var args []any
	for _, w := range words {
		conds = append(conds, alias+".search_text LIKE ?")
		args = append(args, "% "+w+"%")
	}
	where := strings.Join(conds, " AND ")
	var total int64
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM `+table+` `+alias+` WHERE `+where), args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	var sel string
	if table == "library_items" {
		sel = `SELECT ` + libraryCols + ` FROM library_items l JOIN collections c ON c.id = l.collection_id WHERE ` + where + ` ORDER BY l.title, l.id LIMIT ` + itoa(limit)
	} else {
		sel = `SELECT ` + archiveCols + ` FROM archive_items a JOIN collections c ON c.id = a.collection_id LEFT JOIN archive_items p ON p.id = a.parent_id WHERE ` +
			where + ` ORDER BY a.reference, a.id LIMIT ` + itoa(limit)
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(sel), args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []any{}
	for rows.Next() {
		if table == "library_items" {
			it, err := scanLibrary(rows)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, it)
		} else {
			it, err := scanArchive(rows)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, it)
		}
	}
	return out, total, rows.Err()
}
