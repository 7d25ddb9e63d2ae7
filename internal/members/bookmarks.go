package members

import (
	"context"
	"net/http"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// Bookmark is a page of the site a member marked.
type Bookmark struct {
	ID        int64     `json:"id"`
	URL       string    `json:"url"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"created_at"`
}

func scanBookmark(r store.Row) (Bookmark, error) {
	var b Bookmark
	var c int64
	err := r.Scan(&b.ID, &b.URL, &b.Title, &c)
	b.CreatedAt = store.Time(c)
	return b, err
}

// bookmarks lists a user's bookmarks, newest first; url filters to one page.
func (s *Service) bookmarks(ctx context.Context, uid int64, url string) ([]Bookmark, error) {
	q, args := `SELECT id, url, title, created_at FROM bookmarks WHERE user_id = ?`, []any{uid}
	if url != "" {
		q += ` AND url = ?`
		args = append(args, url)
	}
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(q+` ORDER BY created_at DESC, id DESC`), args...)
	return store.Collect(rs, err, scanBookmark)
}

// ListBookmarks serves GET /api/bookmarks[?url=/news/x] → {"data": [bookmark…]}
func (s *Service) ListBookmarks(w http.ResponseWriter, r *http.Request, uid int64) error {
	bm, err := s.bookmarks(r.Context(), uid, r.URL.Query().Get("url"))
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": bm}, err)
}

// page is a page of the site a member keeps (a bookmark, a reading list's item).
type page struct{ URL, Title string }

// decodePage reads a page to keep, {url, title}: a path of this site and a title of
// one line, the path when none is given.
func decodePage(w http.ResponseWriter, r *http.Request) (page, error) {
	var in page
	if err := decodeJSON(w, r, &in); err != nil {
		return in, err
	}
	if !localPath(in.URL) {
		return in, invalid("url", "The url must be a path of this site, such as /news/annual-meeting.")
	}
	title, err := cleanText("title", in.Title, maxTitleLen, false)
	if err != nil {
		return in, err
	}
	if in.Title = title; title == "" {
		in.Title = in.URL
	}
	return in, nil
}

// AddBookmark serves POST /api/bookmarks {url, title} → 201 bookmark, or 200 with the existing one.
func (s *Service) AddBookmark(w http.ResponseWriter, r *http.Request, uid int64) error {
	in, err := decodePage(w, r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if existing, err := s.bookmarks(ctx, uid, in.URL); err != nil {
		return err
	} else if len(existing) > 0 {
		httpx.JSON(w, http.StatusOK, existing[0])
		return nil
	}
	if err := s.underLimit(ctx, MaxBookmarks, "url", "You have reached the limit of %d bookmarks. Remove some to add more.",
		`SELECT COUNT(*) FROM bookmarks WHERE user_id = ?`, uid); err != nil {
		return err
	}
	b := Bookmark{URL: in.URL, Title: in.Title, CreatedAt: store.Time(s.Now().Unix())}
	err = s.db.QueryRowContext(ctx, s.db.Rebind(
		`INSERT INTO bookmarks (user_id, url, title, created_at) VALUES (?, ?, ?, ?) RETURNING id`),
		uid, b.URL, b.Title, b.CreatedAt.Unix()).Scan(&b.ID)
	if err != nil {
		// A double click races two inserts; the loser answers with the winner's row.
		if existing, e2 := s.bookmarks(ctx, uid, in.URL); e2 == nil && len(existing) > 0 {
			httpx.JSON(w, http.StatusOK, existing[0])
			return nil
		}
		return err
	}
	httpx.JSON(w, http.StatusCreated, b)
	return nil
}

// DeleteBookmark serves DELETE /api/bookmarks/{id} → 204
func (s *Service) DeleteBookmark(w http.ResponseWriter, r *http.Request, uid int64) error {
	return s.deleteOwned(w, r, uid, `DELETE FROM bookmarks WHERE id = ? AND user_id = ?`)
}
