package newsletter

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"lineage/internal/httpx"
)

// The room's HTTP API (docs/newsletter.md); cmd/lineage/routes.go lists the routes
// with their access, which each handler's adapter (SignedIn, Staff, Admin) enforces.

// handlerFunc is a handler of the room, told who asks.
type handlerFunc func(w http.ResponseWriter, r *http.Request, v Viewer) error

// viewer is who asks. A method value, so that the route table can be built before
// the room is.
func (s *Service) viewer(r *http.Request) Viewer { return s.opt.Viewer(r) }

// SignedIn makes fn a handler for accounts only; anonymous callers get a 401.
func (s *Service) SignedIn(fn handlerFunc) httpx.HandlerFunc {
	return httpx.Guard(s.viewer, signedIn, fn)
}

// Staff makes fn a handler for editors and admins: 401 anonymously, 403 to others.
func (s *Service) Staff(fn handlerFunc) httpx.HandlerFunc {
	return httpx.Guard(s.viewer, func(v Viewer) error {
		if err := signedIn(v); err != nil || v.Staff || v.Admin {
			return err
		}
		return httpx.ErrForbidden
	}, fn)
}

// Admin makes fn a handler for admins only: 401 anonymously, 403 to other accounts.
func (s *Service) Admin(fn handlerFunc) httpx.HandlerFunc {
	return httpx.Guard(s.viewer, func(v Viewer) error {
		if err := signedIn(v); err != nil || v.Admin {
			return err
		}
		return httpx.ErrForbidden
	}, fn)
}

func signedIn(v Viewer) error {
	if v.ID == 0 {
		return httpx.ErrUnauthenticated
	}
	return nil
}

// GetLists answers GET /api/newsletter/lists.
func (s *Service) GetLists(w http.ResponseWriter, r *http.Request) error {
	ls, err := s.Lists(r.Context())
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": ls}, err)
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
	return httpx.Reply(w, http.StatusOK, c, err)
}

// GetPreferences answers GET /api/newsletter/preferences?token=.
func (s *Service) GetPreferences(w http.ResponseWriter, r *http.Request) error {
	c, err := s.Preferences(r.Context(), r.URL.Query().Get("token"))
	return httpx.Reply(w, http.StatusOK, c, err)
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
	return httpx.Reply(w, http.StatusOK, c, err)
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
	return httpx.Reply(w, http.StatusOK, c, err)
}

// PostOneClick answers the RFC 8058 POST to a message's List-Unsubscribe address. It
// is mounted without the session middleware: mail providers send it with no cookie
// and no CSRF token, and the signed token in the address is the authority.
func (s *Service) PostOneClick(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	ok, err := s.OneClick(r.Context(), q.Get("token"), q.Get("list"))
	if err == nil && !ok {
		err = errNotFound
	}
	return httpx.Reply(w, http.StatusOK, map[string]any{"message": "You have been unsubscribed."}, err)
}

// GetOneClick sends a person who opens the List-Unsubscribe address to the page that
// asks (a GET must change nothing: mail scanners follow links).
func (s *Service) GetOneClick(w http.ResponseWriter, r *http.Request) error {
	tok := r.URL.Query().Get("token")
	target := "/newsletter/preferences?token=" + url.QueryEscape(tok)
	if len(tok) > 0 && tok[0] == 'a' {
		target = "/saved-searches"
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target, http.StatusSeeOther)
	return nil
}

// GetMe answers GET /api/newsletter/me.
func (s *Service) GetMe(w http.ResponseWriter, r *http.Request, v Viewer) error {
	c, err := s.Me(r.Context(), v)
	return httpx.Reply(w, http.StatusOK, c, err)
}

// PutMe answers PUT /api/newsletter/me {lists, source?, wording?}.
func (s *Service) PutMe(w http.ResponseWriter, r *http.Request, v Viewer) error {
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
	return s.GetMe(w, r, v)
}

// GetAlerts answers GET /api/newsletter/alerts.
func (s *Service) GetAlerts(w http.ResponseWriter, r *http.Request, v Viewer) error {
	as, err := s.Alerts(r.Context(), v.ID)
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": as}, err)
}

// PutAlert answers PUT /api/newsletter/alerts/{id} {frequency}.
func (s *Service) PutAlert(w http.ResponseWriter, r *http.Request, v Viewer) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	var in struct{ Frequency string }
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	a, err := s.SetAlert(r.Context(), v.ID, id, in.Frequency)
	return httpx.Reply(w, http.StatusOK, a, err)
}

// DeleteAlertHandler answers DELETE /api/newsletter/alerts/{id}.
func (s *Service) DeleteAlertHandler(w http.ResponseWriter, r *http.Request, v Viewer) error {
	id, err := httpx.PathID(r, "id")
	if err == nil {
		err = s.DeleteAlert(r.Context(), v.ID, id)
	}
	return httpx.NoContent(w, err)
}

