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

// Patterns are the front-door ServeMux patterns Handler serves.
var Patterns = []string{"/api/trees", "/api/trees/"}

// maxUploadWarnings is how many of an upload's warnings its answer lists.
const maxUploadWarnings = 100

// Handler serves the API of docs/trees.md; wrap it in the accounts middleware.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/trees", s.handleTrees)
	mux.HandleFunc("GET /api/trees/search", s.handleSearch)
	mux.HandleFunc("GET /api/trees/uploads", s.handleOwnTrees)
	mux.HandleFunc("POST /api/trees/uploads", s.handleUpload)
	mux.HandleFunc("GET /api/trees/{slug}", s.handleTree)
	mux.HandleFunc("DELETE /api/trees/{slug}", s.handleDelete)
	mux.HandleFunc("GET /api/trees/{slug}/surnames", s.handleSurnames)
	mux.HandleFunc("GET /api/trees/{slug}/people", s.handlePeople)
	mux.HandleFunc("GET /api/trees/{slug}/people/{id}", s.handlePerson)
	mux.HandleFunc("GET /api/trees/{slug}/people/{id}/{section}", s.handlePersonSection)
	mux.HandleFunc("GET /api/trees/{slug}/graph", s.handleGraph)
	mux.HandleFunc("POST /api/trees/{slug}/publish", func(w http.ResponseWriter, r *http.Request) { s.handlePublish(w, r, true) })
	mux.HandleFunc("POST /api/trees/{slug}/unpublish", func(w http.ResponseWriter, r *http.Request) { s.handlePublish(w, r, false) })
	mux.HandleFunc("POST /api/trees/{slug}/access", s.handleAccess)
	return httpx.NoRoute(mux,
		func(w http.ResponseWriter, r *http.Request) { writeMessage(w, http.StatusNotFound, "Not Found") },
		func(w http.ResponseWriter, r *http.Request) {
			writeMessage(w, http.StatusMethodNotAllowed, "The "+r.Method+" method is not supported for this URL.")
		})
}

func writeMessage(w http.ResponseWriter, status int, msg string) {
	httpx.JSON(w, status, map[string]string{"message": msg})
}

// writeFieldError answers status with one field's error, in writeInvalid's shape (413 for
// a body over its limit).
func writeFieldError(w http.ResponseWriter, status int, field, msg string) {
	httpx.JSON(w, status, map[string]any{"message": msg, "errors": FieldErrors{field: {msg}}})
}

func writeInvalid(w http.ResponseWriter, errs FieldErrors) {
	n := 0
	for _, m := range errs {
		n += len(m)
	}
	msg := errs.Error()
	if n > 1 {
		msg += " (and " + strconv.Itoa(n-1) + " more error"
		if n > 2 {
			msg += "s"
		}
		msg += ")"
	}
	httpx.JSON(w, http.StatusUnprocessableEntity, map[string]any{"message": msg, "errors": errs})
}

func (s *Service) fail(w http.ResponseWriter, r *http.Request, err error) {
	var fe FieldErrors
	switch {
	case errors.Is(err, ErrNotFound):
		writeMessage(w, http.StatusNotFound, "Not Found")
	case errors.Is(err, ErrRestricted):
		w.Header().Set("Vary", "Cookie, Authorization")
		writeMessage(w, http.StatusUnauthorized, "This tree's people are for members: sign in with an account whose membership opens it (join or renew at /subscribe).")
	case errors.As(err, &fe):
		writeInvalid(w, fe)
	case errors.Is(err, context.Canceled):
		writeMessage(w, 499, "Client Closed Request")
	default:
		s.log.Error("trees", "path", r.URL.Path, "err", err)
		writeMessage(w, http.StatusInternalServerError, "Server Error")
	}
}

func (s *Service) handleTrees(w http.ResponseWriter, r *http.Request) {
	ts, err := s.Trees(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"trees": ts})
}

func (s *Service) handleTree(w http.ResponseWriter, r *http.Request) {
	t, err := s.Tree(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, t)
}

func (s *Service) handleSurnames(w http.ResponseWriter, r *http.Request) {
	sn, err := s.Surnames(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"surnames": sn})
}

func (s *Service) handlePeople(w http.ResponseWriter, r *http.Request) {
	q, errs := ParsePeopleQuery(r.URL.Query(), 50, 200)
	if errs != nil {
		// An unknown tree is 404 before a bad query is 422.
		if _, err := s.Tree(r.Context(), r.PathValue("slug")); err != nil {
			s.fail(w, r, err)
			return
		}
		writeInvalid(w, errs)
		return
	}
	page, err := s.People(r.Context(), r.PathValue("slug"), q)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, page)
}

func (s *Service) handlePerson(w http.ResponseWriter, r *http.Request) {
	p, err := s.Person(r.Context(), r.PathValue("slug"), r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, p)
}

