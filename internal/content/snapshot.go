package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// A snapshot is the immutable set of documents one ref sees: the published versions for
// the master ref, drafts over published versions for a preview. Searches run against it
// in memory; it is built once per ref from the database and dropped when the ref moves.
type snapshot struct {
	ref        string
	preview    bool
	masterLang string

	docs      []*sdoc // sorted by id
	byID      map[string]*sdoc
	byType    map[string][]*sdoc // each sorted by id
	byTypeUID map[string][]*sdoc // key type+"\x00"+uid
	types     []string
	tags      []string
	langs     []string
	wordsOnce sync.Once
	vocab     []string          // every word of every document, sorted
	postings  [][]int32         // postings[i]: indexes of the documents containing vocab[i]
	interned  map[string]string // type and language strings, shared so == is a pointer check

	// Memoised work; a snapshot never changes, so these never go stale (search.go).
	cacheMu     sync.Mutex
	sortsCache  map[string][]*sdoc // sorted whole lists (all documents, one type)
	results     map[string][]*sdoc // ordered matches per query
	resultRefs  int
	rendered    map[renderKey][]byte // document JSON per render options (render.go)
	renderBytes int
}

// sdoc is one document of a snapshot.
type sdoc struct {
	ID, UID, Type, Lang string
	Tags                []string
	First, Last         time.Time
	Data                map[string]any // decoded with UseNumber; never mutated
	Slug                string
	alternates          []*sdoc // other languages of the same document, sorted by lang
	words               []string
	idx                 int // position in snapshot.docs
}

// docRow is a document as stored, with the version the snapshot uses already chosen.
type docRow struct {
	ID, UID, Type, Lang string
	Tags                []string
	First, Last         time.Time
	Data                []byte
	AlternateIDs        []string
}

// decodeData reads a document's data as a JSON object with numbers kept as written;
// nothing, or null, is the empty object.
func decodeData(b []byte) (map[string]any, error) {
	return decodeObject(b, false)
}

// decodeObject is decodeData; with single, a second JSON value after the object is an
// error.
func decodeObject(b []byte, single bool) (map[string]any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if single && dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// buildSnapshot indexes rows. masterLang may be empty: then the most used language is
// the master language.
func buildSnapshot(ref string, preview bool, rows []docRow, masterLang string) (*snapshot, error) {
	s := &snapshot{
		ref:       ref,
		preview:   preview,
		docs:      make([]*sdoc, 0, len(rows)),
		byID:      make(map[string]*sdoc, len(rows)),
		byType:    map[string][]*sdoc{},
		byTypeUID: map[string][]*sdoc{},
	}
	s.interned = map[string]string{}
	tagSet := map[string]bool{}
	langCount := map[string]int{}
	datas, err := decodeAll(rows)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		d := &sdoc{ID: r.ID, UID: r.UID, Type: s.addIntern(r.Type), Lang: s.addIntern(r.Lang), Tags: r.Tags, First: r.First, Last: r.Last, Data: datas[i]}
		if d.Tags == nil {
			d.Tags = []string{}
		}
		d.Slug = documentSlug(d)
		s.docs = append(s.docs, d)
		s.byID[d.ID] = d
		s.byType[d.Type] = append(s.byType[d.Type], d)
		if d.UID != "" {
			k := d.Type + "\x00" + d.UID
			s.byTypeUID[k] = append(s.byTypeUID[k], d)
		}
		for _, t := range d.Tags {
			tagSet[t] = true
		}
		langCount[d.Lang]++
	}
	sort.Slice(s.docs, func(i, j int) bool { return s.docs[i].ID < s.docs[j].ID })
	for i, d := range s.docs {
		d.idx = i
	}
	for t, list := range s.byType {
		sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
		s.types = append(s.types, t)
	}
	sort.Strings(s.types)
	for t := range tagSet {
		s.tags = append(s.tags, t)
	}
	sort.Strings(s.tags)
	for l := range langCount {
		s.langs = append(s.langs, l)
	}
	sort.Strings(s.langs)
	s.masterLang = masterLang
	if s.masterLang == "" {
		best := 0
		for _, l := range s.langs {
			if langCount[l] > best {
				s.masterLang, best = l, langCount[l]
			}
		}
	}
	if s.masterLang == "" {
		s.masterLang = defaultMasterLanguage
	}
	s.linkAlternates(rows)
	return s, nil
}

const defaultMasterLanguage = "en-gb"

