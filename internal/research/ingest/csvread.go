package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"lineage/internal/names"
	"lineage/internal/research/index"
)

// The canonical CSV layout (docs/research.md): one row per person in a record.
var (
	recordFields   = []string{"record_id", "record_type", "date", "place", "transcript", "source", "access", "image"}
	personFields   = []string{"role", "surname", "given_names", "sex", "age"}
	requiredFields = []string{"record_id", "record_type", "date", "place", "role", "surname", "given_names"}
)

// Limits on what one record may hold, so that one bad file cannot bloat the store.
const (
	MaxPersons       = 255 // persons per record (search_keys ids leave 8 bits for the position)
	maxNameLen       = 200
	maxFieldLen      = 2000
	maxTranscriptLen = 100_000
)

// RowError is a row an import could not take, with its line in the file.
type RowError struct {
	Line    int    `json:"line"`
	Record  string `json:"record,omitempty"`
	Message string `json:"message"`
}

func (e RowError) Error() string {
	if e.Record != "" {
		return fmt.Sprintf("line %d (record %s): %s", e.Line, e.Record, e.Message)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Message)
}

// FieldSpec says where a field's value comes from: one column, several columns joined,
// or a fixed value; Default replaces an empty result and Map rewrites values (keys
// compared case-insensitively).
type FieldSpec struct {
	Column  string            `json:"column,omitempty"`
	Columns []string          `json:"columns,omitempty"`
	Join    *string           `json:"join,omitempty"`
	Value   *string           `json:"value,omitempty"`
	Default string            `json:"default,omitempty"`
	Map     map[string]string `json:"map,omitempty"`
}

// UnmarshalJSON accepts a bare string as the name of a column.
func (f *FieldSpec) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = FieldSpec{Column: s}
		return nil
	}
	type plain FieldSpec
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p plain
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("a field is a column name or an object with column, columns, join, value, default, map: %w", err)
	}
	*f = FieldSpec(p)
	return nil
}

func (f FieldSpec) validate(name string) error {
	set := 0
	if f.Column != "" {
		set++
	}
	if len(f.Columns) > 0 {
		set++
	}
	if f.Value != nil {
		set++
	}
	if set != 1 {
		return fmt.Errorf("field %q: give exactly one of column, columns or value", name)
	}
	for _, c := range f.Columns {
		if strings.TrimSpace(c) == "" {
			return fmt.Errorf("field %q: an empty column name", name)
		}
	}
	return nil
}

// Mapping adapts another CSV layout to the canonical one (docs/research.md). Without
// Persons, rows are one per person as in the canonical layout and Fields may rename any
// canonical column; with Persons, each row is a whole record and each entry of Persons
// says where one person's fields are.
type Mapping struct {
	Delimiter string                 `json:"delimiter,omitempty"`
	Fields    map[string]FieldSpec   `json:"fields,omitempty"`
	Persons   []map[string]FieldSpec `json:"persons,omitempty"`
}

// ParseMapping reads and checks a mapping file.
func ParseMapping(r io.Reader) (*Mapping, error) {
	dec := json.NewDecoder(io.LimitReader(r, 1<<20))
	dec.DisallowUnknownFields()
	var m Mapping
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("mapping: %w", err)
	}
	if dec.More() {
		return nil, errors.New("mapping: more than one JSON value")
	}
	return &m, m.validate()
}

func (m *Mapping) validate() error {
	if m.Delimiter != "" {
		r, n := utf8.DecodeRuneInString(m.Delimiter)
		if n != len(m.Delimiter) || r == utf8.RuneError || r == '"' || r == '\r' || r == '\n' {
			return fmt.Errorf("mapping: delimiter must be one character other than a quote or newline, got %q", m.Delimiter)
		}
	}
	allowed := recordFields
	if len(m.Persons) == 0 {
		allowed = append(slices.Clone(recordFields), personFields...)
	}
	for _, k := range slices.Sorted(maps.Keys(m.Fields)) {
		if !slices.Contains(allowed, k) {
			if slices.Contains(personFields, k) {
				return fmt.Errorf("mapping: %q belongs in persons when persons is given", k)
			}
			return fmt.Errorf("mapping: unknown field %q (fields are %s)", k, strings.Join(allowed, ", "))
		}
		if err := m.Fields[k].validate(k); err != nil {
			return fmt.Errorf("mapping: %w", err)
		}
	}
	if len(m.Persons) > MaxPersons {
		return fmt.Errorf("mapping: at most %d persons", MaxPersons)
	}
	for i, p := range m.Persons {
		if len(p) == 0 {
			return fmt.Errorf("mapping: person %d has no fields", i+1)
		}
		for _, k := range slices.Sorted(maps.Keys(p)) {
			if !slices.Contains(personFields, k) {
				return fmt.Errorf("mapping: person %d: unknown field %q (fields are %s)", i+1, k, strings.Join(personFields, ", "))
			}
			if err := p[k].validate(k); err != nil {
				return fmt.Errorf("mapping: person %d: %w", i+1, err)
			}
		}
		if _, ok := p["surname"]; !ok {
			if _, ok := p["given_names"]; !ok {
				return fmt.Errorf("mapping: person %d needs surname or given_names", i+1)
			}
		}
	}
	return nil
}

