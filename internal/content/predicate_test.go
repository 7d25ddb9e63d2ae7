package content

import (
	"strings"
	"testing"
	"time"
)

func TestParseQueryValid(t *testing.T) {
	tests := []struct {
		name  string
		q     string
		want  []string // predicate names
		check func(t *testing.T, ps []predicate)
	}{
		{name: "client form", q: `[[at(document.type, "page")]]`, want: []string{"at"},
			check: func(t *testing.T, ps []predicate) {
				if ps[0].path.docField != "type" || ps[0].args[0].str != "page" {
					t.Errorf("got %+v", ps[0])
				}
			}},
		{name: "several in one q", q: `[[at(document.type, "page")][any(document.tags, ["a", "b"])]]`, want: []string{"at", "any"}},
		{name: "whitespace and newlines", q: "[\n [ at( my.page.uid ,\"home\" ) ]\n [has(my.page.title)] ]", want: []string{"at", "has"}},
		{name: "legacy alias", q: `[[:d = at(document.id, "X") ]]`, want: []string{"at"}},
		{name: "bare single predicate", q: `[at(document.id, "X")]`, want: []string{"at"}},
		{name: "empty list", q: `[]`, want: nil},
		{name: "escaped quote", q: `[[at(my.page.title, "say \"hi\" \\ \u00e9")]]`, want: []string{"at"},
			check: func(t *testing.T, ps []predicate) {
				if got := ps[0].args[0].str; got != `say "hi" \ é` {
					t.Errorf("string = %q", got)
				}
			}},
		{name: "numbers and booleans", q: `[[at(my.p.n, -1.5e2)][at(my.p.b, true)][number.inRange(my.p.n, 0, 10)]]`, want: []string{"at", "at", "number.inRange"},
			check: func(t *testing.T, ps []predicate) {
				if ps[0].args[0].num != -150 || !ps[1].args[0].b {
					t.Errorf("got %+v %+v", ps[0].args, ps[1].args)
				}
			}},
		{name: "tags array at", q: `[[at(document.tags, ["a", "b"])]]`, want: []string{"at"}},
		{name: "in ids", q: `[[in(document.id, ["a", "b"])]]`, want: []string{"in"}},
		{name: "in uids", q: `[[in(my.page.uid, ["a"])]]`, want: []string{"in"}},
		{name: "fulltext document", q: `[[fulltext(document, "parish register")]]`, want: []string{"fulltext"}},
		{name: "fulltext field", q: `[[fulltext(my.page.title, "x")]]`, want: []string{"fulltext"}},
		{name: "missing", q: `[[missing(my.page.image)]]`, want: []string{"missing"}},
		{name: "similar", q: `[[similar("ID", 10)]]`, want: []string{"similar"}},
		{name: "geopoint", q: `[[geopoint.near(my.event.where, 53.3, -6.2, 10)]]`, want: []string{"geopoint.near"}},
		{name: "number lt gt", q: `[[number.lt(my.p.n, 3)][number.gt(my.p.n, 1)]]`, want: []string{"number.lt", "number.gt"}},
		{name: "date epoch", q: `[[date.after(my.news_item.date, 0)]]`, want: []string{"date.after"}},
		{name: "date iso", q: `[[date.before(document.first_publication_date, "2024-01-31T10:00:00+0000")]]`, want: []string{"date.before"},
			check: func(t *testing.T, ps []predicate) {
				if ps[0].args[0].num != 1706695200000 {
					t.Errorf("ms = %v", ps[0].args[0].num)
				}
			}},
		{name: "date between", q: `[[date.between(document.last_publication_date, "2024-01-01", 1735689600000)]]`, want: []string{"date.between"}},
		{name: "day of month", q: `[[date.day-of-month(my.e.d, 14)][date.day-of-month-after(my.e.d, 1)][date.day-of-month-before(my.e.d, 31)]]`,
			want: []string{"date.day-of-month", "date.day-of-month-after", "date.day-of-month-before"}},
		{name: "day of week names", q: `[[date.day-of-week(my.e.d, "Sunday")][date.day-of-week-after(my.e.d, 2)][date.day-of-week-before(my.e.d, "fri")]]`,
			want: []string{"date.day-of-week", "date.day-of-week-after", "date.day-of-week-before"},
			check: func(t *testing.T, ps []predicate) {
				if ps[0].args[0].num != 7 || ps[2].args[0].num != 5 {
					t.Errorf("days %v %v", ps[0].args[0].num, ps[2].args[0].num)
				}
			}},
		{name: "month", q: `[[date.month(my.e.d, "may")][date.month-after(my.e.d, 2)][date.month-before(my.e.d, "December")]]`,
			want: []string{"date.month", "date.month-after", "date.month-before"}},
		{name: "year and hour", q: `[[date.year(my.e.d, 1850)][date.hour(my.e.d, 0)][date.hour-after(my.e.d, 9)][date.hour-before(my.e.d, 17)]]`,
			want: []string{"date.year", "date.hour", "date.hour-after", "date.hour-before"}},
		{name: "nested group path", q: `[[at(my.page.group.name, "x")]]`, want: []string{"at"}},
		{name: "case-insensitive name", q: `[[number.inrange(my.p.n, 1, 2)]]`, want: []string{"number.inRange"}},
		{name: "content relationship", q: `[[at(my.page.parent, "ID")]]`, want: []string{"at"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := parseQuery(tt.q)
			if err != nil {
				t.Fatalf("parseQuery(%s): %v", tt.q, err)
			}
			var names []string
			for _, p := range ps {
				names = append(names, p.name)
			}
			if strings.Join(names, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("names = %v, want %v", names, tt.want)
			}
			if tt.check != nil {
				tt.check(t, ps)
			}
		})
	}
}