// addIntern files a type or language string while the snapshot is built.
func (s *snapshot) addIntern(v string) string {
	if c, ok := s.interned[v]; ok {
		return c
	}
	s.interned[v] = v
	return v
}

// intern returns the snapshot's copy of a type or language string (or v itself when no
// document uses it). Matchers compare against interned strings, so a comparison of
// equal strings stops at the pointer check. Read-only once the snapshot is built.
func (s *snapshot) intern(v string) string {
	if c, ok := s.interned[v]; ok {
		return c
	}
	return v
}

// decodeAll decodes every row's data, in parallel: it is most of the cost of loading a
// snapshot.
func decodeAll(rows []docRow) ([]map[string]any, error) {
	out := make([]map[string]any, len(rows))
	workers := min(runtime.GOMAXPROCS(0), 8, max(1, len(rows)/256))
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(rows); i += workers {
				m, err := decodeData(rows[i].Data)
				if err != nil {
					errs[w] = fmt.Errorf("content: document %s: stored data is not a JSON object: %w", rows[i].ID, err)
					return
				}
				out[i] = m
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// linkAlternates groups documents that name each other in alternate_languages (in
// either direction, transitively) and gives each the others of its group.
func (s *snapshot) linkAlternates(rows []docRow) {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		for {
			p, ok := parent[x]
			if !ok || p == x {
				return x
			}
			parent[x] = parent[p] // path halving
			x = p
		}
	}
	union := func(a, b string) {
		for _, x := range []string{a, b} {
			if _, ok := parent[x]; !ok {
				parent[x] = x
			}
		}
		ra, rb := find(a), find(b)
		if ra != rb {
			if ra < rb {
				parent[rb] = ra
			} else {
				parent[ra] = rb
			}
		}
	}
	linked := false
	for _, r := range rows {
		for _, alt := range r.AlternateIDs {
			if alt != r.ID {
				union(r.ID, alt)
				linked = true
			}
		}
	}
	if !linked {
		return
	}
	groups := map[string][]*sdoc{}
	for _, d := range s.docs {
		if _, ok := parent[d.ID]; ok {
			root := find(d.ID)
			groups[root] = append(groups[root], d)
		}
	}
	for _, g := range groups {
		sort.Slice(g, func(i, j int) bool { return g[i].Lang < g[j].Lang || g[i].Lang == g[j].Lang && g[i].ID < g[j].ID })
		for _, d := range g {
			for _, o := range g {
				if o != d {
					d.alternates = append(d.alternates, o)
				}
			}
		}
	}
}

// documentSlug is the slug Prismic derives from a document's title.
func documentSlug(d *sdoc) string {
	for _, k := range []string{"title", "name", "heading"} {
		if v, ok := d.Data[k]; ok {
			if s := slugify(asText(v)); s != "" {
				return s
			}
		}
	}
	if d.UID != "" {
		return d.UID
	}
	return "-"
}

// asText flattens a rich text, key text or number field to plain text.
func asText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case []any:
		var parts []string
		for _, el := range x {
			if m, ok := el.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					parts = append(parts, t)
				}
			}
		}
		return strings.Join(parts, " ")
	}
	return ""
}

// ensureWords computes the full-text word lists of all documents and the inverted
// index over them, once per snapshot, on the first query that needs them.
func (s *snapshot) ensureWords() {
	s.wordsOnce.Do(func() {
		index := map[string][]int32{}
		for i, d := range s.docs {
			d.words = sortedUnique(collectText(nil, d.Data, ""))
			for _, w := range d.words {
				index[w] = append(index[w], int32(i))
			}
		}
		s.vocab = make([]string, 0, len(index))
		for w := range index {
			s.vocab = append(s.vocab, w)
		}
		sort.Strings(s.vocab)
		s.postings = make([][]int32, len(s.vocab))
		for i, w := range s.vocab {
			s.postings[i] = index[w]
		}
	})
}

// docBits is a set of documents of a snapshot, by index.
type docBits []uint64

func (b docBits) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

// fulltextDocs returns the documents having, for every term, a word that starts with
// it: the union of the postings of the term's prefix range, intersected across terms.
func (s *snapshot) fulltextDocs(terms []string) docBits {
	s.ensureWords()
	var acc docBits
	for _, t := range terms {
		bits := make(docBits, (len(s.docs)+63)/64)
		for i := sort.SearchStrings(s.vocab, t); i < len(s.vocab) && strings.HasPrefix(s.vocab[i], t); i++ {
			for _, d := range s.postings[i] {
				bits[d>>6] |= 1 << (uint(d) & 63)
			}
		}
		if acc == nil {
			acc = bits
		} else {
			for i := range acc {
				acc[i] &= bits[i]
			}
		}
	}
	return acc
}

