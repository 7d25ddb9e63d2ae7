package members

import (
	"context"
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

// Service is the members room.
type Service struct {
	db    *store.DB
	users CurrentUser
	log   *slog.Logger
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// New builds the room on an open store.
func New(db *store.DB, users CurrentUser, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	s := &Service{db: db, users: users, log: log, Now: time.Now}
	return s
}

// SignedIn makes fn a handler for the signed-in user only: the room is each account's
// own, so every route of it is SignedIn and anonymous callers get a 401.
func (s *Service) SignedIn(fn func(w http.ResponseWriter, r *http.Request, uid int64) error) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		uid, ok := s.users.UserID(r)
		if !ok {
			return httpx.ErrUnauthenticated
		}
		return fn(w, r, uid)
	}
}

// underLimit refuses, as a field error whose format takes limit, one more row when
// the rows that q counts (a COUNT(*) of the member's, one argument) are limit already.
func (s *Service) underLimit(ctx context.Context, limit int, field, format, q string, arg int64) error {
	var n int
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(q), arg).Scan(&n); err != nil {
		return err
	}
	if n >= limit {
		return invalid(field, format, limit)
	}
	return nil
}

// execOwned runs a statement that must touch one row of the user; none is 404.
func (s *Service) execOwned(ctx context.Context, q string, args ...any) error {
	res, err := s.db.ExecContext(ctx, s.db.Rebind(q), args...)
	return store.Changed(res, err, errNotFound)
}

// deleteOwned answers a DELETE of the user's row that the path's id names with del
// (its arguments: the id, the user): 204, or 404 when the user has no such row.
func (s *Service) deleteOwned(w http.ResponseWriter, r *http.Request, uid int64, del string) error {
	id, err := httpx.PathID(r, "id")
	if err == nil {
		err = s.execOwned(r.Context(), del, id, uid)
	}
	return httpx.NoContent(w, err)
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
