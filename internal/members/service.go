package members

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// CurrentUser tells who is signed in on a request (auth.Service implements it; the
// request must have passed auth's middleware).
type CurrentUser interface {
	UserID(r *http.Request) (int64, bool)
}

// Limits per member, so that one account cannot fill the database.
const (
	MaxBookmarks     = 5000
	MaxReadingLists  = 200
	MaxListItems     = 1000
	MaxSavedSearches = 200
	MaxHistory       = 200 // older entries are dropped as new ones arrive
)

// Patterns are the front-door ServeMux patterns that Handler serves.
var Patterns = []string{
	"/api/bookmarks", "/api/bookmarks/",
	"/api/reading-lists", "/api/reading-lists/",
	"/api/saved-searches", "/api/saved-searches/",
	"/api/search-history", "/api/search-history/",
}

// Service is the members room.
type Service struct {
	db    *store.DB
	users CurrentUser
	log   *slog.Logger
	mux   *http.ServeMux
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// New builds the room on an open store.
func New(db *store.DB, users CurrentUser, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	s := &Service{db: db, users: users, log: log, Now: time.Now}
	s.routes()
	return s
}

// Handler serves the JSON API; wrap it in auth's middleware.
func (s *Service) Handler() http.Handler {
	// No route: answer in JSON, 405 (with Allow) when the path takes other methods.
	return httpx.NoRoute(s.mux,
		func(w http.ResponseWriter, r *http.Request) { writeError(w, r, s.log, errNotFound) },
		func(w http.ResponseWriter, r *http.Request) {
			writeError(w, r, s.log, &Error{Code: EMETHOD, Message: "The " + r.Method + " method is not supported for this URL."})
		})
}

func (s *Service) routes() {
	m := http.NewServeMux()
	h := func(pattern string, fn func(w http.ResponseWriter, r *http.Request, uid int64) error) {
		m.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			uid, ok := s.users.UserID(r)
			if !ok {
				writeError(w, r, s.log, &Error{Code: EUNAUTHORIZED, Message: "Unauthenticated."})
				return
			}
			if err := fn(w, r, uid); err != nil {
				writeError(w, r, s.log, err)
			}
		})
	}
	h("GET /api/bookmarks", s.listBookmarks)
	h("POST /api/bookmarks", s.addBookmark)
	h("DELETE /api/bookmarks/{id}", s.deleteBookmark)

	h("GET /api/reading-lists", s.listReadingLists)
	h("POST /api/reading-lists", s.createReadingList)
	h("GET /api/reading-lists/{id}", s.getReadingList)
	h("PATCH /api/reading-lists/{id}", s.renameReadingList)
	h("DELETE /api/reading-lists/{id}", s.deleteReadingList)
	h("POST /api/reading-lists/{id}/items", s.addListItem)
	h("DELETE /api/reading-lists/{id}/items/{item}", s.removeListItem)
	h("PUT /api/reading-lists/{id}/order", s.reorderList)

	h("GET /api/saved-searches", s.listSavedSearches)
	h("POST /api/saved-searches", s.createSavedSearch)
	h("GET /api/saved-searches/{id}", s.getSavedSearch)
	h("PATCH /api/saved-searches/{id}", s.updateSavedSearch)
	h("DELETE /api/saved-searches/{id}", s.deleteSavedSearch)

	h("GET /api/search-history", s.listHistory)
	h("POST /api/search-history", s.recordHistory)
	h("DELETE /api/search-history", s.clearHistory)
	h("DELETE /api/search-history/{id}", s.deleteHistoryEntry)
	s.mux = m
}

func ts(n int64) time.Time { return time.Unix(n, 0).UTC() }

func (s *Service) count(ctx context.Context, q string, args ...any) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.db.Rebind(q), args...).Scan(&n)
	return n, err
}

// execOwned runs a statement that must touch one row of the user; none is 404.
func (s *Service) execOwned(ctx context.Context, q string, args ...any) error {
	res, err := s.db.ExecContext(ctx, s.db.Rebind(q), args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotFound
	}
	return nil
}

// rows is one result row, from *sql.Row or *sql.Rows.
type rows interface {
	Scan(...any) error
}

// collect scans every row with scan and closes rows.
func collect[T any](rs *sql.Rows, err error, scan func(rows) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	out := []T{}
	for rs.Next() {
		v, err := scan(rs)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rs.Err()
}

func noContent(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// ExportUserData is this room's part of "download my data" (auth.Exporter).
func (s *Service) ExportUserData(ctx context.Context, userID int64) (map[string]any, error) {
	bm, err := s.bookmarks(ctx, userID, "")
	if err != nil {
		return nil, err
	}
	lists, err := s.readingLists(ctx, userID)
	if err != nil {
		return nil, err
	}
	for i := range lists {
		if lists[i].Items, err = s.listItems(ctx, lists[i].ID); err != nil {
			return nil, err
		}
	}
	ss, err := s.savedSearches(ctx, userID)
	if err != nil {
		return nil, err
	}
	hist, err := s.history(ctx, userID, MaxHistory)
	if err != nil {
		return nil, err
	}
	return map[string]any{"bookmarks": bm, "reading_lists": lists, "saved_searches": ss, "search_history": hist}, nil
}
