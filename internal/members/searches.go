package members

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// SavedSearch is a named search a member can run again: URL is where to go to run it.
type SavedSearch struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Path      string    `json:"path"`
	Params    Params    `json:"params"`
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// HistoryEntry is one search a signed-in member ran.
type HistoryEntry struct {
	ID        int64     `json:"id"`
	Path      string    `json:"path"`
	Params    Params    `json:"params"`
	URL       string    `json:"url"`
	Summary   string    `json:"summary"`
	CreatedAt time.Time `json:"created_at"`
}

func scanSaved(r store.Row) (SavedSearch, error) {
	var x SavedSearch
	var params string
	var c, u int64
	if err := r.Scan(&x.ID, &x.Name, &x.Path, &params, &c, &u); err != nil {
		return x, err
	}
	if err := json.Unmarshal([]byte(params), &x.Params); err != nil {
		return x, err
	}
	x.URL = runURL(x.Path, x.Params)
	x.CreatedAt, x.UpdatedAt = store.Time(c), store.Time(u)
	return x, nil
}

func scanHistory(r store.Row) (HistoryEntry, error) {
	var x HistoryEntry
	var params string
	var c int64
	if err := r.Scan(&x.ID, &x.Path, &params, &x.Summary, &c); err != nil {
		return x, err
	}
	if err := json.Unmarshal([]byte(params), &x.Params); err != nil {
		return x, err
	}
	x.URL = runURL(x.Path, x.Params)
	x.CreatedAt = store.Time(c)
	return x, nil
}

const savedColumns = `id, name, path, params, created_at, updated_at`

func (s *Service) savedSearches(ctx context.Context, uid int64) ([]SavedSearch, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(
		`SELECT `+savedColumns+` FROM saved_searches WHERE user_id = ? ORDER BY updated_at DESC, id DESC`), uid)
	return store.Collect(rs, err, scanSaved)
}

func (s *Service) savedSearch(ctx context.Context, uid, id int64) (*SavedSearch, error) {
	x, err := scanSaved(s.db.QueryRowContext(ctx, s.db.Rebind(
		`SELECT `+savedColumns+` FROM saved_searches WHERE id = ? AND user_id = ?`), id, uid))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	return &x, nil
}

func paramsJSON(p Params) string {
	if p == nil {
		p = Params{}
	}
	b, _ := json.Marshal(p)
	return string(b)
}

// ListSavedSearches serves GET /api/saved-searches → {"data": [saved search…]}
func (s *Service) ListSavedSearches(w http.ResponseWriter, r *http.Request, uid int64) error {
	ss, err := s.savedSearches(r.Context(), uid)
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": ss}, err)
}

// CreateSavedSearch serves POST /api/saved-searches {name, path, params} → 201 saved search
func (s *Service) CreateSavedSearch(w http.ResponseWriter, r *http.Request, uid int64) error {
	var in struct {
		Name   string
		Path   string
		Params Params
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	name, err := cleanText("name", in.Name, maxNameLen, true)
	if err != nil {
		return err
	}
	path, err := checkSearch(in.Path, in.Params)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.underLimit(ctx, MaxSavedSearches, "name", "You have reached the limit of %d saved searches.",
		`SELECT COUNT(*) FROM saved_searches WHERE user_id = ?`, uid); err != nil {
		return err
	}
	now := s.Now().Unix()
	var id int64
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(
		`INSERT INTO saved_searches (user_id, name, path, params, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`),
		uid, name, path, paramsJSON(in.Params), now, now).Scan(&id); err != nil {
		return err
	}
	x, err := s.savedSearch(ctx, uid, id)
	return httpx.Reply(w, http.StatusCreated, x, err)
}

// GetSavedSearch serves GET /api/saved-searches/{id} → saved search (its url runs it)
func (s *Service) GetSavedSearch(w http.ResponseWriter, r *http.Request, uid int64) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	x, err := s.savedSearch(r.Context(), uid, id)
	return httpx.Reply(w, http.StatusOK, x, err)
}

