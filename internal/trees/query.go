package trees

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"lineage/internal/gendate"
	"lineage/internal/httpx"
	"lineage/internal/names"
	"lineage/internal/store"
)

var yearTolerances = []int{0, 1, 2, 5, 10, 20, 40}

// PeopleQuery is a person search, within a tree or across trees.
type PeopleQuery struct {
	Surname, SurnameMode, Given, Place string
	Year, YearPM                       int // Year 0: none
	Offset, Limit                      int
}

// ParsePeopleQuery reads the query parameters of the people list and the pedigree
// search; maxLimit and defLimit bound limit. A bad query is a 422 (*httpx.Error) whose
// message is the first field's in the order of the form: surname, surname_mode, given,
// place, year, year_pm, offset, limit.
func ParsePeopleQuery(v url.Values, defLimit, maxLimit int) (*PeopleQuery, error) {
	q := &PeopleQuery{Surname: strings.TrimSpace(v.Get("surname")), SurnameMode: v.Get("surname_mode"),
		Given: strings.TrimSpace(v.Get("given")), Place: strings.TrimSpace(v.Get("place")), Limit: defLimit}
	var errs httpx.FieldErrors
	if q.SurnameMode == "" {
		q.SurnameMode = names.ModeVariants
	}
	tooLong := func(field, s string) {
		if utf8.RuneCountInString(s) > 200 {
			errs.Add(field, "The %s may be at most 200 characters.", field)
		}
	}
	tooLong("surname", q.Surname)
	if q.Surname != "" && q.SurnameMode == names.ModeWildcard {
		letters := 0
		for _, r := range names.FoldPattern(q.Surname) {
			if r != '*' && r != '?' {
				letters++
			}
		}
		if letters < 3 {
			errs.Add("surname", "A wildcard surname needs at least three letters.")
		}
	} else if q.Surname != "" && names.SurnameKey(q.Surname) == "" {
		errs.Add("surname", "The surname must have letters.")
	}
	if !slices.Contains(names.SurnameModes, q.SurnameMode) {
		errs.Add("surname_mode", "The surname mode must be one of %s.", strings.Join(names.SurnameModes, ", "))
	}
	tooLong("given", q.Given)
	tooLong("place", q.Place)
	q.Year = errs.Whole("year", v.Get("year"), 1, gendate.MaxYear, q.Year)
	if s := v.Get("year_pm"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || !slices.Contains(yearTolerances, n) {
			errs.Add("year_pm", "The year tolerance must be one of 0, 1, 2, 5, 10, 20, 40.")
		}
		q.YearPM = n
	}
	q.Offset = errs.Whole("offset", v.Get("offset"), 0, 1_000_000, q.Offset)
	q.Limit = errs.Whole("limit", v.Get("limit"), 1, maxLimit, q.Limit)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return q, nil
}

