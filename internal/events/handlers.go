package events

import (
	"context"
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/textfield"
)

type handlerFunc func(w http.ResponseWriter, r *http.Request, v Viewer) error

// viewer is who asks. A method value, so that the route table can be built before
// the room is.
func (s *Service) viewer(r *http.Request) Viewer { return s.opt.Viewer(r) }

// Public makes fn a handler for anyone.
func (s *Service) Public(fn handlerFunc) httpx.HandlerFunc { return s.guard(nil, fn) }

// SignedIn makes fn a handler for accounts only; anonymous callers get a 401.
func (s *Service) SignedIn(fn handlerFunc) httpx.HandlerFunc { return s.guard(signedIn, fn) }

// Staff makes fn a handler for editors and admins: 401 anonymously, 403 to others.
func (s *Service) Staff(fn handlerFunc) httpx.HandlerFunc {
	return s.guard(func(v Viewer) error {
		if err := signedIn(v); err != nil || v.Staff {
			return err
		}
		return &httpx.Error{Code: httpx.EFORBIDDEN, Message: "Only editors may manage bookings."}
	}, fn)
}

// guard makes fn a handler for the callers check lets through. What the room answers
// may depend on who asks, so no answer is stored by a shared cache.
func (s *Service) guard(check func(Viewer) error, fn handlerFunc) httpx.HandlerFunc {
	return httpx.Guard(s.viewer, check, func(w http.ResponseWriter, r *http.Request, v Viewer) error {
		w.Header().Set("Cache-Control", "private, no-store")
		return fn(w, r, v)
	})
}

func signedIn(v Viewer) error {
	if v.ID == 0 {
		return httpx.ErrUnauthenticated
	}
	return nil
}

// visitorKey is the access key a booking is answered with when it has no account: a
// visitor comes back to it by links that carry the key.
func (s *Service) visitorKey(ctx context.Context, b *Booking) string {
	if b.UserID != nil {
		return ""
	}
	key, _ := s.AccessKey(ctx, b.Ref)
	return key
}

// answerBooking writes {"booking", "checkout_url"}: the Checkout URL while a booking
// waits for payment, else null; a visitor's links carry their key.
func (s *Service) answerBooking(w http.ResponseWriter, status int, b *Booking, key, checkout string) {
	if key != "" {
		b.ICSURL += "?key=" + key
	}
	out := map[string]any{"booking": b, "checkout_url": nil}
	if checkout != "" {
		out["checkout_url"] = checkout
	}
	httpx.JSON(w, status, out)
}

// GetEventBooking is GET /api/events/{uid}/booking.
func (s *Service) GetEventBooking(w http.ResponseWriter, r *http.Request, v Viewer) error {
	view, err := s.View(r.Context(), r.PathValue("uid"), v)
	if err != nil {
		return err
	}
	// A visitor's own booking, from the link in their mail (?booking=B-…&key=…).
	q := r.URL.Query()
	if ref, key := strings.ToUpper(q.Get("booking")), q.Get("key"); v.ID == 0 && ref != "" && len(ref) <= 20 && s.keyOK(r.Context(), ref, key) {
		b, err := s.BookingByRef(r.Context(), ref)
		if err != nil && err != errNotFound {
			return err
		}
		if b != nil && b.EventUID == view.UID {
			b.ICSURL += "?key=" + key
			view.MyBookings = append(view.MyBookings, b)
		}
	}
	httpx.JSON(w, http.StatusOK, view)
	return nil
}

// GetStates is GET /api/events/booking-states.
func (s *Service) GetStates(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	list, err := s.States(r.Context())
	return httpx.Reply(w, http.StatusOK, map[string]any{"events": list}, err)
}

// DecodeBooking reads a booking request's body (a parser a visitor reaches: fuzzed).
func DecodeBooking(w http.ResponseWriter, r *http.Request) (BookingInput, error) {
	var in BookingInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return in, err
	}
	if len(in.Tickets) > MaxPerBookingMax {
		in.Tickets = in.Tickets[:MaxPerBookingMax+1] // enough to say "too many"
	}
	return in, nil
}

