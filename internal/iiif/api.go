package iiif

import (
	"net/http"
	"strconv"
	"strings"

	"lineage/internal/httpx"
)

// apiItem is an item as GET /api/images shows it (docs/iiif.md).
type apiItem struct {
	Slug         string        `json:"slug"`
	Label        string        `json:"label"`
	Collection   apiCollection `json:"collection"`
	Target       apiTarget     `json:"target"`
	Access       string        `json:"access"`
	Allowed      bool          `json:"allowed"`
	Pages        int           `json:"pages"`
	Viewer       string        `json:"viewer"`
	Manifest     string        `json:"manifest"`
	ManifestPath string        `json:"manifest_path"`
	Thumbnail    *string       `json:"thumbnail"`
	Images       []apiImage    `json:"images"`
}

type apiCollection struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

type apiTarget struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	Key  string `json:"key"`
}

type apiImage struct {
	ID      string `json:"id"`
	Page    int    `json:"page"`
	Label   string `json:"label"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Service string `json:"service"`
}

func (s *Service) apiItem(r *http.Request, it *itemRow) apiItem {
	out := apiItem{
		Slug:         it.Slug,
		Label:        it.Label,
		Collection:   apiCollection{it.CollectionSlug, it.CollectionName},
		Target:       apiTarget{it.Target, it.TargetID, it.TargetKey},
		Access:       "public",
		Allowed:      true,
		Pages:        len(it.Images),
		Viewer:       "/image-viewer/" + it.Slug,
		Manifest:     manifestURL(s.base(r), it.Slug),
		ManifestPath: Prefix + "manifests/" + it.Slug,
		Images:       []apiImage{},
	}
	if it.Members {
		out.Access = it.Level.String()
		out.Allowed = it.Level.Opens(s.scope(r))
	}
	if !out.Allowed || len(it.Images) == 0 {
		return out
	}
	thumb := Prefix + it.Images[0].ID + "/full/!400,400/0/default.jpg"
	out.Thumbnail = &thumb
	for _, im := range it.Images {
		out.Images = append(out.Images, apiImage{im.ID, im.Page, pageLabel(im), im.Width, im.Height, Prefix + im.ID})
	}
	return out
}

// serveAPI answers GET /api/images and /api/images/{slug}.
func (s *Service) serveAPI(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		httpx.JSON(w, http.StatusMethodNotAllowed, map[string]any{"message": "The " + r.Method + " method is not supported for this URL."})
		return
	}
	rest := strings.TrimPrefix(r.URL.Path, "/api/images")
	if rest != "" && rest != "/" {
		slug := strings.TrimPrefix(rest, "/")
		if !validID(slug) {
			httpx.JSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
			return
		}
		it, err := itemBySlug(r.Context(), s.db, slug)
		if err == ErrNotFound {
			httpx.JSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
			return
		}
		if err != nil {
			s.opts.Log.Error("images api", "err", err)
			httpx.JSON(w, http.StatusInternalServerError, map[string]any{"message": "Server Error"})
			return
		}
		httpx.JSON(w, http.StatusOK, s.apiItem(r, it))
		return
	}
	q := r.URL.Query()
	where := []string{"EXISTS (SELECT 1 FROM iiif_images im WHERE im.item_id = it.id)"}
	var args []any
	paged := true
	if v := q.Get("record"); v != "" || q.Has("record") {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			httpx.JSON(w, http.StatusOK, map[string]any{"data": []apiItem{}})
			return
		}
		where = append(where, "it.target = 'record' AND it.target_id = ?")
		args = append(args, id)
		paged = false
	}
	if v := q.Get("person"); v != "" || q.Has("person") {
		slug, xref, _ := strings.Cut(v, ":")
		bare := strings.Trim(xref, "@")
		where = append(where, "it.target = 'person' AND tr.slug = ? AND it.target_ref IN (?, ?)")
		args = append(args, slug, bare, "@"+bare+"@")
		paged = false
	}
	if v := q.Get("collection"); v != "" {
		where = append(where, "c.slug = ?")
		args = append(args, v)
	}
	limit := 50
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			httpx.JSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "The limit must be between 1 and 100.",
				"errors": map[string][]string{"limit": {"The limit must be between 1 and 100."}}})
			return
		}
		limit = n
	}
	if v := q.Get("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			httpx.JSON(w, http.StatusUnprocessableEntity, map[string]any{"message": "The after cursor is not valid.",
				"errors": map[string][]string{"after": {"The after cursor is not valid."}}})
			return
		}
		where = append(where, "it.id > ?")
		args = append(args, n)
	}
	fetch := 0
	if paged {
		fetch = limit + 1
	}
	items, err := listItems(r.Context(), s.db, strings.Join(where, " AND "), fetch, args...)
	if err != nil {
		s.opts.Log.Error("images api", "err", err)
		httpx.JSON(w, http.StatusInternalServerError, map[string]any{"message": "Server Error"})
		return
	}
	var next *string
	if paged && len(items) > limit {
		items = items[:limit]
		n := strconv.FormatInt(items[limit-1].ID, 10)
		next = &n
	}
	data := make([]apiItem, 0, len(items))
	for _, it := range items {
		data = append(data, s.apiItem(r, it))
	}
	out := map[string]any{"data": data}
	if paged {
		out["next"] = next
	}
	httpx.JSON(w, http.StatusOK, out)
}
