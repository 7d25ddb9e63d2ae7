package content

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/gif" // decode GIF uploads
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"unicode/utf8"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // decode WebP uploads

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// The media library: images an editor uploads once, with their alt text and copyright,
// and finds again to reuse. Resized variants are made at upload, so nothing is resized
// while a page is served. Files go to the media directory under studio/ and are served
// by ServeMedia like every other media file. Files are stored through PutMedia.

// Limits of one upload.
const (
	MaxMediaBytes  = 20 << 20   // bytes of one file
	MaxMediaPixels = 40_000_000 // width × height
	MaxMediaSide   = 12_000     // pixels on either side
)

// MaxMediaWorkers is how many uploads are read and resized at once; the others wait
// for their turn (or their caller to give up). A 40-megapixel image takes 160 MB while
// it is resized, so this bounds the memory uploads can take.
const MaxMediaWorkers = 2

var mediaWorkers = make(chan struct{}, MaxMediaWorkers)

// mediaVariantWidths are the widths of the resized copies (only those narrower than the
// original are made).
var mediaVariantWidths = []int{320, 640, 1280, 2048}

// Media is an image of the library.
type Media struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	URL         string         `json:"url"`
	ContentType string         `json:"content_type"`
	Bytes       int64          `json:"bytes"`
	Width       int            `json:"width"`
	Height      int            `json:"height"`
	Alt         string         `json:"alt"`
	Copyright   string         `json:"copyright"`
	Variants    []MediaVariant `json:"variants"`
	CreatedAt   *string        `json:"created_at"`
	CreatedBy   *Person        `json:"created_by"`
}

// MediaVariant is a resized copy of an image.
type MediaVariant struct {
	Width  int    `json:"width"`
	Height int    `json:"height"`
	URL    string `json:"url"`
}

// MediaUpload is an image to add to the library.
type MediaUpload struct {
	Name      string
	Data      []byte
	Alt       string
	Copyright string
}

var mediaFormats = map[string]struct{ ext, ctype string }{
	"jpeg": {".jpg", "image/jpeg"},
	"png":  {".png", "image/png"},
	"gif":  {".gif", "image/gif"},
	"webp": {".webp", "image/webp"},
}

func checkMediaText(fe *httpx.FieldErrors, alt, copyright string, altRequired bool) {
	switch {
	case strings.TrimSpace(alt) == "" && altRequired:
		fe.Add("alt", "Describe the image for people who cannot see it (alt text).")
	case utf8.RuneCountInString(alt) > 1000:
		fe.Add("alt", "Alt text may be at most 1000 characters.")
	}
	if utf8.RuneCountInString(copyright) > 500 {
		fe.Add("copyright", "The copyright may be at most 500 characters.")
	}
}

// UploadMedia checks an image, stores it with its resized variants and records it.
func (s *Service) UploadMedia(ctx context.Context, ed Editor, up MediaUpload) (*Media, error) {
	var fe httpx.FieldErrors
	up.Alt, up.Copyright = strings.TrimSpace(up.Alt), strings.TrimSpace(up.Copyright)
	checkMediaText(&fe, up.Alt, up.Copyright, true)
	if len(up.Data) == 0 {
		fe.Add("file", "Choose an image to upload.")
	}
	if len(up.Data) > MaxMediaBytes {
		return nil, imageTooLarge()
	}
	var cfg image.Config
	var format string
	if len(up.Data) > 0 {
		var err error
		cfg, format, err = image.DecodeConfig(bytes.NewReader(up.Data))
		if _, ok := mediaFormats[format]; err != nil || !ok {
			fe.Add("file", "This file is not a JPEG, PNG, GIF or WebP image.")
		} else if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxMediaSide || cfg.Height > MaxMediaSide || cfg.Width*cfg.Height > MaxMediaPixels {
			fe.Add("file", "An image may be at most %d pixels on a side and %d megapixels.", MaxMediaSide, MaxMediaPixels/1_000_000)
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(up.Data))
	if err != nil {
		return nil, httpx.Invalid("file", "This image could not be read: it may be damaged.")
	}
	f := mediaFormats[format]
	id := "m_" + newRef()
	base := mediaBaseName(up.Name)
	file := "studio/" + id + "-" + base + f.ext
	if _, err := s.PutMedia(ctx, file, bytes.NewReader(up.Data)); err != nil {
		return nil, err
	}
	m := &Media{ID: id, Name: mediaDisplayName(up.Name, f.ext), URL: "/media/" + file, ContentType: f.ctype,
		Bytes: int64(len(up.Data)), Width: cfg.Width, Height: cfg.Height, Alt: up.Alt, Copyright: up.Copyright, Variants: []MediaVariant{}}
	for _, w := range mediaVariantWidths {
		if w >= cfg.Width {
			break
		}
		h := max(1, (cfg.Height*w+cfg.Width/2)/cfg.Width)
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		xdraw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
		var buf bytes.Buffer
		ext := ".jpg"
		if format == "png" || format == "gif" {
			ext = ".png"
			err = png.Encode(&buf, dst)
		} else {
			err = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85})
		}
		if err != nil {
			return nil, fmt.Errorf("content: media variant: %w", err)
		}
		vf := fmt.Sprintf("studio/%s-%s-%d%s", id, base, w, ext)
		if _, err := s.PutMedia(ctx, vf, &buf); err != nil {
			return nil, err
		}
		m.Variants = append(m.Variants, MediaVariant{Width: w, Height: h, URL: "/media/" + vf})
	}
	variants, _ := json.Marshal(m.Variants)
	now := s.now()
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO content_media (id, name, url, content_type, bytes, width, height, alt, copyright, variants, created_at, created_by, created_by_name)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), m.ID, m.Name, m.URL, m.ContentType, m.Bytes, m.Width, m.Height, m.Alt, m.Copyright,
		string(variants), now.UnixMilli(), nullID(ed.ID), ed.Name)
	if err != nil {
		return nil, fmt.Errorf("content: record media: %w", err)
	}
	m.CreatedAt = formatTime(now)
	m.CreatedBy = &Person{ID: ed.ID, Name: ed.Name}
	s.audit(ctx, ed, "content.media.upload", "content_media:"+m.ID, nil, m)
	return m, nil
}

