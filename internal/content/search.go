package content

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// SearchParams are the parameters of the documents/search endpoint, already split into
// their Go types. Empty values take Prismic's defaults.
type SearchParams struct {
	Ref       string
	Q         []string // each one q parameter: "[[at(document.type, \"page\")]]"
	Lang      string   // a language code, "*" for all; default: the master language
	Page      int      // 1-based; default 1
	PageSize  int      // default 20, clamped to 1..100
	After     string   // a document ID: only results after it in the ordering
	Orderings string   // "[my.page.date desc,document.first_publication_date]"
	Fetch     string   // "page.title,page.description"
	// FetchLinks copies fields of linked documents into their links: "author.name".
	FetchLinks  string
	GraphQuery  string
	Routes      string // JSON array of route resolvers
	BrokenRoute string
	// Origin is the scheme and host for absolute URLs (href, media); default the
	// configured public URL.
	Origin string
}

// SearchResult is a page of results in the shape of Prismic's search envelope, less
// the next_page and prev_page URLs, which only the HTTP layer can build.
type SearchResult struct {
	Page             int               `json:"page"`
	ResultsPerPage   int               `json:"results_per_page"`
	ResultsSize      int               `json:"results_size"`
	TotalResultsSize int               `json:"total_results_size"`
	TotalPages       int               `json:"total_pages"`
	Results          []*ResultDocument `json:"results"`
	// Ref is the ref the search ran on (after decoding a cookie-style preview ref).
	Ref string `json:"-"`
	// Preview is true when the ref is a preview token (drafts visible).
	Preview bool `json:"-"`
}

const (
	defaultPageSize = 20
	maxPageSize     = 100
)

// Search runs a query on the documents a ref sees.
func (s *Service) Search(ctx context.Context, p SearchParams) (*SearchResult, error) {
	o, err := s.search(ctx, p)
	if err != nil {
		return nil, err
	}
	return o.render(), nil
}

// search runs a query without rendering its page (the HTTP handler renders JSON).
func (s *Service) search(ctx context.Context, p SearchParams) (*searchOutcome, error) {
	snap, ref, err := s.snapshotFor(ctx, p.Ref)
	if err != nil {
		return nil, err
	}
	p.Ref = ref
	if p.Origin == "" {
		p.Origin = s.opts.PublicURL
	}
	return runSearch(snap, p)
}

// searchSnapshot is the search pipeline over one snapshot, rendered for the Go API.
func searchSnapshot(snap *snapshot, p SearchParams) (*SearchResult, error) {
	o, err := runSearch(snap, p)
	if err != nil {
		return nil, err
	}
	return o.render(), nil
}

// render turns the page into ResultDocuments.
func (o *searchOutcome) render() *SearchResult {
	for _, d := range o.page {
		o.res.Results = append(o.res.Results, o.r.document(d))
	}
	return o.res
}

// searchOutcome is a search before its page is rendered: the HTTP layer renders it to
// JSON through the snapshot's render cache, the Go API to ResultDocuments.
type searchOutcome struct {
	snap *snapshot
	res  *SearchResult // envelope numbers; Results still empty
	page []*sdoc
	r    *renderer
}

// runSearch parses the parameters, then filters, orders and pages.
func runSearch(snap *snapshot, p SearchParams) (*searchOutcome, error) {
	if p.Ref == "" {
		p.Ref = snap.ref
	}
	var preds []predicate
	for i, q := range p.Q {
		if strings.TrimSpace(q) == "" {
			continue
		}
		ps, err := parseQuery(q)
		if err != nil {
			if e, ok := AsError(err); ok {
				e.QueryID = i + 1
			}
			return nil, err
		}
		preds = append(preds, ps...)
	}
	ords, err := parseOrderings(p.Orderings)
	if err != nil {
		return nil, err
	}
	r, err := newRenderer(snap, p)
	if err != nil {
		return nil, err
	}
	page, size := p.Page, p.PageSize
	if page < 1 {
		page = 1
	}
	if size == 0 {
		size = defaultPageSize
	}
	size = min(max(size, 1), maxPageSize)
	lang := p.Lang
	if lang == "" {
		lang = snap.masterLang
	}

	// A snapshot never changes, so the ordered matches of a query are memoised: paging
	// through a list, or many visitors on one page, filter and sort once.
	key := resultKey(p.Q, lang, ords)
	results, ok := snap.cachedResults(key)
	if !ok {
		f := compileFilter(snap, preds)
		if lang != "*" {
			lang := snap.intern(lang)
			f.matchers = append(f.matchers, func(d *sdoc) bool { return d.Lang == lang })
		}
		results = orderedMatches(snap, f, ords)
		snap.storeResults(key, results)
	}
	if p.After != "" {
		results = afterCursor(snap, results, ords, p.After)
	}

	total := len(results)
	o := &searchOutcome{snap: snap, r: r, res: &SearchResult{
		Page:             page,
		ResultsPerPage:   size,
		TotalResultsSize: total,
		TotalPages:       (total + size - 1) / size,
		Results:          []*ResultDocument{},
		Ref:              p.Ref,
		Preview:          snap.preview,
	}}
	if start := (page - 1) * size; start < total {
		o.page = results[start:min(start+size, total)]
	}
	o.res.ResultsSize = len(o.page)
	return o, nil
}