// PostBooking is POST /api/events/{uid}/bookings.
func (s *Service) PostBooking(w http.ResponseWriter, r *http.Request, v Viewer) error {
	in, err := DecodeBooking(w, r)
	if err != nil {
		return err
	}
	b, url, err := s.Book(r.Context(), r.PathValue("uid"), in, v)
	if err != nil {
		return err
	}
	s.answerBooking(w, http.StatusCreated, b, s.visitorKey(r.Context(), b), url)
	return nil
}

type tokenBody struct {
	Token string `json:"token"`
}

// PostConfirm is POST /api/bookings/confirm.
func (s *Service) PostConfirm(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	var in tokenBody
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	b, url, err := s.ConfirmEmail(r.Context(), in.Token)
	if err != nil {
		return err
	}
	key, _ := s.AccessKey(r.Context(), b.Ref)
	s.answerBooking(w, http.StatusOK, b, key, url)
	return nil
}

// PostAcceptOffer is POST /api/bookings/offers/accept.
func (s *Service) PostAcceptOffer(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	var in tokenBody
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	b, url, err := s.AcceptOffer(r.Context(), in.Token)
	if err != nil {
		return err
	}
	s.answerBooking(w, http.StatusOK, b, s.visitorKey(r.Context(), b), url)
	return nil
}

// GetMine is GET /api/bookings.
func (s *Service) GetMine(w http.ResponseWriter, r *http.Request, v Viewer) error {
	up, past, err := s.Mine(r.Context(), v.ID)
	return httpx.Reply(w, http.StatusOK, map[string]any{"upcoming": up, "past": past}, err)
}

// allowed finds the booking a request names, if the caller may see it: its account,
// staff, or anyone with its access key. Otherwise a 404, telling nothing.
func (s *Service) allowed(ctx context.Context, r *http.Request, v Viewer) (*Booking, string, error) {
	ref := strings.ToUpper(r.PathValue("ref"))
	if len(ref) > 20 {
		return nil, "", errNotFound
	}
	b, err := s.BookingByRef(ctx, ref)
	if err != nil {
		return nil, "", err
	}
	key := r.URL.Query().Get("key")
	switch {
	case v.ID != 0 && b.UserID != nil && *b.UserID == v.ID:
		return b, "", nil
	case v.Staff:
		return b, "", nil
	case s.keyOK(ctx, b.Ref, key):
		return b, key, nil
	}
	return nil, "", errNotFound
}

// GetBooking is GET /api/bookings/{ref}.
func (s *Service) GetBooking(w http.ResponseWriter, r *http.Request, v Viewer) error {
	b, key, err := s.allowed(r.Context(), r, v)
	if err != nil {
		return err
	}
	checkout := ""
	if b.Status == StatusHeld && b.Awaiting != nil && *b.Awaiting == AwaitPayment {
		checkout = b.CheckoutURL
	}
	s.answerBooking(w, http.StatusOK, b, key, checkout)
	return nil
}

// PostCancel is POST /api/bookings/{ref}/cancel.
func (s *Service) PostCancel(w http.ResponseWriter, r *http.Request, v Viewer) error {
	b, key, err := s.allowed(r.Context(), r, v)
	if err != nil {
		return err
	}
	b, err = s.Cancel(r.Context(), b.Ref)
	if err != nil {
		return err
	}
	s.answerBooking(w, http.StatusOK, b, key, "")
	return nil
}

// GetICS is GET /api/bookings/{ref}/ics.
func (s *Service) GetICS(w http.ResponseWriter, r *http.Request, v Viewer) error {
	b, _, err := s.allowed(r.Context(), r, v)
	if err != nil {
		return err
	}
	c, err := s.ICS(r.Context(), b)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+b.Ref+`.ics"`)
	w.Write([]byte(c))
	return nil
}

// AdminGetSettings is GET /api/admin/events/{uid}/booking-settings.
func (s *Service) AdminGetSettings(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	st, err := s.Settings(r.Context(), r.PathValue("uid"))
	return httpx.Reply(w, http.StatusOK, st, err)
}

// DecodeSettings reads a settings body (fuzzed with the other request parsers).
func DecodeSettings(w http.ResponseWriter, r *http.Request) (SettingsInput, error) {
	var in SettingsInput
	err := httpx.DecodeJSON(w, r, &in)
	return in, err
}

