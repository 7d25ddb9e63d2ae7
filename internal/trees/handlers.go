package trees

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"lineage/internal/gedcom"
	"lineage/internal/httpx"
	"lineage/internal/names"
	"lineage/internal/textfield"
)

// maxUploadWarnings is how many of an upload's warnings its answer lists.
const maxUploadWarnings = 100

// Errors of the API (docs/trees.md) that the service's own errors become.
var (
	errNotFound   = &httpx.Error{Code: httpx.ENOTFOUND, Message: "Not Found"}
	errRestricted = &httpx.Error{Code: httpx.EUNAUTHORIZED, Message: "This tree's people are for members: sign in with an account whose membership opens it (join or renew at /subscribe).", Header: http.Header{"Vary": {"Cookie, Authorization"}}}
	errCanceled   = &httpx.Error{Code: httpx.ECANCELED, Message: "Client Closed Request"}
)

// apiError is err as the API answers it: the service's sentinels become the API's
// errors; validation errors are *httpx.Error already.
func apiError(err error) error {
	switch {
	case errors.Is(err, ErrNotFound):
		return errNotFound
	case errors.Is(err, ErrRestricted):
		return errRestricted
	case errors.Is(err, context.Canceled):
		return errCanceled
	}
	return err
}

// ListTrees answers the published trees (and the viewer's own) (docs/trees.md).
func (s *Service) ListTrees(w http.ResponseWriter, r *http.Request) error {
	ts, err := s.Trees(r.Context())
	return httpx.Reply(w, http.StatusOK, map[string]any{"trees": ts}, apiError(err))
}

// GetTree answers a tree (docs/trees.md).
func (s *Service) GetTree(w http.ResponseWriter, r *http.Request) error {
	t, err := s.Tree(r.Context(), r.PathValue("slug"))
	return httpx.Reply(w, http.StatusOK, t, apiError(err))
}

// ListSurnames answers a tree's surname index (docs/trees.md).
func (s *Service) ListSurnames(w http.ResponseWriter, r *http.Request) error {
	sn, err := s.Surnames(r.Context(), r.PathValue("slug"))
	return httpx.Reply(w, http.StatusOK, map[string]any{"surnames": sn}, apiError(err))
}

// ListPeople answers a tree's people, a page at a time, filtered by ParsePeopleQuery's
// parameters (docs/trees.md).
func (s *Service) ListPeople(w http.ResponseWriter, r *http.Request) error {
	q, err := ParsePeopleQuery(r.URL.Query(), 50, 200)
	if err != nil {
		// An unknown tree is 404 before a bad query is 422.
		if _, err := s.Tree(r.Context(), r.PathValue("slug")); err != nil {
			return apiError(err)
		}
		return err
	}
	page, err := s.People(r.Context(), r.PathValue("slug"), q)
	return httpx.Reply(w, http.StatusOK, page, apiError(err))
}

// GetPerson answers a person's page (docs/trees.md).
func (s *Service) GetPerson(w http.ResponseWriter, r *http.Request) error {
	p, err := s.Person(r.Context(), r.PathValue("slug"), r.PathValue("id"))
	return httpx.Reply(w, http.StatusOK, p, apiError(err))
}

// GetPersonSection answers a page of one of a person's lists (offset, limit)
// (docs/trees.md).
func (s *Service) GetPersonSection(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	var errs httpx.FieldErrors
	offset := errs.Whole("offset", v.Get("offset"), 0, 1_000_000, 0)
	limit := errs.Whole("limit", v.Get("limit"), 1, s.limits.PersonItems, 0)
	if err := errs.Err(); err != nil {
		// An unknown person is 404 before a bad query is 422.
		if _, err := s.PersonSection(r.Context(), r.PathValue("slug"), r.PathValue("id"), r.PathValue("section"), 0, 1); err != nil {
			return apiError(err)
		}
		return err
	}
	page, err := s.PersonSection(r.Context(), r.PathValue("slug"), r.PathValue("id"), r.PathValue("section"), offset, limit)
	return httpx.Reply(w, http.StatusOK, page, apiError(err))
}