// mediaBaseName makes a safe file name part from an upload's name.
func mediaBaseName(name string) string {
	name = strings.TrimSuffix(filepath.Base(strings.ReplaceAll(name, "\\", "/")), filepath.Ext(name))
	s := slugify(name)
	if len(s) > 60 {
		s = strings.TrimRight(s[:60], "-")
	}
	if s == "" {
		s = "image"
	}
	return s
}

func mediaDisplayName(name, ext string) string {
	name = strings.TrimSpace(filepath.Base(strings.ReplaceAll(name, "\\", "/")))
	if !utf8.ValidString(name) || name == "" || name == "." || name == "/" {
		return "image" + ext
	}
	if utf8.RuneCountInString(name) > 200 {
		name = string([]rune(name)[:200])
	}
	return name
}

const mediaCols = `id, name, url, content_type, bytes, width, height, alt, copyright, variants, created_at, created_by, created_by_name`

func scanMedia(sc store.Row) (*Media, error) {
	var m Media
	var variants, byName string
	var at int64
	var by sql.NullInt64
	if err := sc.Scan(&m.ID, &m.Name, &m.URL, &m.ContentType, &m.Bytes, &m.Width, &m.Height, &m.Alt, &m.Copyright, &variants, &at, &by, &byName); err != nil {
		return nil, err
	}
	json.Unmarshal([]byte(variants), &m.Variants)
	if m.Variants == nil {
		m.Variants = []MediaVariant{}
	}
	m.CreatedAt = msString(sql.NullInt64{Int64: at, Valid: true})
	m.CreatedBy = person(by, byName)
	return &m, nil
}

