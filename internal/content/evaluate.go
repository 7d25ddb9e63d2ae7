package content

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"time"
)

// matcher tests one document against one predicate.
type matcher func(d *sdoc) bool

// filter is a compiled q: the documents to start from (nil: all) and the tests each must pass.
type filter struct {
	candidates []*sdoc
	narrowed   bool
	// listKey names candidates when they are a list the snapshot holds ("*" for all
	// documents, "type:<t>" for one type), so its sorted orders can be memoised.
	listKey  string
	matchers []matcher
}

// compileFilter turns predicates into matchers against snap. Predicates on a my.<type>
// path only ever match documents of that type; the type (or an ID or UID lookup) narrows
// the candidates so that a typical query touches only the documents it can match.
func compileFilter(snap *snapshot, preds []predicate) filter {
	var f filter
	narrow := func(list []*sdoc, key string) {
		if !f.narrowed || len(list) < len(f.candidates) {
			f.candidates, f.narrowed, f.listKey = list, true, key
		}
	}
	for _, p := range preds {
		if p.name == "fulltext" && p.path.isDocument() {
			// The inverted index gives the matching set outright: match and narrow with it.
			var bits docBits
			if terms := sortedUnique(appendWords(nil, p.args[0].str)); len(terms) > 0 {
				bits = snap.fulltextDocs(terms)
			}
			if bits == nil {
				f.matchers = append(f.matchers, never)
				narrow(nil, "")
				continue
			}
			f.matchers = append(f.matchers, func(d *sdoc) bool { return bits.has(d.idx) })
			narrow(snap.docsOf(bits), "")
			continue
		}
		f.matchers = append(f.matchers, compilePredicate(snap, p))
		switch {
		case p.name == "at" && p.path.docField == "type" && p.args[0].kind == valString:
			narrow(snap.byType[p.args[0].str], "type:"+p.args[0].str)
		case p.name == "at" && p.path.docField == "id" && p.args[0].kind == valString:
			if d := snap.byID[p.args[0].str]; d != nil {
				narrow([]*sdoc{d}, "")
			} else {
				narrow(nil, "")
			}
		case (p.name == "at" || p.name == "in") && p.path.isMy() && len(p.path.myFields) == 1 && p.path.myFields[0] == "uid":
			var list []*sdoc
			vals := p.args
			if p.name == "in" {
				vals = p.args[0].arr
			}
			for _, v := range vals {
				if v.kind == valString {
					list = append(list, snap.byTypeUID[p.path.myType+"\x00"+v.str]...)
				}
			}
			narrow(dedupe(list), "")
		case p.name == "in" && p.path.docField == "id":
			var list []*sdoc
			for _, v := range p.args[0].arr {
				if d := snap.byID[v.str]; d != nil {
					list = append(list, d)
				}
			}
			narrow(dedupe(list), "")
		case p.path.isMy():
			narrow(snap.byType[p.path.myType], "type:"+p.path.myType)
		}
	}
	if !f.narrowed {
		f.candidates, f.listKey = snap.docs, "*"
	}
	return f
}

