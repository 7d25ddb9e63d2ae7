package search

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"lineage/internal/gendate"
	"lineage/internal/names"
	"lineage/internal/research/gazetteer"
	"lineage/internal/research/index"
)

// YearTolerances are the accepted values of year_pm.
var YearTolerances = []int{0, 1, 2, 5, 10, 20, 40}

// Sort orders.
const (
	SortRelevance = "relevance"
	SortDate      = "date"
	SortName      = "name"
)

// Query limits.
const (
	DefaultLimit  = 20
	MaxLimit      = 100
	MaxQueryText  = 200
	maxListValues = 20
)

// Query is a parsed search (the query parameters of /api/research/search).
type Query struct {
	Surname      string
	SurnameMode  string
	Given        string
	Year         int // 0: no year
	YearPM       int
	Decade       int // 0: no decade; otherwise the first year of a decade
	Place        string
	RecordTypes  []string
	Collections  []string
	Roles        []string
	Relative     string
	RelativeRole string // father, mother, spouse, or "" for any
	Sort         string
	After        string
	Limit        int
}

// FieldErrors are validation messages by query parameter, shown to the user as they are.
type FieldErrors map[string][]string

// Add records a message for a field.
func (e FieldErrors) Add(field, format string, args ...any) {
	e[field] = append(e[field], fmt.Sprintf(format, args...))
}

