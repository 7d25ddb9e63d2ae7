package staff_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"lineage/internal/httpx"
	"lineage/internal/iiif"
	"lineage/internal/research"
	"lineage/internal/staff"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestCanonicalFieldsAreTheEngines: the mapping editor's fields are the ones the
// import engine reads, and its required ones are the ones the engine's canonical
// layout demands.
func TestCanonicalFieldsAreTheEngines(t *testing.T) {
	var names []string
	for _, f := range staff.CanonicalFields {
		names = append(names, f.Name)
		m := research.Mapping{Fields: map[string]research.FieldSpec{f.Name: {Column: "x"}}}
		b, _ := json.Marshal(m)
		if _, err := research.ParseMapping(bytes.NewReader(b)); err != nil {
			t.Errorf("the engine refuses field %s: %v", f.Name, err)
		}
	}
	// A canonical header lacking one column: the engine names it missing exactly when
	// the editor says it is required.
	for _, f := range staff.CanonicalFields {
		header := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == f.Name })
		_, err := research.NewRecordReader(strings.NewReader(strings.Join(header, ",")+"\n"), nil, research.CSVLimits{})
		if missing := err != nil && strings.Contains(err.Error(), "missing column"); missing != f.Required {
			t.Errorf("%s: required %v, the engine says %v", f.Name, f.Required, err)
		}
	}
	if _, err := research.NewRecordReader(strings.NewReader(strings.Join(names, ",")+"\n"), nil, research.CSVLimits{}); err != nil {
		t.Errorf("the whole canonical header: %v", err)
	}
}

func TestDetectDelimiter(t *testing.T) {
	for _, c := range []struct{ header, want string }{
		{"a,b,c", ","},
		{"a;b;c", ";"},
		{"a\tb\tc", "\t"},
		{"a|b|c", "|"},
		{`"a;b",c`, ","},
		{`"a,b,c";d;e`, ";"},
		{"single", ","},
		{"", ","},
		{"a;b,c", ","}, // one each: the first in the preferred order
	} {
		if got := staff.DetectDelimiter(c.header); got != c.want {
			t.Errorf("DetectDelimiter(%q) = %q, want %q", c.header, got, c.want)
		}
	}
}

func TestHeaderWordAndProposal(t *testing.T) {
	for in, want := range map[string]string{"Forename(s)": "forenames", "Last name": "last_name", " Record-ID ": "record_id",
		"\ufeffSurname": "surname", "Date of event": "date_of_event", "__x__": "x", "": ""} {
		if got := staff.HeaderWord(in); got != want {
			t.Errorf("HeaderWord(%q) = %q, want %q", in, got, want)
		}
	}
	p := staff.ProposeFor([]string{"ID", "Surname", "Surname", "First name", "Age"}, "\t")
	if p.Matched["record_id"] != "ID" || p.Matched["surname"] != "Surname" || p.Matched["given_names"] != "First name" || p.Mapping.Delimiter != "\t" {
		t.Errorf("proposal: %+v", p)
	}
	if strings.Join(p.Missing, ",") != "record_type,date,place,role" {
		t.Errorf("missing: %v", p.Missing)
	}
	// The proposal is a mapping the engine takes.
	b, _ := json.Marshal(p.Mapping)
	if _, err := research.ParseMapping(bytes.NewReader(b)); err != nil {
		t.Errorf("the engine refuses the proposal %s: %v", b, err)
	}
}

// TestAnalyseBadInput: every bad file is refused with a message for people.
func TestAnalyseBadInput(t *testing.T) {
	for _, c := range []struct{ name, data, msg string }{
		{"empty", "", "empty"},
		{"blank", "   \r\nx\n", "blank"},
		{"bom only", "\ufeff\n", "blank"},
		{"not utf-8", "a,\xff\n", "UTF-8"},
		{"duplicate", "A,a\n", "Two columns"},
		{"duplicate spaced", "Given Names,given_names\n", "Two columns"},
		{"unclosed", "\"a,b\nc\n", "column names"},
	} {
		_, _, _, err := staff.AnalyseFile(strings.NewReader(c.data), 10)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.name, err, c.msg)
		}
	}
	_, _, _, err := staff.AnalyseFile(strings.NewReader("a\n1\n2\n3\n"), 2)
	if !errors.Is(err, staff.ErrTooManyRows) {
		t.Errorf("3 rows over a limit of 2: %v", err)
	}
	d, cols, rows, err := staff.AnalyseFile(strings.NewReader("\ufeffName;Age\n\"Smith; John\";40\n;\nSmith; John;40\n"), 10)
	if err != nil || d != ";" || rows != 3 || cols[0].Name != "Name" || strings.Join(cols[0].Samples, "|") != "Smith; John|Smith" {
		t.Errorf("good file: %q %+v %d %v", d, cols, rows, err)
	}
	long := strings.Repeat("é", 100)
	_, cols, _, _ = staff.AnalyseFile(strings.NewReader("a\n"+long+"\n"), 10)
	if n := utf8.RuneCountInString(cols[0].Samples[0]); n != 80 {
		t.Errorf("a long sample has %d characters", n)
	}
}