// GetGraph answers the graph around a person (person, kind, generations) (docs/trees.md).
func (s *Service) GetGraph(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	var errs httpx.FieldErrors
	person := v.Get("person")
	if person == "" {
		errs.Add("person", "The person field is required.")
	}
	kind := v.Get("kind")
	if kind == "" {
		kind = "hourglass"
	}
	if !ValidGraphKind(kind) {
		errs.Add("kind", "The kind must be one of pedigree, descendants, hourglass.")
	}
	gens := 4
	if x := v.Get("generations"); x != "" {
		n, err := strconv.Atoi(x)
		if err != nil || n < 1 || n > MaxGraphGenerations {
			errs.Add("generations", "The generations must be a whole number from 1 to 10.")
		}
		gens = n
	}
	if err := errs.Err(); err != nil {
		if _, err := s.Tree(r.Context(), r.PathValue("slug")); err != nil {
			return apiError(err)
		}
		return err
	}
	g, err := s.Graph(r.Context(), r.PathValue("slug"), person, kind, gens)
	return httpx.Reply(w, http.StatusOK, g, apiError(err))
}

// SearchPeople answers the pedigree search across the published trees (docs/trees.md).
func (s *Service) SearchPeople(w http.ResponseWriter, r *http.Request) error {
	q, err := ParsePeopleQuery(r.URL.Query(), 20, 100)
	if err != nil {
		return err
	}
	res, err := s.Search(r.Context(), q)
	return httpx.Reply(w, http.StatusOK, res, apiError(err))
}

// ListOwnTrees answers the trees the signed-in member uploaded (docs/trees.md).
func (s *Service) ListOwnTrees(w http.ResponseWriter, r *http.Request) error {
	v := s.viewerOf(r.Context())
	if v.ID == 0 {
		return httpx.ErrUnauthenticated
	}
	ts, err := s.OwnTrees(r.Context(), v)
	return httpx.Reply(w, http.StatusOK, map[string]any{"trees": ts}, apiError(err))
}

// Publish publishes a tree, for staff.
func (s *Service) Publish(w http.ResponseWriter, r *http.Request) error {
	return s.setPublished(w, r, true)
}

// Unpublish takes a tree off the published list, for staff.
func (s *Service) Unpublish(w http.ResponseWriter, r *http.Request) error {
	return s.setPublished(w, r, false)
}

func (s *Service) setPublished(w http.ResponseWriter, r *http.Request, publish bool) error {
	slug, v, err := s.staffOn(r)
	if err != nil {
		return err
	}
	if err := s.SetPublished(r.Context(), slug, publish); err != nil {
		return apiError(err)
	}
	return s.answerTree(w, r, slug, v)
}

// staffOn is the tree of the request's path and its viewer, when the viewer is staff:
// 401 anonymously, 404 for a tree they cannot see, 403 to others.
func (s *Service) staffOn(r *http.Request) (string, Viewer, error) {
	v := s.viewerOf(r.Context())
	if v.ID == 0 {
		return "", v, httpx.ErrUnauthenticated
	}
	slug := r.PathValue("slug")
	if _, err := s.visibleTree(r.Context(), slug, v); err != nil {
		return "", v, apiError(err)
	}
	if !v.staff() {
		return "", v, httpx.ErrForbidden
	}
	return slug, v, nil
}

// answerTree answers the tree as the viewer now sees it.
func (s *Service) answerTree(w http.ResponseWriter, r *http.Request, slug string, v Viewer) error {
	t, err := s.visibleTree(r.Context(), slug, v)
	return httpx.Reply(w, http.StatusOK, t, apiError(err))
}

