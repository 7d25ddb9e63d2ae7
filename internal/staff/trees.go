package staff

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"lineage/internal/auth"
	"lineage/internal/httpx"
	"lineage/internal/trees"
)

// QueueTree is a tree as the review queue shows it: the trees room's answer, with its
// living people and the warnings of its upload.
type QueueTree struct {
	*trees.Tree
	Living       int64    `json:"living"`
	WarningCount *int     `json:"warning_count"` // null: uploaded elsewhere, not known
	Warnings     []string `json:"warnings"`
}

// queue lists the trees in state (waiting, published, all) with what review needs.
func (s *Service) queue(ctx context.Context, state string) ([]QueueTree, map[string]int, error) {
	all, err := s.opt.Trees.Trees(ctx)
	if err != nil {
		return nil, nil, err
	}
	counts := map[string]int{"waiting": 0, "published": 0}
	var picked []*trees.Tree
	for _, t := range all {
		if t.Published {
			counts["published"]++
		} else {
			counts["waiting"]++
		}
		if state == "all" || (state == "published") == t.Published {
			picked = append(picked, t)
		}
	}
	out := make([]QueueTree, 0, len(picked))
	for _, t := range picked {
		q, err := s.queueTree(ctx, t)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, q)
	}
	return out, counts, nil
}

func (s *Service) queueTree(ctx context.Context, t *trees.Tree) (QueueTree, error) {
	q := QueueTree{Tree: t, Warnings: []string{}}
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM tree_people WHERE tree_id = ? AND living = 1`), t.ID).Scan(&q.Living); err != nil {
		return q, err
	}
	var n int
	var ws string
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT warning_count, warnings FROM staff_tree_warnings WHERE tree_id = ?`), t.ID).Scan(&n, &ws)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return q, err
	default:
		q.WarningCount = &n
		if err := json.Unmarshal([]byte(ws), &q.Warnings); err != nil {
			return q, err
		}
	}
	return q, nil
}

// ListTreeQueue is GET /api/studio/trees?state=waiting|published|all.
func (s *Service) ListTreeQueue(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	if s.opt.Trees == nil {
		return unavailable("family trees")
	}
	state := r.URL.Query().Get("state")
	switch state {
	case "":
		state = "waiting"
	case "waiting", "published", "all":
	default:
		return httpx.Invalid("state", "The state must be waiting, published or all.")
	}
	list, counts, err := s.queue(r.Context(), state)
	return httpx.Reply(w, http.StatusOK, map[string]any{"trees": list, "counts": counts}, err)
}

func (s *Service) treeBySlug(ctx context.Context, slug string) (*trees.Tree, error) {
	t, err := s.opt.Trees.Tree(ctx, slug)
	if errors.Is(err, trees.ErrNotFound) {
		return nil, errNotFound
	}
	return t, err
}

// PostTreePublish is POST /api/studio/trees/{slug}/publish.
func (s *Service) PostTreePublish(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	return s.setTreePublished(w, r, me, true)
}

// PostTreeUnpublish is POST /api/studio/trees/{slug}/unpublish.
func (s *Service) PostTreeUnpublish(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	return s.setTreePublished(w, r, me, false)
}

func (s *Service) setTreePublished(w http.ResponseWriter, r *http.Request, me *auth.User, publish bool) error {
	if s.opt.Trees == nil {
		return unavailable("family trees")
	}
	slug := r.PathValue("slug")
	t, err := s.treeBySlug(r.Context(), slug)
	if err != nil {
		return err
	}
	was := t.Published
	if err := s.opt.Trees.SetPublished(r.Context(), slug, publish); err != nil {
		if errors.Is(err, trees.ErrNotFound) {
			return errNotFound
		}
		return err
	}
	action := ActionTreeUnpublish
	if publish {
		action = ActionTreePublish
	}
	if err := s.record(r.Context(), me, action, "tree:"+slug, t.Title, map[string]bool{"published": was}, map[string]bool{"published": publish}); err != nil {
		return err
	}
	if t, err = s.treeBySlug(r.Context(), slug); err != nil {
		return err
	}
	q, err := s.queueTree(r.Context(), t)
	return httpx.Reply(w, http.StatusOK, map[string]any{"tree": q}, err)
}

// capture keeps an answer to pass it on after reading it.
type capture struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *capture) Header() http.Header         { return c.header }
func (c *capture) Write(b []byte) (int, error) { return c.body.Write(b) }
func (c *capture) WriteHeader(code int)        { c.status = code }

// PostTreeUpload is POST /api/studio/trees/uploads: the trees room's upload (same
// form, same answer, same limits), keeping its warnings for the review queue.
func (s *Service) PostTreeUpload(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	if s.opt.Trees == nil {
		return unavailable("family trees")
	}
	c := &capture{header: http.Header{}, status: http.StatusOK}
	if err := s.opt.Trees.Upload(c, r); err != nil {
		return err
	}
	if c.status == http.StatusCreated {
		var res trees.UploadResult
		if err := json.Unmarshal(c.body.Bytes(), &res); err == nil && res.Tree != nil {
			if t, err := s.opt.Trees.Tree(r.Context(), res.Tree.Slug); err == nil {
				ws, err := json.Marshal(res.Warnings)
				if err != nil {
					return err
				}
				if _, err := s.db.ExecContext(r.Context(), s.db.Rebind(`INSERT INTO staff_tree_warnings (tree_id, warning_count, warnings) VALUES (?, ?, ?)`),
					t.ID, res.WarningCount, string(ws)); err != nil {
					return err
				}
				if err := s.record(r.Context(), me, ActionTreeUpload, "tree:"+t.Slug, t.Title, nil,
					map[string]any{"people": t.Counts.People, "warnings": res.WarningCount, "file": t.SourceFile}); err != nil {
					return err
				}
			}
		}
	}
	for k, v := range c.header {
		w.Header()[k] = v
	}
	w.WriteHeader(c.status)
	_, err := w.Write(c.body.Bytes())
	return err
}

// Audited wraps a handler of another room that staff use: after a 2xx answer it logs
// action on the path's {slug} as subject (prefix + slug), with before and after.
func (s *Service) Audited(action, prefix string, before, after any, h httpx.HandlerFunc) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		if err := h(sw, r); err != nil {
			return err
		}
		u := auth.UserFrom(r.Context())
		if sw.status/100 == 2 && u != nil {
			slug := r.PathValue("slug")
			if err := s.record(r.Context(), u, action, prefix+slug, strings.TrimSpace(slug), before, after); err != nil {
				s.log.Error("staff: audit", "action", action, "err", err)
			}
		}
		return nil
	}
}

// AuditedTreeAccess wraps the trees room's access route: after a 2xx answer it logs
// the tree's access level before and after.
func (s *Service) AuditedTreeAccess(h httpx.HandlerFunc) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		level := func() any {
			if t, err := s.opt.Trees.Tree(r.Context(), r.PathValue("slug")); err == nil {
				return map[string]string{"access": t.Access}
			}
			return nil
		}
		before := level()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		if err := h(sw, r); err != nil {
			return err
		}
		if u := auth.UserFrom(r.Context()); sw.status/100 == 2 && u != nil {
			slug := r.PathValue("slug")
			if err := s.record(r.Context(), u, ActionTreeAccess, "tree:"+slug, slug, before, level()); err != nil {
				s.log.Error("staff: audit", "action", ActionTreeAccess, "err", err)
			}
		}
		return nil
	}
}

type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
