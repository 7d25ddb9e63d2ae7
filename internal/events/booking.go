package events

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// BookingInput is the body of POST /api/events/{uid}/bookings.
type BookingInput struct {
	Mode    string        `json:"mode"`
	Tickets []TicketInput `json:"tickets"`
	Name    string        `json:"name"`  // visitors only
	Email   string        `json:"email"` // visitors only
}

// TicketInput is one ticket asked for.
type TicketInput struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// refAlphabet has no letters or digits that read alike (0/O, 1/I/L, U/V).
const refAlphabet = "23456789ABCDEFGHJKMNPQRSTWXYZ"

func newRef() string {
	b := make([]byte, 5)
	rand.Read(b)
	out := []byte("B-")
	for _, c := range b {
		out = append(out, refAlphabet[int(c)%len(refAlphabet)])
	}
	return string(out)
}

// openError says why an event takes no booking at now, or nil.
func openError(st *Settings, ev Event, now time.Time) string {
	switch {
	case ev.Start.IsZero() || !st.Exists || !st.Enabled:
		return "This event is not taking bookings."
	case st.CancelledAt != nil:
		return "This event has been cancelled."
	case !now.Before(ev.Start):
		return "This event has already started."
	case st.OpensAt != nil && now.Before(*st.OpensAt):
		return "Bookings are not open yet."
	case st.ClosesAt != nil && !now.Before(*st.ClosesAt):
		return "Bookings have closed."
	}
	return ""
}

// priced is a validated booking request.
type priced struct {
	mode    string
	tickets []Ticket
	total   int64
	name    string
	email   string
}

// check validates a booking request against the event's settings; every mistake is a
// field error, and nothing is written.
func (s *Service) check(st *Settings, ev Event, in BookingInput, v Viewer, now time.Time) (priced, error) {
	var fe httpx.FieldErrors
	p := priced{mode: in.Mode}
	if msg := openError(st, ev, now); msg != "" {
		fe.Add("event", "%s", msg)
		return p, fe.Err()
	}
	switch {
	case in.Mode != ModeInPerson && in.Mode != ModeOnline:
		fe.Add("mode", "Choose in person or online.")
	case st.capacity(in.Mode) == 0:
		if in.Mode == ModeOnline {
			fe.Add("mode", "This event cannot be joined online.")
		} else {
			fe.Add("mode", "This event can only be joined online.")
		}
	}
	switch {
	case len(in.Tickets) == 0:
		fe.Add("tickets", "Choose at least one ticket.")
	case len(in.Tickets) > st.MaxPerBooking:
		fe.Add("tickets", "You can book at most %d tickets at once.", st.MaxPerBooking)
	}
	if len(in.Tickets) <= st.MaxPerBooking {
		for i, t := range in.Tickets {
			f := "tickets." + strconv.Itoa(i) + "."
			tt, ok := st.ticketType(t.Type)
			switch {
			case !ok:
				fe.Add(f+"type", "Choose one of the event's ticket types.")
			case tt.RequiresScope != "" && !v.has(tt.RequiresScope):
				fe.Add(f+"type", "The members' price needs an active membership.")
			}
			name, err := textfield.SingleLine(t.Name, MaxNameLen)
			if err != nil || name == "" {
				fe.Add(f+"name", "Give the name of the person this ticket is for (at most %d characters).", MaxNameLen)
			}
			price, _ := tt.PriceAt(now)
			p.tickets = append(p.tickets, Ticket{Type: t.Type, Label: tt.Label, Name: name, Price: price})
			p.total += price
		}
	}
	if p.total > 0 && s.opt.Payments == nil && !fe.Has("tickets") {
		fe.Add("tickets", "Card payments are not available; please contact the society.")
	}
	if v.ID != 0 {
		p.name, p.email = v.Name, v.Email
		if !v.Verified {
			fe.Add("email", "Confirm your email address before booking.")
		}
		if p.name == "" {
			p.name = v.Email
		}
	} else {
		name, err := textfield.SingleLine(in.Name, MaxNameLen)
		if err != nil || name == "" {
			fe.Add("name", "Give your name (at most %d characters).", MaxNameLen)
		}
		email := strings.ToLower(strings.TrimSpace(in.Email))
		if !textfield.Email(email) {
			fe.Add("email", "Give a valid email address.")
		}
		p.name, p.email = name, email
	}
	return p, fe.Err()
}

