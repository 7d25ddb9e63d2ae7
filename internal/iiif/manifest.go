package iiif

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"lineage/internal/access"
)

const (
	presentationContext = "http://iiif.io/api/presentation/3/context.json"
	ldPresentation      = `application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"`
)

// lang is a IIIF language map.
func lang(code string, values ...string) map[string][]string {
	return map[string][]string{code: values}
}

// manifestURL and friends are the ids of the Presentation resources.
func manifestURL(base, slug string) string { return base + Prefix + "manifests/" + slug }
func canvasURL(base, slug string, n int) string {
	return manifestURL(base, slug) + "/canvas/" + strconv.Itoa(n)
}
func collectionURL(base, slug string) string {
	if slug == "" {
		return base + Prefix + "collections"
	}
	return base + Prefix + "collections/" + slug
}

func pageLabel(im *imageRow) string {
	if im.Label != "" {
		return im.Label
	}
	return "p. " + strconv.Itoa(im.Page)
}

// imageService is the ImageService3 reference a body or thumbnail carries.
func imageService(base string, im *imageRow) []map[string]any {
	return []map[string]any{{"id": base + Prefix + im.ID, "type": "ImageService3", "profile": "level2"}}
}

// thumbnail is a small rendition of a scan, fitting 400 × 400.
func thumbnail(base string, im *imageRow) []map[string]any {
	w, h := fit(im.Width, im.Height, 400)
	return []map[string]any{{
		"id":      base + Prefix + im.ID + "/full/!400,400/0/default.jpg",
		"type":    "Image",
		"format":  "image/jpeg",
		"width":   w,
		"height":  h,
		"service": imageService(base, im),
	}}
}

// fit is the size !n,n gives (never larger than the image).
func fit(w, h, n int) (int, int) {
	if w <= n && h <= n {
		return w, h
	}
	req := Request{Region: Region{Kind: RegionFull}, Size: Size{Kind: SizeConfined, W: n, H: n}}
	p, err := req.Resolve(w, h, Limits{MaxWidth: n, MaxHeight: n, MaxArea: int64(n) * int64(n)})
	if err != nil {
		return min(w, n), min(h, n)
	}
	return p.Width, p.Height
}

func canvas(base, slug string, n int, im *imageRow) map[string]any {
	id := canvasURL(base, slug, n)
	return map[string]any{
		"id":        id,
		"type":      "Canvas",
		"label":     lang("none", pageLabel(im)),
		"width":     im.Width,
		"height":    im.Height,
		"thumbnail": thumbnail(base, im),
		"items": []map[string]any{{
			"id":   id + "/page",
			"type": "AnnotationPage",
			"items": []map[string]any{{
				"id":         id + "/page/image",
				"type":       "Annotation",
				"motivation": "painting",
				"body": map[string]any{
					"id":      base + Prefix + im.ID + "/full/max/0/default.jpg",
					"type":    "Image",
					"format":  "image/jpeg",
					"width":   im.Width,
					"height":  im.Height,
					"service": imageService(base, im),
				},
				"target": id,
			}},
		}},
	}
}

// manifest builds the Presentation 3.0 Manifest of an item.
func (s *Service) manifest(ctx context.Context, base string, it *itemRow) (map[string]any, error) {
	md, summary, err := targetMetadata(ctx, s.db, it)
	if err != nil {
		return nil, err
	}
	metadata := make([]map[string]any, 0, len(md)+1)
	for _, p := range md {
		metadata = append(metadata, map[string]any{"label": lang("en", p.Label), "value": lang("none", p.Value)})
	}
	if it.Members {
		metadata = append(metadata, map[string]any{"label": lang("en", "Access"), "value": lang("en", accessLabel(it.Level))})
	}
	rights := it.Rights
	if rights == "" {
		rights = s.opts.Rights
	}
	attribution := it.Attribution
	if attribution == "" {
		attribution = s.opts.Attribution
	}
	items := make([]map[string]any, len(it.Images))
	for i, im := range it.Images {
		items[i] = canvas(base, it.Slug, i+1, im)
	}
	behavior := "individuals"
	if len(it.Images) > 1 {
		behavior = "paged"
	}
	m := map[string]any{
		"@context":          presentationContext,
		"id":                manifestURL(base, it.Slug),
		"type":              "Manifest",
		"label":             lang("en", it.Label),
		"metadata":          metadata,
		"requiredStatement": map[string]any{"label": lang("en", "Attribution"), "value": lang("en", attribution)},
		"rights":            rights,
		"provider": []map[string]any{{
			"id":       base + "/",
			"type":     "Agent",
			"label":    lang("en", "Lineage family history society"),
			"homepage": []map[string]any{{"id": base + "/", "type": "Text", "label": lang("en", "Lineage"), "format": "text/html"}},
		}},
		"homepage":         []map[string]any{{"id": base + "/image-viewer/" + it.Slug, "type": "Text", "label": lang("en", it.Label), "format": "text/html"}},
		"thumbnail":        thumbnail(base, it.Images[0]),
		"partOf":           []map[string]any{{"id": collectionURL(base, it.CollectionSlug), "type": "Collection", "label": lang("en", it.CollectionName)}},
		"behavior":         []string{behavior},
		"viewingDirection": "left-to-right",
		"items":            items,
	}
	if summary != "" {
		m["summary"] = lang("en", summary)
	}
	return m, nil
}