func TestParseQueryErrors(t *testing.T) {
	tests := []struct {
		name     string
		q        string
		wantMsg  string
		line     int
		col      int
		wantPart string // the message mentions this
	}{
		{name: "empty", q: ``, wantMsg: "empty query", line: 1, col: 1},
		{name: "no bracket", q: `at(document.id, "x")`, wantMsg: "expected '['", line: 1, col: 1},
		{name: "unterminated list", q: `[[at(document.id, "x")]`, wantMsg: "expected '[' or ']'", line: 1, col: 24},
		{name: "unknown predicate", q: `[[foo(document.id, "x")]]`, wantMsg: "unknown predicate 'foo'", line: 1, col: 3},
		{name: "unknown document field", q: `[[at(document.colour, "x")]]`, wantMsg: "[function at(..)] unexpected field 'document.colour'", line: 1, col: 6},
		{name: "my without field", q: `[[at(my.page, "x")]]`, wantMsg: "unexpected field 'my.page'", line: 1, col: 6},
		{name: "unknown root", q: `[[at(your.page.uid, "x")]]`, wantMsg: "unexpected field 'your.page.uid'", line: 1, col: 6},
		{name: "empty segment", q: `[[at(my..uid, "x")]]`, wantMsg: "unexpected field 'my..uid'"},
		{name: "missing comma", q: `[[at(document.type "page")]]`, wantMsg: "expected ',' or ')'", line: 1, col: 20},
		{name: "unterminated string", q: `[[at(document.type, "page)]]`, wantMsg: "unterminated string", line: 1, col: 21},
		{name: "bad escape", q: `[[at(document.type, "\uZZZZ")]]`, wantMsg: "invalid \\u escape"},
		{name: "bad number", q: `[[number.lt(my.p.n, 1-2)]]`, wantMsg: "invalid number '1-2'"},
		{name: "too few args", q: `[[at(document.type)]]`, wantMsg: "expects 2 arguments, got 1"},
		{name: "too many args", q: `[[has(my.p.x, 1)]]`, wantMsg: "expects 1 argument, got 2"},
		{name: "value not path", q: `[[at("page", document.type)]]`, wantMsg: "argument 1 must be a field"},
		{name: "bare word as value", q: `[[at(document.type, page)]]`, wantMsg: "unexpected field 'page'", line: 1, col: 21},
		{name: "path as value", q: `[[at(document.type, document.id)]]`, wantMsg: "argument 2 must be a string, number, boolean or date, not the field 'document.id'", line: 1, col: 21},
		{name: "array for type", q: `[[at(document.type, ["a"])]]`, wantMsg: "argument 2 must be"},
		{name: "tags array with number", q: `[[at(document.tags, ["a", 1])]]`, wantMsg: "tag 2 must be a string"},
		{name: "any needs array", q: `[[any(document.type, "a")]]`, wantMsg: "argument 2 must be an array"},
		{name: "in wrong path", q: `[[in(document.type, ["a"])]]`, wantMsg: "unexpected field 'document.type'"},
		{name: "in numbers", q: `[[in(document.id, [1])]]`, wantMsg: "array values must be strings"},
		{name: "fulltext number", q: `[[fulltext(document, 3)]]`, wantMsg: "argument 2 must be a string"},
		{name: "has document", q: `[[has(document.tags)]]`, wantMsg: "unexpected field 'document.tags'"},
		{name: "similar bad count", q: `[[similar("x", 1.5)]]`, wantMsg: "argument 2 must be a whole number"},
		{name: "similar path", q: `[[similar(document.id, 3)]]`, wantMsg: "argument 1 must be a document ID"},
		{name: "number on string", q: `[[number.gt(my.p.n, "3")]]`, wantMsg: "argument 2 must be a number"},
		{name: "number on document", q: `[[number.gt(document.id, 3)]]`, wantMsg: "unexpected field 'document.id'"},
		{name: "bad date", q: `[[date.after(my.p.d, "yesterday")]]`, wantMsg: "argument 2 must be a date"},
		{name: "date on type", q: `[[date.after(document.type, 0)]]`, wantMsg: "unexpected field 'document.type'"},
		{name: "bad weekday", q: `[[date.day-of-week(my.p.d, "someday")]]`, wantMsg: "a day of the week"},
		{name: "month out of range", q: `[[date.month(my.p.d, 13)]]`, wantMsg: "a month"},
		{name: "hour out of range", q: `[[date.hour(my.p.d, 24)]]`, wantMsg: "an hour"},
		{name: "day of month zero", q: `[[date.day-of-month(my.p.d, 0)]]`, wantMsg: "a day of the month"},
		{name: "trailing garbage", q: `[[at(document.id, "x")]] extra`, wantMsg: "after the end of the query", line: 1, col: 26},
		{name: "second line", q: "[\n[at(document.nope, \"x\")]]", wantMsg: "unexpected field 'document.nope'", line: 2, col: 5},
		{name: "alias without name", q: `[[: = at(document.id, "x")]]`, wantMsg: "expected an alias name"},
		{name: "alias without equals", q: `[[:d at(document.id, "x")]]`, wantMsg: "expected '='"},
		{name: "deep arrays", q: `[[any(document.tags, [[[[["x"]]]]])]]`, wantMsg: "nested too deeply"},
		{name: "unclosed array", q: `[[any(document.tags, ["x" "y"])]]`, wantMsg: "expected ',' or ']' in array"},
		{name: "no predicate name", q: `[[("x")]]`, wantMsg: "expected a predicate name"},
		{name: "stray character", q: `[[at(document.id, @)]]`, wantMsg: "expected a value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseQuery(tt.q)
			if err == nil {
				t.Fatalf("parseQuery(%s) succeeded", tt.q)
			}
			e, ok := AsError(err)
			if !ok || e.Kind != KindParsing {
				t.Fatalf("error %T %v is not a parsing error", err, err)
			}
			if !strings.Contains(e.Message, tt.wantMsg) {
				t.Errorf("message %q does not contain %q", e.Message, tt.wantMsg)
			}
			if !strings.Contains(e.Message, "in query '") {
				t.Errorf("message %q does not quote the query", e.Message)
			}
			if tt.line != 0 && (e.Line != tt.line || e.Column != tt.col) {
				t.Errorf("position = line %d col %d, want %d:%d (%s)", e.Line, e.Column, tt.line, tt.col, e.Message)
			}
		})
	}
}

