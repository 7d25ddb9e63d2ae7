package content

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// This file parses the Prismic predicate language of the q parameter:
//
//	q      = "[" ( pred* | body ) "]"     // [[at(..)][any(..)]] or the bare [at(..)]
//	pred   = "[" body "]"
//	body   = [ ":" alias "=" ] name "(" [ arg { "," arg } ] ")"
//	arg    = path | string | number | "true" | "false" | "[" [ arg { "," arg } ] "]"
//	path   = "document" [ "." field ] | "my" "." type "." field { "." field }
//
// The alias form `[[:d = at(document.id, "X") ]]` comes from Prismic-generated hrefs.
// Errors carry a 1-based line and column, as hosted Prismic's parsing-error bodies do.

// predicate is one parsed and checked filter, ready to compile against a snapshot.
type predicate struct {
	name string // canonical name, e.g. "date.day-of-week-after"
	path path   // the first argument when the predicate takes a path
	args []value
}

type valueKind int

const (
	valString valueKind = iota + 1
	valNumber
	valBool
	valArray
	valPath
)

type value struct {
	kind valueKind
	str  string
	num  float64
	b    bool
	arr  []value
	path path
	pos  int // byte offset in the query, for error positions
}

func (v value) describe() string {
	switch v.kind {
	case valString:
		return "a string"
	case valNumber:
		return "a number"
	case valBool:
		return "a boolean"
	case valArray:
		return "an array"
	case valPath:
		return "the field '" + v.path.raw + "'"
	}
	return "a value"
}

// path is a field reference: `document`, `document.<field>` or `my.<type>.<field>…`.
type path struct {
	raw      string
	docField string   // "" for `document` itself or for my.* paths
	myType   string   // set for my.* paths
	myFields []string // at least one for my.* paths
}

func (p path) isDocument() bool { return p.myType == "" && p.docField == "" }
func (p path) isMy() bool       { return p.myType != "" }

// documentFields are the system fields predicates and orderings may name.
var documentFields = map[string]bool{
	"id": true, "type": true, "tags": true, "lang": true, "uid": true,
	"first_publication_date": true, "last_publication_date": true,
}

type predParser struct {
	src string
	pos int
	fn  string // the function being parsed, for "[function at(..)]" message prefixes
}

// parseQuery parses one q value into its predicates.
func parseQuery(src string) ([]predicate, error) {
	p := &predParser{src: src}
	preds, err := p.query()
	if err != nil {
		return nil, err
	}
	return preds, nil
}

