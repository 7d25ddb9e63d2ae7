package content

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"lineage/internal/httpx"
)

// The studio's JSON API under /api/studio/content/ (cmd/lineage's route table lists
// every route; docs/studio-content-api.md describes the bodies).
// It answers in the project's one error contract (httpx), not in Prismic's.

// StudioPrefix is where the studio's content API lives.
const StudioPrefix = "/api/studio/content"

type studioFunc func(w http.ResponseWriter, r *http.Request, ed Editor) error

func (s *Service) editor(r *http.Request) Editor {
	if s.opts.Editor == nil {
		return Editor{}
	}
	return s.opts.Editor(r)
}

// Staff makes fn a handler for editors and admins: 401 anonymously, 403 to others.
func (s *Service) Staff(fn studioFunc) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ed := s.editor(r)
		if ed.ID == 0 {
			return httpx.ErrUnauthenticated
		}
		if !ed.Staff && !ed.Admin {
			return &httpx.Error{Code: httpx.EFORBIDDEN, Message: "Only editors and administrators may use the studio."}
		}
		return fn(w, r, ed)
	}
}

// Admin makes fn a handler for admins: 401 anonymously, 403 to others.
func (s *Service) Admin(fn studioFunc) httpx.HandlerFunc {
	return s.Staff(func(w http.ResponseWriter, r *http.Request, ed Editor) error {
		if !ed.Admin {
			return &httpx.Error{Code: httpx.EFORBIDDEN, Message: "Only administrators may change the document types."}
		}
		return fn(w, r, ed)
	})
}

// readBody reads a JSON body of at most limit bytes: 413 over it.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &httpx.Error{Code: httpx.ETOOLARGE, Message: "The request body may be at most " + sizeText(limit) + "."}
		}
		return nil, err
	}
	return b, nil
}

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n>>10, 10) + " KiB"
}

// decodeBody reads a JSON object body into dst; an empty body leaves dst as it is.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, dst any) error {
	b, err := readBody(w, r, limit)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return &httpx.Error{Code: httpx.EBADREQUEST, Message: "The request body must be a JSON object of the right shape: " + err.Error() + "."}
	}
	return nil
}

type revisionBody struct {
	Revision *int64 `json:"revision"`
}

// GetModels is GET /api/studio/content/models.
func (s *Service) GetModels(w http.ResponseWriter, r *http.Request, ed Editor) error {
	types, slices, err := s.Models(r.Context())
	return httpx.Reply(w, http.StatusOK, map[string]any{"types": types, "slices": slices}, err)
}

// GetModel is GET /api/studio/content/models/{id}.
func (s *Service) GetModel(w http.ResponseWriter, r *http.Request, ed Editor) error {
	return answerModel(s, w, r, "document type", func(set *modelSet) map[string]*Model { return set.types })
}

// GetSlice is GET /api/studio/content/slices/{id}.
func (s *Service) GetSlice(w http.ResponseWriter, r *http.Request, ed Editor) error {
	return answerModel(s, w, r, "slice", func(set *modelSet) map[string]*SliceModel { return set.slices })
}

// answerModel answers the model the path's id names in one of the set's maps (of);
// none is a 404 that names what it is.
func answerModel[M any](s *Service, w http.ResponseWriter, r *http.Request, what string, of func(*modelSet) map[string]*M) error {
	set, err := s.models(r.Context())
	if err != nil {
		return err
	}
	m := of(set)[r.PathValue("id")]
	if m == nil {
		return notFound(what)
	}
	httpx.JSON(w, http.StatusOK, m)
	return nil
}

// PutModel is PUT /api/studio/content/models/{id} (admins).
func (s *Service) PutModel(w http.ResponseWriter, r *http.Request, ed Editor) error {
	return s.putModel(w, r, ed, "type")
}

// PutSlice is PUT /api/studio/content/slices/{id} (admins).
func (s *Service) PutSlice(w http.ResponseWriter, r *http.Request, ed Editor) error {
	return s.putModel(w, r, ed, "slice")
}

func (s *Service) putModel(w http.ResponseWriter, r *http.Request, ed Editor, kind string) error {
	b, err := readBody(w, r, maxModelBytes)
	if err != nil {
		return err
	}
	m, err := s.SaveModel(r.Context(), ed, kind, r.PathValue("id"), b)
	return httpx.Reply(w, http.StatusOK, m, err)
}

// DeleteModel is DELETE /api/studio/content/models/{id} (admins).
func (s *Service) DeleteModel(w http.ResponseWriter, r *http.Request, ed Editor) error {
	m, err := s.ResetModel(r.Context(), ed, "type", r.PathValue("id"))
	return httpx.Reply(w, http.StatusOK, m, err)
}

