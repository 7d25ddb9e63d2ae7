package content

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"
)

// ResultDocument is a document as the search endpoint returns it (protocols §1.6).
type ResultDocument struct {
	ID                   string              `json:"id"`
	UID                  *string             `json:"uid"`
	URL                  *string             `json:"url"`
	Type                 string              `json:"type"`
	Href                 string              `json:"href"`
	Tags                 []string            `json:"tags"`
	FirstPublicationDate *string             `json:"first_publication_date"`
	LastPublicationDate  *string             `json:"last_publication_date"`
	Slugs                []string            `json:"slugs"`
	LinkedDocuments      []any               `json:"linked_documents"`
	Lang                 string              `json:"lang"`
	AlternateLanguages   []AlternateLanguage `json:"alternate_languages"`
	Data                 map[string]any      `json:"data"`
}

// prismicTimeLayout is Prismic's timestamp format: no colon in the offset.
const prismicTimeLayout = "2006-01-02T15:04:05-0700"

func formatTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(prismicTimeLayout)
	return &s
}

// APIPath is where the front door mounts the content API; hrefs and next_page URLs
// point there.
const APIPath = "/content/api/v2"

// renderer turns snapshot documents into response documents for one request: it
// re-resolves document links against the snapshot, fills urls from routes, copies
// fetchLinks / graphQuery fields of linked documents and makes media URLs absolute.
// It never mutates snapshot data: every map on the way out is a copy.
type renderer struct {
	snap        *snapshot
	ref         string // the ref as the request named it, for hrefs
	origin      string
	routes      []route
	brokenRoute *string
	fetch       map[string]map[string]bool // type → fields to return
	fetchLinks  map[string][]string        // type → fields to copy into links
	gq          *graphQuery
	urls        map[*sdoc]*string
	// key names everything that shapes the output besides the document, for the
	// snapshot's cache of rendered JSON.
	key string
}

func newRenderer(snap *snapshot, p SearchParams) (*renderer, error) {
	r := &renderer{snap: snap, ref: p.Ref, origin: strings.TrimRight(p.Origin, "/"), urls: map[*sdoc]*string{}}
	r.key = strings.Join([]string{p.Ref, r.origin, p.Routes, p.BrokenRoute, p.Fetch, p.FetchLinks, p.GraphQuery}, "\x00")
	var err error
	if r.routes, err = parseRoutes(p.Routes); err != nil {
		return nil, err
	}
	if p.BrokenRoute != "" {
		br := p.BrokenRoute
		r.brokenRoute = &br
	}
	fetch, err := parseFieldList(p.Fetch, "fetch")
	if err != nil {
		return nil, err
	}
	if len(fetch) > 0 {
		r.fetch = map[string]map[string]bool{}
		for t, fs := range fetch {
			r.fetch[t] = map[string]bool{}
			for _, f := range fs {
				r.fetch[t][f] = true
			}
		}
	}
	if r.fetchLinks, err = parseFieldList(p.FetchLinks, "fetchLinks"); err != nil {
		return nil, err
	}
	if strings.TrimSpace(p.GraphQuery) != "" {
		if r.gq, err = parseGraphQuery(p.GraphQuery); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// parseFieldList reads "author.name,author.bio" or "[author.name, author.bio]".
func parseFieldList(s, param string) (map[string][]string, error) {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if s == "" {
		return nil, nil
	}
	out := map[string][]string{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		typ, field, ok := strings.Cut(item, ".")
		if !ok || !isGQIdent(typ) || !isGQIdent(field) {
			return nil, &Error{Kind: KindParsing, Location: param,
				Message: param + ": '" + item + "' is not of the form <type>.<field>"}
		}
		out[typ] = append(out[typ], field)
	}
	return out, nil
}

func (r *renderer) href(id string) string {
	q := url.Values{}
	q.Set("ref", r.ref)
	q.Set("q", `[[:d = at(document.id, "`+id+`") ]]`)
	return r.origin + APIPath + "/documents/search?" + q.Encode()
}

func (r *renderer) document(d *sdoc) *ResultDocument {
	out := &ResultDocument{
		ID:                   d.ID,
		URL:                  r.urlFor(d),
		Type:                 d.Type,
		Href:                 r.href(d.ID),
		Tags:                 append([]string{}, d.Tags...), // callers must not reach the snapshot
		FirstPublicationDate: formatTime(d.First),
		LastPublicationDate:  formatTime(d.Last),
		Slugs:                []string{d.Slug},
		LinkedDocuments:      []any{},
		Lang:                 d.Lang,
		AlternateLanguages:   alternatesOf(d),
	}
	if d.UID != "" {
		uid := d.UID
		out.UID = &uid
	}
	var sel *gqSel
	if r.gq != nil {
		sel = r.gq.types[d.Type]
	}
	switch {
	case sel != nil:
		out.Data = r.selectObject(d.Data, sel, 0)
	case r.fetch[d.Type] != nil:
		keep := r.fetch[d.Type]
		out.Data = map[string]any{}
		for k, v := range d.Data {
			if keep[k] {
				out.Data[k] = r.value(v, 0)
			}
		}
	default:
		out.Data = r.object(d.Data, 0)
	}
	return out
}

func alternatesOf(d *sdoc) []AlternateLanguage {
	out := make([]AlternateLanguage, 0, len(d.alternates))
	for _, a := range d.alternates {
		out = append(out, AlternateLanguage{ID: a.ID, UID: a.UID, Type: a.Type, Lang: a.Lang})
	}
	return out
}

// maxLinkDepth bounds graphQuery deep fetching (a link in a linked document in …).
const maxLinkDepth = 4

func (r *renderer) object(m map[string]any, depth int) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = r.field(k, v, depth)
	}
	return out
}

