package events

import (
	"context"
	"database/sql"
	"slices"
	"strconv"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// setStatus moves a booking to a status, with its history row.
func (s *Service) setStatus(ctx context.Context, tx *sql.Tx, b *Booking, to, actor, note string, sets string, args ...any) error {
	q := `UPDATE bookings SET status = ?, updated_at = ?`
	if sets != "" {
		q += ", " + sets
	}
	q += ` WHERE id = ?`
	all := append([]any{to, s.now().Unix()}, args...)
	all = append(all, b.ID)
	if _, err := tx.ExecContext(ctx, s.db.Rebind(q), all...); err != nil {
		return err
	}
	from := b.Status
	b.Status = to
	return s.history(ctx, tx, b.ID, from, to, actor, note)
}

// ConfirmEmail takes a visitor's confirmation link: the address is theirs, so a free
// booking is confirmed, a paid one goes on to payment, and a waiting-list entry may
// now be offered a place.
func (s *Service) ConfirmEmail(ctx context.Context, token string) (*Booking, string, error) {
	const expired = "This link has expired; please book again."
	return s.takeLink(ctx, purposeConfirm, token, expired, []string{StatusCancelled, StatusRefunded}, func(tx *sql.Tx, b *Booking) error {
		if b.EmailConfirmed {
			return nil
		}
		ev, st, err := s.eventAndSettings(ctx, tx, b.EventUID)
		if err != nil {
			return err
		}
		now := s.now()
		switch b.Status {
		case StatusHeld:
			if b.Total > 0 {
				if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bookings SET email_confirmed = ?, awaiting = ?, hold_expires_at = ?,
					updated_at = ? WHERE id = ?`), true, AwaitPayment, now.Add(PaymentHold).Unix(), now.Unix(), b.ID); err != nil {
					return err
				}
				return nil
			}
			if err := s.setStatus(ctx, tx, b, StatusConfirmed, "booker", "email confirmed",
				`email_confirmed = ?, awaiting = '', hold_expires_at = NULL`, true); err != nil {
				return err
			}
			return s.mail(ctx, tx, b, ev, st, mailConfirmed, "")
		case StatusWaitlisted:
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bookings SET email_confirmed = ?, awaiting = '', hold_expires_at = NULL,
				updated_at = ? WHERE id = ?`), true, now.Unix(), b.ID); err != nil {
				return err
			}
			if err := s.mail(ctx, tx, b, ev, st, mailWaitlisted, ""); err != nil {
				return err
			}
			return s.offerFreed(ctx, tx, b.EventUID)
		}
		return httpx.Invalid("token", expired)
	})
}

// takeLink runs step, in one transaction, on the booking that a visitor's emailed
// link (a token of purpose) names, then answers the booking and where it goes on to
// pay. An expired link is refused with expired; a link used before does nothing
// again, or is refused when the booking is now in one of the used statuses.
func (s *Service) takeLink(ctx context.Context, purpose, token, expired string, used []string, step func(tx *sql.Tx, b *Booking) error) (*Booking, string, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		ref, state, err := s.useToken(ctx, tx, purpose, token)
		if err != nil {
			return err
		}
		switch state {
		case tokenInvalid:
			return httpx.Invalid("token", "This link is not valid.")
		case tokenExpired:
			return httpx.Invalid("token", "%s", expired)
		}
		b, err := s.lockedBooking(ctx, tx, ref)
		if err != nil {
			return err
		}
		id = b.ID
		if state == tokenUsed {
			if slices.Contains(used, b.Status) {
				return httpx.Invalid("token", "This link has already been used.")
			}
			return nil
		}
		return step(tx, b)
	})
	if err != nil {
		return nil, "", err
	}
	s.opt.Mailer.Wake()
	return s.afterPaymentStep(ctx, id)
}

// afterPaymentStep answers a booking and the Checkout URL it should go on to, making
// the Checkout Session when it has none yet.
func (s *Service) afterPaymentStep(ctx context.Context, id int64) (*Booking, string, error) {
	b, err := s.bookingByID(ctx, id)
	if err != nil {
		return nil, "", err
	}
	if b.Status != StatusHeld || b.Awaiting == nil || *b.Awaiting != AwaitPayment {
		return b, "", nil
	}
	if b.CheckoutURL != "" {
		return b, b.CheckoutURL, nil
	}
	url, err := s.startCheckout(ctx, b)
	if err != nil {
		return nil, "", err
	}
	b, err = s.bookingByID(ctx, id)
	return b, url, err
}

