package members

import (
	"encoding/json"
	"errors"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"lineage/internal/textfield"
)

const (
	maxURLLen   = 2048
	maxTitleLen = 300
	maxNameLen  = 100
)

// localPath accepts a path of this site, with an optional query and fragment: it
// starts with one "/", names no scheme or host, and holds no controls or backslashes.
func localPath(s string) bool {
	if s == "" || len(s) > maxURLLen || s[0] != '/' || strings.HasPrefix(s, "//") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c == 0x7f || c == '\\' {
			return false
		}
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return false
	}
	return utf8.ValidString(s)
}

// cleanText checks a single-line field by the one rule of textfield.SingleLine and
// returns it trimmed.
func cleanText(field, s string, max int, required bool) (string, error) {
	s, err := textfield.SingleLine(s, max)
	switch {
	case errors.Is(err, textfield.ErrTooLong):
		return "", invalid(field, "The %s field must not be greater than %d characters.", field, max)
	case err != nil:
		return "", invalid(field, "The %s field must be a single line without control characters.", field)
	case required && s == "":
		return "", invalid(field, "The %s field is required.", field)
	}
	return s, nil
}

// Params are a search page's query parameters. In JSON a parameter is a string, or an
// array of strings when it repeats; numbers and booleans are accepted and kept as text.
type Params map[string][]string

const (
	maxParams     = 50
	maxParamValue = 500
)

func (p *Params) UnmarshalJSON(b []byte) error {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := Params{}
	for k, v := range raw {
		switch v := v.(type) {
		case string:
			out[k] = []string{v}
		case float64:
			out[k] = []string{strconv.FormatFloat(v, 'f', -1, 64)}
		case bool:
			out[k] = []string{strconv.FormatBool(v)}
		case nil:
		case []any:
			for _, x := range v {
				switch x := x.(type) {
				case string:
					out[k] = append(out[k], x)
				case float64:
					out[k] = append(out[k], strconv.FormatFloat(x, 'f', -1, 64))
				default:
					return &json.UnsupportedValueError{Str: k}
				}
			}
		default:
			return &json.UnsupportedValueError{Str: k}
		}
	}
	*p = out
	return nil
}

func (p Params) MarshalJSON() ([]byte, error) {
	out := make(map[string]any, len(p))
	for k, v := range p {
		if len(v) == 1 {
			out[k] = v[0]
		} else {
			out[k] = v
		}
	}
	return json.Marshal(out)
}

func (p Params) validate() error {
	if len(p) > maxParams {
		return invalid("params", "At most %d search parameters are allowed.", maxParams)
	}
	for k, vs := range p {
		if k == "" || len(k) > 100 || !textfield.Valid(k) {
			return invalid("params", "Search parameter names must be 1 to 100 characters without control characters.")
		}
		for _, v := range vs {
			if len(v) > maxParamValue || !textfield.Valid(v) {
				return invalid("params", "Search parameter values must be at most %d characters without control characters.", maxParamValue)
			}
		}
	}
	return nil
}

// encode returns the query string, keys sorted so equal searches compare equal.
func (p Params) encode() string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, v := range p[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(k))
			b.WriteByte('=')
			b.WriteString(url.QueryEscape(v))
		}
	}
	return b.String()
}

// runURL is where the web app goes to run a search: the path with its parameters.
func runURL(path string, p Params) string {
	if q := p.encode(); q != "" {
		return path + "?" + q
	}
	return path
}

// checkSearch checks a search to keep, its page's path and its parameters, and
// returns the path as kept.
func checkSearch(path string, params Params) (string, error) {
	path, err := searchPath(path)
	if err != nil {
		return "", err
	}
	return path, params.validate()
}

func searchPath(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", invalid("path", "The path field is required.")
	}
	if !localPath(s) || strings.ContainsAny(s, "?#") {
		return "", invalid("path", "The path must be a path of this site without a query.")
	}
	return s, nil
}