// DeleteSlice is DELETE /api/studio/content/slices/{id} (admins).
func (s *Service) DeleteSlice(w http.ResponseWriter, r *http.Request, ed Editor) error {
	m, err := s.ResetModel(r.Context(), ed, "slice", r.PathValue("id"))
	return httpx.Reply(w, http.StatusOK, m, err)
}

// ListStudioDocuments is GET /api/studio/content/documents.
func (s *Service) ListStudioDocuments(w http.ResponseWriter, r *http.Request, ed Editor) error {
	q := r.URL.Query()
	p := ListParams{Type: q.Get("type"), Status: q.Get("status"), Tag: q.Get("tag"), Q: q.Get("q"), Sort: q.Get("sort")}
	var fe httpx.FieldErrors
	switch p.Status {
	case "", StatusDraft, StatusScheduled, StatusPublished, StatusArchived:
	default:
		fe.Add("status", "The status is draft, scheduled, published or archived.")
	}
	switch p.Sort {
	case "", "-updated_at", "updated_at", "title", "-title":
	default:
		fe.Add("sort", "Sort by updated_at, -updated_at, title or -title.")
	}
	if len(p.Q) > 500 {
		fe.Add("q", "The search may be at most 500 characters.")
	}
	if a := q.Get("author"); a != "" {
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil || n < 1 {
			fe.Add("author", "The author is an account number.")
		}
		p.Author = n
	}
	for _, d := range []struct {
		key string
		dst *time.Time
		add time.Duration
	}{{"from", &p.From, 0}, {"to", &p.To, 24 * time.Hour}} {
		if v := q.Get(d.key); v != "" {
			t, err := time.Parse("2006-01-02", v)
			if err != nil {
				fe.Add(d.key, "Dates are written YYYY-MM-DD.")
			}
			*d.dst = t.Add(d.add)
		}
	}
	p.Page = intParam(q.Get("page"), "page", 1, 1_000_000, &fe)
	p.PageSize = intParam(q.Get("page_size"), "page_size", 20, 100, &fe)
	if err := fe.Err(); err != nil {
		return err
	}
	list, err := s.ListDocuments(r.Context(), p)
	return httpx.Reply(w, http.StatusOK, list, err)
}

func intParam(v, name string, def, maxN int, fe *httpx.FieldErrors) int {
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxN {
		fe.Add(name, "%s is a whole number from 1 to %d.", name, maxN)
		return def
	}
	return n
}

// PostDocument is POST /api/studio/content/documents.
func (s *Service) PostDocument(w http.ResponseWriter, r *http.Request, ed Editor) error {
	var in DocumentInput
	if err := decodeBody(w, r, maxDocumentBytes, &in); err != nil {
		return err
	}
	d, err := s.CreateDocument(r.Context(), ed, in)
	return httpx.Reply(w, http.StatusCreated, d, err)
}

// GetStudioDocument is GET /api/studio/content/documents/{id}.
func (s *Service) GetStudioDocument(w http.ResponseWriter, r *http.Request, ed Editor) error {
	d, err := s.GetDocument(r.Context(), r.PathValue("id"))
	return httpx.Reply(w, http.StatusOK, d, err)
}

// PutDocument is PUT /api/studio/content/documents/{id}: save the draft.
func (s *Service) PutDocument(w http.ResponseWriter, r *http.Request, ed Editor) error {
	var in DocumentInput
	if err := decodeBody(w, r, maxDocumentBytes, &in); err != nil {
		return err
	}
	d, err := s.SaveDocument(r.Context(), ed, r.PathValue("id"), in)
	return httpx.Reply(w, http.StatusOK, d, err)
}

// PostDuplicate is POST /api/studio/content/documents/{id}/duplicate.
func (s *Service) PostDuplicate(w http.ResponseWriter, r *http.Request, ed Editor) error {
	d, err := s.DuplicateDocument(r.Context(), ed, r.PathValue("id"))
	return httpx.Reply(w, http.StatusCreated, d, err)
}

// act serves the POST actions that take {"revision"?}.
func (s *Service) act(w http.ResponseWriter, r *http.Request, ed Editor, fn func(context.Context, Editor, string, *int64) (*StudioDocument, error)) error {
	var body revisionBody
	if err := decodeBody(w, r, 4<<10, &body); err != nil {
		return err
	}
	d, err := fn(r.Context(), ed, r.PathValue("id"), body.Revision)
	if err != nil {
		return err
	}
	s.kickWebhooks()
	httpx.JSON(w, http.StatusOK, d)
	return nil
}