func resultKey(qs []string, lang string, ords []ordering) string {
	var b strings.Builder
	for _, q := range qs {
		b.WriteString(q)
		b.WriteByte(0)
	}
	b.WriteByte(1)
	b.WriteString(lang)
	b.WriteByte(1)
	b.WriteString(orderingsKey(ords))
	return b.String()
}

// maxCachedResultRefs bounds the memory of memoised result lists (pointers, 8 bytes
// each): 2 million is 16 MB per snapshot, hundreds of distinct queries over 10 000
// documents.
const maxCachedResultRefs = 2_000_000

func (s *snapshot) cachedResults(key string) ([]*sdoc, bool) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	r, ok := s.results[key]
	return r, ok
}

func (s *snapshot) storeResults(key string, r []*sdoc) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if s.results == nil || s.resultRefs+len(r) > maxCachedResultRefs {
		s.results, s.resultRefs = map[string][]*sdoc{}, 0
	}
	s.results[key] = r
	s.resultRefs += len(r) + 1
}

// orderedMatches returns the matching documents in order. When the candidates are a
// whole list of the snapshot (all documents, or one type) the sorted list is memoised
// per snapshot and filtered in order, so repeated queries never sort.
func orderedMatches(snap *snapshot, f filter, ords []ordering) []*sdoc {
	if f.listKey != "" {
		sorted := snap.sorted(f.listKey, f.candidates, ords)
		out := make([]*sdoc, 0, min(len(sorted), 64))
		for _, d := range sorted {
			if f.match(d) {
				out = append(out, d)
			}
		}
		return out
	}
	var out []*sdoc
	for _, d := range f.candidates {
		if f.match(d) {
			out = append(out, d)
		}
	}
	sortDocs(out, ords)
	return out
}

const maxMemoisedSorts = 64

func (s *snapshot) sorted(listKey string, list []*sdoc, ords []ordering) []*sdoc {
	key := listKey + "|" + orderingsKey(ords)
	s.cacheMu.Lock()
	cached, ok := s.sortsCache[key]
	s.cacheMu.Unlock()
	if ok {
		return cached
	}
	out := append([]*sdoc(nil), list...)
	sortDocs(out, ords)
	s.cacheMu.Lock()
	if s.sortsCache == nil || len(s.sortsCache) >= maxMemoisedSorts {
		s.sortsCache = map[string][]*sdoc{}
	}
	s.sortsCache[key] = out
	s.cacheMu.Unlock()
	return out
}

// afterCursor drops the results up to and including the document with ID after. If that
// document is not among the results but exists, the cut is where it would sort; if it
// does not exist at all there are no results (a cursor that cannot be placed).
func afterCursor(snap *snapshot, results []*sdoc, ords []ordering, after string) []*sdoc {
	for i, d := range results {
		if d.ID == after {
			return results[i+1:]
		}
	}
	ad := snap.byID[after]
	if ad == nil {
		return nil
	}
	ak := sortKeys(ad, ords)
	i := sort.Search(len(results), func(i int) bool {
		return compareDocs(ad, ak, results[i], sortKeys(results[i], ords), ords) < 0
	})
	return results[i:]
}

// ordering is one item of the orderings parameter.
type ordering struct {
	path path
	desc bool
}

func orderingsKey(ords []ordering) string {
	var b strings.Builder
	for _, o := range ords {
		b.WriteString(o.path.raw)
		if o.desc {
			b.WriteString(" desc")
		}
		b.WriteByte(',')
	}
	return b.String()
}

