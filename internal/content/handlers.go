package content

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The content API and the media files, with their full paths (the route table in
// cmd/lineage lists them):
//
//	GET /content/api/v2                    repository metadata (ServeAPI)
//	GET /content/api/v2/documents/search   search (ServeSearch)
//	GET /content/api/v2/tags               tags, the forms.tags action (ServeTags)
//	/content/api/v2/…                      anything else: Prismic's 404 or 405 (ServeNoEndpoint)
//	GET /media/{file...}                   media files (ServeMedia)
//
// They answer in Prismic's shapes, errors included (writePrismicError), so that
// Prismic's own client reads them.

// ServeNoEndpoint answers what no content API route matches as Prismic does: 405 for
// another method on an endpoint, else 404.
func (s *Service) ServeNoEndpoint(w http.ResponseWriter, r *http.Request) {
	switch strings.TrimSuffix(r.URL.Path, "/") {
	case APIPath, APIPath + "/documents/search", APIPath + "/tags":
		w.Header().Set("Allow", "GET, HEAD")
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"type": "api_validation_error", "message": "Only GET is allowed"}, "no-store")
		return
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"type": "api_notfound_error", "message": "No such endpoint: " + r.URL.Path}, "no-store")
}

const (
	// maxQueryKeys mirrors the query-string parser limit the site's client honours.
	maxQueryKeys = 1000
	// maxQueryBytes bounds the query string; routes and graphQuery make real ones a few
	// kilobytes at most.
	maxQueryBytes = 32 << 10

	apiVersion = "lineage-1"
	apiLicense = "All Rights Reserved"
)

// searchFields are the form fields of the everything form; ignoredFields are sent by
// clients and deliberately ignored. Any other parameter is an error, as in Prismic.
var (
	searchFields = []string{"ref", "q", "lang", "page", "pageSize", "after", "fetch", "fetchLinks",
		"graphQuery", "orderings", "routes", "brokenRoute", "referer", "access_token"}
	ignoredFields = []string{"x-c", "x-d", "integrationFieldsRef"}
	knownFields   = func() map[string]bool {
		m := map[string]bool{}
		for _, f := range append(append([]string{}, searchFields...), ignoredFields...) {
			m[f] = true
		}
		return m
	}()
)

// readQuery parses the query string within the limits.
func readQuery(r *http.Request) (url.Values, error) {
	raw := r.URL.RawQuery
	if len(raw) > maxQueryBytes {
		return nil, &Error{Kind: KindTooLong, Message: fmt.Sprintf("The query string is longer than %d bytes", maxQueryBytes)}
	}
	if strings.Count(raw, "&")+1 > maxQueryKeys {
		return nil, invalidf("Too many query parameters (more than %d)", maxQueryKeys)
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, invalidf("Malformed query string: %v", err)
	}
	return q, nil
}

func (s *Service) tokenOK(q url.Values) bool {
	if s.opts.AccessToken == "" {
		return true
	}
	return subtle.ConstantTimeCompare([]byte(q.Get("access_token")), []byte(s.opts.AccessToken)) == 1
}