// AdminPutSettings is PUT /api/admin/events/{uid}/booking-settings.
func (s *Service) AdminPutSettings(w http.ResponseWriter, r *http.Request, v Viewer) error {
	in, err := DecodeSettings(w, r)
	if err != nil {
		return err
	}
	st, err := s.SaveSettings(r.Context(), r.PathValue("uid"), in, v.ID)
	return httpx.Reply(w, http.StatusOK, st, err)
}

var statuses = []string{StatusHeld, StatusConfirmed, StatusWaitlisted, StatusCancelled, StatusRefunded, StatusAttended}

func validStatus(s string) bool {
	for _, x := range statuses {
		if x == s {
			return true
		}
	}
	return false
}

// AdminAttendees is GET /api/admin/events/{uid}/attendees.
func (s *Service) AdminAttendees(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	status := r.URL.Query().Get("status")
	if status != "" && !validStatus(status) {
		return httpx.Invalid("status", "The status must be one of %s.", strings.Join(statuses, ", "))
	}
	a, err := s.AttendeeList(r.Context(), r.PathValue("uid"), status)
	return httpx.Reply(w, http.StatusOK, a, err)
}

// AdminAttendeesCSV is GET /api/admin/events/{uid}/attendees.csv: one row per ticket.
func (s *Service) AdminAttendeesCSV(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	uid := r.PathValue("uid")
	a, err := s.AttendeeList(r.Context(), uid, "")
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="attendees-`+uid+`.csv"`)
	cw := csv.NewWriter(w)
	safe := textfield.SpreadsheetSafe
	cw.Write([]string{"ref", "status", "mode", "booker_name", "booker_email", "ticket_type", "attendee_name", "price", "checked_in_at", "created_at"})
	for _, b := range a.Bookings {
		checked := ""
		if b.CheckedInAt != nil {
			checked = b.CheckedInAt.Format(time.RFC3339)
		}
		for _, t := range b.Tickets {
			cw.Write([]string{b.Ref, b.Status, b.Mode, safe(b.Name), safe(b.Email), safe(t.Label), safe(t.Name),
				strconv.FormatFloat(float64(t.Price)/100, 'f', 2, 64), checked, b.CreatedAt.Format(time.RFC3339)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// AdminCheckIn is POST /api/admin/events/{uid}/attendees/{ref}/check-in.
func (s *Service) AdminCheckIn(w http.ResponseWriter, r *http.Request, v Viewer) error {
	var in struct {
		Attended *bool `json:"attended"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	attended := in.Attended == nil || *in.Attended
	b, err := s.CheckIn(r.Context(), r.PathValue("uid"), strings.ToUpper(r.PathValue("ref")), attended, v.ID)
	if err != nil {
		return err
	}
	s.answerBooking(w, http.StatusOK, b, "", "")
	return nil
}

// AdminMessage is POST /api/admin/events/{uid}/message.
func (s *Service) AdminMessage(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	var in struct {
		Subject string `json:"subject"`
		Text    string `json:"text"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	var fe httpx.FieldErrors
	subject, err := textfield.SingleLine(in.Subject, MaxMessageSubject)
	if err != nil || subject == "" {
		fe.Add("subject", "Give a subject of at most %d characters.", MaxMessageSubject)
	}
	text, err := textfield.MultiLine(in.Text, MaxMessageText)
	if err != nil || text == "" {
		fe.Add("text", "Write a message of at most %d characters.", MaxMessageText)
	}
	if err := fe.Err(); err != nil {
		return err
	}
	uid := r.PathValue("uid")
	if _, err := s.event(r.Context(), uid); err != nil {
		return err
	}
	n, err := s.Message(r.Context(), uid, subject, text)
	return httpx.Reply(w, http.StatusOK, map[string]any{"sent": n}, err)
}

// AdminCancel is POST /api/admin/events/{uid}/cancel.
func (s *Service) AdminCancel(w http.ResponseWriter, r *http.Request, v Viewer) error {
	var in struct {
		Message string `json:"message"`
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	note, err := textfield.MultiLine(in.Message, MaxInstructions)
	if err != nil {
		return httpx.Invalid("message", "The message may be at most %d characters of text.", MaxInstructions)
	}
	uid := r.PathValue("uid")
	if _, err := s.event(r.Context(), uid); err != nil {
		return err
	}
	c, rf, err := s.CancelEvent(r.Context(), uid, note, v.ID)
	return httpx.Reply(w, http.StatusOK, map[string]any{"cancelled": c, "refunded": rf}, err)
}