// AcceptOffer takes a waiting-list offer's link: a free booking is confirmed at once, a
// paid one is held for payment.
func (s *Service) AcceptOffer(ctx context.Context, token string) (*Booking, string, error) {
	const expired = "This offer has expired."
	return s.takeLink(ctx, purposeOffer, token, expired, []string{StatusCancelled, StatusRefunded, StatusWaitlisted}, func(tx *sql.Tx, b *Booking) error {
		now := s.now()
		if b.Status != StatusWaitlisted || b.OfferExpiresAt == nil || !now.Before(*b.OfferExpiresAt) {
			return httpx.Invalid("token", expired)
		}
		ev, st, err := s.eventAndSettings(ctx, tx, b.EventUID)
		if err != nil {
			return err
		}
		if b.Total > 0 {
			return s.setStatus(ctx, tx, b, StatusHeld, "booker", "offer accepted",
				`awaiting = ?, hold_expires_at = ?, offer_expires_at = NULL`, AwaitPayment, now.Add(PaymentHold).Unix())
		}
		if err := s.setStatus(ctx, tx, b, StatusConfirmed, "booker", "offer accepted",
			`awaiting = '', hold_expires_at = NULL, offer_expires_at = NULL`); err != nil {
			return err
		}
		return s.mail(ctx, tx, b, ev, st, mailConfirmed, "")
	})
}

// eventAndSettings reads an event document and its settings, locked.
func (s *Service) eventAndSettings(ctx context.Context, tx *sql.Tx, uid string) (Event, *Settings, error) {
	st, err := s.settings(ctx, tx, uid, true)
	if err != nil {
		return Event{}, nil, err
	}
	ev, err := s.event(ctx, uid)
	if err == errNotFound {
		ev, err = Event{UID: uid}, nil
	}
	return ev, st, err
}

// Cancel cancels a booking for its booker: a paid one is refunded before the event's
// cut-off; the places go to the waiting list.
func (s *Service) Cancel(ctx context.Context, ref string) (*Booking, error) {
	b, err := s.cancel(ctx, ref, "booker", ReasonBooker, true)
	if err != nil {
		return nil, err
	}
	s.opt.Mailer.Wake()
	s.RefundDue(ctx)
	return s.BookingByRef(ctx, b.Ref)
}

// cancel ends a booking; byBooker applies the booker's rules (not after the start).
func (s *Service) cancel(ctx context.Context, ref, actor, reason string, byBooker bool) (*Booking, error) {
	var out *Booking
	err := s.tx(ctx, func(tx *sql.Tx) error {
		b, err := s.lockedBooking(ctx, tx, ref)
		if err != nil {
			return err
		}
		out = b
		ev, st, err := s.eventAndSettings(ctx, tx, b.EventUID)
		if err != nil {
			return err
		}
		now := s.now()
		switch {
		case b.Status == StatusCancelled || b.Status == StatusRefunded:
			return httpx.Invalid("booking", "This booking is already cancelled.")
		case b.Status == StatusAttended:
			return httpx.Invalid("booking", "This booking was checked in at the event.")
		case byBooker && !ev.Start.IsZero() && !now.Before(ev.Start):
			return httpx.Invalid("booking", "The event has already started.")
		}
		return s.end(ctx, tx, b, ev, st, actor, reason, !byBooker || refundable(st, ev, now))
	})
	return out, err
}

// end cancels b (or refunds it when it was paid for and refund is true), gives back
// its places, tells the booker, and offers the places to the waiting list.
func (s *Service) end(ctx context.Context, tx *sql.Tx, b *Booking, ev Event, st *Settings, actor, reason string, refund bool) error {
	wasActive := active(b.Status, b.OfferExpiresAt)
	hadInvite := b.Status == StatusConfirmed
	to := StatusCancelled
	sets := `cancel_reason = ?, awaiting = '', hold_expires_at = NULL, offer_expires_at = NULL, sequence = sequence + 1`
	args := []any{reason}
	if refund && b.PaidMinor > b.RefundedAmount {
		to = StatusRefunded
		sets += `, refund_pending = ?`
		args = append(args, true)
	}
	if err := s.setStatus(ctx, tx, b, to, actor, reason, sets, args...); err != nil {
		return err
	}
	b.Sequence++
	if wasActive {
		if err := s.release(ctx, tx, b.EventUID, b.Mode, b.Places); err != nil {
			return err
		}
	}
	kind := mailCancelled
	if reason == ReasonEventCancelled {
		kind = mailEventCancelled
	}
	if hadInvite || reason == ReasonBooker || reason == ReasonEventCancelled {
		if err := s.mail(ctx, tx, b, ev, st, kind, ""); err != nil {
			return err
		}
	}
	if wasActive && reason != ReasonEventCancelled {
		return s.offerFreed(ctx, tx, b.EventUID)
	}
	return nil
}

