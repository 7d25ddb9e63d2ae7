package content

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"sort"
	"strings"
	"sync"

	"lineage/internal/httpx"
)

// The document types and slices the studio edits are described as Prismic Custom Types
// API models (protocols.md §7): models/types/<id>.json and models/slices/<id>.json in
// the repository, embedded in the binary. An admin may store an edited copy
// (content_models), which overrides the file of the same id until it is deleted.

//go:embed models/types/*.json models/slices/*.json
var modelFiles embed.FS

// Model is a custom type: {id, label, format, repeatable, status, json}, where json maps
// tab name → field ID → field.
type Model struct {
	ID         string                      `json:"id"`
	Label      string                      `json:"label"`
	Format     string                      `json:"format,omitempty"`
	Repeatable bool                        `json:"repeatable"`
	Status     bool                        `json:"status"`
	JSON       map[string]map[string]Field `json:"json"`

	raw    json.RawMessage // as written, so tab and field order survive
	source string          // "file" or "custom"
}

// Field is one field of a model: {type, config}.
type Field struct {
	Type     string      `json:"type"`
	Fieldset string      `json:"fieldset,omitempty"`
	Config   FieldConfig `json:"config"`
}

// FieldConfig holds the config keys the studio reads; others are kept in the raw JSON.
type FieldConfig struct {
	Label       string            `json:"label"`
	Placeholder string            `json:"placeholder,omitempty"`
	Single      string            `json:"single,omitempty"`
	Multi       string            `json:"multi,omitempty"`
	Select      *string           `json:"select,omitempty"`
	Customtypes []json.RawMessage `json:"customtypes,omitempty"`
	Options     []string          `json:"options,omitempty"`
	Fields      map[string]Field  `json:"fields,omitempty"`
	Choices     map[string]Field  `json:"choices,omitempty"`
	// Required is Lineage's addition, ignored by Prismic: a draft may leave the field
	// empty, publishing may not.
	Required bool `json:"required,omitempty"`
}

// SliceModel is a shared slice: {id, type:"SharedSlice", name, variations}.
type SliceModel struct {
	ID         string      `json:"id"`
	Type       string      `json:"type"`
	Name       string      `json:"name"`
	Variations []Variation `json:"variations"`

	raw    json.RawMessage
	source string
}

// Variation is one variation of a slice: its primary fields and repeatable item fields.
type Variation struct {
	ID      string           `json:"id"`
	Name    string           `json:"name"`
	Primary map[string]Field `json:"primary"`
	Items   map[string]Field `json:"items"`
}

// maxModelBytes bounds a model an admin stores; the largest built-in one is 3 KiB.
const maxModelBytes = 256 << 10

var (
	modelIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	fieldIDPattern = regexp.MustCompile(`^[A-Za-z0-9_]{1,64}$`)
	fieldTypes     = map[string]bool{"StructuredText": true, "Image": true, "Link": true, "UID": true, "Date": true,
		"Timestamp": true, "Boolean": true, "Number": true, "Text": true, "Color": true, "Embed": true,
		"GeoPoint": true, "Select": true, "Group": true, "Slices": true, "Table": true}
	// richTextBlocks and richTextSpans are the block and span types of config.single and
	// config.multi that the site renders.
	richTextBlocks = map[string]bool{"paragraph": true, "preformatted": true, "heading1": true, "heading2": true,
		"heading3": true, "heading4": true, "heading5": true, "heading6": true, "list-item": true,
		"o-list-item": true, "image": true, "embed": true}
	richTextSpans = map[string]bool{"strong": true, "em": true, "hyperlink": true, "label": true}
)

// decodeModel reads a model's JSON into m (a *Model or *SliceModel): over
// maxModelBytes is a 413, anything but JSON of its kind a 422 that names the model
// and the kind.
func decodeModel(b []byte, m any, model, kind string) error {
	if len(b) > maxModelBytes {
		return &httpx.Error{Code: httpx.ETOOLARGE, Message: fmt.Sprintf("A model may be at most %d KiB.", maxModelBytes>>10)}
	}
	if err := strictUnmarshal(b, m); err != nil {
		return httpx.Invalid("json", "%s is not valid JSON of %s: %s.", model, kind, err)
	}
	return nil
}

// checkModelID adds the id's error to fe when it is not a model id.
func checkModelID(fe *httpx.FieldErrors, id string) {
	if !modelIDPattern.MatchString(id) {
		fe.Add("id", "The id must be 1 to 64 lower-case letters, digits or underscores, starting with a letter.")
	}
}