// boundField is a FieldSpec with its columns found in the header.
type boundField struct {
	spec FieldSpec
	cols []int
}

func (b *boundField) value(row []string) string {
	if b == nil {
		return ""
	}
	var v string
	switch {
	case b.spec.Value != nil:
		v = *b.spec.Value
	case len(b.cols) == 1:
		v = strings.TrimSpace(row[b.cols[0]])
	default:
		join := " "
		if b.spec.Join != nil {
			join = *b.spec.Join
		}
		var parts []string
		for _, c := range b.cols {
			if s := strings.TrimSpace(row[c]); s != "" {
				parts = append(parts, s)
			}
		}
		v = strings.Join(parts, join)
	}
	if len(b.spec.Map) > 0 {
		for k, to := range b.spec.Map {
			if strings.EqualFold(strings.TrimSpace(k), v) {
				v = to
				break
			}
		}
	}
	if v == "" {
		v = b.spec.Default
	}
	return v
}

// HeaderKey normalises a header cell: "Given Names" and "given_names" are one column.
func HeaderKey(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), " ", "_")
}

// RecordReader reads records from a CSV stream in the canonical layout or through a
// Mapping. Rows of one record must be adjacent. A record with any bad row is rejected
// whole, so that nothing is half-imported.
type RecordReader struct {
	rows       *CSVRows
	mapping    *Mapping
	header     []string
	fields     map[string]*boundField
	persons    []map[string]*boundField
	pending    *csvRow // a row read ahead that starts the next record
	poisonNext bool    // an unreadable row came just before the next record
	eof        bool
	dates      dateCache // the dates read so far, parsed; precompute uses them too
	// Notes are observations that are not errors: unparseable dates kept as text,
	// ignored columns.
	Notes []RowError
}