// origin is the scheme and host absolute URLs use: the configured public URL, else the
// request's own.
func (s *Service) origin(r *http.Request) string {
	if s.opts.PublicURL != "" {
		return s.opts.PublicURL
	}
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// repositoryFor reads the repository for an answer about it (ServeAPI, ServeTags) once
// the query and its access token are good; otherwise it answers (denied: the body of
// the 401, which differs between the two as Prismic's does) and returns nil.
func (s *Service) repositoryFor(w http.ResponseWriter, r *http.Request, denied any) *RepositoryInfo {
	q, err := readQuery(r)
	if err != nil {
		writePrismicError(w, err)
		return nil
	}
	if !s.tokenOK(q) {
		writeJSON(w, http.StatusUnauthorized, denied, "no-store")
		return nil
	}
	info, err := s.Repository(r.Context())
	if err != nil {
		writePrismicError(w, err)
		return nil
	}
	return info
}

// ServeAPI answers the repository metadata.
func (s *Service) ServeAPI(w http.ResponseWriter, r *http.Request) {
	info := s.repositoryFor(w, r, map[string]string{"error": "Invalid access token"})
	if info == nil {
		return
	}
	origin := s.origin(r)
	types := map[string]string{}
	for _, t := range info.Types {
		types[t] = humanize(t)
	}
	langs := []map[string]any{}
	for _, l := range info.Languages {
		langs = append(langs, map[string]any{"id": l, "name": languageName(l), "is_master": l == info.MasterLanguage})
	}
	fields := map[string]any{}
	for _, f := range searchFields {
		typ := "String"
		if f == "page" || f == "pageSize" {
			typ = "Integer"
		}
		field := map[string]any{"type": typ, "multiple": f == "q"}
		switch f {
		case "page":
			field["default"] = "1"
		case "pageSize":
			field["default"] = strconv.Itoa(defaultPageSize)
		case "access_token":
			if s.opts.AccessToken == "" {
				continue
			}
			field["default"] = s.opts.AccessToken
		}
		fields[f] = field
	}
	tagsFields := map[string]any{}
	if s.opts.AccessToken != "" {
		tagsFields["access_token"] = map[string]any{"type": "String", "multiple": false, "default": s.opts.AccessToken}
	}
	body := map[string]any{
		"refs":                 []map[string]any{{"id": "master", "ref": info.MasterRef, "label": "Master", "isMasterRef": true}},
		"integrationFieldsRef": nil,
		"bookmarks":            map[string]string{},
		"types":                types,
		"languages":            langs,
		"tags":                 nonNil(info.Tags),
		"forms": map[string]any{
			"everything": map[string]any{
				"method": "GET", "enctype": "application/x-www-form-urlencoded",
				"action": origin + APIPath + "/documents/search",
				"fields": fields,
			},
			"tags": map[string]any{
				"method": "GET", "enctype": "application/x-www-form-urlencoded",
				"action": origin + APIPath + "/tags",
				"fields": tagsFields,
			},
		},
		"oauth_initiate": origin + "/content/auth",
		"oauth_token":    origin + "/content/auth/token",
		"version":        apiVersion,
		"license":        apiLicense,
		"experiments":    map[string]any{"draft": []any{}, "running": []any{}},
	}
	writeJSON(w, http.StatusOK, body, "no-cache")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ServeTags answers the repository's tags.
func (s *Service) ServeTags(w http.ResponseWriter, r *http.Request) {
	info := s.repositoryFor(w, r, map[string]string{"type": "api_security_error", "message": "Invalid access token"})
	if info == nil {
		return
	}
	writeJSON(w, http.StatusOK, nonNil(info.Tags), "no-cache")
}

// ServeSearch answers a documents search.
func (s *Service) ServeSearch(w http.ResponseWriter, r *http.Request) {
	q, err := readQuery(r)
	if err != nil {
		writePrismicError(w, err)
		return
	}
	ref := q.Get("ref")
	if !s.tokenOK(q) && (ref == "" || !s.isPreviewRef(r.Context(), ref)) {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"type": "api_security_error", "message": "Invalid access token"}, "no-store")
		return
	}
	p, err := searchParamsFrom(q)
	if err != nil {
		writePrismicError(w, err)
		return
	}
	origin := s.origin(r)
	p.Origin = origin
	o, err := s.search(r.Context(), p)
	if err != nil {
		writePrismicError(w, err)
		return
	}
	res := o.res
	pageURL := func(n int) *string {
		next := url.Values{}
		for k, v := range q {
			next[k] = v
		}
		next.Set("page", strconv.Itoa(n))
		u := origin + APIPath + "/documents/search?" + next.Encode()
		return &u
	}
	var nextPage, prevPage *string
	if res.Page < res.TotalPages {
		nextPage = pageURL(res.Page + 1)
	}
	if res.Page > 1 {
		prevPage = pageURL(res.Page - 1)
	}
	// The envelope is written by hand around the cached JSON of each document, straight
	// to the response: no copy of the documents is made.
	docs := make([][]byte, len(o.page))
	size := 0
	for i, d := range o.page {
		b, err := o.r.documentJSON(d)
		if err != nil {
			writePrismicError(w, err)
			return
		}
		docs[i] = b
		size += len(b) + 1
	}
	var head bytes.Buffer
	fmt.Fprintf(&head, `{"page":%d,"results_per_page":%d,"results_size":%d,"total_results_size":%d,"total_pages":%d,"next_page":`,
		res.Page, res.ResultsPerPage, res.ResultsSize, res.TotalResultsSize, res.TotalPages)
	writeJSONString(&head, nextPage)
	head.WriteString(`,"prev_page":`)
	writeJSONString(&head, prevPage)
	head.WriteString(`,"results":[`)
	tail := fmt.Appendf(nil, `],"version":%q,"license":%q}`, apiVersion, apiLicense)

	cache := "public, max-age=31536000, immutable" // a master ref never changes what it sees
	switch {
	case res.Preview:
		cache = "private, no-store"
	case s.opts.AccessToken != "":
		cache = "private, max-age=31536000, immutable"
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cache-Control", cache)
	h.Set("Content-Length", strconv.Itoa(head.Len()+max(size-1, 0)+len(tail)))
	w.WriteHeader(http.StatusOK)
	w.Write(head.Bytes())
	for i, b := range docs {
		if i > 0 {
			w.Write([]byte{','})
		}
		w.Write(b)
	}
	w.Write(tail)
}

func writeJSONString(buf *bytes.Buffer, s *string) {
	if s == nil {
		buf.WriteString("null")
		return
	}
	b, _ := json.Marshal(*s)
	buf.Write(b)
}

// searchParamsFrom reads and checks the search form fields.
func searchParamsFrom(q url.Values) (SearchParams, error) {
	for k := range q {
		if !knownFields[k] {
			return SearchParams{}, invalidf("Unknown field '%s'. The everything form accepts: %s", k, strings.Join(searchFields, ", "))
		}
	}
	p := SearchParams{
		Ref: q.Get("ref"), Q: q["q"], Lang: q.Get("lang"), After: q.Get("after"),
		Orderings: q.Get("orderings"), Fetch: q.Get("fetch"), FetchLinks: q.Get("fetchLinks"),
		GraphQuery: q.Get("graphQuery"), Routes: q.Get("routes"), BrokenRoute: q.Get("brokenRoute"),
	}
	if p.Ref == "" {
		return p, invalidf("The 'ref' parameter is required")
	}
	var err error
	if p.Page, err = intField(q, "page", 1); err != nil {
		return p, err
	}
	if p.PageSize, err = intField(q, "pageSize", 1); err != nil {
		return p, err
	}
	return p, nil
}

func intField(q url.Values, name string, min int) (int, error) {
	s := q.Get(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < min {
		return 0, invalidf("%s must be an integer of at least %d, not '%s'", name, min, s)
	}
	return n, nil
}

func writeJSON(w http.ResponseWriter, status int, body any, cacheControl string) {
	b, err := json.Marshal(body)
	if err != nil {
		slog.Error("content: encode response", "err", err)
		status, b = http.StatusInternalServerError, []byte(`{"type":"api_error","message":"internal error"}`)
	}
	writeRawJSON(w, status, b, cacheControl)
}

func writeRawJSON(w http.ResponseWriter, status int, b []byte, cacheControl string) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Access-Control-Allow-Origin", "*")
	if cacheControl != "" {
		h.Set("Cache-Control", cacheControl)
	}
	w.WriteHeader(status)
	w.Write(b)
}

// writePrismicError maps an error to its status and Prismic-shaped JSON body.
func writePrismicError(w http.ResponseWriter, err error) {
	e, ok := AsError(err)
	if !ok {
		slog.Error("content: request failed", "err", err)
		writeJSON(w, http.StatusInternalServerError, map[string]string{"type": "api_error", "message": "Internal error"}, "no-store")
		return
	}
	body := map[string]any{"type": e.errType(), "message": e.Message}
	if e.Kind == KindParsing {
		body["location"] = e.Location
		if e.Line > 0 {
			body["line"], body["column"] = e.Line, e.Column
		}
		if e.QueryID > 0 {
			body["id"] = e.QueryID
		}
	}
	writeJSON(w, e.status(), body, "no-store")
}

// languageName gives the label Prismic shows for common language codes.
func languageName(code string) string {
	if n, ok := languageNames[strings.ToLower(code)]; ok {
		return n
	}
	return code
}

var languageNames = map[string]string{
	"en-gb": "English - Great Britain", "en-us": "English - United States", "en-ie": "English - Ireland",
	"ga-ie": "Irish - Ireland", "cy-gb": "Welsh - United Kingdom", "gd-gb": "Scottish Gaelic - United Kingdom",
	"fr-fr": "French - France", "de-de": "German - Germany", "es-es": "Spanish - Spain",
	"it-it": "Italian - Italy", "nl-nl": "Dutch - Netherlands", "pl-pl": "Polish - Poland",
}