// PostPublish is POST /api/studio/content/documents/{id}/publish.
func (s *Service) PostPublish(w http.ResponseWriter, r *http.Request, ed Editor) error {
	return s.act(w, r, ed, s.PublishDocument)
}

// PostUnpublish is POST /api/studio/content/documents/{id}/unpublish.
func (s *Service) PostUnpublish(w http.ResponseWriter, r *http.Request, ed Editor) error {
	return s.act(w, r, ed, s.UnpublishDocument)
}

// PostArchive is POST /api/studio/content/documents/{id}/archive.
func (s *Service) PostArchive(w http.ResponseWriter, r *http.Request, ed Editor) error {
	return s.act(w, r, ed, s.ArchiveDocument)
}

// PostUnarchive is POST /api/studio/content/documents/{id}/unarchive.
func (s *Service) PostUnarchive(w http.ResponseWriter, r *http.Request, ed Editor) error {
	return s.act(w, r, ed, s.UnarchiveDocument)
}

// GetVersions is GET /api/studio/content/documents/{id}/versions.
func (s *Service) GetVersions(w http.ResponseWriter, r *http.Request, ed Editor) error {
	vs, err := s.Versions(r.Context(), r.PathValue("id"))
	return httpx.Reply(w, http.StatusOK, map[string]any{"results": vs}, err)
}

func versionID(r *http.Request) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue("vid"), 10, 64)
	if err != nil || n < 1 {
		return 0, notFound("version")
	}
	return n, nil
}

// GetVersionHandler is GET /api/studio/content/documents/{id}/versions/{vid}.
func (s *Service) GetVersionHandler(w http.ResponseWriter, r *http.Request, ed Editor) error {
	vid, err := versionID(r)
	if err != nil {
		return err
	}
	v, err := s.GetVersion(r.Context(), r.PathValue("id"), vid)
	return httpx.Reply(w, http.StatusOK, v, err)
}

// PostRestore is POST /api/studio/content/documents/{id}/versions/{vid}/restore.
func (s *Service) PostRestore(w http.ResponseWriter, r *http.Request, ed Editor) error {
	vid, err := versionID(r)
	if err != nil {
		return err
	}
	var body revisionBody
	if err := decodeBody(w, r, 4<<10, &body); err != nil {
		return err
	}
	if body.Revision == nil {
		return httpx.Invalid("revision", "Send the revision you started from.")
	}
	d, err := s.RestoreVersion(r.Context(), ed, r.PathValue("id"), vid, body.Revision)
	return httpx.Reply(w, http.StatusOK, d, err)
}

// GetUIDCheck is GET /api/studio/content/uid-check.
func (s *Service) GetUIDCheck(w http.ResponseWriter, r *http.Request, ed Editor) error {
	q := r.URL.Query()
	if len(q.Get("uid")) > 1000 {
		return httpx.Invalid("uid", "The address is far too long.")
	}
	c, err := s.CheckUID(r.Context(), q.Get("type"), q.Get("lang"), q.Get("uid"), q.Get("id"))
	return httpx.Reply(w, http.StatusOK, c, err)
}