// dedupe drops repeated documents (in(document.id, ["a", "a"])) keeping the first.
func dedupe(list []*sdoc) []*sdoc {
	seen := make(map[*sdoc]bool, len(list))
	out := list[:0:0]
	for _, d := range list {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

func (f filter) match(d *sdoc) bool {
	for _, m := range f.matchers {
		if !m(d) {
			return false
		}
	}
	return true
}

func never(*sdoc) bool { return false }

func compilePredicate(snap *snapshot, p predicate) matcher {
	pt := p.path
	// onType wraps a test of field values so that it applies to documents of the path's
	// custom type only.
	onType := func(test func(d *sdoc) bool) matcher {
		if !pt.isMy() {
			return test
		}
		if _, ok := snap.byType[pt.myType]; !ok {
			return never // an unknown type matches nothing: 200 with no results
		}
		typ := snap.intern(pt.myType)
		return func(d *sdoc) bool { return d.Type == typ && test(d) }
	}
	anyValue := func(test func(v any) bool) matcher {
		fields := pt.myFields
		return onType(func(d *sdoc) bool { return anyFieldValue(d, fields, test) })
	}

	switch p.name {
	case "at", "not":
		m := atMatcher(snap, pt, p.args[0], anyValue)
		if p.name == "at" {
			return m
		}
		if pt.isMy() {
			typ := snap.intern(pt.myType)
			return onType(func(d *sdoc) bool { return d.Type == typ && !m(d) })
		}
		return func(d *sdoc) bool { return !m(d) }
	case "any", "in":
		var ms []matcher
		for _, v := range p.args[0].arr {
			ms = append(ms, atMatcher(snap, pt, v, anyValue))
		}
		return func(d *sdoc) bool {
			for _, m := range ms {
				if m(d) {
					return true
				}
			}
			return false
		}
	case "fulltext":
		terms := sortedUnique(appendWords(nil, p.args[0].str))
		if len(terms) == 0 {
			return never
		}
		if pt.isDocument() { // compileFilter handles this case with the index
			bits := snap.fulltextDocs(terms)
			return func(d *sdoc) bool { return bits.has(d.idx) }
		}
		fields := pt.myFields
		return onType(func(d *sdoc) bool {
			var ws []string
			for _, v := range fieldValues(d, fields) {
				ws = collectText(ws, v, "")
			}
			ws = sortedUnique(ws)
			for _, t := range terms {
				if !hasWordPrefix(ws, t) {
					return false
				}
			}
			return true
		})
	case "has", "missing":
		want := p.name == "has"
		fields := pt.myFields
		return onType(func(d *sdoc) bool {
			has := false
			for _, v := range fieldValues(d, fields) {
				if !isEmptyValue(v) {
					has = true
					break
				}
			}
			return has == want
		})
	case "similar":
		return similarMatcher(snap, p.args[0].str, int(p.args[1].num))
	case "geopoint.near":
		lat, lng, radius := p.args[0].num, p.args[1].num, p.args[2].num
		return anyValue(func(v any) bool {
			m, ok := v.(map[string]any)
			if !ok {
				return false
			}
			la, ok1 := toFloat(m["latitude"])
			lo, ok2 := toFloat(m["longitude"])
			return ok1 && ok2 && haversineKm(lat, lng, la, lo) <= radius
		})
	case "number.lt", "number.gt", "number.inRange":
		a := p.args[0].num
		b := a
		if len(p.args) > 1 {
			b = p.args[1].num
		}
		return anyValue(func(v any) bool {
			n, ok := toFloat(v)
			if !ok {
				return false
			}
			switch p.name {
			case "number.lt":
				return n < a
			case "number.gt":
				return n > a
			}
			return n >= a && n <= b
		})
	}
	// Date predicates.
	test := dateTest(p)
	if pt.docField != "" {
		first := pt.docField == "first_publication_date"
		return func(d *sdoc) bool {
			if first {
				return !d.First.IsZero() && test(d.First)
			}
			return !d.Last.IsZero() && test(d.Last)
		}
	}
	return anyValue(func(v any) bool {
		t, ok := fieldTime(v)
		return ok && test(t)
	})
}

// atMatcher matches a path against one value, as at() does.
func atMatcher(snap *snapshot, pt path, v value, anyValue func(func(any) bool) matcher) matcher {
	switch pt.docField {
	case "id":
		return func(d *sdoc) bool { return v.kind == valString && d.ID == v.str }
	case "type":
		typ := snap.intern(v.str)
		return func(d *sdoc) bool { return v.kind == valString && d.Type == typ }
	case "lang":
		lang := snap.intern(v.str)
		return func(d *sdoc) bool { return v.kind == valString && d.Lang == lang }
	case "uid":
		return func(d *sdoc) bool { return v.kind == valString && d.UID != "" && d.UID == v.str }
	case "tags":
		want := []string{v.str}
		if v.kind == valArray {
			want = want[:0]
			for _, el := range v.arr {
				want = append(want, el.str)
			}
		} else if v.kind != valString {
			return never
		}
		return func(d *sdoc) bool {
			for _, w := range want {
				if !containsString(d.Tags, w) {
					return false
				}
			}
			return true
		}
	}
	return anyValue(func(fv any) bool { return valueEquals(fv, v) })
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// valueEquals compares a stored field value with a query value. A content relationship
// equals the ID of the document it links to, as in Prismic.
func valueEquals(fv any, v value) bool {
	switch x := fv.(type) {
	case string:
		return v.kind == valString && x == v.str
	case json.Number:
		f, err := x.Float64()
		return err == nil && v.kind == valNumber && f == v.num
	case float64:
		return v.kind == valNumber && x == v.num
	case bool:
		return v.kind == valBool && x == v.b
	case map[string]any:
		if lt, _ := x["link_type"].(string); lt == "Document" && v.kind == valString {
			id, _ := x["id"].(string)
			return id == v.str
		}
	}
	return false
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	}
	return 0, false
}

// fieldTime reads a Date ("2024-05-01") or Timestamp ("2024-05-01T10:00:00+0000") field.
func fieldTime(v any) (time.Time, bool) {
	switch x := v.(type) {
	case string:
		return parseDate(x)
	case json.Number:
		n, err := x.Int64()
		return time.UnixMilli(n).UTC(), err == nil
	}
	return time.Time{}, false
}

// dateTest builds the comparison of a date predicate. Parts of dates are taken in UTC.
func dateTest(p predicate) func(time.Time) bool {
	switch p.name {
	case "date.after":
		ms := int64(p.args[0].num)
		return func(t time.Time) bool { return t.UnixMilli() > ms }
	case "date.before":
		ms := int64(p.args[0].num)
		return func(t time.Time) bool { return t.UnixMilli() < ms }
	case "date.between":
		lo, hi := int64(p.args[0].num), int64(p.args[1].num)
		return func(t time.Time) bool { ms := t.UnixMilli(); return ms >= lo && ms <= hi }
	}
	n := int(p.args[0].num)
	var part func(time.Time) int
	switch datePartOf(p.name) {
	case "day-of-month":
		part = func(t time.Time) int { return t.Day() }
	case "day-of-week":
		part = func(t time.Time) int {
			if wd := int(t.Weekday()); wd != 0 {
				return wd
			}
			return 7 // ISO 8601: Monday is 1, Sunday is 7
		}
	case "month":
		part = func(t time.Time) int { return int(t.Month()) }
	case "year":
		part = func(t time.Time) int { return t.Year() }
	default:
		part = func(t time.Time) int { return t.Hour() }
	}
	switch {
	case strings.HasSuffix(p.name, "-after"):
		return func(t time.Time) bool { return part(t) > n }
	case strings.HasSuffix(p.name, "-before"):
		return func(t time.Time) bool { return part(t) < n }
	}
	return func(t time.Time) bool { return part(t) == n }
}

func haversineKm(lat1, lng1, lat2, lng2 float64) float64 {
	const earthKm = 6371.0
	rad := math.Pi / 180
	dLat := (lat2 - lat1) * rad
	dLng := (lng2 - lng1) * rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * earthKm * math.Asin(math.Min(1, math.Sqrt(a)))
}

// similarMatcher keeps the max documents whose words overlap most with the given
// document's (cosine similarity of word sets). It is a plain stand-in for Prismic's
// "more like this": good enough for "related articles".
func similarMatcher(snap *snapshot, id string, max int) matcher {
	target := snap.byID[id]
	if target == nil || max <= 0 {
		return never
	}
	snap.ensureWords()
	type scored struct {
		d     *sdoc
		score float64
	}
	var all []scored
	for _, d := range snap.docs {
		if d == target || len(d.words) == 0 {
			continue
		}
		common := 0
		a, b := target.words, d.words
		for i, j := 0, 0; i < len(a) && j < len(b); {
			switch {
			case a[i] == b[j]:
				common++
				i++
				j++
			case a[i] < b[j]:
				i++
			default:
				j++
			}
		}
		if common > 0 {
			all = append(all, scored{d, float64(common) / math.Sqrt(float64(len(a)*len(b)))})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	keep := map[*sdoc]bool{}
	for i := 0; i < len(all) && i < max; i++ {
		keep[all[i].d] = true
	}
	return func(d *sdoc) bool { return keep[d] }
}
