package newsletter

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"lineage/internal/httpx"
)

// The room's HTTP API (docs/newsletter.md); cmd/lineage/routes.go lists the routes
// with their access, which each handler enforces through signedIn, staff or admin.

var (
	errUnauthenticated = &httpx.Error{Code: httpx.EUNAUTHORIZED, Message: "Unauthenticated."}
	errForbidden       = &httpx.Error{Code: httpx.EFORBIDDEN, Message: "This action is unauthorized."}
)

func (s *Service) signedIn(r *http.Request) (Viewer, error) {
	v := s.opt.Viewer(r)
	if v.ID == 0 {
		return v, errUnauthenticated
	}
	return v, nil
}

func (s *Service) staff(r *http.Request) (Viewer, error) {
	v, err := s.signedIn(r)
	if err == nil && !v.Staff && !v.Admin {
		err = errForbidden
	}
	return v, err
}

func (s *Service) admin(r *http.Request) (Viewer, error) {
	v, err := s.signedIn(r)
	if err == nil && !v.Admin {
		err = errForbidden
	}
	return v, err
}

func noStore(w http.ResponseWriter) { w.Header().Set("Cache-Control", "no-store") }

func pathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNotFound
	}
	return id, nil
}

// GetLists answers GET /api/newsletter/lists.
func (s *Service) GetLists(w http.ResponseWriter, r *http.Request) error {
	ls, err := s.Lists(r.Context())
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"data": ls})
	return nil
}

// PostSubscribe answers POST /api/newsletter/subscribe.
func (s *Service) PostSubscribe(w http.ResponseWriter, r *http.Request) error {
	var in Signup
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	status, err := s.Subscribe(r.Context(), s.opt.Viewer(r), in, httpx.ClientIP(r))
	if err != nil {
		return err
	}
	noStore(w)
	if status == "subscribed" {
		httpx.JSON(w, http.StatusOK, map[string]any{"status": status, "message": "You are subscribed."})
		return nil
	}
	httpx.JSON(w, http.StatusAccepted, map[string]any{"status": status, "message": "Check your email: we have sent you a link to confirm."})
	return nil
}

// PostConfirm answers POST /api/newsletter/confirm {token}.
func (s *Service) PostConfirm(w http.ResponseWriter, r *http.Request) error {
	var in struct{ Token string }
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	c, err := s.Confirm(r.Context(), in.Token)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, c)
	return nil
}

// GetPreferences answers GET /api/newsletter/preferences?token=.
func (s *Service) GetPreferences(w http.ResponseWriter, r *http.Request) error {
	c, err := s.Preferences(r.Context(), r.URL.Query().Get("token"))
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, c)
	return nil
}

// PutPreferences answers PUT /api/newsletter/preferences {token, lists}.
func (s *Service) PutPreferences(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Token string
		Lists []string
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	c, err := s.SetPreferences(r.Context(), in.Token, in.Lists)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, c)
	return nil
}

// PostUnsubscribe answers POST /api/newsletter/unsubscribe {token, list?}.
func (s *Service) PostUnsubscribe(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Token string
		List  string
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	c, err := s.Unsubscribe(r.Context(), in.Token, in.List, "/newsletter/preferences")
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, c)
	return nil
}

// PostOneClick answers the RFC 8058 POST to a message's List-Unsubscribe address. It
// is mounted without the session middleware: mail providers send it with no cookie
// and no CSRF token, and the signed token in the address is the authority.
func (s *Service) PostOneClick(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	ok, err := s.OneClick(r.Context(), q.Get("token"), q.Get("list"))
	if err != nil {
		return err
	}
	if !ok {
		return errNotFound
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, map[string]any{"message": "You have been unsubscribed."})
	return nil
}

// GetOneClick sends a person who opens the List-Unsubscribe address to the page that
// asks (a GET must change nothing: mail scanners follow links).
func (s *Service) GetOneClick(w http.ResponseWriter, r *http.Request) error {
	tok := r.URL.Query().Get("token")
	target := "/newsletter/preferences?token=" + url.QueryEscape(tok)
	if len(tok) > 0 && tok[0] == 'a' {
		target = "/saved-searches"
	}
	noStore(w)
	http.Redirect(w, r, target, http.StatusSeeOther)
	return nil
}

// GetMe answers GET /api/newsletter/me.
func (s *Service) GetMe(w http.ResponseWriter, r *http.Request) error {
	v, err := s.signedIn(r)
	if err != nil {
		return err
	}
	c, err := s.Me(r.Context(), v)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, c)
	return nil
}

// PutMe answers PUT /api/newsletter/me {lists, source?, wording?}.
func (s *Service) PutMe(w http.ResponseWriter, r *http.Request) error {
	v, err := s.signedIn(r)
	if err != nil {
		return err
	}
	var in struct {
		Lists   []string
		Source  string
		Wording string
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if _, err := s.SetMine(r.Context(), v, in.Lists, in.Source, in.Wording); err != nil {
		return err
	}
	c, err := s.Me(r.Context(), v)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, c)
	return nil
}

// GetAlerts answers GET /api/newsletter/alerts.
func (s *Service) GetAlerts(w http.ResponseWriter, r *http.Request) error {
	v, err := s.signedIn(r)
	if err != nil {
		return err
	}
	as, err := s.Alerts(r.Context(), v.ID)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, map[string]any{"data": as})
	return nil
}