func (s *Service) handlePersonSection(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	errs := FieldErrors{}
	num := func(field string, lo, hi int) int {
		x := v.Get(field)
		if x == "" {
			return 0
		}
		n, err := strconv.Atoi(x)
		if err != nil || n < lo || n > hi {
			errs.add(field, "The "+field+" must be a whole number from "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi)+".")
		}
		return n
	}
	offset := num("offset", 0, 1_000_000)
	limit := num("limit", 1, s.limits.PersonItems)
	if len(errs) > 0 {
		// An unknown person is 404 before a bad query is 422.
		if _, err := s.PersonSection(r.Context(), r.PathValue("slug"), r.PathValue("id"), r.PathValue("section"), 0, 1); err != nil {
			s.fail(w, r, err)
			return
		}
		writeInvalid(w, errs)
		return
	}
	page, err := s.PersonSection(r.Context(), r.PathValue("slug"), r.PathValue("id"), r.PathValue("section"), offset, limit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, page)
}

func (s *Service) handleGraph(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	errs := FieldErrors{}
	person := v.Get("person")
	if person == "" {
		errs.add("person", "The person field is required.")
	}
	kind := v.Get("kind")
	if kind == "" {
		kind = "hourglass"
	}
	if !ValidGraphKind(kind) {
		errs.add("kind", "The kind must be one of pedigree, descendants, hourglass.")
	}
	gens := 4
	if x := v.Get("generations"); x != "" {
		n, err := strconv.Atoi(x)
		if err != nil || n < 1 || n > MaxGraphGenerations {
			errs.add("generations", "The generations must be a whole number from 1 to 10.")
		}
		gens = n
	}
	if len(errs) > 0 {
		if _, err := s.Tree(r.Context(), r.PathValue("slug")); err != nil {
			s.fail(w, r, err)
			return
		}
		writeInvalid(w, errs)
		return
	}
	g, err := s.Graph(r.Context(), r.PathValue("slug"), person, kind, gens)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, g)
}

func (s *Service) handleSearch(w http.ResponseWriter, r *http.Request) {
	q, errs := ParsePeopleQuery(r.URL.Query(), 20, 100)
	if errs != nil {
		writeInvalid(w, errs)
		return
	}
	res, err := s.Search(r.Context(), q)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, res)
}

func (s *Service) handleOwnTrees(w http.ResponseWriter, r *http.Request) {
	v := s.viewerOf(r.Context())
	if v.ID == 0 {
		writeMessage(w, http.StatusUnauthorized, "Unauthenticated.")
		return
	}
	ts, err := s.OwnTrees(r.Context(), v)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"trees": ts})
}

func (s *Service) handlePublish(w http.ResponseWriter, r *http.Request, publish bool) {
	v := s.viewerOf(r.Context())
	if v.ID == 0 {
		writeMessage(w, http.StatusUnauthorized, "Unauthenticated.")
		return
	}
	slug := r.PathValue("slug")
	if _, err := s.visibleTree(r.Context(), slug, v); err != nil {
		s.fail(w, r, err)
		return
	}
	if !v.staff() {
		writeMessage(w, http.StatusForbidden, "This action is unauthorized.")
		return
	}
	if err := s.SetPublished(r.Context(), slug, publish); err != nil {
		s.fail(w, r, err)
		return
	}
	t, err := s.visibleTree(r.Context(), slug, v)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, t)
}

