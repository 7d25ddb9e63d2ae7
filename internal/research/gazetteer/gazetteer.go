package gazetteer

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"lineage/internal/names"
	"lineage/internal/research/index"
	"lineage/internal/store"
)

// Place kinds, from the largest.
const (
	PlaceCountry = "country"
	PlaceCounty  = "county"
	PlacePlace   = "place"
)

//go:embed gazetteer.txt
var Shipped []byte

// Place is an entry of the gazetteer.
type Place struct {
	ID        int64    `json:"id"`
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	ParentID  int64    `json:"parent_id,omitempty"`
	CountyID  int64    `json:"county_id,omitempty"`
	CountryID int64    `json:"country_id,omitempty"`
	Lat       *float64 `json:"lat,omitempty"`
	Lon       *float64 `json:"lon,omitempty"`
	// Path is the place with its ancestors, nearest first: "Guildford, Surrey, England".
	Path string `json:"path"`

	Ancestors []int64 `json:"-"` // nearest first, not including the place itself
}

// Line is one line of a gazetteer file.
type Line struct {
	Line     int
	Kind     string
	Name     string
	Parents  []string // nearest first
	lat, lon *float64
}

// Parse reads the gazetteer format: kind|name|parent path|lat|lon.
func Parse(r io.Reader, source string) ([]Line, error) {
	var out []Line
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "|")
		if len(f) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 fields separated by |, got %d", source, n, len(f))
		}
		l := Line{Line: n, Kind: strings.TrimSpace(f[0]), Name: strings.TrimSpace(f[1])}
		if l.Kind != PlaceCountry && l.Kind != PlaceCounty && l.Kind != PlacePlace {
			return nil, fmt.Errorf("%s:%d: unknown kind %q", source, n, l.Kind)
		}
		if names.Fold(l.Name) == "" {
			return nil, fmt.Errorf("%s:%d: a place needs a name", source, n)
		}
		l.Parents = splitPlace(f[2])
		for i, s := range []string{f[3], f[4]} {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bad coordinate %q", source, n, s)
			}
			if i == 0 {
				l.lat = &v
			} else {
				l.lon = &v
			}
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

// splitPlace splits a place as written ("St Mary, Guildford, Surrey") into its parts,
// nearest first, dropping empty parts.
func splitPlace(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); names.Fold(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// PlaceKey is how places are compared: folded, words joined by one space.
func PlaceKey(s string) string { return names.Fold(s) }

// Load adds the places of a gazetteer file (the format of the shipped
// gazetteer.txt) that the store lacks. Parents must come before their children.
func Load(ctx context.Context, db *store.DB, r io.Reader, source string) (int, error) {
	lines, err := Parse(r, source)
	if err != nil {
		return 0, err
	}
	added := 0
	err = db.InTx(ctx, func(tx *sql.Tx) error {
		pr := NewResolver(db, tx)
		for _, l := range lines {
			parent := int64(0)
			if len(l.Parents) > 0 {
				p, err := pr.exactPath(ctx, l.Parents)
				if err != nil {
					return err
				}
				if p == nil {
					return fmt.Errorf("%s:%d: parent %q is not in the gazetteer", source, l.Line, strings.Join(l.Parents, ", "))
				}
				parent = p.ID
			}
			_, created, err := pr.Child(ctx, parent, l.Name, l.Kind, l.lat, l.lon)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", source, l.Line, err)
			}
			if created {
				added++
			}
		}
		return nil
	})
	return added, err
}

