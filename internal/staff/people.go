package staff

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"lineage/internal/auth"
	"lineage/internal/httpx"
)

// Person is an account as the people screens show it.
type Person struct {
	ID            int64      `json:"id"`
	Name          string     `json:"name"`
	Email         string     `json:"email"`
	Role          string     `json:"role"`
	Disabled      bool       `json:"disabled"`
	DisabledAt    *time.Time `json:"disabled_at"`
	EmailVerified bool       `json:"email_verified"`
	CreatedAt     time.Time  `json:"created_at"`
	LastSeenAt    *time.Time `json:"last_seen_at"`
}

func personOf(u *auth.User, seen map[int64]time.Time) Person {
	p := Person{ID: u.ID, Name: u.Name, Email: u.Email, Role: u.Role, Disabled: u.DisabledAt != nil, DisabledAt: u.DisabledAt,
		EmailVerified: u.Verified(), CreatedAt: u.CreatedAt}
	if t, ok := seen[u.ID]; ok {
		p.LastSeenAt = &t
	}
	return p
}

// maxQueryText bounds a search text.
const maxQueryText = 200

// pageArgs reads offset and limit (1..200, default 50).
func pageArgs(fe *httpx.FieldErrors, v interface{ Get(string) string }) (offset, limit int) {
	limit = fe.Whole("limit", v.Get("limit"), 1, 200, 50)
	offset = fe.Whole("offset", v.Get("offset"), 0, 1_000_000, 0)
	return offset, limit
}

// ParsePeopleQuery reads the people list's query: q (part of a name or address, at
// most 200 characters), role, status (active or disabled), offset and limit.
func ParsePeopleQuery(v url.Values) (auth.UserQuery, error) {
	var fe httpx.FieldErrors
	q := auth.UserQuery{Text: strings.TrimSpace(v.Get("q")), Role: v.Get("role")}
	if utf8.RuneCountInString(q.Text) > maxQueryText || !utf8.ValidString(q.Text) {
		fe.Add("q", "The search may be at most %d characters.", maxQueryText)
	}
	if q.Role != "" && !auth.ValidRole(q.Role) {
		fe.Add("role", "The role must be one of %s.", strings.Join(auth.Roles, ", "))
	}
	switch v.Get("status") {
	case "":
	case "active":
		f := false
		q.Disabled = &f
	case "disabled":
		t := true
		q.Disabled = &t
	default:
		fe.Add("status", "The status must be active or disabled.")
	}
	q.Offset, q.Limit = pageArgs(&fe, v)
	return q, fe.Err()
}