// ParseModel reads and checks a custom type model. It is what an admin's PUT goes
// through: any problem is a 422 naming the field path.
func ParseModel(b []byte) (*Model, error) {
	var m Model
	if err := decodeModel(b, &m, "The model", "a custom type"); err != nil {
		return nil, err
	}
	var fe httpx.FieldErrors
	checkModelID(&fe, m.ID)
	if strings.TrimSpace(m.Label) == "" || len(m.Label) > 200 {
		fe.Add("label", "The label must be 1 to 200 characters.")
	}
	if m.Format != "" && m.Format != "page" && m.Format != "custom" {
		fe.Add("format", `The format must be "page" or "custom".`)
	}
	if len(m.JSON) == 0 {
		fe.Add("json", "A model needs at least one tab of fields.")
	}
	seen := map[string]string{}
	uids, total := 0, 0
	for _, tab := range sortedKeys(m.JSON) {
		if tab == "" || len(tab) > 100 {
			fe.Add("json", "Tab names must be 1 to 100 characters.")
		}
		for _, id := range sortedKeys(m.JSON[tab]) {
			f := m.JSON[tab][id]
			p := "json." + tab + "." + id
			if other, dup := seen[id]; dup {
				fe.Add(p, "The field %s is also in the tab %s.", id, other)
			}
			seen[id] = tab
			if f.Type == "UID" {
				uids++
			}
			total += checkField(&fe, p, id, f, 0)
		}
	}
	if uids > 1 {
		fe.Add("json", "A model may have at most one UID field.")
	}
	if total > 500 {
		fe.Add("json", "A model may have at most 500 fields.")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	m.raw = compactJSON(b)
	return &m, nil
}

// ParseSliceModel reads and checks a shared slice model.
func ParseSliceModel(b []byte) (*SliceModel, error) {
	var m SliceModel
	if err := decodeModel(b, &m, "The slice model", "a shared slice"); err != nil {
		return nil, err
	}
	var fe httpx.FieldErrors
	checkModelID(&fe, m.ID)
	if m.Type != "SharedSlice" {
		fe.Add("type", `The type of a slice model must be "SharedSlice".`)
	}
	if strings.TrimSpace(m.Name) == "" || len(m.Name) > 200 {
		fe.Add("name", "The name must be 1 to 200 characters.")
	}
	if len(m.Variations) == 0 {
		fe.Add("variations", "A slice needs at least one variation.")
	}
	vids := map[string]bool{}
	total := 0
	for i, v := range m.Variations {
		p := fmt.Sprintf("variations.%d", i)
		if !fieldIDPattern.MatchString(v.ID) || vids[v.ID] {
			fe.Add(p+".id", "Each variation needs its own id of letters, digits or underscores.")
		}
		vids[v.ID] = true
		for _, part := range []struct {
			name   string
			fields map[string]Field
		}{{"primary", v.Primary}, {"items", v.Items}} {
			for _, id := range sortedKeys(part.fields) {
				f := part.fields[id]
				if f.Type == "UID" || f.Type == "Slices" || f.Type == "Group" {
					fe.Add(p+"."+part.name+"."+id, "A slice cannot hold a %s field.", f.Type)
					continue
				}
				total += checkField(&fe, p+"."+part.name+"."+id, id, f, 1)
			}
		}
	}
	if total > 500 {
		fe.Add("variations", "A slice may have at most 500 fields.")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	m.raw = compactJSON(b)
	return &m, nil
}

// checkField checks one field's definition and returns how many fields it holds.
func checkField(fe *httpx.FieldErrors, p, id string, f Field, depth int) int {
	if !fieldIDPattern.MatchString(id) {
		fe.Add(p, "Field ids are 1 to 64 letters, digits or underscores.")
	}
	if !fieldTypes[f.Type] {
		fe.Add(p+".type", "%q is not a field type the studio knows.", f.Type)
		return 1
	}
	c := f.Config
	if len(c.Label) > 200 || len(c.Placeholder) > 500 {
		fe.Add(p+".config", "Labels are at most 200 characters and placeholders at most 500.")
	}
	n := 1
	switch f.Type {
	case "StructuredText":
		if (c.Single == "") == (c.Multi == "") {
			fe.Add(p+".config", "A rich text field needs exactly one of single or multi.")
			break
		}
		for _, tok := range strings.Split(c.Single+c.Multi, ",") {
			tok = strings.TrimSpace(tok)
			if !richTextBlocks[tok] && !richTextSpans[tok] && tok != "rtl" {
				fe.Add(p+".config", "%q is not a rich text block or span type.", tok)
			}
		}
	case "Link":
		if c.Select != nil && *c.Select != "" && *c.Select != "document" && *c.Select != "media" && *c.Select != "web" {
			fe.Add(p+".config.select", `select must be "document", "media", "web" or null.`)
		}
		for _, ct := range c.Customtypes {
			if customTypeID(ct) == "" {
				fe.Add(p+".config.customtypes", "customtypes lists type ids.")
			}
		}
	case "Select":
		if len(c.Options) == 0 {
			fe.Add(p+".config.options", "A select field needs its options.")
		}
	case "Group":
		if depth > 0 {
			fe.Add(p, "A group cannot be inside a group or a slice.")
			break
		}
		if len(c.Fields) == 0 {
			fe.Add(p+".config.fields", "A group needs fields.")
		}
		for _, sub := range sortedKeys(c.Fields) {
			sf := c.Fields[sub]
			if sf.Type == "Group" || sf.Type == "Slices" || sf.Type == "UID" {
				fe.Add(p+".config.fields."+sub, "A group cannot hold a %s field.", sf.Type)
				continue
			}
			n += checkField(fe, p+".config.fields."+sub, sub, sf, depth+1)
		}
	case "Slices":
		if depth > 0 {
			fe.Add(p, "A slice zone must be at the top of a tab.")
		}
		for _, sid := range sortedKeys(c.Choices) {
			if c.Choices[sid].Type != "SharedSlice" || !modelIDPattern.MatchString(sid) {
				fe.Add(p+".config.choices."+sid, `Each choice is a shared slice id with {"type":"SharedSlice"}.`)
			}
		}
	case "UID":
		if depth > 0 {
			fe.Add(p, "The UID field must be at the top of a tab.")
		}
	}
	return n
}

// customTypeID reads an entry of a Link's customtypes: a type id, or {"id": …}.
func customTypeID(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil && modelIDPattern.MatchString(s) {
		return s
	}
	var o struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &o) == nil && modelIDPattern.MatchString(o.ID) {
		return o.ID
	}
	return ""
}

func strictUnmarshal(b []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(dst); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}

func compactJSON(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return append(json.RawMessage(nil), b...)
	}
	return buf.Bytes()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// fields lists a model's fields in every tab.
func (m *Model) fields() map[string]Field {
	out := map[string]Field{}
	for _, tab := range m.JSON {
		for id, f := range tab {
			out[id] = f
		}
	}
	return out
}

// hasUID reports whether documents of the type have a uid.
func (m *Model) hasUID() bool {
	for _, f := range m.fields() {
		if f.Type == "UID" {
			return true
		}
	}
	return false
}

// MarshalJSON answers the model as written, with "source" ("file" or "custom") added.
func (m *Model) MarshalJSON() ([]byte, error) { return withSource(m.raw, m.source), nil }

// MarshalJSON answers the slice model as written, with "source" added.
func (m *SliceModel) MarshalJSON() ([]byte, error) { return withSource(m.raw, m.source), nil }

func withSource(raw json.RawMessage, source string) []byte {
	s, _ := json.Marshal(source)
	body := bytes.TrimSpace(raw)
	out := append([]byte(`{"source":`), s...)
	if inner := bytes.TrimSpace(body[1 : len(body)-1]); len(inner) > 0 {
		out = append(out, ',')
		out = append(out, inner...)
	}
	return append(out, '}')
}

// modelSet is every model in force: the files, overridden by stored copies.
type modelSet struct {
	types  map[string]*Model
	slices map[string]*SliceModel
}

// fileModels returns the repository's models, parsed once (they are embedded, so they
// never change while the process runs). Callers copy the maps before changing them.
var fileModels = sync.OnceValues(parseFileModels)

// parseFileModels reads the repository's models; a bad file is a programming error
// caught by TestModelFilesParse, so here it is reported, not skipped.
func parseFileModels() (*modelSet, error) {
	set := &modelSet{types: map[string]*Model{}, slices: map[string]*SliceModel{}}
	for _, kind := range []string{"types", "slices"} {
		entries, err := fs.ReadDir(modelFiles, "models/"+kind)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			b, err := modelFiles.ReadFile("models/" + kind + "/" + e.Name())
			if err != nil {
				return nil, err
			}
			id := strings.TrimSuffix(e.Name(), ".json")
			if kind == "types" {
				m, err := ParseModel(b)
				if err != nil || m.ID != id {
					return nil, fmt.Errorf("content: model file %s: %v", e.Name(), err)
				}
				m.source = "file"
				set.types[id] = m
			} else {
				m, err := ParseSliceModel(b)
				if err != nil || m.ID != id {
					return nil, fmt.Errorf("content: slice model file %s: %v", e.Name(), err)
				}
				m.source = "file"
				set.slices[id] = m
			}
		}
	}
	return set, nil
}