// Ensure loads the shipped gazetteer into a store that has no places yet.
func Ensure(ctx context.Context, db *store.DB) error {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM places`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	_, err := Load(ctx, db, bytes.NewReader(Shipped), "gazetteer.txt")
	return err
}

// Resolver finds and creates places inside one transaction, remembering what it
// has seen so that an import asks the database once per distinct place text.
type Resolver struct {
	db     *store.DB
	Tx     *sql.Tx
	byID   map[int64]*Place
	texts  map[string]*Place   // folded place text → place (nil: no place)
	raw    map[string]*Place   // place text as written → place: a register repeats its own
	loaded bool                // names holds the whole gazetteer (preload)
	names  map[string][]*Place // folded name → places, by id
}

func NewResolver(db *store.DB, tx *sql.Tx) *Resolver {
	return &Resolver{db: db, Tx: tx, byID: map[int64]*Place{}, texts: map[string]*Place{}, raw: map[string]*Place{}, names: map[string][]*Place{}}
}

// Preload reads the whole gazetteer, so that an import resolves places in memory and
// asks the database only to add new ones.
func (pr *Resolver) Preload(ctx context.Context) error {
	rows, err := pr.q().QueryContext(ctx, `SELECT `+placeColumns+` FROM places ORDER BY id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		p, err := scanPlace(rows)
		if err != nil {
			return err
		}
		pr.remember(p)
	}
	pr.loaded = true
	return rows.Err()
}

func (pr *Resolver) remember(p *Place) {
	pr.byID[p.ID] = p
	k := PlaceKey(p.Name)
	for _, q := range pr.names[k] {
		if q.ID == p.ID {
			return
		}
	}
	pr.names[k] = append(pr.names[k], p)
}

const placeColumns = `id, name, kind, parent_id, county_id, country_id, lat, lon`

func scanPlace(row store.Row) (*Place, error) {
	p := &Place{}
	var lat, lon sql.NullFloat64
	if err := row.Scan(&p.ID, &p.Name, &p.Kind, &p.ParentID, &p.CountyID, &p.CountryID, &lat, &lon); err != nil {
		return nil, err
	}
	if lat.Valid {
		p.Lat = &lat.Float64
	}
	if lon.Valid {
		p.Lon = &lon.Float64
	}
	return p, nil
}

func (pr *Resolver) q() index.Queryer {
	if pr.Tx != nil {
		return pr.Tx
	}
	return pr.db
}

// byFolded lists the places with a folded name, optionally under one parent.
func (pr *Resolver) byFolded(ctx context.Context, folded string, parent int64, anyParent bool) ([]*Place, error) {
	if pr.loaded {
		var out []*Place
		for _, p := range pr.names[folded] {
			if anyParent || p.ParentID == parent {
				out = append(out, p)
			}
		}
		return out, nil
	}
	return pr.dbByFolded(ctx, folded, parent, anyParent)
}

