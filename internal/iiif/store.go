package iiif

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"lineage/internal/access"
	"lineage/internal/store"
	"lineage/internal/trees"
)

// ErrNotFound is an unknown image, item, collection or target.
var ErrNotFound = errors.New("not found")

// Targets an item can be attached to.
const (
	TargetRecord  = "record"
	TargetLibrary = "library"
	TargetArchive = "archive"
	TargetPerson  = "person"
)

// imageRow is one scan as the server needs it.
type imageRow struct {
	ID        string
	ItemID    int64
	ItemSlug  string
	Page      int
	Label     string
	Width     int
	Height    int
	Levels    int
	Version   string
	Level     access.Level // its item's
	Members   bool         // Level is not public
	UpdatedAt time.Time
}

func (im *imageRow) pyramid() Pyramid {
	return Pyramid{Width: im.Width, Height: im.Height, Levels: im.Levels}
}

// itemRow is one item with what its manifest and the images API show.
type itemRow struct {
	ID             int64
	Slug           string
	CollectionID   int64
	CollectionSlug string
	CollectionName string
	Target         string
	TargetID       int64
	TargetKey      string
	Label          string
	Level          access.Level // levelOf
	Members        bool         // Level is not public
	Rights         string
	Attribution    string
	UpdatedAt      time.Time
	Images         []*imageRow
}

// levelColumns are what levelOf reads: the item's level, its collection's, (for
// records) the record's mark and (for people) their tree's level.
const levelColumns = `it.access, it.access_level, c.access, c.access_level, COALESCE(r.access, 0), COALESCE(tr.access_level, '')`

// levelOf is an item's access level: access.Within its collection's (within which a
// record's mark counts as in research, and within a person's tree's level) and its
// own. An empty access_level is what the integer access says (rows written before
// levels: 0 public, 1 members).
func levelOf(itCode int, itText string, cCode int, cText string, rCode int, treeText string) (access.Level, error) {
	stored := func(code int, text string) (access.Level, error) {
		if text != "" {
			return access.Parse(text)
		}
		if code == 1 {
			return access.Parse(access.Members)
		}
		return access.Level{}, nil
	}
	item, err := stored(itCode, itText)
	if err != nil {
		return item, err
	}
	coll, err := stored(cCode, cText)
	if err != nil {
		return coll, err
	}
	tree, err := access.Parse(treeText)
	if err != nil {
		return tree, err
	}
	rec, _ := stored(rCode, "")
	return access.Within(access.Within(access.Within(tree, coll), rec), item), nil
}

// levelScan receives levelColumns.
type levelScan struct {
	itCode, cCode, rCode   int
	itText, cText, treeTxt string
}

func (l *levelScan) dest() []any {
	return []any{&l.itCode, &l.itText, &l.cCode, &l.cText, &l.rCode, &l.treeTxt}
}

func (l *levelScan) level() (access.Level, error) {
	return levelOf(l.itCode, l.itText, l.cCode, l.cText, l.rCode, l.treeTxt)
}

// personJoins find the tree and person of a person's item.
const personJoins = `
	LEFT JOIN trees tr ON it.target = 'person' AND tr.id = it.target_id
	LEFT JOIN tree_people tp ON it.target = 'person' AND tp.tree_id = it.target_id AND tp.xref = it.target_ref`

// visibleExpr hides the scans of a person the trees do not show the public in full
// (trees.PublicPerson: a tree no longer published, a person now counted among the
// living) or who is gone: such items answer 404, whatever the requester.
var visibleExpr = `(it.target <> 'person' OR ` + trees.PublicPerson("tr", "tp") + `)`

const itemFrom = ` FROM iiif_items it
	JOIN collections c ON c.id = it.collection_id
	LEFT JOIN records r ON it.target = 'record' AND r.id = it.target_id
	LEFT JOIN library_items li ON it.target = 'library' AND li.id = it.target_id
	LEFT JOIN archive_items ai ON it.target = 'archive' AND ai.id = it.target_id` + personJoins

const itemColumns = `it.id, it.slug, c.id, c.slug, c.title, it.target, it.target_id,
	COALESCE(r.key, li.key, ai.reference, tr.slug || ':' || tp.xref, ''), it.label, ` + levelColumns + `, it.rights, it.attribution, it.updated_at`