// ListPeople is GET /api/studio/people?q=&role=&status=&offset=&limit=.
func (s *Service) ListPeople(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	q, err := ParsePeopleQuery(r.URL.Query())
	if err != nil {
		return err
	}
	users, total, err := s.opt.Accounts.SearchUsers(r.Context(), q)
	if err != nil {
		return err
	}
	ids := make([]int64, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	seen, err := s.opt.Accounts.LastSeen(r.Context(), ids)
	if err != nil {
		return err
	}
	out := make([]Person, len(users))
	for i, u := range users {
		out[i] = personOf(u, seen)
	}
	// roles: what a role select offers, in auth's order.
	httpx.JSON(w, http.StatusOK, map[string]any{"people": out, "total": total, "offset": q.Offset, "limit": q.Limit, "roles": auth.Roles})
	return nil
}

// person loads the account of the path's {id}.
func (s *Service) person(r *http.Request) (*auth.User, error) {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	u, err := s.opt.Accounts.UserByID(r.Context(), id)
	if errors.Is(err, auth.ErrNotFound) {
		return nil, errNotFound
	}
	return u, err
}

func (s *Service) answerPerson(w http.ResponseWriter, r *http.Request, id int64) error {
	u, err := s.opt.Accounts.UserByID(r.Context(), id)
	if err != nil {
		return err
	}
	seen, err := s.opt.Accounts.LastSeen(r.Context(), []int64{id})
	return httpx.Reply(w, http.StatusOK, map[string]any{"person": personOf(u, seen)}, err)
}

// GetPerson is GET /api/studio/people/{id}.
func (s *Service) GetPerson(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	u, err := s.person(r)
	if err != nil {
		return err
	}
	return s.answerPerson(w, r, u.ID)
}

func summaryOf(u *auth.User) string { return fmt.Sprintf("%s (%s)", u.Name, u.Email) }

func subjectOf(u *auth.User) string { return "user:" + strconv.FormatInt(u.ID, 10) }

// errSelf: an admin may not change their own role or disable themself, so that the
// last admin cannot lock everyone out by a slip.
var errSelf = &httpx.Error{Code: httpx.EFORBIDDEN, Message: "You cannot change your own account here; ask another admin."}

// PutRole is PUT /api/studio/people/{id}/role {"role"}.
func (s *Service) PutRole(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	u, err := s.person(r)
	if err != nil {
		return err
	}
	var in struct {
		Role string `json:"role"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if !auth.ValidRole(in.Role) {
		return httpx.Invalid("role", "The role must be one of %s.", strings.Join(auth.Roles, ", "))
	}
	if u.ID == me.ID {
		return errSelf
	}
	if in.Role != u.Role {
		if err := s.opt.Accounts.SetRole(r.Context(), u.ID, in.Role); err != nil {
			return err
		}
		if err := s.record(r.Context(), me, ActionUserRole, subjectOf(u), summaryOf(u),
			map[string]string{"role": u.Role}, map[string]string{"role": in.Role}); err != nil {
			return err
		}
	}
	return s.answerPerson(w, r, u.ID)
}

// PostDisable is POST /api/studio/people/{id}/disable.
func (s *Service) PostDisable(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	return s.setDisabled(w, r, me, true)
}

// PostEnable is POST /api/studio/people/{id}/enable.
func (s *Service) PostEnable(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	return s.setDisabled(w, r, me, false)
}

func (s *Service) setDisabled(w http.ResponseWriter, r *http.Request, me *auth.User, disabled bool) error {
	u, err := s.person(r)
	if err != nil {
		return err
	}
	if u.ID == me.ID {
		return errSelf
	}
	was := u.DisabledAt != nil
	if was != disabled {
		if err := s.opt.Accounts.SetDisabled(r.Context(), u.ID, disabled); err != nil {
			return err
		}
		action := ActionUserEnable
		if disabled {
			action = ActionUserDisable
		}
		if err := s.record(r.Context(), me, action, subjectOf(u), summaryOf(u),
			map[string]bool{"disabled": was}, map[string]bool{"disabled": disabled}); err != nil {
			return err
		}
	}
	return s.answerPerson(w, r, u.ID)
}

// PostPasswordReset is POST /api/studio/people/{id}/password-reset: the "forgot
// password" mail, sent on the person's behalf.
func (s *Service) PostPasswordReset(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	u, err := s.person(r)
	if err != nil {
		return err
	}
	if u.DisabledAt != nil {
		return httpx.Invalid("person", "This account is disabled: enable it before sending a password reset.")
	}
	switch err := s.opt.Accounts.SendPasswordReset(r.Context(), u); {
	case errors.Is(err, auth.ErrMailTooSoon):
		return &httpx.Error{Code: httpx.ETOOMANY, Message: "A reset link went to this address less than a minute ago; please wait a minute.", RetryAfter: time.Minute}
	case err != nil:
		return err
	}
	if err := s.record(r.Context(), me, ActionUserPasswordReset, subjectOf(u), summaryOf(u), nil, nil); err != nil {
		return err
	}
	httpx.JSON(w, http.StatusAccepted, map[string]string{"message": fmt.Sprintf("We have emailed %s a link to reset the password.", u.Name)})
	return nil
}