func (pr *Resolver) dbByFolded(ctx context.Context, folded string, parent int64, anyParent bool) ([]*Place, error) {
	q := `SELECT ` + placeColumns + ` FROM places WHERE folded = ?`
	args := []any{folded}
	if !anyParent {
		q += ` AND parent_id = ?`
		args = append(args, parent)
	}
	rows, err := pr.q().QueryContext(ctx, pr.db.Rebind(q+` ORDER BY id`), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Place
	for rows.Next() {
		p, err := scanPlace(rows)
		if err != nil {
			return nil, err
		}
		pr.remember(p)
		out = append(out, p)
	}
	return out, rows.Err()
}

func (pr *Resolver) Get(ctx context.Context, id int64) (*Place, error) {
	if p, ok := pr.byID[id]; ok {
		return p, nil
	}
	p, err := scanPlace(pr.q().QueryRowContext(ctx, pr.db.Rebind(`SELECT `+placeColumns+` FROM places WHERE id = ?`), id))
	if err != nil {
		return nil, err
	}
	pr.byID[id] = p
	return p, nil
}

// WithAncestors fills p.Ancestors and p.Path.
func (pr *Resolver) WithAncestors(ctx context.Context, p *Place) error {
	if p.Path != "" {
		return nil
	}
	parts := []string{p.Name}
	p.Ancestors = nil
	for id, guard := p.ParentID, 0; id != 0 && guard < 32; guard++ {
		a, err := pr.Get(ctx, id)
		if err != nil {
			return err
		}
		p.Ancestors = append(p.Ancestors, a.ID)
		parts = append(parts, a.Name)
		id = a.ParentID
	}
	p.Path = strings.Join(parts, ", ")
	return nil
}

// Child finds or creates the place called name under parent.
func (pr *Resolver) Child(ctx context.Context, parent int64, name, kind string, lat, lon *float64) (*Place, bool, error) {
	folded := PlaceKey(name)
	found, err := pr.byFolded(ctx, folded, parent, false)
	if err != nil {
		return nil, false, err
	}
	if len(found) > 0 {
		return found[0], false, nil
	}
	var county, country int64
	if parent != 0 {
		pp, err := pr.Get(ctx, parent)
		if err != nil {
			return nil, false, err
		}
		county, country = pp.CountyID, pp.CountryID
		switch pp.Kind {
		case PlaceCounty:
			county = pp.ID
		case PlaceCountry:
			country = pp.ID
		}
	}
	var id int64
	err = pr.q().QueryRowContext(ctx, pr.db.Rebind(`INSERT INTO places (name, folded, kind, parent_id, county_id, country_id, lat, lon)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (parent_id, folded) DO NOTHING RETURNING id`),
		strings.TrimSpace(name), folded, kind, parent, county, country, lat, lon).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) { // another import added it meanwhile
		found, err := pr.dbByFolded(ctx, folded, parent, false)
		if err != nil || len(found) == 0 {
			return nil, false, fmt.Errorf("place %q: %v", name, err)
		}
		return found[0], false, nil
	}
	if err != nil {
		return nil, false, err
	}
	p := &Place{ID: id, Name: strings.TrimSpace(name), Kind: kind, ParentID: parent, CountyID: county, CountryID: country, Lat: lat, Lon: lon}
	pr.remember(p)
	return p, true, nil
}

// exactPath finds a place by its full path (nearest first) from a root, without
// creating anything; nil when it is not there.
func (pr *Resolver) exactPath(ctx context.Context, parts []string) (*Place, error) {
	parent := int64(0)
	var p *Place
	for i := len(parts) - 1; i >= 0; i-- {
		found, err := pr.byFolded(ctx, PlaceKey(parts[i]), parent, false)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, nil
		}
		p = found[0]
		parent = p.ID
	}
	return p, nil
}

// Resolve finds the place a record names, adding the parts the gazetteer lacks beneath
// the most general part it knows: "St Mary, Guildford, Surrey" is St Mary under
// Guildford under the county of Surrey. The most general part may be any known place
// with that name when only one has it ("Guildford" alone is Guildford, Surrey);
// otherwise it becomes a new top-level place. Empty text is no place (nil).
func (pr *Resolver) Resolve(ctx context.Context, text string) (*Place, error) {
	if p, ok := pr.raw[text]; ok {
		return p, nil
	}
	parts := splitPlace(text)
	if len(parts) == 0 {
		return nil, nil
	}
	key := strings.Join(foldAll(parts), ",")
	if p, ok := pr.texts[key]; ok {
		pr.raw[text] = p
		return p, nil
	}
	top := parts[len(parts)-1]
	var cur *Place
	roots, err := pr.byFolded(ctx, PlaceKey(top), 0, false)
	if err != nil {
		return nil, err
	}
	if len(roots) > 0 {
		cur = roots[0]
	} else {
		all, err := pr.byFolded(ctx, PlaceKey(top), 0, true)
		if err != nil {
			return nil, err
		}
		if best := preferLarger(all); best != nil {
			cur = best
		} else if cur, _, err = pr.Child(ctx, 0, top, PlacePlace, nil, nil); err != nil {
			return nil, err
		}
	}
	for i := len(parts) - 2; i >= 0; i-- {
		if cur, _, err = pr.Child(ctx, cur.ID, parts[i], PlacePlace, nil, nil); err != nil {
			return nil, err
		}
	}
	pr.texts[key] = cur
	pr.raw[text] = cur
	return cur, nil
}