func TestParseMappingBadInput(t *testing.T) {
	for _, c := range []struct{ name, json, msg string }{
		{"missing", ``, "required"},
		{"null", `null`, "required"},
		{"not an object", `[1]`, "Mapping"},
		{"unknown field", `{"fields": {"nickname": "A"}}`, "Unknown field \"nickname\""},
		{"unknown key", `{"colums": {}}`, "unknown field"},
		{"two sources", `{"fields": {"surname": {"column": "A", "value": "B"}}}`, "exactly one"},
		{"bad delimiter", `{"delimiter": "\"", "fields": {"surname": "A"}}`, "Delimiter must be one character"},
		{"person field at top with persons", `{"fields": {"surname": "A"}, "persons": [{"given_names": "B"}]}`, "belongs in persons"},
		{"two values", `{} {}`, "More than one JSON value"},
	} {
		_, err := staff.ParseMapping(json.RawMessage(c.json), ",")
		var he *httpx.Error
		if !errors.As(err, &he) || he.Code != httpx.EINVALID || len(he.Fields["mapping"]) != 1 || !strings.Contains(he.Fields["mapping"][0], c.msg) {
			t.Errorf("%s: %v, want a mapping error with %q", c.name, err, c.msg)
		}
	}
	m, err := staff.ParseMapping(json.RawMessage(`{"fields": {"surname": "Last"}}`), ";")
	if err != nil || m.Delimiter != ";" {
		t.Errorf("the upload's delimiter: %+v %v", m, err)
	}
}

func TestParseAuditFilterBadInput(t *testing.T) {
	for q, field := range map[string]string{
		"actor=x": "actor", "actor=-1": "actor", "action=" + strings.Repeat("a", 201): "action", "subject=%ff": "subject",
		"from=yesterday": "from", "to=2026-02-30": "to", "from=2026-11-02&to=2026-11-01": "to", "before=0": "before",
		"limit=201": "limit", "limit=0": "limit",
	} {
		v, _ := url.ParseQuery(q)
		_, err := staff.ParseAuditFilter(v)
		var he *httpx.Error
		if !errors.As(err, &he) || len(he.Fields[field]) == 0 {
			t.Errorf("%s: %v, want an error on %s", q, err, field)
		}
	}
	v, _ := url.ParseQuery("actor=3&action=user.&subject=user:7&from=2026-11-01&to=2026-11-01&before=9&limit=5")
	f, err := staff.ParseAuditFilter(v)
	if err != nil || f.ActorID != 3 || f.Action != "user." || f.To.Sub(f.From).Hours() != 24 || f.Before != 9 || f.Limit != 5 {
		t.Errorf("good filter: %+v %v", f, err)
	}
}

// TestUploadLimits: a file over the byte limit is a 413 naming it; over the row limit
// a 422; nothing is kept.
func TestUploadLimits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		e.st.SetCSVLimits(1024, 3)
		vol, _ := e.signedIn("Vera", "editor")
		st, body := vol.upload("/api/studio/records/uploads", nil, []formFile{{"file", "big.csv", bytes.Repeat([]byte("a,b\n"), 300)}})
		if st != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "at most 1 KB") || !strings.Contains(string(body), `"file"`) {
			t.Errorf("big: %d %s", st, body)
		}
		st, body = vol.upload("/api/studio/records/uploads", nil, []formFile{{"file", "long.csv", []byte("a\n1\n2\n3\n4\n")}})
		if st != http.StatusUnprocessableEntity || !strings.Contains(string(body), "at most 3 rows") {
			t.Errorf("long: %d %s", st, body)
		}
		e.noUploadsKept(vol)
	})
}