// NewRecordReader reads the header and binds the layout (m may be nil for the
// canonical layout; lim's zero value is the default limits). Errors here concern the
// whole file.
func NewRecordReader(r io.Reader, m *Mapping, lim CSVLimits) (*RecordReader, error) {
	comma := ','
	if m != nil && m.Delimiter != "" {
		comma, _ = utf8.DecodeRuneInString(m.Delimiter)
	}
	rows := NewCSVRows(r, comma, lim)
	rr := &RecordReader{rows: rows, mapping: m, fields: map[string]*boundField{}, dates: dateCache{}}
	header, err := rows.ReadHeader()
	if err != nil {
		return nil, err
	}
	rr.header = header
	index := map[string]int{}
	for i, h := range header {
		k := HeaderKey(h)
		if k == "" {
			continue
		}
		if _, dup := index[k]; dup {
			return nil, fmt.Errorf("header: column %q appears twice", h)
		}
		index[k] = i
	}
	bind := func(name string, spec FieldSpec) (*boundField, error) {
		b := &boundField{spec: spec}
		cols := spec.Columns
		if spec.Column != "" {
			cols = []string{spec.Column}
		}
		for _, c := range cols {
			i, ok := index[HeaderKey(c)]
			if !ok {
				return nil, fmt.Errorf("field %s: the header has no column %q", name, c)
			}
			b.cols = append(b.cols, i)
		}
		return b, nil
	}
	perRow := m == nil || len(m.Persons) == 0
	canonical := recordFields
	if perRow {
		canonical = append(slices.Clone(recordFields), personFields...)
	}
	for _, name := range canonical {
		if m != nil {
			if spec, ok := m.Fields[name]; ok {
				b, err := bind(name, spec)
				if err != nil {
					return nil, err
				}
				rr.fields[name] = b
				continue
			}
		}
		if i, ok := index[name]; ok {
			rr.fields[name] = &boundField{spec: FieldSpec{Column: name}, cols: []int{i}}
		}
	}
	if m == nil {
		var absent []string
		for _, f := range requiredFields {
			if rr.fields[f] == nil {
				absent = append(absent, f)
			}
		}
		if len(absent) > 0 {
			return nil, fmt.Errorf("header: missing column%s %s (the canonical columns are %s; use a mapping file for other layouts)",
				plural(len(absent)), strings.Join(absent, ", "), strings.Join(append(slices.Clone(requiredFields), "sex", "age", "transcript", "source", "access", "image"), ", "))
		}
		for i, h := range header {
			if k := HeaderKey(h); k != "" && rr.fields[k] == nil {
				rr.Notes = append(rr.Notes, RowError{Line: 1, Message: fmt.Sprintf("column %d %q is not a canonical column and is ignored", i+1, h)})
			}
		}
	} else if perRow {
		if rr.fields["record_id"] == nil {
			return nil, errors.New("mapping: one row per person needs record_id (or give persons for one row per record)")
		}
		if rr.fields["surname"] == nil && rr.fields["given_names"] == nil {
			return nil, errors.New("mapping: map surname or given_names")
		}
	}
	if m != nil {
		for i, p := range m.Persons {
			bp := map[string]*boundField{}
			for _, name := range slices.Sorted(maps.Keys(p)) {
				b, err := bind(fmt.Sprintf("persons[%d].%s", i+1, name), p[name])
				if err != nil {
					return nil, err
				}
				bp[name] = b
			}
			rr.persons = append(rr.persons, bp)
		}
	}
	return rr, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// csvRow is one data row: its fields, or why it could not be read.
type csvRow struct {
	fields []string
	line   int
	err    *RowError // the row could not be read
	key    string    // its record_id; "" when empty or unreadable
}

// read reads the next data row; blank rows are skipped.
func (rr *RecordReader) read() (*csvRow, error) {
	for {
		fields, line, rowErr, err := rr.rows.Read()
		if err != nil {
			return nil, err
		}
		blank := rowErr == nil
		for _, c := range fields {
			if strings.TrimSpace(c) != "" {
				blank = false
				break
			}
		}
		if blank {
			continue
		}
		r := &csvRow{fields: fields, line: line, err: rowErr}
		joined := strings.Join(fields, "")
		switch {
		case r.err != nil:
		case len(fields) != len(rr.header):
			r.err = &RowError{Line: line, Message: fmt.Sprintf("has %d fields, the header has %d", len(fields), len(rr.header))}
		case !utf8.ValidString(joined):
			r.err = &RowError{Line: line, Message: "is not valid UTF-8 text"}
		case strings.ContainsRune(joined, 0):
			r.err = &RowError{Line: line, Message: "contains a NUL character"}
		}
		// The record a row belongs to, even when the row is broken, as long as its
		// record_id cell can be read.
		if b := rr.fields["record_id"]; b != nil {
			if r.err == nil {
				r.key = b.value(fields)
			} else if len(b.cols) == 1 && b.cols[0] < len(fields) {
				if c := fields[b.cols[0]]; utf8.ValidString(c) && !strings.ContainsRune(c, 0) {
					r.key = strings.TrimSpace(c)
				}
			}
		}
		if r.err != nil {
			r.err.Record = r.key
		}
		return r, nil
	}
}

// Next returns the next record, or the errors of a rejected record (rec nil), or
// io.EOF at the end.
func (rr *RecordReader) Next() (rec *index.RecordInput, errs []RowError, err error) {
	if rr.mapping != nil && len(rr.mapping.Persons) > 0 {
		return rr.nextWide()
	}
	return rr.nextPerRow()
}

// nextWide reads one row as one whole record.
func (rr *RecordReader) nextWide() (*index.RecordInput, []RowError, error) {
	r, err := rr.read()
	if err != nil {
		return nil, nil, err
	}
	if r.err != nil {
		return nil, []RowError{*r.err}, nil
	}
	row, line := r.fields, r.line
	rec := &index.RecordInput{Line: line, Lines: []int{line}}
	var errs []RowError
	rr.recordFields(rec, row, line, &errs, true)
	if rec.Key == "" {
		rec.Key = fmt.Sprintf("line-%d", line)
	}
	for _, bp := range rr.persons {
		p := index.Person{
			Role:       bp["role"].value(row),
			Surname:    bp["surname"].value(row),
			GivenNames: bp["given_names"].value(row),
			Sex:        bp["sex"].value(row),
			Age:        bp["age"].value(row),
		}
		if p.Surname == "" && p.GivenNames == "" {
			continue
		}
		if e := checkPerson(&p); e != "" {
			errs = append(errs, RowError{Line: line, Record: rec.Key, Message: e})
		}
		rec.Persons = append(rec.Persons, p)
	}
	if rec.Type == "" {
		errs = append(errs, RowError{Line: line, Record: rec.Key, Message: "record_type is empty"})
	}
	if len(rec.Persons) == 0 && len(errs) == 0 {
		errs = append(errs, RowError{Line: line, Record: rec.Key, Message: "names nobody: every person's surname and given names are empty"})
	}
	if len(errs) > 0 {
		return nil, errs, nil
	}
	return rec, nil, nil
}

// nextPerRow gathers the adjacent rows that share a record_id. A row that cannot be
// read, or has no record_id, cannot be told apart from its neighbours: the records on
// both sides of it are rejected with it, so that none is imported without a row of
// its own.
func (rr *RecordReader) nextPerRow() (*index.RecordInput, []RowError, error) {
	first := rr.pending
	rr.pending = nil
	if first == nil {
		if rr.eof {
			return nil, nil, io.EOF
		}
		r, err := rr.read()
		if err == io.EOF {
			rr.eof = true
			return nil, nil, io.EOF
		}
		if err != nil {
			return nil, nil, err
		}
		first = r
	}
	poisoned := rr.poisonNext
	rr.poisonNext = false
	if first.key == "" {
		rr.poisonNext = true
		if first.err != nil {
			return nil, []RowError{*first.err}, nil
		}
		return nil, []RowError{{Line: first.line, Message: "record_id is empty"}}, nil
	}
	key := first.key
	rows := []*csvRow{first}
	for {
		r, err := rr.read()
		if err == io.EOF {
			rr.eof = true
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if r.key == key {
			rows = append(rows, r)
			continue
		}
		rr.pending = r
		break
	}
	rec := &index.RecordInput{Line: first.line, Key: key}
	var recErrs []RowError
	if poisoned {
		recErrs = append(recErrs, RowError{Line: first.line, Record: key, Message: "skipped: the row before it could not be read and may belong to this record"})
	}
	if rr.pending != nil && rr.pending.key == "" {
		recErrs = append(recErrs, RowError{Line: first.line, Record: key, Message: fmt.Sprintf("skipped: the row after it (line %d) could not be read and may belong to this record", rr.pending.line)})
	}
	for _, r := range rows {
		rec.Lines = append(rec.Lines, r.line)
		if r.err != nil {
			recErrs = append(recErrs, *r.err)
			continue
		}
		rr.recordFields(rec, r.fields, r.line, &recErrs, r == first)
		p := index.Person{
			Role:       rr.fields["role"].value(r.fields),
			Surname:    rr.fields["surname"].value(r.fields),
			GivenNames: rr.fields["given_names"].value(r.fields),
			Sex:        rr.fields["sex"].value(r.fields),
			Age:        rr.fields["age"].value(r.fields),
		}
		if p.Surname == "" && p.GivenNames == "" {
			recErrs = append(recErrs, RowError{Line: r.line, Record: key, Message: "the person has neither surname nor given names"})
			continue
		}
		if e := checkPerson(&p); e != "" {
			recErrs = append(recErrs, RowError{Line: r.line, Record: key, Message: e})
		}
		rec.Persons = append(rec.Persons, p)
	}
	if rec.Type == "" && len(recErrs) == 0 {
		recErrs = append(recErrs, RowError{Line: first.line, Record: key, Message: "record_type is empty"})
	}
	if len(rec.Persons) > MaxPersons {
		recErrs = append(recErrs, RowError{Line: first.line, Record: key, Message: fmt.Sprintf("has %d persons; a record may have at most %d", len(rec.Persons), MaxPersons)})
	}
	if len(recErrs) == 0 {
		return rec, nil, nil
	}
	// The record is rejected whole; say which of its lines were fine too.
	bad := map[int]bool{}
	for _, e := range recErrs {
		bad[e.Line] = true
	}
	for _, l := range rec.Lines {
		if !bad[l] {
			recErrs = append(recErrs, RowError{Line: l, Record: key, Message: "skipped with the rest of its record"})
		}
	}
	sort.SliceStable(recErrs, func(i, j int) bool { return recErrs[i].Line < recErrs[j].Line })
	return nil, recErrs, nil
}

// recordFields reads the record-level fields of one row into rec. Rows after the
// first may repeat them or leave them empty; a different value is an error (images
// add up instead).
func (rr *RecordReader) recordFields(rec *index.RecordInput, row []string, line int, errs *[]RowError, first bool) {
	set := func(name string, dst *string, limit int) {
		v := rr.fields[name].value(row)
		if len(v) > limit {
			*errs = append(*errs, RowError{Line: line, Record: rec.Key, Message: fmt.Sprintf("%s is longer than %d characters", name, limit)})
			return
		}
		switch {
		case v == "":
		case *dst == "":
			*dst = v
		case *dst != v:
			*errs = append(*errs, RowError{Line: line, Record: rec.Key, Message: fmt.Sprintf("%s %q differs from %q on line %d of the same record", name, v, *dst, rec.Line)})
		}
	}
	if first && rr.fields["record_id"] != nil {
		rec.Key = rr.fields["record_id"].value(row)
		if len(rec.Key) > maxNameLen {
			*errs = append(*errs, RowError{Line: line, Message: fmt.Sprintf("record_id is longer than %d characters", maxNameLen)})
		}
	}
	rt := rec.Type
	set("record_type", &rt, maxNameLen)
	if rt != rec.Type {
		if index.NormaliseRecordType(rt) == "" {
			*errs = append(*errs, RowError{Line: line, Record: rec.Key, Message: fmt.Sprintf("record_type %q has no letters", rt)})
		}
		rec.Type = rt
	}
	before := rec.Date
	set("date", &rec.Date, maxNameLen)
	if rec.Date != before {
		if err := rr.dates.parse(rec.Date).err; err != nil {
			rr.Notes = append(rr.Notes, RowError{Line: line, Record: rec.Key, Message: fmt.Sprintf("date %q is kept as text but cannot be searched by year: %v", rec.Date, err)})
		}
	}
	set("place", &rec.Place, maxFieldLen)
	set("transcript", &rec.Transcript, maxTranscriptLen)
	set("source", &rec.Source, maxFieldLen)
	acc := rec.Access
	set("access", &acc, maxNameLen)
	if acc != rec.Access {
		switch strings.ToLower(acc) {
		case index.AccessPublic, index.AccessMembers:
			rec.Access = strings.ToLower(acc)
		default:
			*errs = append(*errs, RowError{Line: line, Record: rec.Key, Message: fmt.Sprintf("access %q must be public or members", acc)})
		}
	}
	if img := rr.fields["image"].value(row); img != "" {
		for _, one := range strings.FieldsFunc(img, func(r rune) bool { return r == '|' || r == ';' }) {
			one = strings.TrimSpace(one)
			if len(one) > maxFieldLen {
				*errs = append(*errs, RowError{Line: line, Record: rec.Key, Message: "an image reference is too long"})
				continue
			}
			if one != "" && !slices.Contains(rec.Images, one) {
				rec.Images = append(rec.Images, one)
			}
		}
	}
}

// checkPerson normalises a person's sex and role and checks lengths; it returns a
// message for a bad person.
func checkPerson(p *index.Person) string {
	if len(p.Surname) > maxNameLen || len(p.GivenNames) > maxNameLen || len(p.Role) > maxNameLen || len(p.Age) > maxNameLen {
		return fmt.Sprintf("a name, role or age is longer than %d characters", maxNameLen)
	}
	if names.Fold(p.Surname) == "" && names.Fold(p.GivenNames) == "" && !names.Uncertain(p.Surname+p.GivenNames) {
		return fmt.Sprintf("the name %q has no letters", strings.TrimSpace(p.GivenNames+" "+p.Surname))
	}
	switch strings.ToLower(strings.TrimSpace(p.Sex)) {
	case "":
		p.Sex = ""
	case "m", "male", "man", "son", "s":
		p.Sex = "M"
	case "f", "female", "woman", "dau", "daughter", "d":
		p.Sex = "F"
	case "u", "unknown", "?":
		p.Sex = "U"
	default:
		return fmt.Sprintf("sex %q must be M, F or U", p.Sex)
	}
	p.Role = index.NormaliseRole(p.Role)
	return ""
}