// take reserves n places of mode if they are free, in one conditional UPDATE: on
// PostgreSQL the row lock makes a second taker wait and then re-check the condition
// against the committed count; on SQLite the immediate transaction has the database to
// itself (docs/decisions/017-event-capacity.md).
func (s *Service) take(ctx context.Context, tx *sql.Tx, uid, mode string, n int) (bool, error) {
	col, capCol := "taken_in_person", "capacity_in_person"
	if mode == ModeOnline {
		col, capCol = "taken_online", "capacity_online"
	}
	res, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE event_settings SET `+col+` = `+col+` + ?
		WHERE uid = ? AND enabled = ? AND cancelled_at IS NULL AND `+col+` + ? <= `+capCol), n, uid, true, n)
	if err != nil {
		return false, err
	}
	got, err := res.RowsAffected()
	return got == 1, err
}

// release gives back n places of mode.
func (s *Service) release(ctx context.Context, tx *sql.Tx, uid, mode string, n int) error {
	col := "taken_in_person"
	if mode == ModeOnline {
		col = "taken_online"
	}
	_, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE event_settings SET `+col+` = `+col+` - ? WHERE uid = ?`), n, uid)
	return err
}

// Book takes a booking request: places if there are any, else the waiting list. It
// answers the booking and, for a paid booking of an account, the Checkout URL.
func (s *Service) Book(ctx context.Context, uid string, in BookingInput, v Viewer) (*Booking, string, error) {
	ev, st, err := s.eventWithSettings(ctx, uid)
	if err != nil {
		return nil, "", err
	}
	now := s.now()
	p, err := s.check(st, ev, in, v, now)
	if err != nil {
		return nil, "", err
	}
	if v.ID == 0 {
		// A visitor's request mails a link to the address given: a few unconfirmed ones
		// an hour per address, so the form cannot be used to flood someone's inbox.
		var n int
		if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM bookings WHERE email = ? AND user_id IS NULL
			AND email_confirmed = ? AND created_at > ?`), p.email, false, now.Add(-EmailHold).Unix()).Scan(&n); err != nil {
			return nil, "", err
		}
		if n >= MaxUnconfirmed {
			return nil, "", &httpx.Error{Code: httpx.ETOOMANY, RetryAfter: EmailHold,
				Message: "There are already booking requests waiting for this address to be confirmed: please use the link we emailed."}
		}
	}
	var id int64
	var token string
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if v.ID != 0 {
			var ref string
			err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT ref FROM bookings WHERE event_uid = ? AND user_id = ?
				AND status IN (?, ?, ?, ?)`), uid, v.ID, StatusHeld, StatusConfirmed, StatusWaitlisted, StatusAttended).Scan(&ref)
			if err == nil {
				return &httpx.Error{Code: httpx.ECONFLICT, Message: "You already have a booking for this event (" + ref + ")."}
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		got, err := s.take(ctx, tx, uid, p.mode, len(p.tickets))
		if err != nil {
			return err
		}
		status, awaiting := StatusWaitlisted, ""
		var hold, waitAt any
		switch {
		case got && v.ID == 0:
			status, awaiting, hold = StatusHeld, AwaitEmail, now.Add(EmailHold).Unix()
		case got && p.total > 0:
			status, awaiting, hold = StatusHeld, AwaitPayment, now.Add(PaymentHold).Unix()
		case got:
			status = StatusConfirmed
		default:
			// Read under the lock the failed UPDATE did not take: the settings as they are.
			cur, err := s.settings(ctx, tx, uid, true)
			if err != nil {
				return err
			}
			if !cur.Waitlist {
				return httpx.Invalid("event", "This event is fully booked.")
			}
			waitAt = now.Unix()
			if v.ID == 0 {
				awaiting, hold = AwaitEmail, now.Add(EmailHold).Unix()
			}
		}
		ref, err := s.freeRef(ctx, tx)
		if err != nil {
			return err
		}
		tickets, _ := json.Marshal(p.tickets)
		var user any
		if v.ID != 0 {
			user = v.ID
		}
		id, err = s.insertBooking(ctx, tx, `INSERT INTO bookings (ref, event_uid, user_id, name, email, email_confirmed, mode, tickets,
			places, total_minor, currency, status, awaiting, hold_expires_at, waitlisted_at, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ref, uid, user, p.name, p.email, v.ID != 0, p.mode, string(tickets), len(p.tickets), p.total, Currency,
			status, awaiting, hold, waitAt, now.Unix(), now.Unix())
		if store.IsUniqueViolation(err) {
			return &httpx.Error{Code: httpx.ECONFLICT, Message: "You already have a booking for this event."}
		}
		if err != nil {
			return err
		}
		actor := "booker"
		if err := s.history(ctx, tx, id, "", status, actor, ""); err != nil {
			return err
		}
		b, err := s.bookingTx(ctx, tx, id)
		if err != nil {
			return err
		}
		switch {
		case v.ID == 0:
			if token, err = s.newToken(ctx, tx, id, purposeConfirm, now.Add(EmailHold)); err != nil {
				return err
			}
			return s.mail(ctx, tx, b, ev, st, mailConfirmEmail, token)
		case status == StatusConfirmed:
			return s.mail(ctx, tx, b, ev, st, mailConfirmed, "")
		case status == StatusWaitlisted:
			return s.mail(ctx, tx, b, ev, st, mailWaitlisted, "")
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	s.opt.Mailer.Wake()
	return s.afterPaymentStep(ctx, id)
}

// insertBooking inserts a row and returns its id on both stores.
func (s *Service) insertBooking(ctx context.Context, tx *sql.Tx, q string, args ...any) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, s.db.Rebind(q+` RETURNING id`), args...).Scan(&id)
	return id, err
}

// freeRef is a booking reference no booking has yet.
func (s *Service) freeRef(ctx context.Context, tx *sql.Tx) (string, error) {
	for range 20 {
		ref := newRef()
		var n int
		if err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM bookings WHERE ref = ?`), ref).Scan(&n); err != nil {
			return "", err
		}
		if n == 0 {
			return ref, nil
		}
	}
	return "", errors.New("events: no free booking reference")
}

