package research

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"lineage/internal/gendate"
	"lineage/internal/names"
	"lineage/internal/research/ingest"
	"lineage/internal/store"
)

// catalogueText is what a catalogue search matches: every field folded, one string.
func catalogueText(parts ...string) string {
	return " " + names.Fold(strings.Join(parts, " ")) + " "
}

// AddLibraryItem adds or updates (by Key within the collection) a library catalogue
// entry; the collection must be of kind library.
func (s *Service) AddLibraryItem(ctx context.Context, collection string, it LibraryItem) error {
	return s.addCatalogueItem(ctx, collection, KindLibrary, "a library", func(collID int64) error {
		if strings.TrimSpace(it.Key) == "" || strings.TrimSpace(it.Title) == "" {
			return errors.New("a library entry needs a key and a title")
		}
		return s.putLibraryItem(ctx, collID, it)
	})
}

func (s *Service) putLibraryItem(ctx context.Context, collID int64, it LibraryItem) error {
	var year any
	if it.Year != 0 {
		year = it.Year
	}
	text := catalogueText(it.Title, it.Authors, it.Publisher, it.Subjects, it.Shelfmark, strconv.Itoa(it.Year))
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO library_items (collection_id, key, title, authors, year, publisher, subjects, shelfmark, search_text)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (collection_id, key) DO UPDATE SET title = excluded.title, authors = excluded.authors, year = excluded.year,
		publisher = excluded.publisher, subjects = excluded.subjects, shelfmark = excluded.shelfmark, search_text = excluded.search_text`),
		collID, it.Key, it.Title, it.Authors, year, it.Publisher, it.Subjects, it.Shelfmark, text)
	return err
}

// AddArchiveItem adds or updates (by Reference within the collection) an archive
// catalogue entry; Parent, when given, is the reference of an entry added before.
func (s *Service) AddArchiveItem(ctx context.Context, collection string, it ArchiveItem) error {
	return s.addCatalogueItem(ctx, collection, KindArchive, "an archive", func(collID int64) error {
		if strings.TrimSpace(it.Reference) == "" || strings.TrimSpace(it.Title) == "" {
			return errors.New("an archive entry needs a reference and a title")
		}
		return s.putArchiveItem(ctx, collID, it)
	})
}

// addCatalogueItem puts one entry into the collection slug names, which must be a
// catalogue of kind (what names the kind in the error), and recounts the collection.
func (s *Service) addCatalogueItem(ctx context.Context, slug, kind, what string, put func(collID int64) error) error {
	c, err := s.CollectionBySlug(ctx, slug)
	if err != nil {
		return err
	}
	if c.Kind != kind {
		return fmt.Errorf("collection %s is a %s collection, not %s", c.Slug, c.Kind, what)
	}
	if err := put(c.ID); err != nil {
		return err
	}
	return s.recountCatalogue(ctx, c.ID, kind)
}

func (s *Service) putArchiveItem(ctx context.Context, collID int64, it ArchiveItem) error {
	switch it.Level {
	case "":
		it.Level = "item"
	case "fonds", "series", "file", "item":
	default:
		return fmt.Errorf("archive level %q: use fonds, series, file or item", it.Level)
	}
	var parent int64
	if it.Parent != "" {
		err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT id FROM archive_items WHERE collection_id = ? AND reference = ?`), collID, it.Parent).Scan(&parent)
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
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO archive_items (collection_id, reference, title, date_text, jdn_lo, jdn_hi, level, description, parent_id, search_text)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (collection_id, reference) DO UPDATE SET title = excluded.title, date_text = excluded.date_text, jdn_lo = excluded.jdn_lo,
		jdn_hi = excluded.jdn_hi, level = excluded.level, description = excluded.description, parent_id = excluded.parent_id, search_text = excluded.search_text`),
		collID, it.Reference, it.Title, it.Date, lo, hi, it.Level, it.Description, parent, text)
	return err
}

// CatalogueColumns are the CSV columns of catalogue imports, by collection kind; the
// first two are required.
var CatalogueColumns = map[string][]string{
	KindLibrary: {"key", "title", "authors", "year", "publisher", "subjects", "shelfmark"},
	KindArchive: {"reference", "title", "date", "level", "description", "parent"},
}

// ImportCatalogue reads library or archive entries from a CSV with a header row (the
// columns of CatalogueColumns, in any order) into a collection of that kind, created
// when missing. Entries are added or updated by key (reference); an archive entry's
// parent must come before it. Bad rows are skipped and reported with their lines.
func (s *Service) ImportCatalogue(ctx context.Context, kind, slug, title string, src io.Reader) (*ImportReport, error) {
	start := time.Now()
	cols, ok := CatalogueColumns[kind]
	if !ok {
		return nil, fmt.Errorf("catalogues are library or archive, not %q", kind)
	}
	rep := &ImportReport{Collection: slug}
	cr := ingest.NewCSVRows(src, ',', CSVLimits{})
	header, err := cr.ReadHeader()
	if err != nil {
		return rep, err
	}
	index := map[string]int{}
	for i, h := range header {
		index[ingest.HeaderKey(h)] = i
	}
	for _, need := range cols[:2] {
		if _, ok := index[need]; !ok {
			return rep, fmt.Errorf("header: missing column %s (columns: %s)", need, strings.Join(cols, ", "))
		}
	}
	c, created, err := s.EnsureCollection(ctx, NewCollection{Slug: slug, Kind: kind, Title: title})
	if err != nil {
		return rep, err
	}
	if c.Kind != kind {
		return rep, fmt.Errorf("collection %s is a %s collection, not %s", slug, c.Kind, kind)
	}
	rep.CollectionCreated = created
	for {
		row, line, rowErr, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return rep, err
		}
		if rowErr != nil {
			rep.Records++
			rep.Skipped++
			rep.AddErrors([]RowError{*rowErr})
			continue
		}
		if strings.TrimSpace(strings.Join(row, "")) == "" {
			continue
		}
		rep.Records++
		field := func(name string) string {
			if i, ok := index[name]; ok && i < len(row) {
				return strings.TrimSpace(row[i])
			}
			return ""
		}
		var perr error
		joined := strings.Join(row, "")
		switch {
		case !utf8.ValidString(joined) || strings.ContainsRune(joined, 0):
			perr = errors.New("is not valid UTF-8 text")
		case kind == KindLibrary:
			it := LibraryItem{Key: field("key"), Title: field("title"), Authors: field("authors"), Publisher: field("publisher"),
				Subjects: field("subjects"), Shelfmark: field("shelfmark")}
			if y := field("year"); y != "" {
				if it.Year, perr = strconv.Atoi(y); perr != nil {
					perr = fmt.Errorf("year %q is not a number", y)
				}
			}
			if perr == nil && (it.Key == "" || it.Title == "") {
				perr = errors.New("key and title are required")
			}
			if perr == nil {
				perr = s.putLibraryItem(ctx, c.ID, it)
			}
		default:
			it := ArchiveItem{Reference: field("reference"), Title: field("title"), Date: field("date"), Level: field("level"),
				Description: field("description"), Parent: field("parent")}
			if it.Reference == "" || it.Title == "" {
				perr = errors.New("reference and title are required")
			} else {
				perr = s.putArchiveItem(ctx, c.ID, it)
			}
		}
		if perr != nil {
			rep.Skipped++
			rep.AddErrors([]RowError{{Line: line, Message: perr.Error()}})
			continue
		}
		rep.Added++
	}
	if err := s.recountCatalogue(ctx, c.ID, kind); err != nil {
		return rep, err
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// recountCatalogue sets a catalogue collection's record count from its entries (kind:
// library or archive).
func (s *Service) recountCatalogue(ctx context.Context, collID int64, kind string) error {
	table := map[string]string{KindLibrary: "library_items", KindArchive: "archive_items"}[kind]
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE collections SET record_count = (SELECT COUNT(*) FROM `+table+` WHERE collection_id = ?), updated_at = ? WHERE id = ?`),
		collID, s.Now().Unix(), collID)
	return err
}