// handleAccess sets a tree's access level: {"access": "public" | "registered" |
// "members" | "scopes:…"}, for staff.
func (s *Service) handleAccess(w http.ResponseWriter, r *http.Request) {
	v := s.viewerOf(r.Context())
	if v.ID == 0 {
		writeMessage(w, http.StatusUnauthorized, "Unauthenticated.")
		return
	}
	slug := r.PathValue("slug")
	if _, err := s.visibleTree(r.Context(), slug, v); err != nil {
		s.fail(w, r, err)
		return
	}
	if !v.staff() {
		writeMessage(w, http.StatusForbidden, "This action is unauthorized.")
		return
	}
	var body struct {
		Access string `json:"access"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxAccessBody)).Decode(&body); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeMessage(w, http.StatusRequestEntityTooLarge, "The body of a tree's access may be at most 4 KB.")
			return
		}
		writeInvalid(w, FieldErrors{"access": {"Send {\"access\": \"public\" | \"registered\" | \"members\" | \"scopes:…\"}."}})
		return
	}
	if err := s.SetAccess(r.Context(), slug, body.Access); err != nil {
		s.fail(w, r, err)
		return
	}
	t, err := s.visibleTree(r.Context(), slug, v)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, t)
}

// maxAccessBody bounds the body of POST /api/trees/{slug}/access.
const maxAccessBody = 4 << 10

func (s *Service) handleDelete(w http.ResponseWriter, r *http.Request) {
	v := s.viewerOf(r.Context())
	if v.ID == 0 {
		writeMessage(w, http.StatusUnauthorized, "Unauthenticated.")
		return
	}
	slug := r.PathValue("slug")
	t, err := s.visibleTree(r.Context(), slug, v)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !v.staff() && !(t.OwnerID == v.ID && !t.Published) {
		writeMessage(w, http.StatusForbidden, "This action is unauthorized.")
		return
	}
	if err := s.Delete(r.Context(), slug); err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// UploadResult is the answer to an upload.
type UploadResult struct {
	Tree         *Tree    `json:"tree"`
	Warnings     []string `json:"warnings"`
	WarningCount int      `json:"warning_count"`
}

func (s *Service) handleUpload(w http.ResponseWriter, r *http.Request) {
	v := s.viewerOf(r.Context())
	if v.ID == 0 {
		writeMessage(w, http.StatusUnauthorized, "Unauthenticated.")
		return
	}
	lim := s.limits
	// The form's other fields and the multipart framing get 1 MB beside the file.
	r.Body = http.MaxBytesReader(w, r.Body, lim.UploadBytes+1<<20)
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeFieldError(w, http.StatusRequestEntityTooLarge, "file", lim.uploadTooLarge())
			return
		}
		writeInvalid(w, FieldErrors{"file": {"Send the file as multipart/form-data."}})
		return
	}
	defer r.MultipartForm.RemoveAll()
	errs := FieldErrors{}
	// The one rule for text fields (textfield): a title is one line, a description
	// may hold line breaks; neither may hold other control characters.
	title, err := textfield.SingleLine(r.FormValue("title"), 200)
	switch {
	case errors.Is(err, textfield.ErrTooLong):
		errs.add("title", "The title may be at most 200 characters.")
	case err != nil:
		errs.add("title", "The title must be a single line without control characters.")
	case title == "":
		errs.add("title", "The title field is required.")
	}
	desc, err := textfield.MultiLine(r.FormValue("description"), 2000)
	switch {
	case errors.Is(err, textfield.ErrTooLong):
		errs.add("description", "The description may be at most 2000 characters.")
	case err != nil:
		errs.add("description", "The description may hold line breaks but no other control characters.")
	}
	f, fh, err := r.FormFile("file")
	if err != nil {
		errs.add("file", "The file field is required.")
	} else {
		defer f.Close()
		ext := strings.ToLower(filepath.Ext(fh.Filename))
		switch {
		case !textfield.Valid(fh.Filename):
			errs.add("file", "The file name must be a single line without control characters.")
		case ext != ".ged" && ext != ".gdz":
			errs.add("file", "The file must be a GEDCOM file (.ged) or a GEDZIP archive (.gdz).")
		case fh.Size > lim.UploadBytes:
			writeFieldError(w, http.StatusRequestEntityTooLarge, "file", lim.uploadTooLarge())
			return
		}
	}
	if len(errs) > 0 {
		writeInvalid(w, errs)
		return
	}
	// Per-member limits: the trees a member owns, and the GEDCOM they hold together (the
	// file's own bytes are counted as it is read, against what is left).
	var used, room int64
	if !v.staff() {
		own, err := s.OwnTrees(r.Context(), v)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if len(own) >= lim.TreesPerMember {
			writeInvalid(w, FieldErrors{"file": {lim.tooManyTrees()}})
			return
		}
		if used, err = s.ownedBytes(r.Context(), v.ID); err != nil {
			s.fail(w, r, err)
			return
		}
		if room = lim.BytesPerMember - used; room <= 0 {
			writeInvalid(w, FieldErrors{"file": {lim.limitMessage(&gedcom.LimitError{Kind: gedcom.LimitBytes}, used)}})
			return
		}
	}
	rd, err := openUpload(f, fh, &gedcom.Options{Limits: lim.readerLimits(room)})
	var le *gedcom.LimitError
	if errors.As(err, &le) {
		writeInvalid(w, FieldErrors{"file": {lim.limitMessage(le, used)}})
		return
	}
	if err != nil || rd.Header().Record == nil {
		writeInvalid(w, FieldErrors{"file": {"The file is not a GEDCOM file."}})
		return
	}
	defer rd.Close()
	slug, err := s.freeSlug(r.Context(), title)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	pub := false
	rep, err := s.Import(r.Context(), rd, ImportOptions{Slug: slug, Title: title, Description: desc, OwnerID: v.ID,
		Published: &pub, SourceFile: filepath.Base(fh.Filename)})
	if errors.As(err, &le) {
		writeInvalid(w, FieldErrors{"file": {lim.limitMessage(le, used)}})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
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
