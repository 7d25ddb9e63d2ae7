package content

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"lineage/internal/httpx"
)

// Validation of a document against its type's model, on every studio save. Field paths
// in the errors are dotted with list indexes (data.body.2.primary.image.alt), the keys
// of the 422 answer's "errors".

var (
	uidPattern   = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	colorPattern = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
	datePattern  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

const (
	maxUIDLength  = 100
	maxTags       = 50
	maxTagLength  = 100
	maxTextLength = 100_000 // one text value (a paragraph, a key text)
)

// linkCheck is a link to a document found while validating, checked against the store
// once the walk is done.
type linkCheck struct {
	path  string
	id    string
	types []string // the model's customtypes, empty: any
}

// validator walks a document's data against a model.
type validator struct {
	fe      httpx.FieldErrors
	slices  map[string]*SliceModel
	publish bool // required fields are checked too
	links   []linkCheck
}

// checkUID checks a uid's format (uniqueness needs the store: see Service.uidTaken).
func checkUID(fe *httpx.FieldErrors, uid string, hasUID, publish bool) {
	switch {
	case !hasUID && uid != "":
		fe.Add("uid", "Documents of this type have no address (uid).")
	case hasUID && uid == "" && publish:
		fe.Add("uid", "The address (uid) is required before publishing.")
	case uid == "":
	case len(uid) > maxUIDLength:
		fe.Add("uid", "The address may be at most %d characters.", maxUIDLength)
	case !uidPattern.MatchString(uid):
		fe.Add("uid", "The address may use only lower-case letters, digits and single hyphens between them, such as agm-2026.")
	}
}

func checkTags(fe *httpx.FieldErrors, tags []string) {
	if len(tags) > maxTags {
		fe.Add("tags", "A document may have at most %d tags.", maxTags)
		return
	}
	seen := map[string]bool{}
	for i, t := range tags {
		switch {
		case strings.TrimSpace(t) == "" || t != strings.TrimSpace(t):
			fe.Add(fmt.Sprintf("tags.%d", i), "A tag cannot be empty or start or end with a space.")
		case utf8.RuneCountInString(t) > maxTagLength:
			fe.Add(fmt.Sprintf("tags.%d", i), "A tag may be at most %d characters.", maxTagLength)
		case seen[t]:
			fe.Add(fmt.Sprintf("tags.%d", i), "The tag %q is given twice.", t)
		}
		seen[t] = true
	}
}

// decodeDocumentData reads data sent to the studio as decodeData does, and refuses
// anything after the object.
func decodeDocumentData(b []byte) (map[string]any, error) {
	return decodeObject(b, true)
}

// data checks the document's data against the model's fields.
func (v *validator) data(m *Model, data map[string]any) {
	fields := m.fields()
	for _, k := range sortedKeys(data) {
		if f, ok := fields[k]; !ok || f.Type == "UID" {
			v.fe.Add("data."+k, "A %s has no field %q.", m.Label, k)
		}
	}
	for _, tab := range sortedKeys(m.JSON) {
		for _, id := range sortedKeys(m.JSON[tab]) {
			f := m.JSON[tab][id]
			if f.Type == "UID" {
				continue
			}
			v.field("data."+id, f, data[id])
		}
	}
}

// field checks one value; required fields are checked only when publishing.
func (v *validator) field(p string, f Field, val any) {
	if fieldIsEmpty(f, val) {
		if v.publish && f.Config.Required {
			name := f.Config.Label
			if name == "" {
				name = "This field"
			}
			v.fe.Add(p, "%s is required before publishing.", name)
		}
		if val == nil {
			return
		}
	}
	switch f.Type {
	case "StructuredText":
		v.richText(p, f, val)
	case "Image":
		v.image(p, val)
	case "Link":
		v.link(p, f, val)
	case "Date":
		if s, ok := val.(string); !ok {
			v.fe.Add(p, "A date is written YYYY-MM-DD.")
		} else if s != "" {
			if _, err := time.Parse("2006-01-02", s); err != nil || !datePattern.MatchString(s) {
				v.fe.Add(p, "%q is not a date (YYYY-MM-DD).", s)
			}
		}
	case "Timestamp":
		if s, ok := val.(string); !ok {
			v.fe.Add(p, "A date and time is written like 2026-11-26T14:00:00+0000.")
		} else if s != "" {
			if _, ok := parseDate(s); !ok || len(s) <= 10 {
				v.fe.Add(p, "%q is not a date and time.", s)
			}
		}
	case "Boolean":
		if _, ok := val.(bool); !ok {
			v.fe.Add(p, "This is yes (true) or no (false).")
		}
	case "Number":
		n, ok := val.(json.Number)
		if ok {
			f, err := n.Float64()
			ok = err == nil && !math.IsInf(f, 0)
		}
		if !ok {
			v.fe.Add(p, "This must be a number.")
		}
	case "Text":
		v.text(p, val)
	case "Color":
		if s, ok := val.(string); !ok || (s != "" && !colorPattern.MatchString(s)) {
			v.fe.Add(p, "A colour is written #rrggbb.")
		}
	case "Select":
		s, ok := val.(string)
		found := false
		for _, o := range f.Config.Options {
			found = found || o == s
		}
		if !ok || (s != "" && !found) {
			v.fe.Add(p, "Choose one of: %s.", strings.Join(f.Config.Options, ", "))
		}
	case "Embed":
		v.embed(p, val)
	case "GeoPoint":
		o, ok := v.filledObject(p, val, "A place on the map has a latitude and a longitude.")
		if !ok {
			break
		}
		lat, ok1 := number(o["latitude"])
		lng, ok2 := number(o["longitude"])
		if !ok1 || !ok2 || lat < -90 || lat > 90 || lng < -180 || lng > 180 {
			v.fe.Add(p, "The latitude must be between -90 and 90 and the longitude between -180 and 180.")
		}
	case "Table":
		if _, ok := val.(map[string]any); !ok {
			v.fe.Add(p, "A table is an object.")
		}
	case "Group":
		items, ok := val.([]any)
		if !ok {
			v.fe.Add(p, "This must be a list.")
			break
		}
		for i, it := range items {
			v.fields(fmt.Sprintf("%s.%d", p, i), f.Config.Fields, it, "item")
		}
	case "Slices":
		v.sliceZone(p, f, val)
	}
}

// fields checks an object against a set of fields (a group item, a slice's primary).
func (v *validator) fields(p string, fields map[string]Field, val any, what string) {
	o, ok := val.(map[string]any)
	if !ok {
		v.fe.Add(p, "Each %s must be an object.", what)
		return
	}
	for _, k := range sortedKeys(o) {
		if _, ok := fields[k]; !ok {
			v.fe.Add(p+"."+k, "There is no field %q here.", k)
		}
	}
	for _, id := range sortedKeys(fields) {
		v.field(p+"."+id, fields[id], o[id])
	}
}

func (v *validator) sliceZone(p string, f Field, val any) {
	list, ok := val.([]any)
	if !ok {
		v.fe.Add(p, "A slice zone is a list of slices.")
		return
	}
	for i, it := range list {
		sp := fmt.Sprintf("%s.%d", p, i)
		o, ok := it.(map[string]any)
		if !ok {
			v.fe.Add(sp, "Each slice must be an object.")
			continue
		}
		st, _ := o["slice_type"].(string)
		if _, allowed := f.Config.Choices[st]; !allowed || v.slices[st] == nil {
			v.fe.Add(sp+".slice_type", "%q is not a slice this field takes.", st)
			continue
		}
		model := v.slices[st]
		vid, _ := o["variation"].(string)
		if vid == "" {
			vid = "default"
		}
		var variation *Variation
		for i := range model.Variations {
			if model.Variations[i].ID == vid {
				variation = &model.Variations[i]
			}
		}
		if variation == nil {
			v.fe.Add(sp+".variation", "The %s slice has no variation %q.", model.Name, vid)
			continue
		}
		for _, k := range sortedKeys(o) {
			switch k {
			case "slice_type", "slice_label", "id", "variation", "version", "primary", "items":
			default:
				v.fe.Add(sp+"."+k, "A slice has no key %q.", k)
			}
		}
		if id, ok := o["id"]; ok {
			if s, ok := id.(string); !ok || len(s) > 200 {
				v.fe.Add(sp+".id", "A slice's id is a short text.")
			}
		}
		primary := o["primary"]
		if primary == nil {
			primary = map[string]any{}
		}
		v.fields(sp+".primary", variation.Primary, primary, "slice's primary")
		if items, ok := o["items"]; ok && items != nil {
			list, ok := items.([]any)
			if !ok {
				v.fe.Add(sp+".items", "A slice's items are a list.")
				continue
			}
			for j, it := range list {
				v.fields(fmt.Sprintf("%s.items.%d", sp, j), variation.Items, it, "item")
			}
		}
	}
}

func (v *validator) text(p string, val any) {
	s, ok := val.(string)
	if !ok {
		v.fe.Add(p, "This must be text.")
		return
	}
	if len(s) > maxTextLength {
		v.fe.Add(p, "This text is too long (at most %d characters).", maxTextLength)
	}
}

// richText checks blocks against config.single/multi and spans against the text.
func (v *validator) richText(p string, f Field, val any) {
	blocks, ok := val.([]any)
	if !ok {
		v.fe.Add(p, "Rich text is a list of blocks.")
		return
	}
	allowed := map[string]bool{}
	for _, t := range strings.Split(f.Config.Single+f.Config.Multi, ",") {
		allowed[strings.TrimSpace(t)] = true
	}
	if f.Config.Single != "" && len(blocks) > 1 {
		v.fe.Add(p, "This field takes one block only.")
	}
	for i, b := range blocks {
		bp := fmt.Sprintf("%s.%d", p, i)
		o, typ, ok := v.typedObject(bp, b, "block", richTextBlocks, allowed)
		if !ok {
			continue
		}
		switch typ {
		case "image":
			v.image(bp, o)
			if lt, ok := o["linkTo"]; ok && lt != nil {
				v.link(bp+".linkTo", Field{Type: "Link"}, lt)
			}
			continue
		case "embed":
			emb, _ := o["oembed"].(map[string]any)
			if emb == nil {
				v.fe.Add(bp+".oembed", "An embed needs the address of what it shows.")
				continue
			}
			v.embed(bp+".oembed", emb)
			continue
		}
		text, ok := o["text"].(string)
		if !ok {
			v.fe.Add(bp+".text", "A text block needs its text.")
			continue
		}
		if len(text) > maxTextLength {
			v.fe.Add(bp+".text", "This text is too long (at most %d characters).", maxTextLength)
		}
		n := len(utf16.Encode([]rune(text)))
		spans, _ := o["spans"].([]any)
		if raw, ok := o["spans"]; ok && raw != nil && spans == nil {
			v.fe.Add(bp+".spans", "Spans are a list.")
		}
		for j, s := range spans {
			sp := fmt.Sprintf("%s.spans.%d", bp, j)
			so, st, ok := v.typedObject(sp, s, "span", richTextSpans, allowed)
			if !ok {
				continue
			}
			start, ok1 := intValue(so["start"])
			end, ok2 := intValue(so["end"])
			if !ok1 || !ok2 || start < 0 || end < start || end > n {
				v.fe.Add(sp, "The span must lie within the text (0 to %d).", n)
			}
			switch st {
			case "hyperlink":
				data, _ := so["data"].(map[string]any)
				if len(data) == 0 {
					v.fe.Add(sp+".data", "A link needs its target.")
					continue
				}
				v.link(sp+".data", Field{Type: "Link"}, data)
			case "label":
				data, _ := so["data"].(map[string]any)
				if l, ok := data["label"].(string); !ok || l == "" || len(l) > 100 {
					v.fe.Add(sp+".data.label", "A label span needs the label's name.")
				}
			}
		}
	}
}

// typedObject is a rich text block or span (what) at p: an object whose type is one of
// known and allowed here; anything else is a field error, and ok false.
func (v *validator) typedObject(p string, x any, what string, known, allowed map[string]bool) (o map[string]any, typ string, ok bool) {
	o, ok = x.(map[string]any)
	if !ok {
		v.fe.Add(p, "Each %s must be an object.", what)
		return nil, "", false
	}
	typ, _ = o["type"].(string)
	if !known[typ] || !allowed[typ] {
		v.fe.Add(p+".type", "A %q %s is not allowed here.", typ, what)
		return nil, "", false
	}
	return o, typ, true
}

// filledObject is val as an object with something in it to check: not an object is a
// field error (msg), and an empty one an empty field; for either, ok is false.
func (v *validator) filledObject(p string, val any, msg string) (o map[string]any, ok bool) {
	o, ok = val.(map[string]any)
	if !ok {
		v.fe.Add(p, "%s", msg)
		return nil, false
	}
	return o, len(o) > 0
}

// image checks an image value: empty, or a URL with alt text.
func (v *validator) image(p string, val any) {
	o, ok := v.filledObject(p, val, "An image must be an object.")
	if !ok {
		return
	}
	u, _ := o["url"].(string)
	if u == "" && o["url"] == nil {
		return
	}
	if !mediaURLOK(u) {
		v.fe.Add(p+".url", "The image's address must be a file of the media library (/media/…) or an https:// address.")
	}
	alt, _ := o["alt"].(string)
	if strings.TrimSpace(alt) == "" {
		v.fe.Add(p+".alt", "Describe the image for people who cannot see it (alt text).")
	} else if len(alt) > 1000 {
		v.fe.Add(p+".alt", "Alt text may be at most 1000 characters.")
	}
	if c, ok := o["copyright"]; ok && c != nil {
		if s, ok := c.(string); !ok || len(s) > 500 {
			v.fe.Add(p+".copyright", "The copyright is a short text.")
		}
	}
	if d, ok := o["dimensions"]; ok && d != nil {
		dm, _ := d.(map[string]any)
		w, ok1 := intValue(dm["width"])
		h, ok2 := intValue(dm["height"])
		if !ok1 || !ok2 || w < 0 || h < 0 {
			v.fe.Add(p+".dimensions", "An image's dimensions are a width and a height in pixels.")
		}
	}
}

func mediaURLOK(u string) bool {
	if strings.HasPrefix(u, "/media/") && !strings.Contains(u, "..") {
		return true
	}
	pu, err := url.Parse(u)
	return err == nil && (pu.Scheme == "https" || pu.Scheme == "http") && pu.Host != ""
}

// linkSelects are the kinds of link that a Link field's select can name: the select's
// value for each, and what such a link points to.
var linkSelects = map[string]struct{ sel, to string }{
	"Document": {"document", "a page of the site"},
	"Web":      {"web", "a web address"},
	"Media":    {"media", "a file"},
}

// link checks a link value; links to documents are collected for checkLinks.
func (v *validator) link(p string, f Field, val any) {
	o, ok := val.(map[string]any)
	if !ok {
		v.fe.Add(p, "A link must be an object.")
		return
	}
	lt, _ := o["link_type"].(string)
	sel := ""
	if f.Config.Select != nil {
		sel = *f.Config.Select
	}
	if k, ok := linkSelects[lt]; ok && sel != "" && sel != k.sel {
		v.fe.Add(p, "This field links to a %s, not to %s.", sel, k.to)
		return
	}
	switch lt {
	case "", "Any":
		if len(o) > 1 && lt == "" {
			v.fe.Add(p+".link_type", "A link needs its kind (link_type).")
		}
	case "Document":
		id, _ := o["id"].(string)
		if !docIDPattern.MatchString(id) {
			v.fe.Add(p, "Choose the page to link to.")
			return
		}
		var types []string
		for _, ct := range f.Config.Customtypes {
			types = append(types, customTypeID(ct))
		}
		v.links = append(v.links, linkCheck{path: p, id: id, types: types})
	case "Web":
		u, _ := o["url"].(string)
		if !webURLOK(u) {
			v.fe.Add(p+".url", "A web link must be an https:// or http:// address, mailto:, tel: or a path on this site (/…).")
		}
		if t, ok := o["target"]; ok && t != nil {
			if s, ok := t.(string); !ok || (s != "" && s != "_blank") {
				v.fe.Add(p+".target", `A link's target is "_blank" or nothing.`)
			}
		}
	case "Media":
		u, _ := o["url"].(string)
		if !mediaURLOK(u) {
			v.fe.Add(p+".url", "A file link must be a file of the media library (/media/…) or an https:// address.")
		}
	default:
		v.fe.Add(p+".link_type", "%q is not a kind of link (Document, Web, Media or Any).", lt)
	}
}

func webURLOK(u string) bool {
	if len(u) == 0 || len(u) > 2048 || strings.ContainsAny(u, " \t\r\n") {
		return false
	}
	if strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") {
		return true
	}
	pu, err := url.Parse(u)
	if err != nil {
		return false
	}
	switch pu.Scheme {
	case "http", "https":
		return pu.Host != ""
	case "mailto", "tel":
		return pu.Opaque != ""
	}
	return false
}