// startCheckout makes the Checkout Session of a booking held for payment and keeps
// its URL; "" for any other booking. When Stripe fails, the hold is given up at once.
func (s *Service) startCheckout(ctx context.Context, b *Booking) (string, error) {
	if b.Status != StatusHeld || b.Awaiting == nil || *b.Awaiting != AwaitPayment || s.opt.Payments == nil {
		return "", nil
	}
	base := s.opt.PublicURL + "/sog-events/" + b.EventUID
	key := ""
	if b.UserID == nil {
		// A visitor comes back without a session: the return carries their key.
		k, err := s.AccessKey(ctx, b.Ref)
		if err != nil {
			return "", err
		}
		key = "&key=" + k
	}
	url, err := s.opt.Payments.Checkout(ctx, b, base+"/booked?ref="+b.Ref+key, base+"?booking="+b.Ref+"&payment=cancelled"+key)
	if err != nil {
		s.log.Error("events: checkout", "booking", b.Ref, "err", err)
		if _, cerr := s.cancel(ctx, b.Ref, "system", ReasonHoldExpired, false); cerr != nil {
			s.log.Error("events: give up the hold", "booking", b.Ref, "err", cerr)
		}
		return "", &httpx.Error{Code: httpx.EBADGATEWAY, Message: "The card payment service did not answer; please try again."}
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE bookings SET checkout_url = ? WHERE id = ?`), url, b.ID)
	return url, err
}

const bookingColumns = `b.id, b.ref, b.event_uid, b.user_id, b.name, b.email, b.email_confirmed, b.mode, b.tickets, b.places,
	b.total_minor, b.currency, b.status, b.awaiting, b.hold_expires_at, b.offer_expires_at, b.waitlisted_at, b.cancel_reason,
	b.sequence, b.checkout_url, b.paid_minor, b.refunded_minor, b.refund_pending, b.checked_in_at, b.created_at, b.updated_at`

func scanBooking(row store.Row) (*Booking, error) {
	b := &Booking{}
	var user, hold, offer, waitAt, checked sql.NullInt64
	var tickets, awaiting, reason string
	var created, updated int64
	err := row.Scan(&b.ID, &b.Ref, &b.EventUID, &user, &b.Name, &b.Email, &b.EmailConfirmed, &b.Mode, &tickets, &b.Places,
		&b.Total, &b.Currency, &b.Status, &awaiting, &hold, &offer, &waitAt, &reason, &b.Sequence, &b.CheckoutURL,
		&b.PaidMinor, &b.RefundedAmount, &b.RefundPending, &checked, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	if user.Valid {
		b.UserID = &user.Int64
	}
	if awaiting != "" {
		b.Awaiting = &awaiting
	}
	if reason != "" {
		b.CancelReason = &reason
	}
	b.HoldExpiresAt, b.OfferExpiresAt, b.WaitlistedAt, b.CheckedInAt = store.TimeOrNil(hold), store.TimeOrNil(offer), store.TimeOrNil(waitAt), store.TimeOrNil(checked)
	b.CreatedAt, b.UpdatedAt = store.Time(created), store.Time(updated)
	b.Paid = b.PaidMinor > 0
	if err := json.Unmarshal([]byte(tickets), &b.Tickets); err != nil {
		return nil, fmt.Errorf("events: booking %s: tickets: %w", b.Ref, err)
	}
	b.ICSURL = "/api/bookings/" + b.Ref + "/ics"
	return b, nil
}

func (s *Service) bookingTx(ctx context.Context, q store.Querier, id int64) (*Booking, error) {
	return scanBooking(q.QueryRowContext(ctx, s.db.Rebind(`SELECT `+bookingColumns+` FROM bookings b WHERE b.id = ?`), id))
}

// lockedBooking reads a booking by ref for a change, locked on PostgreSQL. Its event's
// settings row is locked first: every path that changes both takes the locks in that
// order (settings, then bookings), so two of them cannot deadlock.
func (s *Service) lockedBooking(ctx context.Context, tx *sql.Tx, ref string) (*Booking, error) {
	var uid string
	err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT event_uid FROM bookings WHERE ref = ?`), ref).Scan(&uid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, s.db.Rebind(`SELECT 1 FROM event_settings WHERE uid = ?`+s.db.ForUpdate()), uid); err != nil {
		return nil, err
	}
	return scanBooking(tx.QueryRowContext(ctx, s.db.Rebind(`SELECT `+bookingColumns+` FROM bookings b WHERE b.ref = ?`+s.db.ForUpdate()), ref))
}