// parseOrderings reads "[my.page.date desc,document.first_publication_date]". Brackets
// are stripped however deeply they nest: the client wraps a legacy bracketed string again.
func parseOrderings(s string) ([]ordering, error) {
	if len(s) > 2000 {
		return nil, &Error{Kind: KindParsing, Message: "orderings is too long", Location: "orderings"}
	}
	s = strings.NewReplacer("[", " ", "]", " ").Replace(s)
	var out []ordering
	for _, item := range strings.Split(s, ",") {
		fields := strings.Fields(item)
		if len(fields) == 0 {
			continue
		}
		o := ordering{}
		if len(fields) > 2 {
			return nil, orderingErr("unexpected '%s' in ordering '%s'", fields[2], strings.TrimSpace(item))
		}
		if len(fields) == 2 {
			switch strings.ToLower(fields[1]) {
			case "desc":
				o.desc = true
			case "asc":
			default:
				return nil, orderingErr("unknown direction '%s' in ordering '%s' (use desc or asc)", fields[1], strings.TrimSpace(item))
			}
		}
		pt, err := (&predParser{src: fields[0]}).parsePath(fields[0], 0)
		if err != nil || pt.isDocument() || pt.docField == "tags" {
			return nil, orderingErr("unexpected field '%s' in orderings", fields[0])
		}
		o.path = pt
		out = append(out, o)
	}
	return out, nil
}

func orderingErr(format string, args ...any) *Error {
	return &Error{Kind: KindParsing, Message: fmt.Sprintf(format, args...), Location: "orderings"}
}

// sortKey is one document's value for one ordering.
type sortKey struct {
	kind uint8 // 0 missing, 1 number, 2 string
	num  float64
	str  string
}

func sortKeys(d *sdoc, ords []ordering) []sortKey {
	keys := make([]sortKey, len(ords))
	fillSortKeys(keys, d, ords)
	return keys
}

func fillSortKeys(keys []sortKey, d *sdoc, ords []ordering) {
	for i, o := range ords {
		keys[i] = keyOf(d, o.path)
	}
}

func keyOf(d *sdoc, pt path) sortKey {
	switch pt.docField {
	case "first_publication_date":
		if d.First.IsZero() {
			return sortKey{}
		}
		return sortKey{kind: 1, num: float64(d.First.UnixMilli())}
	case "last_publication_date":
		if d.Last.IsZero() {
			return sortKey{}
		}
		return sortKey{kind: 1, num: float64(d.Last.UnixMilli())}
	case "id":
		return sortKey{kind: 2, str: d.ID}
	case "type":
		return sortKey{kind: 2, str: d.Type}
	case "lang":
		return sortKey{kind: 2, str: d.Lang}
	case "uid":
		if d.UID == "" {
			return sortKey{}
		}
		return sortKey{kind: 2, str: d.UID}
	}
	if d.Type != pt.myType {
		return sortKey{}
	}
	vals := fieldValues(d, pt.myFields)
	if len(vals) == 0 {
		return sortKey{}
	}
	switch x := vals[0].(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return sortKey{kind: 1, num: f}
		}
	case bool:
		if x {
			return sortKey{kind: 1, num: 1}
		}
		return sortKey{kind: 1}
	case string:
		if x == "" {
			return sortKey{}
		}
		return sortKey{kind: 2, str: x}
	case []any:
		if t := asText(x); t != "" {
			return sortKey{kind: 2, str: strings.ToLower(t)}
		}
	}
	return sortKey{}
}

// compareDocs orders two documents: by each ordering in turn (missing values last in
// either direction), then by ID so that paging and cursors are stable.
func compareDocs(a *sdoc, ak []sortKey, b *sdoc, bk []sortKey, ords []ordering) int {
	for i, o := range ords {
		x, y := ak[i], bk[i]
		if x.kind == 0 || y.kind == 0 {
			if x.kind != y.kind {
				if x.kind == 0 {
					return 1
				}
				return -1
			}
			continue
		}
		c := 0
		switch {
		case x.kind != y.kind:
			c = int(x.kind) - int(y.kind)
		case x.kind == 1:
			if x.num < y.num {
				c = -1
			} else if x.num > y.num {
				c = 1
			}
		default:
			c = strings.Compare(x.str, y.str)
		}
		if c != 0 {
			if o.desc {
				return -c
			}
			return c
		}
	}
	return strings.Compare(a.ID, b.ID)
}

func sortDocs(docs []*sdoc, ords []ordering) {
	if len(ords) == 0 {
		sort.Slice(docs, func(i, j int) bool { return docs[i].ID < docs[j].ID })
		return
	}
	type entry struct {
		d    *sdoc
		keys []sortKey
	}
	all := make([]sortKey, len(docs)*len(ords))
	entries := make([]entry, len(docs))
	for i, d := range docs {
		k := all[i*len(ords) : (i+1)*len(ords)]
		fillSortKeys(k, d, ords)
		entries[i] = entry{d, k}
	}
	sort.Slice(entries, func(i, j int) bool {
		return compareDocs(entries[i].d, entries[i].keys, entries[j].d, entries[j].keys, ords) < 0
	})
	for i, e := range entries {
		docs[i] = e.d
	}
}