// list reads a multi-valued parameter: repeated (collection=a&collection=b) or
// comma-separated (collection=a,b), with empty values dropped.
func list(v url.Values, key string) []string {
	var out []string
	for _, raw := range v[key] {
		for _, s := range strings.Split(raw, ",") {
			if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// ParseQuery reads and checks the query parameters of a search or count. Every
// problem is reported by parameter name; nothing is guessed.
func ParseQuery(v url.Values) (*Query, FieldErrors) {
	errs := FieldErrors{}
	get := func(k string) string {
		s := strings.TrimSpace(v.Get(k))
		if !utf8.ValidString(s) {
			errs.Add(k, "The %s must be text.", k)
			return ""
		}
		if len(s) > MaxQueryText {
			errs.Add(k, "The %s may be at most %d characters.", k, MaxQueryText)
			return ""
		}
		return s
	}
	q := &Query{
		Surname:      get("surname"),
		SurnameMode:  strings.ToLower(get("surname_mode")),
		Given:        get("given"),
		Place:        get("place"),
		Relative:     get("relative"),
		RelativeRole: strings.ToLower(get("relative_role")),
		Sort:         strings.ToLower(get("sort")),
		After:        get("after"),
		Limit:        DefaultLimit,
	}
	for _, l := range []struct {
		key string
		dst *[]string
	}{{"record_type", &q.RecordTypes}, {"collection", &q.Collections}, {"role", &q.Roles}} {
		vals := list(v, l.key)
		if len(vals) > maxListValues {
			errs.Add(l.key, "Choose at most %d values of %s.", maxListValues, l.key)
			continue
		}
		for _, s := range vals {
			if len(s) > MaxQueryText || !utf8.ValidString(s) {
				errs.Add(l.key, "A %s value is too long.", l.key)
				vals = nil
				break
			}
		}
		*l.dst = vals
	}
	for i, s := range q.RecordTypes {
		if q.RecordTypes[i] = index.NormaliseRecordType(s); q.RecordTypes[i] == "" {
			errs.Add("record_type", "A record type must contain letters.")
		}
	}
	for i, s := range q.Roles {
		if index.VocabSlug(s) == "" {
			errs.Add("role", "A role must contain letters.")
		}
		q.Roles[i] = index.NormaliseRole(s)
	}
	q.RecordTypes, q.Roles = dedupe(q.RecordTypes), dedupe(q.Roles)

	// Surname and its mode.
	wild := strings.ContainsAny(q.Surname, "*?")
	switch {
	case q.SurnameMode == "" && wild:
		q.SurnameMode = names.ModeWildcard
	case q.SurnameMode == "":
		q.SurnameMode = names.ModeVariants
	case !slices.Contains(names.SurnameModes, q.SurnameMode):
		errs.Add("surname_mode", "The surname mode must be one of %s.", strings.Join(names.SurnameModes, ", "))
	}
	if q.Surname != "" {
		if q.SurnameMode == names.ModeWildcard {
			if msg := checkWildcard(q.Surname); msg != "" {
				errs.Add("surname", "%s", msg)
			}
		} else if wild && slices.Contains(names.SurnameModes, q.SurnameMode) {
			errs.Add("surname", "Use the wildcard mode to search with * or ?.")
		} else if index.SurnameKey(q.Surname) == "" {
			errs.Add("surname", "The surname must contain letters.")
		}
	} else if v.Get("surname_mode") != "" && q.SurnameMode == names.ModeWildcard {
		errs.Add("surname", "A wildcard search needs a surname pattern.")
	}
	if q.Given != "" && names.Fold(q.Given) == "" {
		errs.Add("given", "The given names must contain letters.")
	}
	if len(strings.Fields(names.Fold(q.Given))) > 6 {
		errs.Add("given", "Give at most six given names.")
	}

	// Year, tolerance, decade.
	if s := get("year"); s != "" {
		y, err := strconv.Atoi(s)
		if err != nil || y < 1 || y > gendate.MaxYear {
			errs.Add("year", "The year must be a whole number from 1 to %d.", gendate.MaxYear)
		} else {
			q.Year = y
		}
	}
	if s := get("year_pm"); s != "" {
		pm, err := strconv.Atoi(s)
		if err != nil || !slices.Contains(YearTolerances, pm) {
			errs.Add("year_pm", "The year tolerance must be one of 0, 1, 2, 5, 10, 20 or 40.")
		} else if v.Get("year") == "" {
			errs.Add("year_pm", "A year tolerance needs a year.")
		} else {
			q.YearPM = pm
		}
	}
	if s := get("decade"); s != "" {
		d, err := strconv.Atoi(s)
		switch {
		case err != nil || d < 0 || d > gendate.MaxYear || d%10 != 0:
			errs.Add("decade", "The decade must be a year ending in 0, such as 1850.")
		case v.Get("year") != "":
			errs.Add("decade", "Search by year or by decade, not both.")
		default:
			q.Decade = d
			if d == 0 {
				errs.Add("decade", "The decade must be a year ending in 0, such as 1850.")
			}
		}
	}

	if q.Place != "" && gazetteer.PlaceKey(q.Place) == "" && !IsDigits(q.Place) {
		errs.Add("place", "The place must contain letters.")
	}
	if q.Relative != "" && names.Fold(q.Relative) == "" {
		errs.Add("relative", "The relative's name must contain letters.")
	}
	if q.RelativeRole != "" && q.RelativeRole != "any" {
		if _, ok := index.RelativeRoles[q.RelativeRole]; !ok {
			errs.Add("relative_role", "The relative must be the father, mother or spouse (or any).")
		}
	}
	if q.RelativeRole == "any" {
		q.RelativeRole = ""
	}
	if q.RelativeRole != "" && q.Relative == "" {
		errs.Add("relative", "Give the relative's name.")
	}
	switch q.Sort {
	case "":
		q.Sort = SortRelevance
	case SortRelevance, SortDate, SortName:
	default:
		errs.Add("sort", "Sort by relevance, date or name.")
	}
	if s := get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > MaxLimit {
			errs.Add("limit", "The limit must be a whole number from 1 to %d.", MaxLimit)
		} else {
			q.Limit = n
		}
	}
	// Given names, a relative and roles only narrow a search: alone they would read
	// every record.
	if len(errs) == 0 && q.Surname == "" && q.Year == 0 && q.Decade == 0 &&
		q.Place == "" && len(q.Collections) == 0 && len(q.RecordTypes) == 0 {
		errs.Add("surname", "Enter a surname, or choose a collection, record type, place or year.")
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return q, nil
}

// dedupe drops repeated values, keeping the first of each.
func dedupe(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// checkWildcard explains what is wrong with a wildcard pattern, or returns "".
func checkWildcard(p string) string {
	n := 0
	for _, r := range p {
		switch {
		case r == '*' || r == '?':
		case r == ' ' || r == '\'' || r == '-' || r == '’':
		default:
			if names.Fold(string(r)) == "" {
				return "A wildcard pattern may contain letters, * and ? only."
			}
			n++
		}
	}
	if n < 3 {
		return "A wildcard pattern needs at least three letters besides * and ?."
	}
	return ""
}

// fingerprint identifies what a query asks (not its page), so that a cursor from one
// search is refused by another.
func (q *Query) fingerprint() uint64 {
	s := strings.Join([]string{q.Surname, q.SurnameMode, q.Given, strconv.Itoa(q.Year), strconv.Itoa(q.YearPM), strconv.Itoa(q.Decade),
		q.Place, strings.Join(q.RecordTypes, ","), strings.Join(q.Collections, ","), strings.Join(q.Roles, ","),
		q.Relative, q.RelativeRole, q.Sort}, "\x00")
	sum := sha256.Sum256([]byte(s))
	return binary.BigEndian.Uint64(sum[:8])
}

// Values writes the query back as URL parameters (without the cursor), for links.
func (q *Query) Values() url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("surname", q.Surname)
	if q.Surname != "" {
		set("surname_mode", q.SurnameMode)
	}
	set("given", q.Given)
	if q.Year != 0 {
		v.Set("year", strconv.Itoa(q.Year))
		if q.YearPM != 0 {
			v.Set("year_pm", strconv.Itoa(q.YearPM))
		}
	}
	if q.Decade != 0 {
		v.Set("decade", strconv.Itoa(q.Decade))
	}
	set("place", q.Place)
	for _, s := range q.RecordTypes {
		v.Add("record_type", s)
	}
	for _, s := range q.Collections {
		v.Add("collection", s)
	}
	for _, s := range q.Roles {
		v.Add("role", s)
	}
	set("relative", q.Relative)
	set("relative_role", q.RelativeRole)
	if q.Sort != SortRelevance {
		v.Set("sort", q.Sort)
	}
	return v
}