// field renders one key of an object; media URLs become absolute on the way out
// (decision 001: stored as /media/<file>, because @prismicio/react builds imgix srcsets
// with new URL()).
func (r *renderer) field(k string, v any, depth int) any {
	if s, ok := v.(string); ok && (k == "url" || k == "thumbnail_url") && strings.HasPrefix(s, "/media/") {
		return r.origin + s
	}
	return r.value(v, depth)
}

func (r *renderer) value(v any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		if lt, _ := x["link_type"].(string); lt == "Document" {
			return r.docLink(x, nil, depth)
		}
		return r.object(x, depth)
	case []any:
		out := make([]any, len(x))
		for i, el := range x {
			out[i] = r.value(el, depth)
		}
		return out
	}
	return v
}

// linkMetaKeys are the keys of a document link the API computes; any other key of the
// stored link (text, variant, key…) is kept as stored.
var linkMetaKeys = map[string]bool{
	"link_type": true, "id": true, "type": true, "tags": true, "lang": true, "slug": true, "uid": true,
	"url": true, "isBroken": true, "data": true, "first_publication_date": true, "last_publication_date": true,
}

// docLink re-resolves a stored document link against the snapshot. sel, when not nil,
// is the graphQuery selection under the link field.
func (r *renderer) docLink(x map[string]any, sel *gqSel, depth int) map[string]any {
	id, _ := x["id"].(string)
	if id == "" {
		return map[string]any{"link_type": "Any"}
	}
	out := map[string]any{"link_type": "Document", "id": id}
	for k, v := range x {
		if !linkMetaKeys[k] {
			out[k] = r.value(v, depth)
		}
	}
	target := r.snap.byID[id]
	if target == nil {
		for _, k := range []string{"type", "tags", "lang", "slug", "uid"} {
			if v, ok := x[k]; ok {
				out[k] = v
			}
		}
		out["isBroken"] = true
		if r.brokenRoute != nil {
			out["url"] = *r.brokenRoute
		}
		return out
	}
	out["type"] = target.Type
	out["tags"] = append([]string{}, target.Tags...)
	out["lang"] = target.Lang
	out["slug"] = target.Slug
	if target.UID != "" {
		out["uid"] = target.UID
	}
	if u := r.urlFor(target); u != nil {
		out["url"] = *u
	}
	out["isBroken"] = false
	switch {
	case sel != nil && depth < maxLinkDepth:
		sub := sel.unions[target.Type]
		if sub == nil && (len(sel.fields) > 0 || sel.all) {
			sub = sel
		}
		if sub != nil {
			out["data"] = r.selectObject(target.Data, sub, depth+1)
		}
	case depth == 0 && r.fetchLinks[target.Type] != nil:
		data := map[string]any{}
		for _, f := range r.fetchLinks[target.Type] {
			if v, ok := target.Data[f]; ok {
				data[f] = r.field(f, v, depth+1)
			}
		}
		out["data"] = data
	}
	return out
}