func (s *Service) writeLD(w http.ResponseWriter, r *http.Request, v any, members bool, mod time.Time) {
	body, err := json.Marshal(v)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	etag := `"` + shortHash(string(body)) + `"`
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("ETag", etag)
	if !mod.IsZero() {
		h.Set("Last-Modified", mod.Format(http.TimeFormat))
	}
	h.Set("Cache-Control", cacheControl(members, false))
	h.Add("Vary", "Accept")
	answerLD(w, r, body, ldPresentation, etag, mod)
}

// serveManifest answers manifests/{slug} and manifests/{slug}/canvas/{n}.
func (s *Service) serveManifest(w http.ResponseWriter, r *http.Request, segs []string) {
	if len(segs) == 0 || segs[0] == "" {
		writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown manifest."})
		return
	}
	slug := strings.TrimSuffix(segs[0], ".json")
	canvasN := 0
	switch {
	case len(segs) == 1:
	case len(segs) == 3 && segs[1] == "canvas":
		n, ok := positiveInt(segs[2])
		if !ok {
			writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown canvas."})
			return
		}
		canvasN = n
	default:
		writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown manifest resource."})
		return
	}
	if !validID(slug) {
		writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown manifest."})
		return
	}
	it, err := itemBySlug(r.Context(), s.db, slug)
	if err != nil {
		if err == ErrNotFound {
			writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown manifest " + strconv.Quote(slug) + "."})
			return
		}
		s.fail(w, r, err)
		return
	}
	s.gate(w, r, it.Level, func(w http.ResponseWriter, r *http.Request) {
		base := s.base(r)
		if canvasN > 0 {
			if canvasN > len(it.Images) {
				writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown canvas."})
				return
			}
			c := canvas(base, it.Slug, canvasN, it.Images[canvasN-1])
			c["@context"] = presentationContext
			s.writeLD(w, r, c, it.Members, it.UpdatedAt)
			return
		}
		m, err := s.manifest(r.Context(), base, it)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.writeLD(w, r, m, it.Members, it.UpdatedAt)
	})
}

// serveCollection answers collections and collections/{slug}.
func (s *Service) serveCollection(w http.ResponseWriter, r *http.Request, segs []string) {
	base := s.base(r)
	if len(segs) == 0 || (len(segs) == 1 && (segs[0] == "" || segs[0] == ".json")) {
		cs, err := collectionsWithScans(r.Context(), s.db, "")
		if err != nil {
			s.fail(w, r, err)
			return
		}
		items := make([]map[string]any, 0, len(cs))
		for _, c := range cs {
			items = append(items, map[string]any{"id": collectionURL(base, c.Slug), "type": "Collection", "label": lang("en", c.Title)})
		}
		s.writeLD(w, r, map[string]any{
			"@context": presentationContext,
			"id":       collectionURL(base, ""),
			"type":     "Collection",
			"label":    lang("en", "Scans of the Lineage family history society"),
			"items":    items,
		}, false, time.Time{})
		return
	}
	if len(segs) != 1 {
		writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown collection."})
		return
	}
	slug := strings.TrimSuffix(segs[0], ".json")
	cs, err := collectionsWithScans(r.Context(), s.db, slug)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(cs) == 0 {
		writeIIIFError(w, &Error{Status: http.StatusNotFound, Message: "Unknown collection " + strconv.Quote(slug) + "."})
		return
	}
	c := cs[0]
	all, err := listItems(r.Context(), s.db, `it.collection_id = ?`, 0, c.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	items := make([]map[string]any, 0, len(all))
	var mod time.Time
	for _, it := range all {
		if len(it.Images) == 0 {
			continue
		}
		if it.UpdatedAt.After(mod) {
			mod = it.UpdatedAt
		}
		entry := map[string]any{"id": manifestURL(base, it.Slug), "type": "Manifest", "label": lang("en", it.Label)}
		if !it.Members {
			entry["thumbnail"] = thumbnail(base, it.Images[0])
		}
		items = append(items, entry)
	}
	col := map[string]any{
		"@context": presentationContext,
		"id":       collectionURL(base, c.Slug),
		"type":     "Collection",
		"label":    lang("en", c.Title),
		"partOf":   []map[string]any{{"id": collectionURL(base, ""), "type": "Collection"}},
		"items":    items,
	}
	if c.Description != "" {
		col["summary"] = lang("en", c.Description)
	}
	s.writeLD(w, r, col, false, mod)
}

// accessLabel says in a manifest who may see an item.
func accessLabel(l access.Level) string {
	switch l.String() {
	case access.Members:
		return "Members only"
	case access.Registered:
		return "Signed-in accounts only"
	}
	return "Restricted to " + strings.Join(l.Scopes(), ", ")
}