// FuzzUpload: whatever a staff member uploads, reading it, proposing a mapping and
// reading it through that mapping as a dry run does never panics, and a proposal is a
// mapping the engine takes.
func FuzzUpload(f *testing.F) {
	f.Add([]byte(parish))
	f.Add([]byte("record_id,record_type,date,place,role,surname,given_names\nR1,baptism,1850,Leeds,principal,A,B\n"))
	f.Add([]byte("\"a\tb\"\tc\n1\t2\n"))
	f.Add([]byte("\ufeffName|Age\n\"x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, cols, _, err := staff.AnalyseFile(bytes.NewReader(data), 1000)
		if err != nil {
			return
		}
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.Name
		}
		p := staff.ProposeFor(names, d)
		b, err := json.Marshal(p.Mapping)
		if err != nil {
			t.Fatal(err)
		}
		m, err := staff.ParseMapping(b, d)
		if err != nil {
			if len(p.Mapping.Fields) == 0 {
				return // nothing matched: the editor starts from an empty mapping
			}
			t.Fatalf("the engine refuses the proposal %s: %v", b, err)
		}
		rr, err := research.NewRecordReader(bytes.NewReader(data), m, research.CSVLimits{})
		if err != nil {
			return
		}
		for i := 0; i < 10000; i++ {
			if _, _, err := rr.Next(); err != nil {
				return
			}
		}
	})
}

// FuzzParseMapping: any JSON body for a mapping is refused or taken without a panic.
func FuzzParseMapping(f *testing.F) {
	f.Add([]byte(`{"delimiter": ";", "fields": {"surname": "A", "source": {"value": "x"}}, "persons": []}`))
	f.Add([]byte(`{"persons": [{"surname": {"columns": ["a", "b"], "join": " "}}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		staff.ParseMapping(data, ",")
	})
}

// FuzzParseAuditFilter: any query is refused or read without a panic.
func FuzzParseAuditFilter(f *testing.F) {
	f.Add("actor=3&action=user.&from=2026-11-01&to=2026-11-02&before=9&limit=5")
	f.Add("from=2026-11-01T10:00:00Z&subject=user:1")
	f.Fuzz(func(t *testing.T, q string) {
		v, err := url.ParseQuery(q)
		if err != nil {
			return
		}
		staff.ParseAuditFilter(v)
	})
}

// FuzzScansForm: a manifest and the form's target are read without a panic; a
// manifest that passes names only files sent, without folders; the manifest made for
// a target is one the image import reads back with every file.
func FuzzScansForm(f *testing.F) {
	f.Add([]byte("file,record,page\na.png,S1,1\n"), "a.png", "S1", "", "")
	f.Add([]byte("file,person\n../a.png,t:I1\n"), "a.png", "", "", "t:I1")
	f.Add([]byte("\ufefffile;record\n"), "b.tif", "", "7", "")
	f.Fuzz(func(t *testing.T, manifest []byte, file, record, recordID, person string) {
		files := []string{file}
		if msg := staff.CheckManifest(manifest, files); msg == "" {
			rows, err := iiif.ParseManifestCSV(bytes.NewReader(manifest))
			if err != nil {
				t.Fatalf("passed but unreadable: %v", err)
			}
			for _, r := range rows {
				if r.File != file || strings.ContainsAny(r.File, `/\`) {
					t.Fatalf("passed a manifest naming %q", r.File)
				}
			}
		}
		if file == "" || strings.ContainsAny(file, "/\\\r\n\"") || strings.TrimSpace(file) != file || !utf8.ValidString(file) {
			return // the form refuses such a file name before
		}
		m, err := staff.ManifestFor(files, map[string]string{"record": record, "record_id": recordID, "person": person})
		if err != nil {
			return
		}
		rows, err := iiif.ParseManifestCSV(bytes.NewReader(m))
		if err != nil || len(rows) != 1 || rows[0].File != file {
			t.Fatalf("the manifest made for %q %q %q: %+v %v\n%s", record, recordID, person, rows, err, m)
		}
	})
}

// FuzzParsePeopleQuery: any query of the people list is refused or read, within its
// bounds, without a panic.
func FuzzParsePeopleQuery(f *testing.F) {
	f.Add("q=ann&role=editor&status=active&offset=0&limit=50")
	f.Add("status=disabled&limit=200&offset=1000000")
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := staff.ParsePeopleQuery(v)
		if err == nil && (q.Limit < 1 || q.Limit > 200 || q.Offset < 0 || len([]rune(q.Text)) > 200) {
			t.Fatalf("out of bounds: %+v", q)
		}
	})
}