// selectObject keeps the fields of m that sel selects.
func (r *renderer) selectObject(m map[string]any, sel *gqSel, depth int) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		sub, named := sel.fields[k]
		switch {
		case named && sub != nil:
			out[k] = r.selectValue(v, sub, depth)
		case named || sel.all:
			out[k] = r.field(k, v, depth)
		}
	}
	return out
}

// selectValue applies a sub-selection to a field: a link (fields of the linked
// document), a group or slice zone (each item), or an object.
func (r *renderer) selectValue(v any, sel *gqSel, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		if lt, _ := x["link_type"].(string); lt == "Document" {
			return r.docLink(x, sel, depth)
		}
		return r.selectObject(x, sel, depth)
	case []any:
		out := make([]any, 0, len(x))
		for _, el := range x {
			m, ok := el.(map[string]any)
			if !ok {
				out = append(out, el)
				continue
			}
			if st, ok := m["slice_type"].(string); ok {
				if s := r.selectSlice(m, st, sel, depth); s != nil {
					out = append(out, s)
				}
				continue
			}
			out = append(out, r.selectValue(m, sel, depth))
		}
		return out
	}
	return v
}

var sliceMetaKeys = []string{"slice_type", "slice_label", "id", "variation", "version"}

// selectSlice applies `...on <slice_type> { … }` to one slice. Slices the selection
// does not name are left out, unless it spreads every field.
func (r *renderer) selectSlice(m map[string]any, sliceType string, sel *gqSel, depth int) map[string]any {
	union := sel.unions[sliceType]
	if union == nil {
		if sel.all {
			return r.object(m, depth)
		}
		return nil
	}
	if union.all {
		return r.object(m, depth)
	}
	out := map[string]any{}
	for _, k := range sliceMetaKeys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	inner := union
	if vs, ok := union.fields["variation"]; ok && vs != nil {
		variation, _ := m["variation"].(string)
		if u := vs.unions[variation]; u != nil {
			inner = u
		} else if !vs.all {
			inner = &gqSel{}
		}
	}
	pick := func(names ...string) (*gqSel, bool) {
		for _, n := range names {
			if s, ok := inner.fields[n]; ok {
				return s, true
			}
		}
		return nil, inner.all
	}
	primary, _ := m["primary"].(map[string]any)
	if ps, ok := pick("primary", "non-repeat"); ok && ps != nil {
		out["primary"] = r.selectObject(primary, ps, depth)
	} else if ok {
		out["primary"] = r.object(primary, depth)
	} else {
		out["primary"] = map[string]any{}
	}
	items, _ := m["items"].([]any)
	if is, ok := pick("items", "repeat"); ok && is != nil {
		out["items"] = r.selectValue(items, is, depth)
	} else if ok {
		out["items"] = r.value(items, depth)
	} else {
		out["items"] = []any{}
	}
	return out
}

// renderKey identifies one document rendered with one set of options.
type renderKey struct {
	opts string
	d    *sdoc
}

// maxRenderedBytes bounds the cache of rendered documents per snapshot.
const maxRenderedBytes = 64 << 20

// documentJSON renders d to JSON, memoised per snapshot: the same page asked for again
// (many visitors, or the SSR and the browser) costs a map lookup.
func (r *renderer) documentJSON(d *sdoc) ([]byte, error) {
	k := renderKey{r.key, d}
	s := r.snap
	s.cacheMu.Lock()
	b, ok := s.rendered[k]
	s.cacheMu.Unlock()
	if ok {
		return b, nil
	}
	b, err := json.Marshal(r.document(d))
	if err != nil {
		return nil, err
	}
	s.cacheMu.Lock()
	if s.rendered == nil || s.renderBytes+len(b) > maxRenderedBytes {
		s.rendered, s.renderBytes = map[renderKey][]byte{}, 0
	}
	s.rendered[k] = b
	s.renderBytes += len(b) + len(k.opts)
	s.cacheMu.Unlock()
	return b, nil
}