// preferLarger picks the one country, else the one county, else the one place among
// namesakes; nil when the name is ambiguous at its level or unknown.
func preferLarger(ps []*Place) *Place {
	for _, kind := range []string{PlaceCountry, PlaceCounty, PlacePlace} {
		var hit []*Place
		for _, p := range ps {
			if p.Kind == kind {
				hit = append(hit, p)
			}
		}
		if len(hit) == 1 {
			return hit[0]
		}
		if len(hit) > 1 {
			return nil
		}
	}
	return nil
}

func foldAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = PlaceKey(s)
	}
	return out
}

// FindPlaces resolves a place a searcher typed: every place whose name is the first
// part and whose ancestors include the later parts in order ("Newport" is both
// Newports; "Newport, Shropshire" one of them). A number is a place id.
func (pr *Resolver) FindPlaces(ctx context.Context, text string) ([]*Place, error) {
	text = strings.TrimSpace(text)
	if id, err := strconv.ParseInt(text, 10, 64); err == nil && id > 0 {
		p, err := pr.Get(ctx, id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return []*Place{p}, pr.WithAncestors(ctx, p)
	}
	parts := splitPlace(text)
	if len(parts) == 0 {
		return nil, nil
	}
	cands, err := pr.byFolded(ctx, PlaceKey(parts[0]), 0, true)
	if err != nil {
		return nil, err
	}
	var out []*Place
	for _, c := range cands {
		if err := pr.WithAncestors(ctx, c); err != nil {
			return nil, err
		}
		rest := foldAll(parts[1:])
		j := 0
		for _, a := range c.Ancestors {
			if j < len(rest) && PlaceKey(pr.byID[a].Name) == rest[j] {
				j++
			}
		}
		if j == len(rest) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Descendants returns the ids of p and every place beneath it.
func (pr *Resolver) Descendants(ctx context.Context, id int64) ([]int64, error) {
	rows, err := pr.q().QueryContext(ctx, pr.db.Rebind(`WITH RECURSIVE d(id) AS (
		SELECT CAST(? AS BIGINT) UNION ALL SELECT p.id FROM places p JOIN d ON p.parent_id = d.id)
		SELECT id FROM d`), id)
	out, err := store.Collect(rows, err, store.Scalar[int64])
	slices.Sort(out)
	return out, err
}

// Children lists the gazetteer's places under a parent (0: the countries and other
// top-level places), by name.
func Children(ctx context.Context, db *store.DB, parent int64) ([]*Place, error) {
	return listed(ctx, db, []*Place(nil), `SELECT `+placeColumns+` FROM places WHERE parent_id = ? ORDER BY folded, id`, parent)
}

// Named lists up to limit places whose name begins with the text typed (for a
// place picker), larger places first.
func Named(ctx context.Context, db *store.DB, text string, limit int) ([]*Place, error) {
	prefix := PlaceKey(text)
	if prefix == "" {
		return []*Place{}, nil
	}
	return listed(ctx, db, []*Place{}, `SELECT `+placeColumns+` FROM places WHERE folded >= ? AND folded < ?
		ORDER BY CASE kind WHEN 'country' THEN 0 WHEN 'county' THEN 1 ELSE 2 END, folded, id LIMIT ?`, prefix, index.PrefixEnd(prefix), limit)
}

// listed reads the places a query lists, after out (nil or empty: how an empty list
// is answered), each with its path.
func listed(ctx context.Context, db *store.DB, out []*Place, query string, args ...any) ([]*Place, error) {
	rows, err := db.QueryContext(ctx, db.Rebind(query), args...)
	found, err := store.Collect(rows, err, scanPlace)
	if err != nil {
		return nil, err
	}
	out = append(out, found...)
	pr := NewResolver(db, nil)
	for _, p := range out {
		pr.byID[p.ID] = p
		if err := pr.WithAncestors(ctx, p); err != nil {
			return nil, err
		}
	}
	return out, nil
}