func TestParseOrderings(t *testing.T) {
	tests := []struct {
		in   string
		want string
		err  string
	}{
		{in: "", want: ""},
		{in: "[my.page.date desc,document.first_publication_date]", want: "my.page.date desc,document.first_publication_date,"},
		{in: "[[my.page.date desc]]", want: "my.page.date desc,"},
		{in: "[[[my.page.date asc, [document.last_publication_date DESC]]]]", want: "my.page.date,document.last_publication_date desc,"},
		{in: "my.page.title", want: "my.page.title,"},
		{in: "[my.page.date sideways]", err: "unknown direction 'sideways'"},
		{in: "[document.colour]", err: "unexpected field 'document.colour'"},
		{in: "[document]", err: "unexpected field 'document'"},
		{in: "[my.page.date desc extra]", err: "unexpected 'extra'"},
	}
	for _, tt := range tests {
		ords, err := parseOrderings(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseOrderings(%q) err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseOrderings(%q): %v", tt.in, err)
			continue
		}
		if got := orderingsKey(ords); got != tt.want {
			t.Errorf("parseOrderings(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseGraphQuery(t *testing.T) {
	valid := []string{
		`{ page { title } }`,
		"{\n page {\n title\n parent {\n ...on page {\n title\n }\n }\n }\n}",
		`{ page { ...pageFields parent { ...on page { uid title } } } news_item { title, summary } }`,
		`{ page { body { ...on hero { variation { ...on default { primary { title } items { image } } } } ...on text { non-repeat { content } repeat { caption } } } } }`,
		`{ page { parent { ...onpage { title } } } }`,
		"{ page { title # the title\n } }",
	}
	for _, q := range valid {
		if _, err := parseGraphQuery(q); err != nil {
			t.Errorf("parseGraphQuery(%q): %v", q, err)
		}
	}
	invalid := map[string]string{
		``:                                "expected '{'",
		`{ page { title }`:                "unexpected end of query",
		`{ page title }`:                  "expected '{' but found 'title'",
		`{ page { ...something } }`:       "unknown fragment",
		`{ page { title ( x ) } }`:        "unexpected '('",
		`{ page { ...on { x } } }`:        "expected a type name after 'on'",
		`{ page { title } } }`:            "after the end of the query",
		`{ { title } }`:                   "expected a custom type name",
		strings.Repeat("{ a ", 40) + "}":  "nested too deeply",
		`{ page { parent { ...on page { `: "unexpected end of query",
	}
	for q, want := range invalid {
		_, err := parseGraphQuery(q)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseGraphQuery(%q) err = %v, want %q", q, err, want)
		}
	}
}

func TestParseRoutesAndFieldLists(t *testing.T) {
	if _, err := parseRoutes(`[{"type":"page"}]`); err == nil {
		t.Error("route without path accepted")
	}
	if _, err := parseRoutes(`{"type":"page"}`); err == nil {
		t.Error("routes object accepted")
	}
	for _, in := range []string{"author.name,author.bio", "[author.name, author.bio]", "[[author.name,author.bio]]"} {
		m, err := parseFieldList(in, "fetchLinks")
		if err != nil || strings.Join(m["author"], ",") != "name,bio" {
			t.Errorf("parseFieldList(%q) = %v, %v", in, m, err)
		}
	}
	if _, err := parseFieldList("author", "fetchLinks"); err == nil {
		t.Error("fetchLinks without a field accepted")
	}
}

// FuzzParsePredicates checks that no input makes the parser (or the evaluation of what
// it accepts) panic, and that every rejection is a parsing error with a position.
func FuzzParsePredicates(f *testing.F) {
	seeds := []string{
		`[[at(document.type, "page")]]`,
		`[[at(document.type, "page")][any(document.tags, ["x", "y"])]]`,
		`[[:d = at(document.id, "X") ]]`,
		`[[date.between(my.e.d, "2024-01-01", 1735689600000)]]`,
		`[[date.day-of-week(my.e.d, "monday")]]`,
		`[[fulltext(document, "café register")]]`,
		`[[similar("a", 3)][geopoint.near(my.e.p, 1, 2, 3)]]`,
		`[[number.inRange(my.p.n, -1e3, 2.5)][not(my.p.b, false)][missing(my.p.x)]]`,
		`[[in(my.page.uid, ["a", "b"])]]`,
		"[\n[at(document.nope, \"x\")]]",
		`[[at(document.type, "\u00e9\"")]]`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	snap := fuzzSnapshot(f)
	f.Fuzz(func(t *testing.T, q string) {
		ps, err := parseQuery(q)
		if err != nil {
			e, ok := AsError(err)
			if !ok || e.Kind != KindParsing || e.Line < 1 || e.Column < 1 {
				t.Fatalf("parseQuery(%q) error %v is not a positioned parsing error", q, err)
			}
			return
		}
		fl := compileFilter(snap, ps)
		for _, d := range fl.candidates {
			fl.match(d)
		}
	})
}

func fuzzSnapshot(tb testing.TB) *snapshot {
	snap, err := buildSnapshot("REF", false, []docRow{
		{ID: "a", UID: "a", Type: "page", Lang: "en-gb", Data: []byte(`{"title":[{"type":"heading1","text":"Café register","spans":[]}],"n":3,"d":"2024-05-01","p":{"latitude":1,"longitude":2},"g":[{"x":"y"}]}`)},
		{ID: "b", Type: "e", Lang: "en-gb", Tags: []string{"x"}, Data: []byte(`{"d":"2024-05-01T10:00:00+0000","p":{"latitude":1.1,"longitude":2.1},"b":false}`)},
	}, "")
	if err != nil {
		tb.Fatal(err)
	}
	return snap
}

func TestParseDate(t *testing.T) {
	for _, s := range []string{
		"2024-05-01", "2024-05-01T10:00:00+0000", "2024-05-01T10:00:00+0230", "2024-05-01T10:00:00-0500",
		"2024-02-29", "1850-12-31T23:59:59+0000",
	} {
		got, ok := parseCommonDate(s)
		layout := "2006-01-02T15:04:05-0700"
		if len(s) == 10 {
			layout = "2006-01-02"
		}
		want, err := time.Parse(layout, s)
		if !ok || err != nil || !got.Equal(want) {
			t.Errorf("parseCommonDate(%q) = %v %v, time.Parse = %v %v", s, got, ok, want, err)
		}
	}
	for _, s := range []string{"2023-02-29", "2024-13-01", "2024-00-10", "2024-05-1x", "2024/05/01", "2024-05-01T25:00:00+0000", "2024-04-31T10:00:00+0000"} {
		if _, ok := parseCommonDate(s); ok {
			t.Errorf("parseCommonDate(%q) accepted", s)
		}
	}
	for _, s := range []string{"2024-05-01T10:00:00Z", "2024-05-01T10:00:00.123+01:00", "2024-05", "2024", "2024-05-01T10:00"} {
		if _, ok := parseDate(s); !ok {
			t.Errorf("parseDate(%q) rejected", s)
		}
	}
	if _, ok := parseDate("yesterday"); ok {
		t.Error("parseDate(yesterday) accepted")
	}
}

// FuzzParseGraphQuery, FuzzParseOrderings and FuzzRoutes: the other query parsers must
// not panic either, and what they accept must render without panicking.
func FuzzParseGraphQuery(f *testing.F) {
	for _, s := range []string{`{ page { title } }`, `{ page { ...pageFields parent { ...on page { title } } } }`,
		`{ page { body { ...on hero { variation { ...on default { primary { title } items { image } } } } } } }`, "{ a { b # c\n } }"} {
		f.Add(s)
	}
	snap := fuzzSnapshot(f)
	f.Fuzz(func(t *testing.T, q string) {
		gq, err := parseGraphQuery(q)
		if err != nil {
			if e, ok := AsError(err); !ok || e.Kind != KindParsing {
				t.Fatalf("error %v is not a parsing error", err)
			}
			return
		}
		r := &renderer{snap: snap, gq: gq, urls: map[*sdoc]*string{}}
		for _, d := range snap.docs {
			r.document(d)
		}
	})
}

func FuzzParseOrderings(f *testing.F) {
	for _, s := range []string{"[my.page.date desc,document.first_publication_date]", "[[x]]", "[my.p.n asc]"} {
		f.Add(s)
	}
	snap := fuzzSnapshot(f)
	f.Fuzz(func(t *testing.T, s string) {
		ords, err := parseOrderings(s)
		if err != nil {
			return
		}
		sortDocs(append([]*sdoc(nil), snap.docs...), ords)
	})
}

func FuzzRoutes(f *testing.F) {
	f.Add(`[{"type":"page","path":"/:lang?/:uid"}]`)
	f.Add(`[{"type":"page","path":"/:p/:uid","resolvers":{"p":"g.x"}}]`)
	snap := fuzzSnapshot(f)
	f.Fuzz(func(t *testing.T, s string) {
		routes, err := parseRoutes(s)
		if err != nil {
			return
		}
		r := &renderer{snap: snap, routes: routes, urls: map[*sdoc]*string{}}
		for _, d := range snap.docs {
			r.document(d)
		}
	})
}
