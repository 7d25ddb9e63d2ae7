package staff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"lineage/internal/research"
)

// CanonicalField is one column of the canonical records layout (docs/research.md), as
// the mapping editor shows it.
type CanonicalField struct {
	Name      string `json:"name"`
	Label     string `json:"label"`
	Required  bool   `json:"required"`
	PerPerson bool   `json:"per_person"`
}

// CanonicalFields are the canonical layout's columns in its order;
// TestCanonicalFieldsAreTheEngines holds them to what the import engine reads.
var CanonicalFields = []CanonicalField{
	{"record_id", "Record number (the same on every row of one record)", true, false},
	{"record_type", "Kind of record (baptism, marriage, burial…)", true, false},
	{"date", "Date", true, false},
	{"place", "Place", true, false},
	{"transcript", "Transcript", false, false},
	{"source", "Source", false, false},
	{"access", "Who may see it (public or members)", false, false},
	{"image", "Image file names", false, false},
	{"role", "The person's part (principal, father, mother…)", true, true},
	{"surname", "Surname", true, true},
	{"given_names", "Given names", true, true},
	{"sex", "Sex", false, true},
	{"age", "Age", false, true},
}

// synonyms are the column names (as headerWord makes them) taken for each canonical
// field when a file does not use the canonical names.
var synonyms = map[string][]string{
	"record_id":   {"record_id", "recordid", "id", "record", "record_no", "record_number", "entry", "entry_no", "entry_number", "ref", "reference", "number", "no"},
	"record_type": {"record_type", "type", "event", "event_type", "kind", "record_kind"},
	"date":        {"date", "event_date", "baptism_date", "burial_date", "marriage_date", "birth_date", "death_date", "year"},
	"place":       {"place", "parish", "location", "town", "village", "church", "event_place"},
	"transcript":  {"transcript", "transcription", "text", "full_text", "notes", "note", "remarks"},
	"source":      {"source", "register", "citation", "source_reference"},
	"access":      {"access", "visibility"},
	"image":       {"image", "images", "scan", "scans", "image_file", "file", "filename"},
	"role":        {"role", "relationship", "relation", "person_role", "part"},
	"surname":     {"surname", "last_name", "lastname", "family_name", "familyname"},
	"given_names": {"given_names", "given_name", "given", "forename", "forenames", "first_name", "first_names", "firstname", "christian_name", "christian_names"},
	"sex":         {"sex", "gender"},
	"age":         {"age", "age_at_event"},
}

// headerWord is a header cell as proposals compare it: import's HeaderKey, then only
// letters, digits and single underscores ("Forename(s)" is forename_s → forenames).
func headerWord(h string) string {
	k := research.HeaderKey(h)
	var b strings.Builder
	under := false
	for _, r := range k {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			under = false
		case r == '(' || r == ')':
		case !under && b.Len() > 0:
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

// Proposal is the mapping proposed for an upload's columns.
type Proposal struct {
	Mapping research.Mapping  `json:"mapping"`
	Matched map[string]string `json:"matched"` // canonical field → column
	Missing []string          `json:"missing"` // required fields left unmapped
	// FromSaved is the saved mapping the proposal is, when one fits the columns.
	FromSaved *string `json:"from_saved"`
}

// propose maps columns to canonical fields by name and synonym.
func propose(columns []string, delimiter string) Proposal {
	p := Proposal{Mapping: research.Mapping{Fields: map[string]research.FieldSpec{}}, Matched: map[string]string{}, Missing: []string{}}
	if delimiter != "," {
		p.Mapping.Delimiter = delimiter
	}
	used := map[int]bool{}
	words := make([]string, len(columns))
	for i, c := range columns {
		words[i] = headerWord(c)
	}
	for _, f := range CanonicalFields {
		for _, syn := range synonyms[f.Name] {
			i := slices.Index(words, syn)
			if i < 0 || used[i] {
				continue
			}
			used[i] = true
			p.Mapping.Fields[f.Name] = research.FieldSpec{Column: columns[i]}
			p.Matched[f.Name] = columns[i]
			break
		}
		if f.Required && p.Matched[f.Name] == "" {
			p.Missing = append(p.Missing, f.Name)
		}
	}
	return p
}

// mappingColumns are the columns a mapping reads.
func mappingColumns(m *research.Mapping) []string {
	var out []string
	add := func(f research.FieldSpec) {
		if f.Column != "" {
			out = append(out, f.Column)
		}
		out = append(out, f.Columns...)
	}
	for _, f := range m.Fields {
		add(f)
	}
	for _, p := range m.Persons {
		for _, f := range p {
			add(f)
		}
	}
	return out
}

// fits reports whether every column m reads is in the header.
func fits(m *research.Mapping, header []string) bool {
	have := map[string]bool{}
	for _, h := range header {
		have[research.HeaderKey(h)] = true
	}
	cols := mappingColumns(m)
	if len(cols) == 0 {
		return false
	}
	for _, c := range cols {
		if !have[research.HeaderKey(c)] {
			return false
		}
	}
	return true
}

// errMapping is a mapping the import engine refuses, for the form's mapping field.
func errMapping(err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "mapping: ")
	if msg != "" {
		r, n := utf8.DecodeRuneInString(msg)
		msg = string(unicode.ToUpper(r)) + msg[n:]
	}
	return errorField("mapping", msg)
}

// parseMapping reads a mapping sent as JSON, as `lineage import records --mapping`
// reads its file; a mapping without a delimiter takes the upload's.
func parseMapping(raw json.RawMessage, delimiter string) (*research.Mapping, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, errorField("mapping", "The mapping field is required.")
	}
	m, err := research.ParseMapping(bytes.NewReader(raw))
	if err != nil {
		return nil, errMapping(err)
	}
	if m.Delimiter == "" && delimiter != "," {
		m.Delimiter = delimiter
	}
	return m, nil
}

