package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"lineage/internal/newsletter"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/trees"
)

// Alerts run members' saved searches with the search engine of their page: the
// research index for the records search, the pedigree search for tree people.

// researchSearchPath and pedigreeSearchPath are the web app's search pages whose
// saved searches alerts follow (web/app/routes.ts).
const (
	researchSearchPath = "/research-hub/our-collections/searchexplore"
	pedigreeSearchPath = "/research-hub/our-collections/pedigree-search"
)

// recordsFinder follows the research index: an import gives every record it adds or
// changes its run number (records.import_run), so the new and changed records since a
// mark are those of a later run.
type recordsFinder struct {
	rs        *research.Service
	db        *store.DB
	publicURL string
	// collections are those of the items of the last Changed: a search for new
	// items is narrowed to them, which changes none of its results among them.
	collections map[string]bool
}

func (f *recordsFinder) Name() string { return "records" }

func (f *recordsFinder) Follows(path string) bool { return path == researchSearchPath }

// Check takes the advanced search (the records' own query); the global search (q)
// also reads the library and the archive, which alerts do not follow yet.
func (f *recordsFinder) Check(ctx context.Context, path string, params url.Values) error {
	if params.Get("q") != "" {
		return errors.New("Alerts work for the advanced search of the indexes, not yet for the search of everything.")
	}
	q, errs := research.ParseQuery(searchValues(params))
	if errs != nil {
		return errors.New("This saved search cannot be run: save it again from the search page.")
	}
	if q.Surname == "" && q.Given == "" && q.Place == "" && q.Relative == "" {
		return errors.New("An alert needs a search with a name or a place.")
	}
	return nil
}

func (f *recordsFinder) Audience(v newsletter.Viewer) string { return newsletter.SortedScope(v) }

// recordsDoneKey is the settings row that says up to which import run the records are
// imported and searchable: an import run is stamped when it starts, so the records of
// one still under way (or whose index is deferred) must wait for it.
const recordsDoneKey = "newsletter.records.done"