func (v *validator) embed(p string, val any) {
	o, ok := v.filledObject(p, val, "An embed must be an object.")
	if !ok {
		return
	}
	u, _ := o["embed_url"].(string)
	pu, err := url.Parse(u)
	if err != nil || pu.Scheme != "https" || pu.Host == "" {
		v.fe.Add(p+".embed_url", "Give the https:// address of the video or post to show.")
	}
	if h, ok := o["html"]; ok && h != nil {
		if s, ok := h.(string); !ok || len(s) > 20000 {
			v.fe.Add(p+".html", "The embed's HTML is too long.")
		}
	}
}

// fieldIsEmpty reports whether a value counts as not filled in.
func fieldIsEmpty(f Field, val any) bool {
	switch x := val.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		if f.Type == "StructuredText" {
			for _, b := range x {
				o, _ := b.(map[string]any)
				if t, _ := o["type"].(string); t == "image" || t == "embed" {
					return false
				}
				if s, _ := o["text"].(string); strings.TrimSpace(s) != "" {
					return false
				}
			}
			return true
		}
		return len(x) == 0
	case map[string]any:
		switch f.Type {
		case "Image":
			u, _ := x["url"].(string)
			return u == ""
		case "Link":
			lt, _ := x["link_type"].(string)
			return lt == "" || lt == "Any"
		case "Embed":
			u, _ := x["embed_url"].(string)
			return u == ""
		}
		return len(x) == 0
	}
	return false
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func intValue(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(n.String())
	return i, err == nil
}

// ValidateDocument checks a document's uid, tags and data against model (slices gives
// the slice models) without the store: what a link to a document points at is returned
// for the caller to check. publish adds the required-field checks.
func ValidateDocument(m *Model, slices map[string]*SliceModel, uid string, tags []string, data []byte, publish bool) (*httpx.FieldErrors, []linkCheck) {
	v := &validator{slices: slices, publish: publish}
	checkUID(&v.fe, uid, m.hasUID(), publish)
	checkTags(&v.fe, tags)
	d, err := decodeDocumentData(data)
	if err != nil {
		v.fe.Add("data", "The document's data must be a JSON object: %s.", err)
		return &v.fe, nil
	}
	v.data(m, d)
	return &v.fe, v.links
}