// models returns the models in force: the files, overridden by admins' stored copies
// (parsed again only when their JSON changed).
func (s *Service) models(ctx context.Context) (*modelSet, error) {
	files, err := fileModels()
	if err != nil {
		return nil, err
	}
	set := &modelSet{types: maps.Clone(files.types), slices: maps.Clone(files.slices)}
	rows, err := s.db.QueryContext(ctx, "SELECT kind, id, json FROM content_models")
	if err != nil {
		return nil, fmt.Errorf("content: read models: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind, id, raw string
		if err := rows.Scan(&kind, &id, &raw); err != nil {
			return nil, err
		}
		parsed, ok := s.storedModel(kind, raw)
		switch m := parsed.(type) {
		case *Model:
			if ok {
				set.types[id] = m
			}
		case *SliceModel:
			if ok {
				set.slices[id] = m
			}
		}
	}
	return set, rows.Err()
}

// Models lists the custom types and slices in force, sorted by id.
func (s *Service) Models(ctx context.Context) ([]*Model, []*SliceModel, error) {
	set, err := s.models(ctx)
	if err != nil {
		return nil, nil, err
	}
	types := make([]*Model, 0, len(set.types))
	for _, id := range sortedKeys(set.types) {
		types = append(types, set.types[id])
	}
	slices := make([]*SliceModel, 0, len(set.slices))
	for _, id := range sortedKeys(set.slices) {
		slices = append(slices, set.slices[id])
	}
	return types, slices, nil
}

// SaveModel stores an admin's copy of a type ("type") or slice ("slice") model, which
// then overrides the file. A type's slice zones may name only slices that exist.
func (s *Service) SaveModel(ctx context.Context, ed Editor, kind, id string, b []byte) (any, error) {
	var out any
	var before any
	set, err := s.models(ctx)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "type":
		m, err := ParseModel(b)
		if err != nil {
			return nil, err
		}
		if m.ID != id {
			return nil, httpx.Invalid("id", "The model's id (%s) must be the one in its address (%s).", m.ID, id)
		}
		var fe httpx.FieldErrors
		for tab, fields := range m.JSON {
			for fid, f := range fields {
				for sid := range f.Config.Choices {
					if set.slices[sid] == nil {
						fe.Add("json."+tab+"."+fid+".config.choices."+sid, "There is no slice %s.", sid)
					}
				}
			}
		}
		if err := fe.Err(); err != nil {
			return nil, err
		}
		m.source = "custom"
		if old := set.types[id]; old != nil {
			before = old
		}
		out = m
		b = m.raw
	case "slice":
		m, err := ParseSliceModel(b)
		if err != nil {
			return nil, err
		}
		if m.ID != id {
			return nil, httpx.Invalid("id", "The slice's id (%s) must be the one in its address (%s).", m.ID, id)
		}
		m.source = "custom"
		if old := set.slices[id]; old != nil {
			before = old
		}
		out = m
		b = m.raw
	default:
		return nil, errNotFound
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO content_models (kind, id, json, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (kind, id) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at, updated_by = excluded.updated_by`),
		kind, id, string(b), s.now().UnixMilli(), nullID(ed.ID))
	if err != nil {
		return nil, fmt.Errorf("content: save model: %w", err)
	}
	s.audit(ctx, ed, "content.model.save", kind+":"+id, before, out)
	return out, nil
}

// ResetModel drops the stored copy of a model and returns the repository's file, which
// is in force again; a model with no file is 404.
func (s *Service) ResetModel(ctx context.Context, ed Editor, kind, id string) (any, error) {
	files, err := fileModels()
	if err != nil {
		return nil, err
	}
	var file any
	switch {
	case kind == "type" && files.types[id] != nil:
		file = files.types[id]
	case kind == "slice" && files.slices[id] != nil:
		file = files.slices[id]
	default:
		return nil, errNotFound
	}
	if _, err := s.db.ExecContext(ctx, s.db.Rebind("DELETE FROM content_models WHERE kind = ? AND id = ?"), kind, id); err != nil {
		return nil, fmt.Errorf("content: reset model: %w", err)
	}
	s.audit(ctx, ed, "content.model.reset", kind+":"+id, nil, file)
	return file, nil
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id != 0} }

// storedModel parses an admin's stored model, remembering the result by its JSON.
func (s *Service) storedModel(kind, raw string) (any, bool) {
	key := kind + "\x00" + raw
	s.mu.Lock()
	m, ok := s.modelCache[key]
	s.mu.Unlock()
	if ok {
		return m, m != nil
	}
	var out any
	switch kind {
	case "type":
		if m, err := ParseModel([]byte(raw)); err == nil {
			m.source = "custom"
			out = m
		}
	case "slice":
		if m, err := ParseSliceModel([]byte(raw)); err == nil {
			m.source = "custom"
			out = m
		}
	}
	s.mu.Lock()
	if s.modelCache == nil || len(s.modelCache) > 1000 {
		s.modelCache = map[string]any{}
	}
	s.modelCache[key] = out
	s.mu.Unlock()
	return out, out != nil
}