// SetTreeAccess sets a tree's access level: {"access": "public" | "registered" |
// "members" | "scopes:…"}, for staff.
func (s *Service) SetTreeAccess(w http.ResponseWriter, r *http.Request) error {
	slug, v, err := s.staffOn(r)
	if err != nil {
		return err
	}
	var body struct {
		Access string `json:"access"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxAccessBody)).Decode(&body); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &httpx.Error{Code: httpx.ETOOLARGE, Message: "The body of a tree's access may be at most 4 KB."}
		}
		return httpx.Invalid("access", "Send {\"access\": \"public\" | \"registered\" | \"members\" | \"scopes:…\"}.")
	}
	if err := s.SetAccess(r.Context(), slug, body.Access); err != nil {
		return apiError(err)
	}
	return s.answerTree(w, r, slug, v)
}

// maxAccessBody bounds the body of POST /api/trees/{slug}/access.
const maxAccessBody = 4 << 10

// DeleteTree deletes a tree: its owner while it is unpublished, or staff (docs/trees.md).
func (s *Service) DeleteTree(w http.ResponseWriter, r *http.Request) error {
	v := s.viewerOf(r.Context())
	if v.ID == 0 {
		return httpx.ErrUnauthenticated
	}
	slug := r.PathValue("slug")
	t, err := s.visibleTree(r.Context(), slug, v)
	if err != nil {
		return apiError(err)
	}
	if !v.staff() && !(t.OwnerID == v.ID && !t.Published) {
		return httpx.ErrForbidden
	}
	return httpx.NoContent(w, apiError(s.Delete(r.Context(), slug)))
}

// UploadResult is the answer to an upload.
type UploadResult struct {
	Tree         *Tree    `json:"tree"`
	Warnings     []string `json:"warnings"`
	WarningCount int      `json:"warning_count"`
}

// Upload imports a GEDCOM or GEDZIP upload as a new, unpublished tree of the signed-in
// member (docs/trees.md).
func (s *Service) Upload(w http.ResponseWriter, r *http.Request) error {
	v := s.viewerOf(r.Context())
	if v.ID == 0 {
		return httpx.ErrUnauthenticated
	}
	lim := s.limits
	// The form's other fields and the multipart framing get 1 MB beside the file.
	r.Body = http.MaxBytesReader(w, r.Body, lim.UploadBytes+1<<20)
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge("file", lim.uploadTooLarge())
		}
		return httpx.Invalid("file", "Send the file as multipart/form-data.")
	}
	defer r.MultipartForm.RemoveAll()
	var errs httpx.FieldErrors
	// The one rule for text fields (textfield): a title is one line, a description
	// may hold line breaks; neither may hold other control characters.
	title, err := textfield.SingleLine(r.FormValue("title"), 200)
	switch {
	case errors.Is(err, textfield.ErrTooLong):
		errs.Add("title", "The title may be at most 200 characters.")
	case err != nil:
		errs.Add("title", "The title must be a single line without control characters.")
	case title == "":
		errs.Add("title", "The title field is required.")
	}
	desc, err := textfield.MultiLine(r.FormValue("description"), 2000)
	switch {
	case errors.Is(err, textfield.ErrTooLong):
		errs.Add("description", "The description may be at most 2000 characters.")
	case err != nil:
		errs.Add("description", "The description may hold line breaks but no other control characters.")
	}
	f, fh, err := r.FormFile("file")
	if err != nil {
		errs.Add("file", "The file field is required.")
	} else {
		defer f.Close()
		ext := strings.ToLower(filepath.Ext(fh.Filename))
		switch {
		case !textfield.Valid(fh.Filename):
			errs.Add("file", "The file name must be a single line without control characters.")
		case ext != ".ged" && ext != ".gdz":
			errs.Add("file", "The file must be a GEDCOM file (.ged) or a GEDZIP archive (.gdz).")
		case fh.Size > lim.UploadBytes:
			return tooLarge("file", lim.uploadTooLarge())
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}
	// Per-member limits: the trees a member owns, and the GEDCOM they hold together (the
	// file's own bytes are counted as it is read, against what is left).
	var used, room int64
	if !v.staff() {
		own, err := s.OwnTrees(r.Context(), v)
		if err != nil {
			return apiError(err)
		}
		if len(own) >= lim.TreesPerMember {
			return httpx.Invalid("file", "%s", lim.tooManyTrees())
		}
		if used, err = s.ownedBytes(r.Context(), v.ID); err != nil {
			return apiError(err)
		}
		if room = lim.BytesPerMember - used; room <= 0 {
			return httpx.Invalid("file", "%s", lim.limitMessage(&gedcom.LimitError{Kind: gedcom.LimitBytes}, used))
		}
	}
	rd, err := openUpload(f, fh, &gedcom.Options{Limits: lim.readerLimits(room)})
	var le *gedcom.LimitError
	if errors.As(err, &le) {
		return httpx.Invalid("file", "%s", lim.limitMessage(le, used))
	}
	if err != nil || rd.Header().Record == nil {
		return httpx.Invalid("file", "The file is not a GEDCOM file.")
	}
	defer rd.Close()
	slug, err := s.freeSlug(r.Context(), title)
	if err != nil {
		return apiError(err)
	}
	pub := false
	rep, err := s.Import(r.Context(), rd, ImportOptions{Slug: slug, Title: title, Description: desc, OwnerID: v.ID,
		Published: &pub, SourceFile: filepath.Base(fh.Filename)})
	if errors.As(err, &le) {
		return httpx.Invalid("file", "%s", lim.limitMessage(le, used))
	}
	if err != nil {
		return apiError(err)
	}
	rep.Tree.CanManage = true
	res := UploadResult{Tree: rep.Tree, Warnings: []string{}, WarningCount: rep.WarningCount}
	for i, wn := range rep.Warnings {
		if i == maxUploadWarnings {
			break
		}
		res.Warnings = append(res.Warnings, wn.String())
	}
	httpx.JSON(w, http.StatusCreated, res)
	return nil
}

func openUpload(f multipart.File, fh *multipart.FileHeader, opts *gedcom.Options) (*gedcom.Reader, error) {
	head := make([]byte, 4)
	n, _ := f.ReadAt(head, 0)
	if bytes.HasPrefix(head[:n], []byte("PK\x03\x04")) {
		return gedcom.OpenGEDZIP(f, fh.Size, opts)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return gedcom.NewReader(f, opts)
}

// Slugify makes a slug from a title: folded letters and digits joined by hyphens.
func Slugify(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 0x80 && names.Fold(string(r)) != "":
			b.WriteString(strings.ReplaceAll(names.Fold(string(r)), " ", "-"))
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Join(strings.FieldsFunc(b.String(), func(r rune) bool { return r == '-' }), "-")
	for len(s) > 80 {
		i := strings.LastIndexByte(s[:80], '-')
		if i <= 0 {
			s = s[:80]
			break
		}
		s = s[:i]
	}
	if s == "" {
		s = "tree"
	}
	return s
}

// freeSlug finds an unused slug for a title: the slug, then -2, -3…
func (s *Service) freeSlug(ctx context.Context, title string) (string, error) {
	base := Slugify(title)
	for i := 1; ; i++ {
		slug := base
		if i > 1 {
			slug = base + "-" + strconv.Itoa(i)
		}
		if !ValidSlug(slug) {
			continue
		}
		_, err := s.treeBySlug(ctx, s.db, slug)
		if errors.Is(err, ErrNotFound) {
			return slug, nil
		}
		if err != nil {
			return "", err
		}
	}
}

// tooLarge is a 413 naming the field whose value is over its limit, with the field's
// error as a 422 gives it.
func tooLarge(field, msg string) error {
	return &httpx.Error{Code: httpx.ETOOLARGE, Message: msg, Fields: map[string][]string{field: {msg}}}
}
