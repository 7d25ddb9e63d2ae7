package members

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// ReadingList is a named, ordered list of pages.
type ReadingList struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	ItemCount int        `json:"item_count"`
	Items     []ListItem `json:"items,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
}

// ListItem is one page in a reading list; items are returned in position order.
type ListItem struct {
	ID        int64     `json:"id"`
	URL       string    `json:"url"`
	Title     string    `json:"title"`
	Position  int       `json:"position"`
	CreatedAt time.Time `json:"created_at"`
}

const listColumns = `l.id, l.name, (SELECT COUNT(*) FROM reading_list_items i WHERE i.list_id = l.id), l.created_at, l.updated_at`

func scanList(r store.Row) (ReadingList, error) {
	var l ReadingList
	var c, u int64
	err := r.Scan(&l.ID, &l.Name, &l.ItemCount, &c, &u)
	l.CreatedAt, l.UpdatedAt = store.Time(c), store.Time(u)
	return l, err
}

func scanItem(r store.Row) (ListItem, error) {
	var it ListItem
	var c int64
	err := r.Scan(&it.ID, &it.URL, &it.Title, &it.Position, &c)
	it.CreatedAt = store.Time(c)
	return it, err
}

func (s *Service) readingLists(ctx context.Context, uid int64) ([]ReadingList, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(
		`SELECT `+listColumns+` FROM reading_lists l WHERE l.user_id = ? ORDER BY l.updated_at DESC, l.id DESC`), uid)
	return store.Collect(rs, err, scanList)
}

// readingList returns the user's list with its items, or errNotFound.
func (s *Service) readingList(ctx context.Context, uid, id int64) (*ReadingList, error) {
	l, err := scanList(s.db.QueryRowContext(ctx, s.db.Rebind(
		`SELECT `+listColumns+` FROM reading_lists l WHERE l.id = ? AND l.user_id = ?`), id, uid))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	if l.Items, err = s.listItems(ctx, id); err != nil {
		return nil, err
	}
	return &l, nil
}

func (s *Service) listItems(ctx context.Context, listID int64) ([]ListItem, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(
		`SELECT id, url, title, position, created_at FROM reading_list_items WHERE list_id = ? ORDER BY position, id`), listID)
	return store.Collect(rs, err, scanItem)
}

// ListReadingLists serves GET /api/reading-lists → {"data": [list without items…]}
func (s *Service) ListReadingLists(w http.ResponseWriter, r *http.Request, uid int64) error {
	lists, err := s.readingLists(r.Context(), uid)
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": lists}, err)
}

// decodeListName reads a reading list's name, {name}: one line, required.
func decodeListName(w http.ResponseWriter, r *http.Request) (string, error) {
	var in struct{ Name string }
	if err := decodeJSON(w, r, &in); err != nil {
		return "", err
	}
	return cleanText("name", in.Name, maxNameLen, true)
}

// CreateReadingList serves POST /api/reading-lists {name} → 201 list
func (s *Service) CreateReadingList(w http.ResponseWriter, r *http.Request, uid int64) error {
	name, err := decodeListName(w, r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.underLimit(ctx, MaxReadingLists, "name", "You have reached the limit of %d reading lists.",
		`SELECT COUNT(*) FROM reading_lists WHERE user_id = ?`, uid); err != nil {
		return err
	}
	now := s.Now().Unix()
	var id int64
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(
		`INSERT INTO reading_lists (user_id, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id`),
		uid, name, now, now).Scan(&id); err != nil {
		return err
	}
	return s.answerList(w, ctx, http.StatusCreated, uid, id)
}

// answerList answers the user's reading list with its items.
func (s *Service) answerList(w http.ResponseWriter, ctx context.Context, status int, uid, id int64) error {
	l, err := s.readingList(ctx, uid, id)
	if err != nil {
		return err
	}
	httpx.JSON(w, status, listWithItems(l))
	return nil
}

// listWithItems makes "items" appear even when empty.
func listWithItems(l *ReadingList) any {
	type full struct {
		ReadingList
		Items []ListItem `json:"items"`
	}
	items := l.Items
	if items == nil {
		items = []ListItem{}
	}
	return full{ReadingList: *l, Items: items}
}

// GetReadingList serves GET /api/reading-lists/{id} → list with items
func (s *Service) GetReadingList(w http.ResponseWriter, r *http.Request, uid int64) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	return s.answerList(w, r.Context(), http.StatusOK, uid, id)
}

// RenameReadingList serves PATCH /api/reading-lists/{id} {name} → list
func (s *Service) RenameReadingList(w http.ResponseWriter, r *http.Request, uid int64) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	name, err := decodeListName(w, r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.execOwned(ctx, `UPDATE reading_lists SET name = ?, updated_at = ? WHERE id = ? AND user_id = ?`,
		name, s.Now().Unix(), id, uid); err != nil {
		return err
	}
	return s.answerList(w, ctx, http.StatusOK, uid, id)
}

// DeleteReadingList serves DELETE /api/reading-lists/{id} → 204
func (s *Service) DeleteReadingList(w http.ResponseWriter, r *http.Request, uid int64) error {
	return s.deleteOwned(w, r, uid, `DELETE FROM reading_lists WHERE id = ? AND user_id = ?`)
}

// touchList marks a list changed; it fails with errNotFound for another user's list.
func (s *Service) touchList(ctx context.Context, uid, id int64) error {
	return s.execOwned(ctx, `UPDATE reading_lists SET updated_at = ? WHERE id = ? AND user_id = ?`, s.Now().Unix(), id, uid)
}

// AddListItem serves POST /api/reading-lists/{id}/items {url, title} → 201 item appended at the end, or
// 200 with the item when the page is already in the list.
func (s *Service) AddListItem(w http.ResponseWriter, r *http.Request, uid int64) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	in, err := decodePage(w, r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.touchList(ctx, uid, id); err != nil {
		return err
	}
	existing, err := scanItem(s.db.QueryRowContext(ctx, s.db.Rebind(
		`SELECT id, url, title, position, created_at FROM reading_list_items WHERE list_id = ? AND url = ?`), id, in.URL))
	if err == nil {
		httpx.JSON(w, http.StatusOK, existing)
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if err := s.underLimit(ctx, MaxListItems, "url", "A reading list holds at most %d items.",
		`SELECT COUNT(*) FROM reading_list_items WHERE list_id = ?`, id); err != nil {
		return err
	}
	it := ListItem{URL: in.URL, Title: in.Title, CreatedAt: store.Time(s.Now().Unix())}
	err = s.db.QueryRowContext(ctx, s.db.Rebind(
		`INSERT INTO reading_list_items (list_id, position, url, title, created_at)
		 VALUES (?, (SELECT COALESCE(MAX(position), -1) + 1 FROM reading_list_items WHERE list_id = ?), ?, ?, ?)
		 RETURNING id, position`),
		id, id, it.URL, it.Title, it.CreatedAt.Unix()).Scan(&it.ID, &it.Position)
	return httpx.Reply(w, http.StatusCreated, it, err)
}

// RemoveListItem serves DELETE /api/reading-lists/{id}/items/{item} → 204
func (s *Service) RemoveListItem(w http.ResponseWriter, r *http.Request, uid int64) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	item, err := httpx.PathID(r, "item")
	if err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.touchList(ctx, uid, id); err != nil {
		return err
	}
	return httpx.NoContent(w, s.execOwned(ctx, `DELETE FROM reading_list_items WHERE id = ? AND list_id = ?`, item, id))
}

// ReorderList serves PUT /api/reading-lists/{id}/order {"item_ids": [3, 1, 2]} → list. The ids must be
// exactly the list's items, in the new order.
func (s *Service) ReorderList(w http.ResponseWriter, r *http.Request, uid int64) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		ItemIDs []int64 `json:"item_ids"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	ctx := r.Context()
	l, err := s.readingList(ctx, uid, id)
	if err != nil {
		return err
	}
	have := map[int64]bool{}
	for _, it := range l.Items {
		have[it.ID] = true
	}
	seen := map[int64]bool{}
	for _, x := range in.ItemIDs {
		if !have[x] || seen[x] {
			return invalid("item_ids", "The item_ids must list every item of the list exactly once.")
		}
		seen[x] = true
	}
	if len(seen) != len(have) {
		return invalid("item_ids", "The item_ids must list every item of the list exactly once.")
	}
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		for pos, x := range in.ItemIDs {
			if _, err := tx.ExecContext(ctx, s.db.Rebind(
				`UPDATE reading_list_items SET position = ? WHERE id = ? AND list_id = ?`), pos, x, id); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE reading_lists SET updated_at = ? WHERE id = ?`), s.Now().Unix(), id)
		return err
	})
	if err != nil {
		return err
	}
	return s.answerList(w, ctx, http.StatusOK, uid, id)
}