// PutAlert answers PUT /api/newsletter/alerts/{id} {frequency}.
func (s *Service) PutAlert(w http.ResponseWriter, r *http.Request) error {
	v, err := s.signedIn(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in struct{ Frequency string }
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	a, err := s.SetAlert(r.Context(), v.ID, id, in.Frequency)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, a)
	return nil
}

// DeleteAlertHandler answers DELETE /api/newsletter/alerts/{id}.
func (s *Service) DeleteAlertHandler(w http.ResponseWriter, r *http.Request) error {
	v, err := s.signedIn(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.DeleteAlert(r.Context(), v.ID, id); err != nil {
		return err
	}
	noStore(w)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// GetArchive answers GET /api/newsletter/editions.
func (s *Service) GetArchive(w http.ResponseWriter, r *http.Request) error {
	a, err := s.Archive(r.Context(), 200)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"data": a})
	return nil
}

// GetArchived answers GET /api/newsletter/editions/{id}.
func (s *Service) GetArchived(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	a, err := s.ArchivedEdition(r.Context(), id)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, a)
	return nil
}

// AdminGetLists answers GET /api/admin/newsletter/lists.
func (s *Service) AdminGetLists(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.admin(r); err != nil {
		return err
	}
	ls, err := s.Lists(r.Context())
	if err != nil {
		return err
	}
	counts, err := s.subscriberCounts(r.Context())
	if err != nil {
		return err
	}
	for _, l := range ls {
		n := counts[l.ID]
		l.Subscribers = &n
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, map[string]any{"data": ls})
	return nil
}

// AdminPostList answers POST /api/admin/newsletter/lists.
func (s *Service) AdminPostList(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.admin(r); err != nil {
		return err
	}
	var in ListInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	l, err := s.SaveList(r.Context(), in, true)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusCreated, l)
	return nil
}

// AdminPutList answers PUT /api/admin/newsletter/lists/{slug}.
func (s *Service) AdminPutList(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.admin(r); err != nil {
		return err
	}
	var in ListInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	in.Slug = r.PathValue("slug")
	l, err := s.SaveList(r.Context(), in, false)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, l)
	return nil
}

// AdminGetDocuments answers GET /api/admin/newsletter/documents.
func (s *Service) AdminGetDocuments(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.staff(r); err != nil {
		return err
	}
	docs := []DocumentInfo{}
	if s.opt.Content != nil {
		var err error
		if docs, err = s.opt.Content.NewsletterDocuments(r.Context()); err != nil {
			return err
		}
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, map[string]any{"data": docs})
	return nil
}

// AdminGetEditions answers GET /api/admin/newsletter/editions.
func (s *Service) AdminGetEditions(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.staff(r); err != nil {
		return err
	}
	es, err := s.Editions(r.Context())
	if err != nil {
		return err
	}
	if es == nil {
		es = []*Edition{}
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, map[string]any{"data": es})
	return nil
}

// AdminPostEdition answers POST /api/admin/newsletter/editions.
func (s *Service) AdminPostEdition(w http.ResponseWriter, r *http.Request) error {
	v, err := s.staff(r)
	if err != nil {
		return err
	}
	var in EditionInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	e, err := s.SaveEdition(r.Context(), v, 0, in)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusCreated, e)
	return nil
}

// AdminGetEdition answers GET /api/admin/newsletter/editions/{id}.
func (s *Service) AdminGetEdition(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.staff(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	e, err := s.Edition(r.Context(), id)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, e)
	return nil
}

// AdminPatchEdition answers PATCH /api/admin/newsletter/editions/{id}.
func (s *Service) AdminPatchEdition(w http.ResponseWriter, r *http.Request) error {
	v, err := s.staff(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in EditionInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	e, err := s.SaveEdition(r.Context(), v, id, in)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, e)
	return nil
}

// AdminPreview answers GET /api/admin/newsletter/editions/{id}/preview.
func (s *Service) AdminPreview(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.staff(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	subject, html, text, err := s.Preview(r.Context(), id)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, map[string]any{"subject": subject, "html": html, "text": text})
	return nil
}

// AdminTest answers POST /api/admin/newsletter/editions/{id}/test.
func (s *Service) AdminTest(w http.ResponseWriter, r *http.Request) error {
	v, err := s.staff(r)
	if err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.SendTest(r.Context(), v, id); err != nil {
		return err
	}
	httpx.JSON(w, http.StatusAccepted, map[string]any{"message": "A test copy is on its way to " + v.Email + "."})
	return nil
}

// AdminSend answers POST /api/admin/newsletter/editions/{id}/send {at?}.
func (s *Service) AdminSend(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.staff(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in struct{ At string }
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	var at time.Time
	if in.At != "" {
		if at, err = time.Parse(time.RFC3339, in.At); err != nil {
			return httpx.Invalid("at", "The time must be like 2026-12-01T09:00:00Z.")
		}
	}
	e, err := s.Send(r.Context(), id, at)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, e)
	return nil
}

// AdminCancel answers POST /api/admin/newsletter/editions/{id}/cancel.
func (s *Service) AdminCancel(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.staff(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	e, err := s.Cancel(r.Context(), id)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, e)
	return nil
}

// AdminRecipients answers GET /api/admin/newsletter/editions/{id}/recipients?status=.
func (s *Service) AdminRecipients(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.staff(r); err != nil {
		return err
	}
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	rs, err := s.Recipients(r.Context(), id, r.URL.Query().Get("status"), 500)
	if err != nil {
		return err
	}
	noStore(w)
	httpx.JSON(w, http.StatusOK, map[string]any{"data": rs})
	return nil
}