// GetArchive answers GET /api/newsletter/editions.
func (s *Service) GetArchive(w http.ResponseWriter, r *http.Request) error {
	a, err := s.Archive(r.Context(), 200)
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": a}, err)
}

// GetArchived answers GET /api/newsletter/editions/{id}.
func (s *Service) GetArchived(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	a, err := s.ArchivedEdition(r.Context(), id)
	return httpx.Reply(w, http.StatusOK, a, err)
}

// AdminGetLists answers GET /api/admin/newsletter/lists, with each list's subscribers.
func (s *Service) AdminGetLists(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	ls, err := s.Lists(r.Context())
	if err != nil {
		return err
	}
	counts, err := s.subscriberCounts(r.Context())
	for _, l := range ls {
		n := counts[l.ID]
		l.Subscribers = &n
	}
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": ls}, err)
}

// AdminPostList answers POST /api/admin/newsletter/lists.
func (s *Service) AdminPostList(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	var in ListInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	l, err := s.SaveList(r.Context(), in, true)
	return httpx.Reply(w, http.StatusCreated, l, err)
}

// AdminPutList answers PUT /api/admin/newsletter/lists/{slug}.
func (s *Service) AdminPutList(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	var in ListInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	in.Slug = r.PathValue("slug")
	l, err := s.SaveList(r.Context(), in, false)
	return httpx.Reply(w, http.StatusOK, l, err)
}

// AdminGetDocuments answers GET /api/admin/newsletter/documents.
func (s *Service) AdminGetDocuments(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	docs := []DocumentInfo{}
	var err error
	if s.opt.Content != nil {
		docs, err = s.opt.Content.NewsletterDocuments(r.Context())
	}
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": docs}, err)
}

// AdminGetEditions answers GET /api/admin/newsletter/editions.
func (s *Service) AdminGetEditions(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	es, err := s.Editions(r.Context())
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": es}, err)
}

// AdminPostEdition answers POST /api/admin/newsletter/editions.
func (s *Service) AdminPostEdition(w http.ResponseWriter, r *http.Request, v Viewer) error {
	var in EditionInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	e, err := s.SaveEdition(r.Context(), v, 0, in)
	return httpx.Reply(w, http.StatusCreated, e, err)
}

// AdminGetEdition answers GET /api/admin/newsletter/editions/{id}.
func (s *Service) AdminGetEdition(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	return s.onEdition(w, r, s.Edition)
}

// AdminPatchEdition answers PATCH /api/admin/newsletter/editions/{id}.
func (s *Service) AdminPatchEdition(w http.ResponseWriter, r *http.Request, v Viewer) error {
	var in EditionInput
	return s.onEdition(w, r, func(ctx context.Context, id int64) (*Edition, error) {
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return nil, err
		}
		return s.SaveEdition(ctx, v, id, in)
	})
}

// AdminPreview answers GET /api/admin/newsletter/editions/{id}/preview.
func (s *Service) AdminPreview(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	subject, html, text, err := s.Preview(r.Context(), id)
	return httpx.Reply(w, http.StatusOK, map[string]any{"subject": subject, "html": html, "text": text}, err)
}

// AdminTest answers POST /api/admin/newsletter/editions/{id}/test.
func (s *Service) AdminTest(w http.ResponseWriter, r *http.Request, v Viewer) error {
	id, err := httpx.PathID(r, "id")
	if err == nil {
		err = s.SendTest(r.Context(), v, id)
	}
	return httpx.Reply(w, http.StatusAccepted, map[string]any{"message": "A test copy is on its way to " + v.Email + "."}, err)
}

// AdminSend answers POST /api/admin/newsletter/editions/{id}/send {at?}.
func (s *Service) AdminSend(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	return s.onEdition(w, r, func(ctx context.Context, id int64) (*Edition, error) {
		var in struct{ At string }
		if err := httpx.DecodeJSON(w, r, &in); err != nil {
			return nil, err
		}
		var at time.Time
		if in.At != "" {
			var err error
			if at, err = time.Parse(time.RFC3339, in.At); err != nil {
				return nil, httpx.Invalid("at", "The time must be like 2026-12-01T09:00:00Z.")
			}
		}
		return s.Send(ctx, id, at)
	})
}

// AdminCancel answers POST /api/admin/newsletter/editions/{id}/cancel.
func (s *Service) AdminCancel(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	return s.onEdition(w, r, s.Cancel)
}

// AdminRecipients answers GET /api/admin/newsletter/editions/{id}/recipients?status=.
func (s *Service) AdminRecipients(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	rs, err := s.Recipients(r.Context(), id, r.URL.Query().Get("status"), 500)
	return httpx.Reply(w, http.StatusOK, map[string]any{"data": rs}, err)
}

// onEdition answers what call makes of the edition the path names.
func (s *Service) onEdition(w http.ResponseWriter, r *http.Request, call func(ctx context.Context, id int64) (*Edition, error)) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	e, err := call(r.Context(), id)
	return httpx.Reply(w, http.StatusOK, e, err)
}