// GetMedia returns one image of the library.
func (s *Service) GetMedia(ctx context.Context, id string) (*Media, error) {
	m, err := scanMedia(s.db.QueryRowContext(ctx, s.db.Rebind("SELECT "+mediaCols+" FROM content_media WHERE id = ?"), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("image")
	}
	if err != nil {
		return nil, fmt.Errorf("content: media: %w", err)
	}
	return m, nil
}

// MediaList is a page of the library.
type MediaList struct {
	Results  []*Media `json:"results"`
	Page     int      `json:"page"`
	PageSize int      `json:"page_size"`
	Total    int      `json:"total"`
}

// likePattern escapes s for LIKE … ESCAPE '\'.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}

// ListMedia lists the library, newest first, optionally those whose name, alt text or
// copyright contain q.
func (s *Service) ListMedia(ctx context.Context, q string, page, size int) (*MediaList, error) {
	where, args := "", []any{}
	if q = strings.TrimSpace(q); q != "" {
		p := likePattern(q)
		where = ` WHERE lower(name) LIKE ? ESCAPE '\' OR lower(alt) LIKE ? ESCAPE '\' OR lower(copyright) LIKE ? ESCAPE '\'`
		args = append(args, p, p, p)
	}
	out := &MediaList{Page: page, PageSize: size}
	if err := s.db.QueryRowContext(ctx, s.db.Rebind("SELECT count(*) FROM content_media"+where), args...).Scan(&out.Total); err != nil {
		return nil, fmt.Errorf("content: media: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind("SELECT "+mediaCols+" FROM content_media"+where+
		fmt.Sprintf(" ORDER BY created_at DESC, id LIMIT %d OFFSET %d", size, (page-1)*size)), args...)
	if err != nil {
		return nil, fmt.Errorf("content: media: %w", err)
	}
	if out.Results, err = store.Collect(rows, nil, scanMedia); err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateMedia changes an image's alt text, copyright or name.
func (s *Service) UpdateMedia(ctx context.Context, ed Editor, id string, alt, copyright, name *string) (*Media, error) {
	before, err := s.GetMedia(ctx, id)
	if err != nil {
		return nil, err
	}
	after := *before
	if alt != nil {
		after.Alt = strings.TrimSpace(*alt)
	}
	if copyright != nil {
		after.Copyright = strings.TrimSpace(*copyright)
	}
	if name != nil {
		after.Name = strings.TrimSpace(*name)
	}
	var fe httpx.FieldErrors
	checkMediaText(&fe, after.Alt, after.Copyright, true)
	if after.Name == "" || utf8.RuneCountInString(after.Name) > 200 {
		fe.Add("name", "The name must be 1 to 200 characters.")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	if _, err := s.db.ExecContext(ctx, s.db.Rebind("UPDATE content_media SET alt = ?, copyright = ?, name = ? WHERE id = ?"),
		after.Alt, after.Copyright, after.Name, id); err != nil {
		return nil, fmt.Errorf("content: media: %w", err)
	}
	s.audit(ctx, ed, "content.media.update", "content_media:"+id, before, &after)
	return &after, nil
}

// PostMedia is POST /api/studio/content/media: multipart/form-data with file, alt and
// copyright. The body may be at most MaxMediaBytes plus 64 KiB for the other parts.
func (s *Service) PostMedia(w http.ResponseWriter, r *http.Request, ed Editor) error {
	select {
	case mediaWorkers <- struct{}{}:
		defer func() { <-mediaWorkers }()
	case <-r.Context().Done():
		return &httpx.Error{Code: httpx.ECANCELED, Message: "The upload was cancelled."}
	}
	mr, err := httpx.Multipart(w, r, MaxMediaBytes+64<<10, "Send the image as multipart/form-data with the fields file, alt and copyright.")
	if err != nil {
		return err
	}
	var up MediaUpload
	for part, err := range httpx.Parts(mr) {
		if err != nil {
			return mediaReadError(err)
		}
		switch part.FormName() {
		case "file":
			if up.Data != nil {
				return httpx.Invalid("file", "Send one image at a time.")
			}
			up.Name = part.FileName()
			up.Data, err = io.ReadAll(io.LimitReader(part, MaxMediaBytes+1))
			if err != nil {
				return mediaReadError(err)
			}
			if len(up.Data) > MaxMediaBytes {
				return imageTooLarge()
			}
			if up.Data == nil {
				up.Data = []byte{}
			}
		case "alt", "copyright":
			b, err := io.ReadAll(io.LimitReader(part, 8<<10))
			if err != nil {
				return mediaReadError(err)
			}
			if part.FormName() == "alt" {
				up.Alt = string(b)
			} else {
				up.Copyright = string(b)
			}
		default:
			io.Copy(io.Discard, io.LimitReader(part, 64<<10))
		}
		part.Close()
	}
	m, err := s.UploadMedia(r.Context(), ed, up)
	return httpx.Reply(w, http.StatusCreated, m, err)
}

// imageTooLarge is the 413 of an image over MaxMediaBytes, on the file field.
func imageTooLarge() error {
	msg := fmt.Sprintf("An image may be at most %d MiB.", MaxMediaBytes>>20)
	return &httpx.Error{Code: httpx.ETOOLARGE, Message: msg, Fields: map[string][]string{"file": {msg}}}
}

func mediaReadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return imageTooLarge()
	}
	if errors.Is(err, multipart.ErrMessageTooLarge) {
		return &httpx.Error{Code: httpx.ETOOLARGE, Message: "The upload is too large."}
	}
	return &httpx.Error{Code: httpx.EBADREQUEST, Message: "The upload could not be read; try again."}
}

// GetMediaList is GET /api/studio/content/media.
func (s *Service) GetMediaList(w http.ResponseWriter, r *http.Request, ed Editor) error {
	q := r.URL.Query()
	var fe httpx.FieldErrors
	page := intParam(q.Get("page"), "page", 1, 100_000, &fe)
	size := intParam(q.Get("page_size"), "page_size", 20, 100, &fe)
	if len(q.Get("q")) > 500 {
		fe.Add("q", "The search may be at most 500 characters.")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	list, err := s.ListMedia(r.Context(), q.Get("q"), page, size)
	return httpx.Reply(w, http.StatusOK, list, err)
}

// GetMediaItem is GET /api/studio/content/media/{id}.
func (s *Service) GetMediaItem(w http.ResponseWriter, r *http.Request, ed Editor) error {
	m, err := s.GetMedia(r.Context(), r.PathValue("id"))
	return httpx.Reply(w, http.StatusOK, m, err)
}

// PatchMedia is PATCH /api/studio/content/media/{id}.
func (s *Service) PatchMedia(w http.ResponseWriter, r *http.Request, ed Editor) error {
	var body struct {
		Alt       *string `json:"alt"`
		Copyright *string `json:"copyright"`
		Name      *string `json:"name"`
	}
	if err := decodeBody(w, r, 8<<10, &body); err != nil {
		return err
	}
	m, err := s.UpdateMedia(r.Context(), ed, r.PathValue("id"), body.Alt, body.Copyright, body.Name)
	return httpx.Reply(w, http.StatusOK, m, err)
}
