package research

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"lineage/internal/httpx"
	"lineage/internal/research/search"
)

// Patterns are the front-door ServeMux patterns that Handler serves.
var Patterns = []string{"/api/research/", "/api/search"}

func (s *Service) routes() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/research/search", s.handleSearch)
	mux.HandleFunc("GET /api/research/count", s.handleCount)
	mux.HandleFunc("GET /api/research/records/{id}", s.handleRecord)
	mux.HandleFunc("GET /api/research/collections", s.handleCollections)
	mux.HandleFunc("GET /api/research/collections/{slug}", s.handleCollection)
	mux.HandleFunc("GET /api/research/places", s.handlePlaces)
	mux.HandleFunc("GET /api/search", s.handleGlobal)
	s.mux = mux
}

// Handler serves the JSON API. Wrap it in auth's middleware so that Membership can
// see who is signed in.
func (s *Service) Handler() http.Handler {
	// No route: answer in JSON; 405 with Allow when the path takes other methods.
	return httpx.NoRoute(s.mux,
		func(w http.ResponseWriter, r *http.Request) {
			httpx.JSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
		},
		func(w http.ResponseWriter, r *http.Request) {
			httpx.JSON(w, http.StatusMethodNotAllowed, map[string]any{"message": "The " + r.Method + " method is not supported for this URL."})
		})
}

// scope is the requester's scope, asked once per request.
func (s *Service) scope(r *http.Request) []string {
	if s.members == nil {
		return nil
	}
	return s.members.Scope(r)
}

// writeInvalid answers 422 in the Laravel shape the rest of the API uses.
func writeInvalid(w http.ResponseWriter, errs FieldErrors) {
	msg := search.FirstMessage(errs)
	n := 0
	for _, v := range errs {
		n += len(v)
	}
	if n > 1 {
		msg += " (and " + strconv.Itoa(n-1) + " more error" + map[bool]string{true: "", false: "s"}[n == 2] + ")"
	}
	httpx.JSON(w, http.StatusUnprocessableEntity, map[string]any{"message": msg, "errors": errs})
}

// writeErr maps the room's errors to statuses, in one place.
func (s *Service) writeErr(w http.ResponseWriter, r *http.Request, err error) {
	var ep *search.InvalidQuery
	var tb *ErrTooBroad
	switch {
	case errors.Is(err, ErrNotFound):
		httpx.JSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
	case errors.Is(err, ErrBadCursor):
		writeInvalid(w, FieldErrors{"after": {"This page link has expired: run the search again."}})
	case errors.As(err, &ep):
		writeInvalid(w, ep.Fields)
	case errors.As(err, &tb):
		writeInvalid(w, FieldErrors{"query": {tb.Message}})
	case errors.Is(err, context.Canceled):
		// The client went away.
	default:
		s.log.Error("research: request failed", "method", r.Method, "path", r.URL.Path, "query", r.URL.RawQuery, "err", err)
		httpx.JSON(w, http.StatusInternalServerError, map[string]any{"message": "Server Error"})
	}
}

func (s *Service) handleSearch(w http.ResponseWriter, r *http.Request) {
	q, errs := ParseQuery(r.URL.Query())
	if errs != nil {
		writeInvalid(w, errs)
		return
	}
	res, err := s.Search(r.Context(), q, s.scope(r))
	if err != nil {
		s.writeErr(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, res)
}

func (s *Service) handleCount(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	v.Del("after")
	q, errs := ParseQuery(v)
	if errs != nil {
		writeInvalid(w, errs)
		return
	}
	total, exact, err := s.Count(r.Context(), q, s.scope(r))
	if err != nil {
		s.writeErr(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"total": total, "total_exact": exact})
}

func (s *Service) handleRecord(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		s.writeErr(w, r, ErrNotFound)
		return
	}
	d, err := s.Record(r.Context(), id, s.scope(r))
	if err != nil {
		s.writeErr(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, d)
}

func (s *Service) handleCollections(w http.ResponseWriter, r *http.Request) {
	all, err := s.Collections(r.Context())
	if err != nil {
		s.writeErr(w, r, err)
		return
	}
	kind := r.URL.Query().Get("kind")
	out := []*Collection{}
	for _, c := range all {
		if kind == "" || c.Kind == kind {
			out = append(out, c)
		}
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"data": out})
}

func (s *Service) handleCollection(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	var after int64
	limit := DefaultLimit
	errs := FieldErrors{}
	if a := v.Get("after"); a != "" {
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil || n < 0 {
			errs.Add("after", "This page link has expired: open the collection again.")
		}
		after = n
	}
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > MaxLimit {
			errs.Add("limit", "The limit must be a whole number from 1 to %d.", MaxLimit)
		}
		limit = n
	}
	if len(errs) > 0 {
		writeInvalid(w, errs)
		return
	}
	d, err := s.Collection(r.Context(), r.PathValue("slug"), after, limit)
	if err != nil {
		s.writeErr(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, d)
}

func (s *Service) handlePlaces(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	if q := strings.TrimSpace(v.Get("q")); q != "" {
		if len(q) > search.MaxQueryText {
			writeInvalid(w, FieldErrors{"q": {"The place may be at most 200 characters."}})
			return
		}
		ps, err := s.PlacesNamed(r.Context(), q, 20)
		if err != nil {
			s.writeErr(w, r, err)
			return
		}
		httpx.JSON(w, http.StatusOK, map[string]any{"data": ps})
		return
	}
	var parent int64
	if p := v.Get("parent"); p != "" {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 {
			writeInvalid(w, FieldErrors{"parent": {"The parent must be a place id."}})
			return
		}
		parent = n
	}
	ps, err := s.Places(r.Context(), parent)
	if err != nil {
		s.writeErr(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"data": ps})
}

func (s *Service) handleGlobal(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if q == "" {
		writeInvalid(w, FieldErrors{"q": {"Enter something to search for."}})
		return
	}
	if len(q) > search.MaxQueryText {
		writeInvalid(w, FieldErrors{"q": {"The search may be at most 200 characters."}})
		return
	}
	res, err := s.Global(r.Context(), q, s.scope(r))
	if err != nil {
		s.writeErr(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, res)
}