// surnameIDs finds the dictionary surnames a mode accepts.
func (s *Service) surnameIDs(ctx context.Context, mode, text string) ([]int64, error) {
	var ids []int64
	collect := func(q string, args []any, keep func(folded string) bool) error {
		rows, err := s.db.QueryContext(ctx, s.db.Rebind(q), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var f string
			if err := rows.Scan(&id, &f); err != nil {
				return err
			}
			if keep == nil || keep(f) {
				ids = append(ids, id)
			}
		}
		return rows.Err()
	}
	var err error
	if mode == names.ModeWildcard {
		pat := names.FoldPattern(text)
		prefix := pat
		if i := strings.IndexAny(pat, "*?"); i >= 0 {
			prefix = pat[:i]
		}
		q, args := `SELECT id, folded FROM tree_surnames`, []any{}
		if prefix != "" {
			r, size := utf8.DecodeLastRuneInString(prefix)
			q += ` WHERE folded >= ? AND folded < ?`
			args = append(args, prefix, prefix[:len(prefix)-size]+string(r+1))
		}
		err = collect(q, args, func(f string) bool { return names.GlobMatch(pat, f) })
	} else {
		k := s.variants.Keys(text)
		cols := `SELECT id, folded FROM tree_surnames`
		switch mode {
		case names.ModeExact:
			err = collect(cols+` WHERE folded = ?`, []any{k.Folded}, nil)
		case names.ModeVariants:
			err = collect(cols+` WHERE folded = ? OR variant = ?`, []any{k.Folded, k.Variant}, nil)
		case names.ModeSoundex:
			err = collect(cols+` WHERE folded = ? OR variant = ? OR soundex = ?`, []any{k.Folded, k.Variant, k.Soundex}, nil)
		case names.ModePhonetic:
			err = collect(cols+` WHERE folded = ? OR variant = ?`, []any{k.Folded, k.Variant}, nil)
			if codes := k.Codes(); err == nil && len(codes) > 0 {
				args := make([]any, len(codes))
				for i, c := range codes {
					args[i] = c
				}
				err = collect(`SELECT DISTINCT s.id, s.folded FROM tree_surname_codes c JOIN tree_surnames s ON s.id = c.surname_id
					WHERE c.code IN (`+store.Placeholders(len(codes))+`)`, args, nil)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), err
}

// givenMatch: every folded query word starts a word of the folded given names.
func givenMatch(query []string, given string) bool {
	words := strings.Fields(given)
	for _, q := range query {
		ok := false
		for _, w := range words {
			if strings.HasPrefix(w, q) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func int64List(ids []int64) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	return b.String()
}

type personKey struct{ tree, pid int64 }

// match finds the people a query names: in one tree (treeID ≠ 0) or in all published
// trees. living people are kept only in trees in priv (or all when allPriv).
func (s *Service) match(ctx context.Context, q *PeopleQuery, treeID int64, priv func(tree int64) bool) ([]personKey, error) {
	var where []string
	var args []any
	from := `tree_names n`
	if treeID != 0 {
		where = append(where, `n.tree_id = ?`)
		args = append(args, treeID)
	} else {
		from += ` JOIN trees t ON t.id = n.tree_id`
		where = append(where, `t.published = 1 AND t.state = 'ready'`)
	}
	if q.Surname != "" {
		ids, err := s.surnameIDs(ctx, q.SurnameMode, q.Surname)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, nil
		}
		where = append(where, `n.surname_id IN (`+int64List(ids)+`)`)
	}
	var evConds []string
	var evArgs []any
	if q.Place != "" {
		for _, w := range strings.Fields(names.Fold(q.Place)) {
			evConds = append(evConds, `e.place LIKE ?`)
			evArgs = append(evArgs, "%"+strings.NewReplacer("%", "", "_", "").Replace(w)+"%")
		}
	}
	if q.Year != 0 {
		r := gendate.Years(q.Year-q.YearPM, q.Year+q.YearPM)
		evConds = append(evConds, `e.jdn_lo <= ? AND e.jdn_hi >= ?`)
		evArgs = append(evArgs, r.Latest, r.Earliest)
	}
	if len(evConds) > 0 {
		where = append(where, `EXISTS (SELECT 1 FROM tree_events e WHERE e.tree_id = n.tree_id AND e.pid = n.pid AND `+strings.Join(evConds, " AND ")+`)`)
		args = append(args, evArgs...)
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT n.tree_id, n.pid, n.given, n.living FROM `+from+` WHERE `+strings.Join(where, " AND ")), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	given := strings.Fields(names.Fold(q.Given))
	seen := map[personKey]bool{}
	var out []personKey
	for rows.Next() {
		var k personKey
		var g string
		var living int64
		if err := rows.Scan(&k.tree, &k.pid, &g, &living); err != nil {
			return nil, err
		}
		if seen[k] || (living != 0 && !priv(k.tree)) || !givenMatch(given, g) {
			continue
		}
		seen[k] = true
		out = append(out, k)
	}
	return out, rows.Err()
}

// summaries reads the people of keys (any order), keyed.
func (s *Service) summaries(ctx context.Context, keys []personKey) (map[personKey]*PersonSummary, error) {
	byTree := map[int64][]int64{}
	for _, k := range keys {
		byTree[k.tree] = append(byTree[k.tree], k.pid)
	}
	out := make(map[personKey]*PersonSummary, len(keys))
	for tree, pids := range byTree {
		slices.Sort(pids)
		for chunk := range slices.Chunk(pids, 500) {
			rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT `+summaryCols+` FROM tree_people WHERE tree_id = ? AND pid IN (`+int64List(chunk)+`)`), tree)
			if err != nil {
				return nil, err
			}
			for rows.Next() {
				p, err := scanSummary(rows)
				if err != nil {
					rows.Close()
					return nil, err
				}
				out[personKey{p.treeID, p.pid}] = p
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// PeoplePage is a page of people.
type PeoplePage struct {
	Total   int              `json:"total"`
	Offset  int              `json:"offset"`
	Limit   int              `json:"limit"`
	Results []*PersonSummary `json:"results"`
}

// People lists a tree's people (docs/trees.md).
func (s *Service) People(ctx context.Context, slug string, q *PeopleQuery) (*PeoplePage, error) {
	v := s.viewerOf(ctx)
	t, err := s.openTree(ctx, slug, v)
	if err != nil {
		return nil, err
	}
	priv := t.CanManage
	page := &PeoplePage{Offset: q.Offset, Limit: q.Limit, Results: []*PersonSummary{}}
	if q.Surname == "" && q.Given == "" && q.Place == "" && q.Year == 0 {
		cond := ``
		if !priv {
			cond = ` AND living = 0`
		}
		if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM tree_people WHERE tree_id = ?`+cond), t.ID).Scan(&page.Total); err != nil {
			return nil, err
		}
		rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT `+summaryCols+` FROM tree_people WHERE tree_id = ?`+cond+
			` ORDER BY sort_key, birth_lo, pid LIMIT ? OFFSET ?`), t.ID, q.Limit, q.Offset)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanSummary(rows)
			if err != nil {
				return nil, err
			}
			page.Results = append(page.Results, p.redact(priv))
		}
		return page, rows.Err()
	}
	keys, err := s.match(ctx, q, t.ID, func(int64) bool { return priv })
	if err != nil {
		return nil, err
	}
	all, err := s.sorted(ctx, keys)
	if err != nil {
		return nil, err
	}
	page.Total = len(all)
	for _, p := range window(all, q.Offset, q.Limit) {
		page.Results = append(page.Results, p.redact(priv))
	}
	return page, nil
}

func (s *Service) sorted(ctx context.Context, keys []personKey) ([]*PersonSummary, error) {
	m, err := s.summaries(ctx, keys)
	if err != nil {
		return nil, err
	}
	all := make([]*PersonSummary, 0, len(m))
	for _, p := range m {
		all = append(all, p)
	}
	slices.SortFunc(all, lessSummary)
	return all, nil
}

func window[T any](all []T, offset, limit int) []T {
	if offset >= len(all) {
		return nil
	}
	return all[offset:min(offset+limit, len(all))]
}

// SurnameCount is an entry of a tree's surname index.
type SurnameCount struct {
	Surname string `json:"surname"`
	Count   int    `json:"count"`
}

// Surnames is a tree's surname index: the surnames of people's first names with their
// numbers of people, by surname.
func (s *Service) Surnames(ctx context.Context, slug string) ([]SurnameCount, error) {
	v := s.viewerOf(ctx)
	t, err := s.openTree(ctx, slug, v)
	if err != nil {
		return nil, err
	}
	cond := ``
	if !t.CanManage {
		cond = ` AND living = 0`
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT surname, COUNT(*) FROM tree_people WHERE tree_id = ? AND surname <> ''`+cond+
		` GROUP BY surname`), t.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	// Spellings that fold alike (SMITH, Smith) are one entry, under the commonest.
	type acc struct {
		best  string
		bestN int
		total int
		key   string
	}
	byKey := map[string]*acc{}
	for rows.Next() {
		var sn string
		var n int
		if err := rows.Scan(&sn, &n); err != nil {
			return nil, err
		}
		k := names.SurnameKey(sn)
		a := byKey[k]
		if a == nil {
			a = &acc{key: k}
			byKey[k] = a
		}
		a.total += n
		if n > a.bestN || n == a.bestN && sn < a.best {
			a.best, a.bestN = sn, n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]SurnameCount, 0, len(byKey))
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, SurnameCount{Surname: byKey[k].best, Count: byKey[k].total})
	}
	return out, nil
}

// TreeRef names a tree in search results.
type TreeRef struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

// SearchHit is one person found by the pedigree search.
type SearchHit struct {
	Tree   TreeRef        `json:"tree"`
	Person *PersonSummary `json:"person"`
	URL    string         `json:"url,omitempty"`
}

// TreeMatches is a tree with its number of matches.
type TreeMatches struct {
	Slug    string `json:"slug"`
	Title   string `json:"title"`
	Matches int    `json:"matches"`
}

// SearchResult is the answer of the pedigree search.
type SearchResult struct {
	Total   int           `json:"total"`
	Offset  int           `json:"offset"`
	Limit   int           `json:"limit"`
	Trees   []TreeMatches `json:"trees"`
	Results []SearchHit   `json:"results"`
}

// ErrNeedSurnameOrPlace is a pedigree search naming neither.
var ErrNeedSurnameOrPlace = httpx.Invalid("surname", "Give a surname or a place.")

// Search is the pedigree search across published trees (docs/trees.md).
func (s *Service) Search(ctx context.Context, q *PeopleQuery) (*SearchResult, error) {
	if q.Surname == "" && names.Fold(q.Place) == "" {
		return nil, ErrNeedSurnameOrPlace
	}
	v := s.viewerOf(ctx)
	treeRows, err := s.listTrees(ctx, `SELECT `+treeCols+treeFrom+` AND t.published = 1`, v)
	if err != nil {
		return nil, err
	}
	byID := map[int64]*Tree{}
	for _, t := range treeRows {
		byID[t.ID] = t
	}
	priv := func(id int64) bool { t := byID[id]; return t != nil && t.CanManage }
	keys, err := s.match(ctx, q, 0, priv)
	if err != nil {
		return nil, err
	}
	// The people of a tree whose access level the viewer's scope does not open are
	// neither found nor counted.
	keys = slices.DeleteFunc(keys, func(k personKey) bool { t := byID[k.tree]; return t == nil || !t.Allowed })
	all, err := s.sorted(ctx, keys)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{Total: len(all), Offset: q.Offset, Limit: q.Limit, Trees: []TreeMatches{}, Results: []SearchHit{}}
	counts := map[int64]int{}
	for _, p := range all {
		counts[p.treeID]++
	}
	for id, n := range counts {
		if t := byID[id]; t != nil {
			res.Trees = append(res.Trees, TreeMatches{Slug: t.Slug, Title: t.Title, Matches: n})
		}
	}
	slices.SortFunc(res.Trees, func(a, b TreeMatches) int {
		if a.Matches != b.Matches {
			return b.Matches - a.Matches
		}
		return strings.Compare(a.Title, b.Title)
	})
	for _, p := range window(all, q.Offset, q.Limit) {
		t := byID[p.treeID]
		res.Results = append(res.Results, SearchHit{Tree: TreeRef{t.Slug, t.Title}, Person: p.redact(t.CanManage), URL: PersonURL(t.Slug, p.ID)})
	}
	return res, nil
}

// PersonURL is the site path of a person's page (docs/trees.md "Global search").
func PersonURL(slug, id string) string {
	return "/research-hub/our-collections/family-trees-record/" + slug + "~" + id
}

// GlobalTrees answers the 'family trees' group of the global search (research's
// TreeSearcher): q holds surname, surname_mode, given, year, year_pm as research
// read them from the free text.
func (s *Service) GlobalTrees(ctx context.Context, v url.Values, limit int) ([]any, int64, string, error) {
	pv := url.Values{}
	for _, k := range []string{"surname", "surname_mode", "given", "year", "year_pm"} {
		if x := v.Get(k); x != "" {
			pv.Set(k, x)
		}
	}
	search := pv.Encode()
	pv.Set("limit", strconv.Itoa(limit))
	q, errs := ParsePeopleQuery(pv, limit, max(limit, 100))
	if errs != nil || q.Surname == "" {
		return []any{}, 0, "", nil
	}
	res, err := s.Search(ctx, q)
	if err != nil {
		return nil, 0, "", err
	}
	out := make([]any, 0, len(res.Results))
	for _, h := range res.Results {
		out = append(out, h)
	}
	return out, int64(res.Total), search, nil
}