const (
	libraryCols = `l.id, c.slug, l.key, l.title, l.authors, COALESCE(l.year, 0), l.publisher, l.subjects, l.shelfmark`
	archiveCols = `a.id, c.slug, a.reference, a.title, a.date_text, a.level, a.description, COALESCE(p.reference, '')`
)

func scanLibrary(row store.Row) (any, error) {
	var it LibraryItem
	err := row.Scan(&it.ID, &it.Collection, &it.Key, &it.Title, &it.Authors, &it.Year, &it.Publisher, &it.Subjects, &it.Shelfmark)
	return it, err
}

func scanArchive(row store.Row) (any, error) {
	var it ArchiveItem
	err := row.Scan(&it.ID, &it.Collection, &it.Reference, &it.Title, &it.Date, &it.Level, &it.Description, &it.Parent)
	return it, err
}

// entries reads catalogue rows (libraryCols or archiveCols) as the API answers them.
func entries(rows *sql.Rows, err error, library bool) ([]any, error) {
	if library {
		return store.Collect(rows, err, scanLibrary)
	}
	return store.Collect(rows, err, scanArchive)
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
	out, err := entries(rows, err, c.Kind == KindLibrary)
	if err != nil {
		return nil, 0, err
	}
	if len(out) <= limit {
		return out, 0, nil
	}
	next := int64(0)
	switch it := out[limit-1].(type) {
	case LibraryItem:
		next = it.ID
	case ArchiveItem:
		next = it.ID
	}
	return out[:limit], next, nil
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
		sel = `SELECT ` + libraryCols + ` FROM library_items l JOIN collections c ON c.id = l.collection_id WHERE ` + where + ` ORDER BY l.title, l.id LIMIT ` + strconv.Itoa(limit)
	} else {
		sel = `SELECT ` + archiveCols + ` FROM archive_items a JOIN collections c ON c.id = a.collection_id LEFT JOIN archive_items p ON p.id = a.parent_id WHERE ` +
			where + ` ORDER BY a.reference, a.id LIMIT ` + strconv.Itoa(limit)
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(sel), args...)
	out, err := entries(rows, err, table == "library_items")
	return out, total, err
}