// Delimiters a file may use, in the order detection prefers them on a tie.
var delimiters = []string{",", ";", "\t", "|"}

// detectDelimiter picks the delimiter the header line uses most, outside quotes.
func detectDelimiter(header string) string {
	best, bestN := ",", 0
	for _, d := range delimiters {
		n, quoted := 0, false
		for _, r := range header {
			switch {
			case r == '"':
				quoted = !quoted
			case !quoted && string(r) == d:
				n++
			}
		}
		if n > bestN {
			best, bestN = d, n
		}
	}
	return best
}

// Column is a column of an upload with a few of its values.
type Column struct {
	Name    string   `json:"name"`
	Samples []string `json:"samples"`
}

// Limits of what an upload's analysis reads and keeps.
const (
	sampleRows       = 200
	samplesPerColumn = 5
	sampleLen        = 80
)

// fileShape is what analyse found in a CSV file.
type fileShape struct {
	Delimiter string
	Columns   []Column
	Rows      int
}

// errTooManyRows is an upload over MaxCSVRows.
var errTooManyRows = errors.New("too many rows")

// analyse reads a whole CSV file: its delimiter (from the header line), its header,
// samples of each column's values from the first rows, and how many rows it has (at
// most maxRows: errTooManyRows beyond). The errors are for people.
func analyse(r io.Reader, maxRows int) (*fileShape, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(64 << 10)
	line := string(head)
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		line = line[:i]
	}
	if strings.TrimSpace(strings.TrimPrefix(line, "\ufeff")) == "" {
		return nil, errors.New("The file is empty or its first line is blank: the first line must name the columns.")
	}
	if !utf8.ValidString(line) {
		return nil, errors.New("The file is not UTF-8 text: save it from the spreadsheet as \"CSV UTF-8\".")
	}
	sh := &fileShape{Delimiter: detectDelimiter(line)}
	comma, _ := utf8.DecodeRuneInString(sh.Delimiter)
	rows := research.NewCSVRows(br, comma, research.CSVLimits{})
	header, err := rows.ReadHeader()
	if err != nil {
		return nil, fmt.Errorf("The first line cannot be read as column names: %v.", err)
	}
	seen := map[string]string{}
	for _, h := range header {
		name := strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		k := research.HeaderKey(name)
		if k != "" {
			if other, dup := seen[k]; dup {
				return nil, fmt.Errorf("Two columns are both called %q (%q): rename one in the spreadsheet.", other, name)
			}
			seen[k] = name
		}
		sh.Columns = append(sh.Columns, Column{Name: name, Samples: []string{}})
	}
	for {
		fields, _, rowErr, err := rows.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("The file cannot be read: %v.", err)
		}
		sh.Rows++
		if sh.Rows > maxRows {
			return nil, errTooManyRows
		}
		if rowErr != nil || sh.Rows > sampleRows {
			continue
		}
		for i, v := range fields {
			if i >= len(sh.Columns) {
				break
			}
			c := &sh.Columns[i]
			v = strings.TrimSpace(v)
			if v == "" || len(c.Samples) >= samplesPerColumn || slices.Contains(c.Samples, cutText(v, sampleLen)) {
				continue
			}
			c.Samples = append(c.Samples, cutText(v, sampleLen))
		}
	}
	return sh, nil
}

// cutText cuts s to at most n characters.
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