// offerFreed offers free places to the waiting list, first come first served per mode:
// the first waiting booking whose tickets fit gets them reserved for OfferWindow and
// an email with a link to accept; one that does not fit stops the line, so nobody is
// overtaken by a smaller booking.
func (s *Service) offerFreed(ctx context.Context, tx *sql.Tx, uid string) error {
	ev, st, err := s.eventAndSettings(ctx, tx, uid)
	if err != nil {
		return err
	}
	now := s.now()
	if !st.Exists || !st.Enabled || st.CancelledAt != nil || ev.Start.IsZero() || !now.Before(ev.Start) {
		return nil
	}
	for _, mode := range []string{ModeInPerson, ModeOnline} {
		for {
			b, err := scanBooking(tx.QueryRowContext(ctx, s.db.Rebind(`SELECT `+bookingColumns+` FROM bookings b
				WHERE b.event_uid = ? AND b.mode = ? AND b.status = ? AND b.offer_expires_at IS NULL AND b.email_confirmed = ?
				ORDER BY b.waitlisted_at, b.id LIMIT 1`), uid, mode, StatusWaitlisted, true))
			if err == errNotFound {
				break
			}
			if err != nil {
				return err
			}
			got, err := s.take(ctx, tx, uid, mode, b.Places)
			if err != nil || !got {
				return err
			}
			until := now.Add(OfferWindow)
			if ev.Start.Before(until) {
				until = ev.Start
			}
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bookings SET offer_expires_at = ?, updated_at = ? WHERE id = ?`),
				until.Unix(), now.Unix(), b.ID); err != nil {
				return err
			}
			if err := s.history(ctx, tx, b.ID, b.Status, b.Status, "system", "place offered"); err != nil {
				return err
			}
			b.OfferExpiresAt = &until
			token, err := s.newToken(ctx, tx, b.ID, purposeOffer, until)
			if err != nil {
				return err
			}
			if err := s.mail(ctx, tx, b, ev, st, mailOffer, token); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckIn marks a confirmed booking of the event attended, or undoes it.
func (s *Service) CheckIn(ctx context.Context, uid, ref string, attended bool, editor int64) (*Booking, error) {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		b, err := s.lockedBooking(ctx, tx, ref)
		if err != nil {
			return err
		}
		if b.EventUID != uid {
			return errNotFound
		}
		actor := "editor:" + itoa(editor)
		switch {
		case attended && b.Status == StatusConfirmed:
			return s.setStatus(ctx, tx, b, StatusAttended, actor, "checked in", `checked_in_at = ?`, s.now().Unix())
		case !attended && b.Status == StatusAttended:
			return s.setStatus(ctx, tx, b, StatusConfirmed, actor, "check-in undone", `checked_in_at = NULL`)
		case attended && b.Status == StatusAttended, !attended && b.Status == StatusConfirmed:
			return nil
		}
		return httpx.Invalid("booking", "Only confirmed bookings can be checked in.")
	})
	if err != nil {
		return nil, err
	}
	return s.BookingByRef(ctx, ref)
}

// CancelEvent cancels every booking of an event, tells each booker, refunds what was
// paid, and closes the event to bookings.
func (s *Service) CancelEvent(ctx context.Context, uid, note string, editor int64) (cancelled, refunded int, err error) {
	err = s.tx(ctx, func(tx *sql.Tx) error {
		ev, st, err := s.eventAndSettings(ctx, tx, uid)
		if err != nil {
			return err
		}
		if !st.Exists {
			return httpx.Invalid("event", "This event is not taking bookings.")
		}
		if st.CancelledAt != nil {
			return httpx.Invalid("event", "This event has already been cancelled.")
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE event_settings SET cancelled_at = ?, updated_at = ? WHERE uid = ?`),
			now.Unix(), now.Unix(), uid); err != nil {
			return err
		}
		st.CancelledAt = &now
		st.OnlineInstructions = note // the mail quotes the editor's note
		list, err := s.listBookings(ctx, tx, uid, StatusHeld, StatusConfirmed, StatusWaitlisted)
		if err != nil {
			return err
		}
		for _, b := range list {
			if err := s.end(ctx, tx, b, ev, st, "editor:"+itoa(editor), ReasonEventCancelled, true); err != nil {
				return err
			}
			if b.Status == StatusRefunded {
				refunded++
			} else {
				cancelled++
			}
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	s.opt.Mailer.Wake()
	s.RefundDue(ctx)
	return cancelled, refunded, nil
}

// Message mails every booker holding places of the event.
func (s *Service) Message(ctx context.Context, uid, subject, text string) (int, error) {
	sent := 0
	err := s.tx(ctx, func(tx *sql.Tx) error {
		ev, st, err := s.eventAndSettings(ctx, tx, uid)
		if err != nil {
			return err
		}
		list, err := s.listBookings(ctx, tx, uid, StatusConfirmed, StatusAttended, StatusHeld)
		if err != nil {
			return err
		}
		for _, b := range list {
			if b.Status == StatusHeld && (b.Awaiting == nil || *b.Awaiting != AwaitPayment) {
				continue
			}
			if err := s.mailMessage(ctx, tx, b, ev, st, subject, text); err != nil {
				return err
			}
			sent++
		}
		return nil
	})
	if err == nil {
		s.opt.Mailer.Wake()
	}
	return sent, err
}

func (s *Service) listBookings(ctx context.Context, q store.Querier, uid string, statuses ...string) ([]*Booking, error) {
	qs := `SELECT ` + bookingColumns + ` FROM bookings b WHERE b.event_uid = ?`
	args := []any{uid}
	if len(statuses) > 0 {
		qs += ` AND b.status IN (?` + repeat(",?", len(statuses)-1) + `)`
		for _, st := range statuses {
			args = append(args, st)
		}
	}
	qs += ` ORDER BY b.created_at, b.id`
	rs, err := q.QueryContext(ctx, s.db.Rebind(qs), args...)
	return store.Collect(rs, err, scanBooking)
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
