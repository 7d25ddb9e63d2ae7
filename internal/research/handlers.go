package research

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"lineage/internal/access"
	"lineage/internal/httpx"
	"lineage/internal/names"
	"lineage/internal/research/search"
)

// The room's HTTP API (docs/research.md). cmd/lineage/routes.go lists the routes and
// wraps them in auth's middleware, so that Membership can see who is signed in; each
// handler writes its answer or returns the error that apiError maps.

// scope is the requester's scope, asked once per request.
func (s *Service) scope(r *http.Request) []string {
	if s.members == nil {
		return nil
	}
	return s.members.Scope(r)
}

// invalid is the 422 of a query's field errors. Its message is the first field's, by
// name, as ParseQuery's callers have always read it.
func invalid(errs FieldErrors) error {
	var fe httpx.FieldErrors
	for _, field := range slices.Sorted(maps.Keys(errs)) {
		for _, msg := range errs[field] {
			fe.Add(field, "%s", msg)
		}
	}
	return fe.Err()
}

// apiError maps the room's errors to the API's, in one place.
func apiError(err error) error {
	var iq *search.InvalidQuery
	var tb *ErrTooBroad
	switch {
	case errors.Is(err, ErrNotFound):
		return httpx.ErrNotFound
	case errors.Is(err, ErrBadCursor):
		return httpx.Invalid("after", "This page link has expired: run the search again.")
	case errors.As(err, &iq):
		return invalid(iq.Fields)
	case errors.As(err, &tb):
		return httpx.Invalid("query", "%s", tb.Message)
	case errors.Is(err, context.Canceled):
		// The client went away.
		return &httpx.Error{Code: httpx.ECANCELED, Message: "Client Closed Request"}
	}
	return err
}

// GetSearch answers GET /api/research/search.
func (s *Service) GetSearch(w http.ResponseWriter, r *http.Request) error {
	q, errs := ParseQuery(r.URL.Query())
	if errs != nil {
		return invalid(errs)
	}
	res, err := s.Search(r.Context(), q, s.scope(r))
	return httpx.Reply(w, http.StatusOK, res, apiError(err))
}

// GetCount answers GET /api/research/count.
func (s *Service) GetCount(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	v.Del("after")
	q, errs := ParseQuery(v)
	if errs != nil {
		return invalid(errs)
	}
	total, exact, err := s.Count(r.Context(), q, s.scope(r))
	return httpx.Reply(w, http.StatusOK, map[string]any{"total": total, "total_exact": exact}, apiError(err))
}

// GetRecord answers GET /api/research/records/{id}.
func (s *Service) GetRecord(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	d, err := s.Record(r.Context(), id, s.scope(r))
	return httpx.Reply(w, http.StatusOK, d, apiError(err))
}

// ListCollections answers GET /api/research/collections.
func (s *Service) ListCollections(w http.ResponseWriter, r *http.Request) error {
	all, err := s.Collections(r.Context())
	if err != nil {
		return apiError(err)
	}
	kind := r.URL.Query().Get("kind")
	out := []*Collection{}
	for _, c := range all {
		if kind == "" || c.Kind == kind {
			out = append(out, c)
		}
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
	return nil
}

// GetCollection answers GET /api/research/collections/{slug}.
func (s *Service) GetCollection(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	var after int64
	var fe httpx.FieldErrors
	if a := v.Get("after"); a != "" {
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil || n < 0 {
			fe.Add("after", "This page link has expired: open the collection again.")
		}
		after = n
	}
	limit := fe.Whole("limit", v.Get("limit"), 1, MaxLimit, DefaultLimit)
	if err := fe.Err(); err != nil {
		return err
	}
	d, err := s.Collection(r.Context(), r.PathValue("slug"), after, limit)
	return httpx.Reply(w, http.StatusOK, d, apiError(err))
}

// ListPlaces answers GET /api/research/places: the places named like q, or those
// under parent.
func (s *Service) ListPlaces(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	if q := strings.TrimSpace(v.Get("q")); q != "" {
		if len(q) > search.MaxQueryText {
			return httpx.Invalid("q", "The place may be at most 200 characters.")
		}
		ps, err := s.PlacesNamed(r.Context(), q, 20)
		return httpx.Reply(w, http.StatusOK, map[string]any{"data": ps}, apiError(err))
	}
	var parent int64
	if p := v.Get("parent"); p != "" {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 {
			return httpx.Invalid("parent", "The parent must be a place id.")
		}
		parent = n
	}
	ps, err := s.Places(r.Context(), parent)
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": ps}, apiError(err))
}

// GetGlobal answers GET /api/search, the global search.
func (s *Service) GetGlobal(w http.ResponseWriter, r *http.Request) error {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if q == "" {
		return httpx.Invalid("q", "Enter something to search for.")
	}
	if len(q) > search.MaxQueryText {
		return httpx.Invalid("q", "The search may be at most 200 characters.")
	}
	res, err := s.Global(r.Context(), q, s.scope(r))
	return httpx.Reply(w, http.StatusOK, res, apiError(err))
}

// Vocabulary is the answer of GET /api/research/vocabulary: the words the API takes
// and gives, each list in its Go order, so that the web app's copies are checked
// against them.
type Vocabulary struct {
	SurnameModes []string `json:"surname_modes"` // names.SurnameModes
	RecordKinds  []string `json:"record_kinds"`  // collection kinds (Kinds)
	AccessLevels []string `json:"access_levels"` // internal/access's fixed words; scopes are not listed
}

// vocabulary is what GetVocabulary answers.
var vocabulary = Vocabulary{
	SurnameModes: names.SurnameModes,
	RecordKinds:  Kinds,
	AccessLevels: []string{access.Public, access.Registered, access.Members},
}

// GetVocabulary answers GET /api/research/vocabulary.
func (s *Service) GetVocabulary(w http.ResponseWriter, r *http.Request) error {
	httpx.JSON(w, http.StatusOK, vocabulary)
	return nil
}