// UpdateSavedSearch serves PATCH /api/saved-searches/{id} {name?, path?, params?} → saved search
func (s *Service) UpdateSavedSearch(w http.ResponseWriter, r *http.Request, uid int64) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		Name   *string
		Path   *string
		Params *Params
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	ctx := r.Context()
	x, err := s.savedSearch(ctx, uid, id)
	if err != nil {
		return err
	}
	if in.Name != nil {
		if x.Name, err = cleanText("name", *in.Name, maxNameLen, true); err != nil {
			return err
		}
	}
	if in.Path != nil {
		if x.Path, err = searchPath(*in.Path); err != nil {
			return err
		}
	}
	if in.Params != nil {
		if err := in.Params.validate(); err != nil {
			return err
		}
		x.Params = *in.Params
	}
	if err := s.execOwned(ctx, `UPDATE saved_searches SET name = ?, path = ?, params = ?, updated_at = ? WHERE id = ? AND user_id = ?`,
		x.Name, x.Path, paramsJSON(x.Params), s.Now().Unix(), id, uid); err != nil {
		return err
	}
	x, err = s.savedSearch(ctx, uid, id)
	return httpx.Reply(w, http.StatusOK, x, err)
}

// DeleteSavedSearch serves DELETE /api/saved-searches/{id} → 204
func (s *Service) DeleteSavedSearch(w http.ResponseWriter, r *http.Request, uid int64) error {
	return s.deleteOwned(w, r, uid, `DELETE FROM saved_searches WHERE id = ? AND user_id = ?`)
}

func (s *Service) history(ctx context.Context, uid int64, limit int) ([]HistoryEntry, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(
		`SELECT id, path, params, summary, created_at FROM search_history WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`), uid, limit)
	return store.Collect(rs, err, scanHistory)
}

// RecordSearch adds a search to a member's history, newest first and at most
// MaxHistory long. Running the same search again moves it to the top instead of
// repeating it. The research room may call it directly when it runs a search.
func (s *Service) RecordSearch(ctx context.Context, uid int64, path string, params Params, summary string) (*HistoryEntry, error) {
	pj := paramsJSON(params)
	now := s.Now().Unix()
	var id int64
	err := s.db.InTx(ctx, func(tx *sql.Tx) error {
		var lastID int64
		var lastPath, lastParams string
		err := tx.QueryRowContext(ctx, s.db.Rebind(
			`SELECT id, path, params FROM search_history WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT 1`), uid).
			Scan(&lastID, &lastPath, &lastParams)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil && lastPath == path && lastParams == pj {
			id = lastID
			_, err = tx.ExecContext(ctx, s.db.Rebind(`UPDATE search_history SET created_at = ?, summary = ? WHERE id = ?`), now, summary, id)
			return err
		}
		if err := tx.QueryRowContext(ctx, s.db.Rebind(
			`INSERT INTO search_history (user_id, path, params, summary, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`),
			uid, path, pj, summary, now).Scan(&id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, s.db.Rebind(
			`DELETE FROM search_history WHERE user_id = ? AND id NOT IN
			   (SELECT id FROM search_history WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`), uid, uid, MaxHistory)
		return err
	})
	if err != nil {
		return nil, err
	}
	x, err := scanHistory(s.db.QueryRowContext(ctx, s.db.Rebind(
		`SELECT id, path, params, summary, created_at FROM search_history WHERE id = ?`), id))
	if err != nil {
		return nil, err
	}
	return &x, nil
}

// ListHistory serves GET /api/search-history → {"data": [entry…]} newest first, at most 200
func (s *Service) ListHistory(w http.ResponseWriter, r *http.Request, uid int64) error {
	h, err := s.history(r.Context(), uid, MaxHistory)
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": h}, err)
}

// RecordHistory serves POST /api/search-history {path, params, summary?} → 201 entry
func (s *Service) RecordHistory(w http.ResponseWriter, r *http.Request, uid int64) error {
	var in struct {
		Path    string
		Params  Params
		Summary string
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	path, err := checkSearch(in.Path, in.Params)
	if err != nil {
		return err
	}
	summary, err := cleanText("summary", in.Summary, maxTitleLen, false)
	if err != nil {
		return err
	}
	x, err := s.RecordSearch(r.Context(), uid, path, in.Params, summary)
	return httpx.Reply(w, http.StatusCreated, x, err)
}

// ClearHistory serves DELETE /api/search-history → 204, the whole history cleared
func (s *Service) ClearHistory(w http.ResponseWriter, r *http.Request, uid int64) error {
	_, err := s.db.ExecContext(r.Context(), s.db.Rebind(`DELETE FROM search_history WHERE user_id = ?`), uid)
	return httpx.NoContent(w, err)
}

// DeleteHistoryEntry serves DELETE /api/search-history/{id} → 204
func (s *Service) DeleteHistoryEntry(w http.ResponseWriter, r *http.Request, uid int64) error {
	return s.deleteOwned(w, r, uid, `DELETE FROM search_history WHERE id = ? AND user_id = ?`)
}