// markRecordsImported records that every import run so far is complete (`lineage
// import records` when it ends, and --build-index).
func markRecordsImported(ctx context.Context, db *store.DB) error {
	_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO settings (key, value) SELECT ?, CAST(COALESCE(MAX(import_run), 0) AS TEXT) FROM records WHERE true
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`), recordsDoneKey)
	return err
}

func (f *recordsFinder) Changed(ctx context.Context, mark string) ([]string, string, error) {
	var top sql.NullInt64
	var done string
	err := f.db.QueryRowContext(ctx, f.db.Rebind(`SELECT value FROM settings WHERE key = ?`), recordsDoneKey).Scan(&done)
	switch {
	case errors.Is(err, sql.ErrNoRows): // records never imported by the command: all are complete
		err = f.db.QueryRowContext(ctx, `SELECT MAX(import_run) FROM records`).Scan(&top)
	case err == nil:
		var n int64
		n, err = strconv.ParseInt(done, 10, 64)
		top = sql.NullInt64{Int64: n, Valid: true}
	}
	if err != nil {
		return nil, mark, err
	}
	if mark == "" {
		return nil, strconv.FormatInt(top.Int64, 10), nil
	}
	from, err := strconv.ParseInt(mark, 10, 64)
	if err != nil {
		return nil, mark, err
	}
	if !top.Valid || top.Int64 <= from {
		return nil, mark, nil
	}
	rows, err := f.db.QueryContext(ctx, f.db.Rebind(`SELECT r.id, c.slug FROM records r JOIN collections c ON c.id = r.collection_id
		WHERE r.import_run > ? AND r.import_run <= ?`), from, top.Int64)
	if err != nil {
		return nil, mark, err
	}
	defer rows.Close()
	var items []string
	f.collections = map[string]bool{}
	for rows.Next() {
		var id int64
		var slug string
		if err := rows.Scan(&id, &slug); err != nil {
			return nil, mark, err
		}
		items = append(items, "record:"+strconv.FormatInt(id, 10))
		f.collections[slug] = true
	}
	return items, strconv.FormatInt(top.Int64, 10), rows.Err()
}

// searchValues turns a saved search of the records page into the research API's
// query: the page's county facet is a place, and its paging is left out.
func searchValues(p url.Values) url.Values {
	v := url.Values{}
	for k, vs := range p {
		switch k {
		case "after", "sort", "limit", "county":
		default:
			v[k] = vs
		}
	}
	if v.Get("place") == "" && p.Get("county") != "" {
		v.Set("place", p.Get("county"))
	}
	return v
}

func (f *recordsFinder) Find(ctx context.Context, path string, params url.Values, v newsletter.Viewer, among map[string]bool, limit int) ([]newsletter.Match, error) {
	q, errs := research.ParseQuery(searchValues(params))
	if errs != nil {
		for field, msgs := range errs {
			return nil, errors.New("saved search: " + field + ": " + strings.Join(msgs, " "))
		}
	}
	if among != nil && f.collections != nil {
		// Only the collections of the new items can hold a new match.
		var in []string
		if len(q.Collections) == 0 {
			for c := range f.collections {
				in = append(in, c)
			}
		} else {
			for _, c := range q.Collections {
				if f.collections[c] {
					in = append(in, c)
				}
			}
			if len(in) == 0 {
				return nil, nil
			}
		}
		q.Collections = in
	}
	q.Limit = 100
	var out []newsletter.Match
	for {
		res, err := f.rs.Search(ctx, q, v.Scope)
		if err != nil {
			return out, err
		}
		for _, r := range res.Results {
			item := "record:" + strconv.FormatInt(r.ID, 10)
			if among != nil && !among[item] {
				continue
			}
			out = append(out, newsletter.Match{Item: item, Title: recordTitle(r), URL: f.publicURL + "/research-hub/our-collections/records/" + strconv.FormatInt(r.ID, 10)})
			if limit > 0 && len(out) >= limit {
				return out, nil
			}
		}
		if res.Next == nil || len(res.Results) == 0 {
			return out, nil
		}
		q.After = *res.Next
	}
}

// recordTitle names a result as the search page does: the matched person, the kind
// of record, the year and place, the collection. A teaser shows what it shows.
func recordTitle(r research.Result) string {
	var parts []string
	if r.Match >= 0 && r.Match < len(r.Persons) {
		parts = append(parts, r.Persons[r.Match].Name())
	}
	what := r.RecordTypeLabel
	if r.Year != nil {
		what += " " + strconv.Itoa(*r.Year)
	}
	if r.Place != nil && *r.Place != "" {
		what += ", " + *r.Place
	}
	parts = append(parts, strings.TrimSpace(what))
	if r.CollectionTitle != "" {
		parts = append(parts, r.CollectionTitle)
	}
	return strings.Join(parts, " — ")
}

// treesFinder follows tree publication: the people of a tree published, or replaced
// by a new import, since the mark are new to the pedigree search (a published tree's
// updated_at; its people already reported or known are not reported again).
type treesFinder struct {
	tr        *trees.Service
	db        *store.DB
	publicURL string
}

func (f *treesFinder) Name() string { return "trees" }

func (f *treesFinder) Follows(path string) bool { return path == pedigreeSearchPath }

// Check takes what the pedigree search takes: a surname or a place.
func (f *treesFinder) Check(ctx context.Context, path string, params url.Values) error {
	q, err := trees.ParsePeopleQuery(params, 100, 100)
	if err != nil || (q.Surname == "" && q.Place == "") {
		return errors.New("An alert needs a family-tree search with a surname or a place.")
	}
	return nil
}

// Audience: the pedigree search shows a member their own unpublished trees' people.
func (f *treesFinder) Audience(v newsletter.Viewer) string {
	return strconv.FormatInt(v.ID, 10) + "|" + newsletter.SortedScope(v)
}

// Changed: the mark is "<second>|<slugs changed in that second>", as the times are in
// seconds and a tree may change in the second the mark was taken.
func (f *treesFinder) Changed(ctx context.Context, mark string) ([]string, string, error) {
	from, had := int64(0), map[string]bool{}
	if mark != "" {
		t, slugs, _ := strings.Cut(mark, "|")
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return nil, mark, err
		}
		from = n
		for _, s := range strings.Split(slugs, ",") {
			had[s] = true
		}
	}
	rows, err := f.db.QueryContext(ctx, f.db.Rebind(`SELECT slug, updated_at FROM trees WHERE published = 1 AND state = 'ready' AND updated_at >= ? ORDER BY updated_at`), from)
	if err != nil {
		return nil, mark, err
	}
	defer rows.Close()
	var items, atTop []string
	top := from
	for rows.Next() {
		var slug string
		var at int64
		if err := rows.Scan(&slug, &at); err != nil {
			return nil, mark, err
		}
		if at == from && had[slug] {
			atTop = append(atTop, slug)
			continue
		}
		if at > top {
			top, atTop = at, nil
		}
		atTop = append(atTop, slug)
		items = append(items, "tree:"+slug)
	}
	if err := rows.Err(); err != nil {
		return nil, mark, err
	}
	next := strconv.FormatInt(top, 10) + "|" + strings.Join(atTop, ",")
	if mark == "" {
		return nil, next, nil
	}
	return items, next, nil
}

// alertViewerKey carries the member an alert runs for to the trees room's Viewer
// (treeViewer), off the request path.
type alertViewerKey struct{}

func (f *treesFinder) Find(ctx context.Context, path string, params url.Values, v newsletter.Viewer, among map[string]bool, limit int) ([]newsletter.Match, error) {
	p := url.Values{}
	for k, vs := range params {
		if k != "offset" && k != "limit" {
			p[k] = vs
		}
	}
	q, err := trees.ParsePeopleQuery(p, 100, 100)
	if err != nil {
		return nil, err
	}
	role := ""
	switch {
	case v.Admin:
		role = "admin"
	case v.Staff:
		role = "editor"
	}
	ctx = context.WithValue(ctx, alertViewerKey{}, trees.Viewer{ID: v.ID, Role: role, Scope: v.Scope})
	var out []newsletter.Match
	for {
		res, err := f.tr.Search(ctx, q)
		if err != nil {
			return out, err
		}
		for _, h := range res.Results {
			if h.Person == nil || (among != nil && !among["tree:"+h.Tree.Slug]) {
				continue
			}
			u := h.URL
			if u == "" {
				u = "/research-hub/our-collections/family-trees-record/" + url.PathEscape(h.Tree.Slug+"~"+h.Person.ID)
			}
			out = append(out, newsletter.Match{Item: "person:" + h.Tree.Slug + "~" + h.Person.ID, Title: h.Person.Name + " — " + h.Tree.Title, URL: f.publicURL + u})
			if limit > 0 && len(out) >= limit {
				return out, nil
			}
		}
		q.Offset += len(res.Results)
		if len(res.Results) == 0 || q.Offset >= res.Total {
			return out, nil
		}
	}
}

// collectionsPath is where a collection's own page is (a library or archive catalogue
// among them): /research-hub/our-collections/{slug}.
const collectionsPath = "/research-hub/our-collections/"

// catalogueFinder follows library and archive catalogues. They have no search page of
// their own: a member saves a catalogue's page, and is told of the entries added to it,
// as the page lists them (research.Collection, in the order of their ids).
type catalogueFinder struct {
	rs        *research.Service
	db        *store.DB
	publicURL string
}

func (f *catalogueFinder) Name() string { return "catalogues" }

func (f *catalogueFinder) Follows(path string) bool {
	slug, ok := strings.CutPrefix(path, collectionsPath)
	return ok && slug != "" && !strings.Contains(slug, "/") && path != researchSearchPath && path != pedigreeSearchPath
}

func (f *catalogueFinder) Audience(v newsletter.Viewer) string { return "" } // catalogues are public

func (f *catalogueFinder) Check(ctx context.Context, path string, params url.Values) error {
	c, err := f.rs.CollectionBySlug(ctx, strings.TrimPrefix(path, collectionsPath))
	if err != nil || (c.Kind != research.KindLibrary && c.Kind != research.KindArchive) {
		return errors.New("Alerts follow library and archive catalogues; for a collection of records, save a search of it.")
	}
	return nil
}

// Changed: the mark is "<last library entry id>:<last archive entry id>"; an entry is
// new when its id is larger (a re-import updates an entry in place).
func (f *catalogueFinder) Changed(ctx context.Context, mark string) ([]string, string, error) {
	var lib, arc int64
	if err := f.db.QueryRowContext(ctx, `SELECT COALESCE((SELECT MAX(id) FROM library_items), 0), COALESCE((SELECT MAX(id) FROM archive_items), 0)`).Scan(&lib, &arc); err != nil {
		return nil, mark, err
	}
	next := strconv.FormatInt(lib, 10) + ":" + strconv.FormatInt(arc, 10)
	l0, a0, ok := strings.Cut(mark, ":")
	if mark == "" || !ok {
		return nil, next, nil
	}
	fromLib, err1 := strconv.ParseInt(l0, 10, 64)
	fromArc, err2 := strconv.ParseInt(a0, 10, 64)
	if err1 != nil || err2 != nil {
		return nil, next, nil
	}
	var items []string
	for _, t := range []struct {
		kind, table string
		from, upTo  int64
	}{{"library", "library_items", fromLib, lib}, {"archive", "archive_items", fromArc, arc}} {
		if t.upTo <= t.from {
			continue
		}
		rows, err := f.db.QueryContext(ctx, f.db.Rebind(`SELECT id FROM `+t.table+` WHERE id > ? AND id <= ?`), t.from, t.upTo)
		if err != nil {
			return nil, mark, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, mark, err
			}
			items = append(items, t.kind+":"+strconv.FormatInt(id, 10))
		}
		rows.Close()
	}
	return items, next, nil
}

func (f *catalogueFinder) Find(ctx context.Context, path string, params url.Values, v newsletter.Viewer, among map[string]bool, limit int) ([]newsletter.Match, error) {
	slug := strings.TrimPrefix(path, collectionsPath)
	page := f.publicURL + collectionsPath + url.PathEscape(slug)
	var out []newsletter.Match
	after := int64(0)
	for {
		d, err := f.rs.Collection(ctx, slug, after, research.MaxLimit)
		if err != nil {
			return out, err
		}
		for _, it := range d.Items {
			var item, title string
			switch x := it.(type) {
			case research.LibraryItem:
				item, title, after = "library:"+strconv.FormatInt(x.ID, 10), strings.TrimSuffix(x.Title+" — "+x.Authors, " — "), x.ID
			case research.ArchiveItem:
				item, title, after = "archive:"+strconv.FormatInt(x.ID, 10), x.Reference+" "+x.Title, x.ID
			default:
				return out, fmt.Errorf("catalogue entry of type %T", it)
			}
			if among != nil && !among[item] {
				continue
			}
			out = append(out, newsletter.Match{Item: item, Title: strings.TrimSpace(title), URL: page})
			if limit > 0 && len(out) >= limit {
				return out, nil
			}
		}
		if d.Next == nil || len(d.Items) == 0 {
			return out, nil
		}
	}
}