func scanItem(row store.Row) (*itemRow, error) {
	it := &itemRow{}
	var lv levelScan
	var updated int64
	dest := append([]any{&it.ID, &it.Slug, &it.CollectionID, &it.CollectionSlug, &it.CollectionName, &it.Target, &it.TargetID,
		&it.TargetKey, &it.Label}, lv.dest()...)
	if err := row.Scan(append(dest, &it.Rights, &it.Attribution, &updated)...); err != nil {
		return it, err
	}
	var err error
	if it.Level, err = lv.level(); err != nil {
		return it, fmt.Errorf("item %s: %w", it.Slug, err)
	}
	it.Members = !it.Level.IsPublic()
	it.UpdatedAt = store.Time(updated)
	return it, nil
}

// lookupImage reads one scan and whether it is members-only.
func lookupImage(ctx context.Context, db *store.DB, id string) (*imageRow, error) {
	im := &imageRow{}
	var lv levelScan
	var updated int64
	err := db.QueryRowContext(ctx, db.Rebind(`SELECT im.id, im.item_id, it.slug, im.page, im.label, im.width, im.height, im.levels, im.version, im.updated_at, `+levelColumns+`
	FROM iiif_images im JOIN iiif_items it ON it.id = im.item_id
	JOIN collections c ON c.id = it.collection_id
	LEFT JOIN records r ON it.target = 'record' AND r.id = it.target_id`+personJoins+`
	WHERE im.id = ? AND `+visibleExpr), id).Scan(append([]any{&im.ID, &im.ItemID, &im.ItemSlug, &im.Page, &im.Label, &im.Width, &im.Height, &im.Levels, &im.Version, &updated}, lv.dest()...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if im.Level, err = lv.level(); err != nil {
		return nil, fmt.Errorf("scan %s: %w", im.ID, err)
	}
	im.Members = !im.Level.IsPublic()
	im.UpdatedAt = store.Time(updated)
	return im, nil
}

// itemQuery selects items; where is appended after WHERE with its args.
func listItems(ctx context.Context, db *store.DB, where string, limit int, args ...any) ([]*itemRow, error) {
	q := `SELECT ` + itemColumns + itemFrom + ` WHERE ` + visibleExpr + ` AND (` + where + `) ORDER BY it.id`
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := db.QueryContext(ctx, db.Rebind(q), args...)
	items, err := store.Collect(rows, err, scanItem)
	if err != nil {
		return nil, err
	}
	if err := loadImages(ctx, db, items); err != nil {
		return nil, err
	}
	return items, nil
}

// loadImages fills the items' pages in page order.
func loadImages(ctx context.Context, db *store.DB, items []*itemRow) error {
	if len(items) == 0 {
		return nil
	}
	byID := make(map[int64]*itemRow, len(items))
	args := make([]any, len(items))
	for i, it := range items {
		byID[it.ID] = it
		args[i] = it.ID
	}
	rows, err := db.QueryContext(ctx, db.Rebind(`SELECT id, item_id, page, label, width, height, levels, version, updated_at
		FROM iiif_images WHERE item_id IN (`+store.Placeholders(len(items))+`) ORDER BY item_id, page`), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		im := &imageRow{}
		var updated int64
		if err := rows.Scan(&im.ID, &im.ItemID, &im.Page, &im.Label, &im.Width, &im.Height, &im.Levels, &im.Version, &updated); err != nil {
			return err
		}
		im.UpdatedAt = store.Time(updated)
		it := byID[im.ItemID]
		im.ItemSlug, im.Level, im.Members = it.Slug, it.Level, it.Members
		it.Images = append(it.Images, im)
		if im.UpdatedAt.After(it.UpdatedAt) {
			it.UpdatedAt = im.UpdatedAt
		}
	}
	return rows.Err()
}

func itemBySlug(ctx context.Context, db *store.DB, slug string) (*itemRow, error) {
	items, err := listItems(ctx, db, `it.slug = ?`, 1, slug)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 || len(items[0].Images) == 0 {
		return nil, ErrNotFound
	}
	return items[0], nil
}

// collectionRow is a research collection that has scans.
type collectionRow struct {
	ID          int64
	Slug        string
	Title       string
	Description string
	Items       int
}

func collectionsWithScans(ctx context.Context, db *store.DB, slug string) ([]collectionRow, error) {
	q := `SELECT c.id, c.slug, c.title, c.description, COUNT(*) FROM collections c JOIN iiif_items it ON it.collection_id = c.id`
	var args []any
	if slug != "" {
		q += ` WHERE c.slug = ?`
		args = append(args, slug)
	}
	q += ` GROUP BY c.id, c.slug, c.title, c.description ORDER BY c.title, c.id`
	rows, err := db.QueryContext(ctx, db.Rebind(q), args...)
	return store.Collect(rows, err, func(row store.Row) (c collectionRow, err error) {
		err = row.Scan(&c.ID, &c.Slug, &c.Title, &c.Description, &c.Items)
		return c, err
	})
}

// metadataPair is one line of a manifest's metadata.
type metadataPair struct{ Label, Value string }

// targetMetadata describes what an item is attached to, for its manifest.
func targetMetadata(ctx context.Context, db *store.DB, it *itemRow) ([]metadataPair, string, error) {
	var md []metadataPair
	summary := ""
	add := func(label, value string) {
		if strings.TrimSpace(value) != "" {
			md = append(md, metadataPair{label, value})
		}
	}
	add("Collection", it.CollectionName)
	switch it.Target {
	case TargetRecord:
		var typ, date, place, source, transcript, persons string
		err := db.QueryRowContext(ctx, db.Rebind(`SELECT t.label, r.date_text, r.place_text, r.source, r.transcript, r.persons
			FROM records r JOIN record_types t ON t.id = r.type_id WHERE r.id = ?`), it.TargetID).Scan(&typ, &date, &place, &source, &transcript, &persons)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return nil, "", err
		}
		add("Record type", typ)
		if name := firstPersonName(persons); name != "" {
			add("Name", name)
		}
		add("Date", date)
		add("Place", place)
		add("Source", source)
		add("Reference", it.TargetKey)
		summary = transcript
	case TargetLibrary:
		var title, authors, publisher, shelfmark string
		var year sql.NullInt64
		err := db.QueryRowContext(ctx, db.Rebind(`SELECT title, authors, year, publisher, shelfmark FROM library_items WHERE id = ?`), it.TargetID).
			Scan(&title, &authors, &year, &publisher, &shelfmark)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return nil, "", err
		}
		add("Title", title)
		add("Authors", authors)
		if year.Valid {
			add("Year", fmt.Sprint(year.Int64))
		}
		add("Publisher", publisher)
		add("Shelfmark", shelfmark)
	case TargetPerson:
		var tree, name, birth, bplace, death, dplace string
		err := db.QueryRowContext(ctx, db.Rebind(`SELECT tr.title, tp.name, tp.birth_text, tp.birth_place, tp.death_text, tp.death_place
			FROM iiif_items it`+personJoins+` WHERE it.id = ? AND tp.pid IS NOT NULL`), it.ID).Scan(&tree, &name, &birth, &bplace, &death, &dplace)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return nil, "", err
		}
		add("Name", name)
		add("Born", strings.TrimSpace(strings.Trim(birth+", "+bplace, ", ")))
		add("Died", strings.TrimSpace(strings.Trim(death+", "+dplace, ", ")))
		add("Family tree", tree)
	case TargetArchive:
		var title, date, level, desc string
		err := db.QueryRowContext(ctx, db.Rebind(`SELECT title, date_text, level, description FROM archive_items WHERE id = ?`), it.TargetID).
			Scan(&title, &date, &level, &desc)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return nil, "", err
		}
		add("Reference", it.TargetKey)
		add("Title", title)
		add("Date", date)
		add("Level", level)
		summary = desc
	}
	return md, summary, nil
}

// firstPersonName reads "Given Surname" of the first person of a record's persons JSON.
func firstPersonName(persons string) string {
	var ps []struct {
		Surname    string `json:"surname"`
		GivenNames string `json:"given_names"`
	}
	if json.Unmarshal([]byte(persons), &ps) != nil || len(ps) == 0 {
		return ""
	}
	return strings.TrimSpace(ps[0].GivenNames + " " + ps[0].Surname)
}