func (s *Service) bookingByID(ctx context.Context, id int64) (*Booking, error) {
	b, err := s.bookingTx(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	return b, s.complete(ctx, b)
}

// BookingByRef returns a booking with what the API shows of it.
func (s *Service) BookingByRef(ctx context.Context, ref string) (*Booking, error) {
	b, err := scanBooking(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+bookingColumns+` FROM bookings b WHERE b.ref = ?`), ref))
	if err != nil {
		return nil, err
	}
	return b, s.complete(ctx, b)
}

// complete fills what a booking shows besides its row: the event, the waiting-list
// position, joining details and whether it may be cancelled with a refund.
func (s *Service) complete(ctx context.Context, b *Booking) error {
	ev, err := s.event(ctx, b.EventUID)
	if err != nil && err != errNotFound {
		return err
	}
	st, err := s.settings(ctx, s.db, b.EventUID, false)
	if err != nil {
		return err
	}
	s.fill(b, ev, st)
	if b.Status == StatusWaitlisted && b.OfferExpiresAt == nil && b.WaitlistedAt != nil {
		var n int
		err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM bookings WHERE event_uid = ? AND mode = ? AND status = ?
			AND offer_expires_at IS NULL AND (waitlisted_at < ? OR (waitlisted_at = ? AND id < ?))`),
			b.EventUID, b.Mode, StatusWaitlisted, b.WaitlistedAt.Unix(), b.WaitlistedAt.Unix(), b.ID).Scan(&n)
		if err != nil {
			return err
		}
		pos := n + 1
		b.WaitlistPosition = &pos
	}
	return nil
}

// fill sets the event's fields and the rules' answers on b.
func (s *Service) fill(b *Booking, ev Event, st *Settings) {
	b.EventTitle, b.EventLocation = ev.Title, ev.Location
	if !ev.Start.IsZero() {
		t := ev.Start
		b.EventStartsAt = &t
	}
	if !ev.End.IsZero() {
		t := ev.End
		b.EventEndsAt = &t
	}
	now := s.now()
	started := !ev.Start.IsZero() && !now.Before(ev.Start)
	switch b.Status {
	case StatusHeld, StatusConfirmed, StatusWaitlisted:
		b.CanCancel = !started
	}
	b.RefundIfCancelled = b.CanCancel && b.PaidMinor > 0 && refundable(st, ev, now)
	if (b.Status == StatusConfirmed || b.Status == StatusAttended) && b.Mode == ModeOnline && st.CancelledAt == nil {
		b.Joining = &Joining{Link: st.OnlineLink, Instructions: st.OnlineInstructions}
	}
}

// refundable reports whether a cancellation at now is before the event's refund
// cut-off.
func refundable(st *Settings, ev Event, now time.Time) bool {
	if ev.Start.IsZero() {
		return true
	}
	return !now.After(ev.Start.Add(-time.Duration(st.RefundCutoffHours) * time.Hour))
}