// docsOf lists the documents of a set in ID order.
func (s *snapshot) docsOf(set docBits) []*sdoc {
	var out []*sdoc
	for w, word := range set {
		for word != 0 {
			i := w*64 + bits.TrailingZeros64(word)
			out = append(out, s.docs[i])
			word &= word - 1
		}
	}
	return out
}

// textSkipKeys hold machine values, not prose, so full-text search ignores them.
var textSkipKeys = map[string]bool{
	"url": true, "link_type": true, "id": true, "type": true, "kind": true, "slice_type": true,
	"variation": true, "version": true, "embed_url": true, "html": true, "thumbnail_url": true,
	"provider_url": true, "author_url": true, "lang": true, "size": true, "height": true, "width": true,
	"background": true, "target": true, "spans": true, "edit": true, "dimensions": true, "key": true,
	"slug": true, "uid": true, "tags": true, "isBroken": true, "variant": true, "slice_label": true,
}

// collectText appends the words of every prose string in v.
func collectText(dst []string, v any, key string) []string {
	switch x := v.(type) {
	case string:
		if !textSkipKeys[key] && !looksLikeMachineValue(x) {
			dst = appendWords(dst, x)
		}
	case map[string]any:
		if lt, _ := x["link_type"].(string); lt != "" {
			if t, ok := x["text"].(string); ok {
				dst = appendWords(dst, t)
			}
			return dst
		}
		for k, el := range x {
			dst = collectText(dst, el, k)
		}
	case []any:
		for _, el := range x {
			dst = collectText(dst, el, key)
		}
	}
	return dst
}

func looksLikeMachineValue(s string) bool {
	return strings.HasPrefix(s, "#") && len(s) == 7 || strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "/media/")
}

// fieldValues returns the values at a my.<type>.<field>… path of d, descending through
// groups and slices (arrays) so that my.page.group.name yields every member's name.
func fieldValues(d *sdoc, fields []string) []any {
	if len(fields) == 1 && fields[0] == "uid" {
		if d.UID == "" {
			return nil
		}
		return []any{d.UID}
	}
	cur := []any{d.Data}
	for _, f := range fields {
		var next []any
		for _, v := range cur {
			next = appendField(next, v, f)
		}
		cur = next
		if len(cur) == 0 {
			return nil
		}
	}
	return cur
}

// anyFieldValue reports whether test holds for some value at the path, like
// fieldValues but without allocating: it runs for every candidate of a query.
func anyFieldValue(d *sdoc, fields []string, test func(any) bool) bool {
	if len(fields) == 1 && fields[0] == "uid" {
		return d.UID != "" && test(d.UID)
	}
	return visitField(d.Data, fields, test)
}

func visitField(v any, fields []string, test func(any) bool) bool {
	if len(fields) == 0 {
		return v != nil && test(v)
	}
	switch x := v.(type) {
	case map[string]any:
		el, ok := x[fields[0]]
		return ok && el != nil && visitField(el, fields[1:], test)
	case []any:
		for _, el := range x {
			if m, ok := el.(map[string]any); ok {
				if visitField(m, fields, test) {
					return true
				}
			}
		}
	}
	return false
}

func appendField(dst []any, v any, f string) []any {
	switch x := v.(type) {
	case map[string]any:
		if el, ok := x[f]; ok && el != nil {
			dst = append(dst, el)
		}
	case []any:
		for _, el := range x {
			dst = appendField(dst, el, f)
		}
	}
	return dst
}

// isEmptyValue reports whether a field has no value in Prismic's sense.
func isEmptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		if len(x) == 0 {
			return true
		}
		// A rich text field whose blocks are all empty text is empty.
		for _, el := range x {
			m, ok := el.(map[string]any)
			if !ok {
				return false
			}
			t, isText := m["text"].(string)
			if _, hasType := m["type"]; !hasType || !isText || t != "" {
				return false
			}
		}
		return true
	case map[string]any:
		if len(x) == 0 {
			return true
		}
		if lt, _ := x["link_type"].(string); lt != "" {
			return lt == "Any" || len(x) == 1
		}
		if u, ok := x["url"]; ok && (u == nil || u == "") {
			return true
		}
	}
	return false
}
