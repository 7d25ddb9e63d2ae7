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

// ListImages answers GET /api/images: the items with scans, filtered by record,
// person or collection, a page at a time (docs/iiif.md).
func (s *Service) ListImages(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	where := []string{"EXISTS (SELECT 1 FROM iiif_images im WHERE im.item_id = it.id)"}
	var args []any
	paged := true
	if v := q.Get("record"); v != "" || q.Has("record") {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			httpx.JSON(w, http.StatusOK, map[string]any{"data": []apiItem{}})
			return nil
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
			return httpx.Invalid("limit", "The limit must be between 1 and 100.")
		}
		limit = n
	}
	if v := q.Get("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return httpx.Invalid("after", "The after cursor is not valid.")
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
		return err
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
	return nil
}

// GetImageItem answers GET /api/images/{slug}: one item; an empty slug (a trailing
// slash) is the list.
func (s *Service) GetImageItem(w http.ResponseWriter, r *http.Request) error {
	slug := r.PathValue("slug")
	if slug == "" {
		return s.ListImages(w, r)
	}
	if !validID(slug) {
		return httpx.ErrNotFound
	}
	it, err := itemBySlug(r.Context(), s.db, slug)
	if err == ErrNotFound {
		return httpx.ErrNotFound
	}
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, s.apiItem(r, it))
	return nil
}