func (p *predParser) errAt(pos int, format string, args ...any) *Error {
	line, col := 1, 1
	if pos > len(p.src) {
		pos = len(p.src)
	}
	for _, r := range p.src[:pos] {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	msg := fmt.Sprintf(format, args...)
	if p.fn != "" {
		msg = "[function " + p.fn + "(..)] " + msg
	}
	q := p.src
	if len(q) > 200 {
		q = q[:200]
		for !utf8.ValidString(q) {
			q = q[:len(q)-1]
		}
		q += "…"
	}
	return &Error{
		Kind:     KindParsing,
		Message:  fmt.Sprintf("%s on line:%d col:%d in query '%s'", msg, line, col, q),
		Line:     line,
		Column:   col,
		Location: "query",
	}
}

func (p *predParser) eof() bool { return p.pos >= len(p.src) }

func (p *predParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *predParser) skipSpace() {
	for !p.eof() {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// found describes the character at the cursor for error messages.
func (p *predParser) found() string {
	if p.eof() {
		return "end of query"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *predParser) expect(c byte) error {
	p.skipSpace()
	if p.peek() != c {
		return p.errAt(p.pos, "expected '%c' but found %s", c, p.found())
	}
	p.pos++
	return nil
}

func (p *predParser) query() ([]predicate, error) {
	p.skipSpace()
	if p.eof() {
		return nil, p.errAt(p.pos, "empty query")
	}
	if err := p.expect('['); err != nil {
		return nil, err
	}
	p.skipSpace()
	var preds []predicate
	if p.peek() == ']' { // [] : no predicates
		p.pos++
	} else if p.peek() == '[' {
		for {
			p.skipSpace()
			if p.peek() == ']' {
				p.pos++
				break
			}
			if p.peek() != '[' {
				return nil, p.errAt(p.pos, "expected '[' or ']' but found %s", p.found())
			}
			p.pos++
			pred, err := p.closedBody()
			if err != nil {
				return nil, err
			}
			preds = append(preds, pred)
		}
	} else {
		pred, err := p.closedBody()
		if err != nil {
			return nil, err
		}
		preds = append(preds, pred)
	}
	p.skipSpace()
	if !p.eof() {
		return nil, p.errAt(p.pos, "unexpected %s after the end of the query", p.found())
	}
	return preds, nil
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// word reads identifier characters and dots.
func (p *predParser) word() string {
	start := p.pos
	for !p.eof() && (isIdentByte(p.src[p.pos]) || p.src[p.pos] == '.') {
		p.pos++
	}
	return p.src[start:p.pos]
}

// closedBody reads a predicate's body and the ']' that closes it.
func (p *predParser) closedBody() (predicate, error) {
	pred, err := p.body()
	if err != nil {
		return pred, err
	}
	return pred, p.expect(']')
}

func (p *predParser) body() (predicate, error) {
	p.fn = ""
	p.skipSpace()
	if p.peek() == ':' { // legacy alias: [:d = at(...)]
		p.pos++
		p.skipSpace()
		start := p.pos
		if alias := p.word(); alias == "" || strings.Contains(alias, ".") {
			return predicate{}, p.errAt(start, "expected an alias name after ':' but found %s", p.found())
		}
		if err := p.expect('='); err != nil {
			return predicate{}, err
		}
		p.skipSpace()
	}
	start := p.pos
	name := p.word()
	if name == "" {
		return predicate{}, p.errAt(start, "expected a predicate name but found %s", p.found())
	}
	canon, ok := predicateNames[strings.ToLower(name)]
	if !ok {
		return predicate{}, p.errAt(start, "unknown predicate '%s'", name)
	}
	p.fn = canon
	if err := p.expect('('); err != nil {
		return predicate{}, err
	}
	args, err := p.values(nil, ')', 0, "")
	if err != nil {
		return predicate{}, err
	}
	pred, err := p.check(canon, args, start)
	if err != nil {
		return predicate{}, err
	}
	p.fn = ""
	return pred, nil
}

// values reads the comma-separated values of a list whose opening bracket is read,
// up to and including its closing one, appending them to out; depth is the values'
// array depth, and where names the list in an error (" in array").
func (p *predParser) values(out []value, closing byte, depth int, where string) ([]value, error) {
	p.skipSpace()
	if p.peek() == closing {
		p.pos++
		return out, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.skipSpace()
		if p.peek() == ',' {
			p.pos++
			continue
		}
		if p.peek() == closing {
			p.pos++
			return out, nil
		}
		return nil, p.errAt(p.pos, "expected ',' or '%c'%s but found %s", closing, where, p.found())
	}
}

const maxArrayDepth = 4

func (p *predParser) value(depth int) (value, error) {
	p.skipSpace()
	start := p.pos
	c := p.peek()
	switch {
	case c == '"':
		s, err := p.str()
		return value{kind: valString, str: s, pos: start}, err
	case c == '[':
		if depth >= maxArrayDepth {
			return value{}, p.errAt(start, "arrays nested too deeply")
		}
		p.pos++
		arr, err := p.values([]value{}, ']', depth+1, " in array")
		if err != nil {
			return value{}, err
		}
		return value{kind: valArray, arr: arr, pos: start}, nil
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		return p.number()
	case isIdentByte(c):
		w := p.word()
		switch w {
		case "true", "false":
			return value{kind: valBool, b: w == "true", pos: start}, nil
		}
		pth, err := p.parsePath(w, start)
		if err != nil {
			return value{}, err
		}
		return value{kind: valPath, path: pth, pos: start}, nil
	}
	return value{}, p.errAt(start, "expected a value but found %s", p.found())
}

func (p *predParser) number() (value, error) {
	start := p.pos
	for !p.eof() {
		c := p.src[p.pos]
		if c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E' {
			p.pos++
			continue
		}
		break
	}
	f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil {
		return value{}, p.errAt(start, "invalid number '%s'", p.src[start:p.pos])
	}
	return value{kind: valNumber, num: f, pos: start}, nil
}

func (p *predParser) str() (string, error) {
	start := p.pos
	p.pos++ // opening quote
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errAt(start, "unterminated string")
		}
		c := p.src[p.pos]
		switch c {
		case '"':
			p.pos++
			return b.String(), nil
		case '\\':
			p.pos++
			if p.eof() {
				return "", p.errAt(start, "unterminated string")
			}
			e := p.src[p.pos]
			p.pos++
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'u':
				if p.pos+4 > len(p.src) {
					return "", p.errAt(p.pos-2, "invalid \\u escape")
				}
				n, err := strconv.ParseUint(p.src[p.pos:p.pos+4], 16, 32)
				if err != nil {
					return "", p.errAt(p.pos-2, "invalid \\u escape")
				}
				b.WriteRune(rune(n))
				p.pos += 4
			default: // \" \\ \/ and anything else stand for themselves
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// parsePath checks a dotted word is a field path this API knows.
func (p *predParser) parsePath(w string, pos int) (path, error) {
	parts := strings.Split(w, ".")
	for _, s := range parts {
		if s == "" {
			return path{}, p.errAt(pos, "unexpected field '%s'", w)
		}
	}
	switch parts[0] {
	case "document":
		switch len(parts) {
		case 1:
			return path{raw: w}, nil
		case 2:
			if documentFields[parts[1]] {
				return path{raw: w, docField: parts[1]}, nil
			}
		}
	case "my":
		if len(parts) >= 3 {
			return path{raw: w, myType: parts[1], myFields: parts[2:]}, nil
		}
	}
	return path{}, p.errAt(pos, "unexpected field '%s'", w)
}

// predicateNames maps lower-cased spellings to canonical names.
var predicateNames = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{
		"at", "not", "any", "in", "fulltext", "has", "missing", "similar", "geopoint.near",
		"number.lt", "number.gt", "number.inRange",
		"date.after", "date.before", "date.between",
		"date.day-of-month", "date.day-of-month-after", "date.day-of-month-before",
		"date.day-of-week", "date.day-of-week-after", "date.day-of-week-before",
		"date.month", "date.month-after", "date.month-before",
		"date.year", "date.hour", "date.hour-after", "date.hour-before",
	} {
		m[strings.ToLower(n)] = n
	}
	return m
}()

// check validates the arguments of a predicate against its signature.
func (p *predParser) check(name string, args []value, start int) (predicate, error) {
	pred := predicate{name: name}
	argErr := func(i int, want string) error {
		if i < len(args) {
			return p.errAt(args[i].pos, "argument %d must be %s, not %s", i+1, want, args[i].describe())
		}
		return p.errAt(start, "argument %d must be %s", i+1, want)
	}
	wantCount := func(n int) error {
		if len(args) != n {
			return p.errAt(start, "expects %d argument%s, got %d", n, plural(n), len(args))
		}
		return nil
	}
	// takePath checks argument 1 is a path accepted by ok.
	takePath := func(ok func(path) bool, want string) error {
		if len(args) == 0 || args[0].kind != valPath {
			return argErr(0, want)
		}
		if !ok(args[0].path) {
			return p.errAt(args[0].pos, "unexpected field '%s'", args[0].path.raw)
		}
		pred.path = args[0].path
		pred.args = args[1:]
		return nil
	}
	// takeSignature checks there are n arguments, the first a path accepted by ok.
	takeSignature := func(n int, ok func(path) bool, want string) error {
		if err := wantCount(n); err != nil {
			return err
		}
		return takePath(ok, want)
	}
	// numbers checks arguments 2 to n are numbers.
	numbers := func(n int) error {
		for i := 1; i < n; i++ {
			if args[i].kind != valNumber {
				return argErr(i, "a number")
			}
		}
		return nil
	}
	// comparisonArity is a comparison's argument count: the field and one bound, or
	// two for its range form.
	comparisonArity := func(rangeForm string) int {
		if name == rangeForm {
			return 3
		}
		return 2
	}
	scalar := func(v value) bool { return v.kind == valString || v.kind == valNumber || v.kind == valBool }
	myOnly := func(pt path) bool { return pt.isMy() }
	dateField := func(pt path) bool {
		return pt.isMy() || pt.docField == "first_publication_date" || pt.docField == "last_publication_date"
	}
	matchable := func(pt path) bool {
		switch pt.docField {
		case "id", "type", "tags", "lang", "uid":
			return true
		}
		return pt.isMy()
	}

	switch name {
	case "at", "not":
		if err := takeSignature(2, matchable, "a field"); err != nil {
			return pred, err
		}
		v := args[1]
		if v.kind == valArray && pred.path.docField == "tags" {
			for i, el := range v.arr {
				if el.kind != valString {
					return pred, p.errAt(el.pos, "tag %d must be a string", i+1)
				}
			}
		} else if !scalar(v) {
			return pred, argErr(1, "a string, number, boolean or date")
		}
	case "any", "in":
		ok := matchable
		want := "a field"
		if name == "in" {
			ok = func(pt path) bool {
				return pt.docField == "id" || pt.isMy() && len(pt.myFields) == 1 && pt.myFields[0] == "uid"
			}
			want = "document.id or my.<type>.uid"
		}
		if err := takeSignature(2, ok, want); err != nil {
			return pred, err
		}
		if args[1].kind != valArray {
			return pred, argErr(1, "an array")
		}
		for _, el := range args[1].arr {
			if !scalar(el) || name == "in" && el.kind != valString {
				return pred, p.errAt(el.pos, "array values must be %s, not %s", map[bool]string{true: "strings", false: "strings, numbers or booleans"}[name == "in"], el.describe())
			}
		}
	case "fulltext":
		if err := takeSignature(2, func(pt path) bool { return pt.isDocument() || pt.isMy() }, "document or a text field"); err != nil {
			return pred, err
		}
		if args[1].kind != valString {
			return pred, argErr(1, "a string")
		}
	case "has", "missing":
		if err := takeSignature(1, myOnly, "a field of a custom type"); err != nil {
			return pred, err
		}
	case "similar":
		if err := wantCount(2); err != nil {
			return pred, err
		}
		if args[0].kind != valString {
			return pred, argErr(0, "a document ID")
		}
		if args[1].kind != valNumber || args[1].num < 0 || args[1].num != float64(int(args[1].num)) {
			return pred, argErr(1, "a whole number")
		}
		pred.args = args
	case "geopoint.near":
		if err := takeSignature(4, myOnly, "a geopoint field"); err != nil {
			return pred, err
		}
		if err := numbers(4); err != nil {
			return pred, err
		}
	case "number.lt", "number.gt", "number.inRange":
		n := comparisonArity("number.inRange")
		if err := takeSignature(n, myOnly, "a number field"); err != nil {
			return pred, err
		}
		if err := numbers(n); err != nil {
			return pred, err
		}
	case "date.after", "date.before", "date.between":
		n := comparisonArity("date.between")
		if err := takeSignature(n, dateField, "a date field"); err != nil {
			return pred, err
		}
		for i := 1; i < n; i++ {
			t, ok := dateArg(args[i])
			if !ok {
				return pred, argErr(i, "a date (epoch milliseconds or an ISO 8601 string)")
			}
			pred.args[i-1] = value{kind: valNumber, num: float64(t.UnixMilli()), pos: args[i].pos}
		}
	default: // the date part predicates: day-of-month, day-of-week, month, year, hour
		if err := takeSignature(2, dateField, "a date field"); err != nil {
			return pred, err
		}
		part := datePartOf(name)
		n, ok := datePartArg(part, args[1])
		if !ok {
			return pred, argErr(1, datePartWant[part])
		}
		pred.args = []value{{kind: valNumber, num: float64(n), pos: args[1].pos}}
	}
	return pred, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// datePartOf returns "day-of-month", "day-of-week", "month", "year" or "hour".
func datePartOf(name string) string {
	s := strings.TrimPrefix(name, "date.")
	s = strings.TrimSuffix(s, "-after")
	return strings.TrimSuffix(s, "-before")
}

var datePartWant = map[string]string{
	"day-of-month": "a day of the month (1-31)",
	"day-of-week":  "a day of the week (1-7, Monday is 1, or a name such as \"monday\")",
	"month":        "a month (1-12 or a name such as \"january\")",
	"year":         "a year",
	"hour":         "an hour (0-23)",
}

var weekdayNames = map[string]int{"monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5, "saturday": 6, "sunday": 7}

var monthNames = map[string]int{"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
	"july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12}

// byName is the number of a weekday's or month's name, or of the one name that starts
// with s when s has three letters or more ("wed", "sept").
func byName(names map[string]int, s string) (int, bool) {
	if n, ok := names[s]; ok || len(s) < 3 {
		return n, ok
	}
	for name, n := range names {
		if strings.HasPrefix(name, s) {
			return n, true
		}
	}
	return 0, false
}

func datePartArg(part string, v value) (int, bool) {
	if v.kind == valString {
		s := strings.ToLower(strings.TrimSpace(v.str))
		switch part {
		case "day-of-week":
			return byName(weekdayNames, s)
		case "month":
			return byName(monthNames, s)
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, false
		}
		v = value{kind: valNumber, num: float64(n)}
	}
	if v.kind != valNumber || v.num != float64(int(v.num)) {
		return 0, false
	}
	n := int(v.num)
	r := datePartRange[part]
	return n, n >= r[0] && n <= r[1]
}

var datePartRange = map[string][2]int{
	"day-of-month": {1, 31}, "day-of-week": {1, 7}, "month": {1, 12}, "year": {1, 9999}, "hour": {0, 23},
}

// dateArg reads a predicate date argument: epoch milliseconds or an ISO 8601 string.
func dateArg(v value) (time.Time, bool) {
	switch v.kind {
	case valNumber:
		return time.UnixMilli(int64(v.num)).UTC(), true
	case valString:
		return parseDate(v.str)
	}
	return time.Time{}, false
}

var dateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05-0700",
	"2006-01-02T15:04:05.000-0700",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05",
	"2006-01-02",
	"2006-01",
	"2006",
}

// parseDate reads the date and timestamp formats found in Prismic data and queries.
// A value without a zone is UTC.
func parseDate(s string) (time.Time, bool) {
	if t, ok := parseCommonDate(s); ok {
		return t, true
	}
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 40 {
		return time.Time{}, false
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// parseCommonDate reads, without allocating, the two shapes Prismic stores: a Date
// field "2024-05-01" and a Timestamp "2024-05-01T10:00:00+0000". Date predicates run it
// for every candidate document.
func parseCommonDate(s string) (time.Time, bool) {
	num := func(i, n int) (int, bool) {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	if len(s) != 10 && (len(s) != 24 || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '+' && s[19] != '-') {
		return time.Time{}, false
	}
	if s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 2)
	d, ok3 := num(8, 2)
	if !ok1 || !ok2 || !ok3 || mo < 1 || mo > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	if len(s) == 10 {
		t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
		return t, t.Day() == d // 2024-02-31 would roll into March: not a date
	}
	h, ok1 := num(11, 2)
	mi, ok2 := num(14, 2)
	sec, ok3 := num(17, 2)
	oh, ok4 := num(20, 2)
	om, ok5 := num(22, 2)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || h > 23 || mi > 59 || sec > 60 {
		return time.Time{}, false
	}
	off := time.Duration(oh)*time.Hour + time.Duration(om)*time.Minute
	if s[19] == '-' {
		off = -off
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC)
	if t.Day() != d {
		return time.Time{}, false
	}
	return t.Add(-off), true
}