// GetLinks is GET /api/studio/content/links: the link picker.
func (s *Service) GetLinks(w http.ResponseWriter, r *http.Request, ed Editor) error {
	q := r.URL.Query()
	var fe httpx.FieldErrors
	n := intParam(q.Get("page_size"), "page_size", 20, 50, &fe)
	if len(q.Get("q")) > 500 {
		fe.Add("q", "The search may be at most 500 characters.")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	list, err := s.LinkTargets(r.Context(), q.Get("q"), q.Get("type"), n)
	return httpx.Reply(w, http.StatusOK, map[string]any{"results": list}, err)
}

// GetStudioTags is GET /api/studio/content/tags.
func (s *Service) GetStudioTags(w http.ResponseWriter, r *http.Request, ed Editor) error {
	tags, err := s.StudioTags(r.Context())
	return httpx.Reply(w, http.StatusOK, map[string]any{"tags": tags}, err)
}

// PostPreview is POST /api/studio/content/preview.
func (s *Service) PostPreview(w http.ResponseWriter, r *http.Request, ed Editor) error {
	var body struct {
		DocumentID string `json:"document_id"`
		ReleaseID  string `json:"release_id"`
	}
	if err := decodeBody(w, r, 4<<10, &body); err != nil {
		return err
	}
	p, err := s.Preview(r.Context(), ed, body.DocumentID, body.ReleaseID)
	return httpx.Reply(w, http.StatusOK, p, err)
}

// releaseBody reads {"label"?, "scheduled_at"?} (parseReleaseBody).
func releaseBody(w http.ResponseWriter, r *http.Request) (ReleaseInput, error) {
	b, err := readBody(w, r, 8<<10)
	if err != nil {
		return ReleaseInput{}, err
	}
	return parseReleaseBody(b)
}

// parseReleaseBody reads {"label"?, "scheduled_at"?}; a null scheduled_at unschedules.
// An empty body changes nothing.
func parseReleaseBody(b []byte) (ReleaseInput, error) {
	var in ReleaseInput
	if len(bytes.TrimSpace(b)) == 0 {
		return in, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return in, &httpx.Error{Code: httpx.EBADREQUEST, Message: "The request body must be a JSON object of the right shape: " + err.Error() + "."}
	}
	if v, ok := raw["label"]; ok {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return in, httpx.Invalid("label", "The name is text.")
		}
		in.Label = &s
	}
	if v, ok := raw["scheduled_at"]; ok {
		in.SetSchedule = true
		if !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			var s string
			if json.Unmarshal(v, &s) != nil {
				return in, httpx.Invalid("scheduled_at", "Give the date and time, such as 2026-12-01T09:00:00Z.")
			}
			t, ok := parseDate(s)
			if !ok || len(s) <= 10 {
				return in, httpx.Invalid("scheduled_at", "Give the date and time, such as 2026-12-01T09:00:00Z.")
			}
			t = t.UTC()
			in.ScheduledAt = &t
		}
	}
	return in, nil
}

// GetReleases is GET /api/studio/content/releases.
func (s *Service) GetReleases(w http.ResponseWriter, r *http.Request, ed Editor) error {
	status := r.URL.Query().Get("status")
	switch status {
	case "", ReleaseOpen, ReleaseScheduled, ReleasePublished, ReleaseFailed:
	default:
		return httpx.Invalid("status", "The status is open, scheduled, published or failed.")
	}
	list, err := s.Releases(r.Context(), status)
	return httpx.Reply(w, http.StatusOK, map[string]any{"results": list}, err)
}

// PostRelease is POST /api/studio/content/releases.
func (s *Service) PostRelease(w http.ResponseWriter, r *http.Request, ed Editor) error {
	in, err := releaseBody(w, r)
	if err != nil {
		return err
	}
	rel, err := s.CreateRelease(r.Context(), ed, in)
	return httpx.Reply(w, http.StatusCreated, rel, err)
}

// GetReleaseHandler is GET /api/studio/content/releases/{id}.
func (s *Service) GetReleaseHandler(w http.ResponseWriter, r *http.Request, ed Editor) error {
	rel, err := s.GetRelease(r.Context(), r.PathValue("id"))
	return httpx.Reply(w, http.StatusOK, rel, err)
}

// PatchRelease is PATCH /api/studio/content/releases/{id}.
func (s *Service) PatchRelease(w http.ResponseWriter, r *http.Request, ed Editor) error {
	in, err := releaseBody(w, r)
	if err != nil {
		return err
	}
	rel, err := s.UpdateRelease(r.Context(), ed, r.PathValue("id"), in)
	return httpx.Reply(w, http.StatusOK, rel, err)
}

// DeleteReleaseHandler is DELETE /api/studio/content/releases/{id}.
func (s *Service) DeleteReleaseHandler(w http.ResponseWriter, r *http.Request, ed Editor) error {
	if err := s.DeleteRelease(r.Context(), ed, r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// PutReleaseDocument is PUT /api/studio/content/releases/{id}/documents/{doc}.
func (s *Service) PutReleaseDocument(w http.ResponseWriter, r *http.Request, ed Editor) error {
	rel, err := s.SetReleaseDocument(r.Context(), ed, r.PathValue("id"), r.PathValue("doc"), true)
	return httpx.Reply(w, http.StatusOK, rel, err)
}

// DeleteReleaseDocument is DELETE /api/studio/content/releases/{id}/documents/{doc}.
func (s *Service) DeleteReleaseDocument(w http.ResponseWriter, r *http.Request, ed Editor) error {
	rel, err := s.SetReleaseDocument(r.Context(), ed, r.PathValue("id"), r.PathValue("doc"), false)
	return httpx.Reply(w, http.StatusOK, rel, err)
}

// PostPublishRelease is POST /api/studio/content/releases/{id}/publish.
func (s *Service) PostPublishRelease(w http.ResponseWriter, r *http.Request, ed Editor) error {
	rel, err := s.PublishRelease(r.Context(), ed, r.PathValue("id"))
	return httpx.Reply(w, http.StatusOK, rel, err)
}
