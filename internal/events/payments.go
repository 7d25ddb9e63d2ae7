package events

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"lineage/internal/payments"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// PaymentKind is the payments room's kind for a booking; its reference is the booking
// reference (metadata "booking_id" = "B-7K3Q9").
const PaymentKind = "booking"

// Stripe is the payments room as the room's Payments.
type Stripe struct{ P *payments.Service }

// Checkout makes a one-off Checkout Session for the booking's total.
func (p Stripe) Checkout(ctx context.Context, b *Booking, successURL, cancelURL string) (string, error) {
	name := textfield.LineOr(b.EventTitle, 200, "Event") + " — " + ticketLine(b)
	cs, err := p.P.Checkout(ctx, payments.CheckoutRequest{
		Kind: PaymentKind, RefID: b.Ref, Name: name, Email: b.Email,
		OneOff:     &payments.OneOff{AmountMinor: b.Total, Currency: b.Currency},
		SuccessURL: successURL, CancelURL: cancelURL,
		// Stripe's shortest: a payer still on the page then cannot pay more than
		// 15 minutes after the hold lapsed (docs/events.md, "Late payments").
		ExpiresAt: time.Now().Add(30 * time.Minute),
	})
	if err != nil {
		return "", err
	}
	return cs.URL, nil
}

// Refund refunds amount of the booking's payment.
func (p Stripe) Refund(ctx context.Context, ref string, amount int64) error {
	_, err := p.P.Refund(ctx, PaymentKind, ref, amount)
	return err
}

// Fulfiller is what the payments room tells the room about bookings, inside the
// transaction that records Stripe's event.
func (s *Service) Fulfiller() payments.Fulfiller { return fulfiller{s} }

type fulfiller struct{ s *Service }

func (f fulfiller) CheckoutCompleted(ctx context.Context, tx *sql.Tx, c payments.Checkout) error {
	// The money arrives as Paid (a paid one-off Checkout); this only checks the reference.
	var n int
	if err := tx.QueryRowContext(ctx, f.s.db.Rebind(`SELECT COUNT(*) FROM bookings WHERE ref = ?`), c.ID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("booking %q: %w", c.ID, payments.ErrUnknownRef)
	}
	return nil
}

func (f fulfiller) Paid(ctx context.Context, tx *sql.Tx, p payments.Payment) error {
	return f.s.paid(ctx, tx, p.ID, p.AmountMinor)
}

func (f fulfiller) PaymentFailed(ctx context.Context, tx *sql.Tx, _ payments.Failure) error {
	return nil
}

func (f fulfiller) SubscriptionChanged(ctx context.Context, tx *sql.Tx, _ payments.Subscription) error {
	return nil
}

// Refunded keeps the total Stripe says was refunded (a refund made here, or one made in
// Stripe's dashboard).
func (f fulfiller) Refunded(ctx context.Context, tx *sql.Tx, r payments.Refund) error {
	_, err := tx.ExecContext(ctx, f.s.db.Rebind(`UPDATE bookings SET refunded_minor = ?,
		refund_pending = CASE WHEN ? >= paid_minor THEN ? ELSE refund_pending END, updated_at = ?
		WHERE ref = ? AND refunded_minor < ?`), r.RefundedMinor, r.RefundedMinor, false, f.s.now().Unix(), r.ID, r.RefundedMinor)
	return err
}

// paid applies a payment for a booking, once per payment (the payments room calls it
// for a fresh payment row only). The rule for a payment that finds no hold
// (docs/events.md "Late payments"): a booking still held is confirmed; one whose hold
// lapsed is confirmed if its places can be taken again, else refunded in full; one
// cancelled meanwhile is refunded. Never a place beyond the capacity.
func (s *Service) paid(ctx context.Context, tx *sql.Tx, ref string, amount int64) error {
	b, err := s.lockedBooking(ctx, tx, ref)
	if err == errNotFound {
		return fmt.Errorf("booking %q: %w", ref, payments.ErrUnknownRef)
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bookings SET paid_minor = paid_minor + ?, updated_at = ? WHERE id = ?`),
		amount, s.now().Unix(), b.ID); err != nil {
		return err
	}
	b.PaidMinor += amount
	ev, st, err := s.eventAndSettings(ctx, tx, b.EventUID)
	if err != nil {
		return err
	}
	refund := func(kind string) error {
		if b.Status != StatusRefunded {
			if err := s.setStatus(ctx, tx, b, StatusRefunded, "stripe", "paid after the booking ended", `refund_pending = ?`, true); err != nil {
				return err
			}
		} else if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bookings SET refund_pending = ? WHERE id = ?`), true, b.ID); err != nil {
			return err
		}
		s.wake()
		return s.mail(ctx, tx, b, ev, st, kind, "")
	}
	switch b.Status {
	case StatusHeld, StatusWaitlisted:
		if b.Status == StatusWaitlisted && b.OfferExpiresAt == nil {
			// Paid with no places reserved (an offer that lapsed and was accepted from
			// an old Checkout page): as a lapsed hold.
			return s.lateConfirm(ctx, tx, b, ev, st, refund)
		}
		if err := s.setStatus(ctx, tx, b, StatusConfirmed, "stripe", "paid",
			`awaiting = '', hold_expires_at = NULL, offer_expires_at = NULL, email_confirmed = ?`, true); err != nil {
			return err
		}
		return s.mail(ctx, tx, b, ev, st, mailConfirmed, "")
	case StatusConfirmed, StatusAttended:
		return nil // paid twice: kept for the treasurer, refunded by hand
	case StatusCancelled:
		if b.CancelReason != nil && (*b.CancelReason == ReasonHoldExpired || *b.CancelReason == ReasonOfferExpired) {
			return s.lateConfirm(ctx, tx, b, ev, st, refund)
		}
		return refund(mailLateRefund)
	case StatusRefunded:
		return refund(mailLateRefund)
	}
	return nil
}

// lateConfirm confirms a booking paid for after its places were released, if they
// can be taken again now; else refunds it.
func (s *Service) lateConfirm(ctx context.Context, tx *sql.Tx, b *Booking, ev Event, st *Settings, refund func(string) error) error {
	now := s.now()
	if st.CancelledAt == nil && !ev.Start.IsZero() && now.Before(ev.Start) {
		got, err := s.take(ctx, tx, b.EventUID, b.Mode, b.Places)
		if err != nil {
			return err
		}
		if got {
			s.dirty.Store(true)
			s.wake()
			if err := s.setStatus(ctx, tx, b, StatusConfirmed, "stripe", "paid after the hold lapsed; places were free",
				`awaiting = '', hold_expires_at = NULL, offer_expires_at = NULL, cancel_reason = '', email_confirmed = ?`, true); err != nil {
				return err
			}
			return s.mail(ctx, tx, b, ev, st, mailConfirmed, "")
		}
	}
	return refund(mailLateRefund)
}

// wake asks serve's scheduler to run soon (refunds due after a commit).
func (s *Service) wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// RefundDue makes the refunds recorded as due (a cancelled paid booking, a late
// payment) through the payments room; a failure stays due for the next run.
func (s *Service) RefundDue(ctx context.Context) int {
	if s.opt.Payments == nil {
		return 0
	}
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT ref, paid_minor - refunded_minor FROM bookings WHERE refund_pending = ?`), true)
	type due struct {
		ref    string
		amount int64
	}
	list, err := store.Collect(rs, err, func(row store.Row) (due, error) {
		var d due
		err := row.Scan(&d.ref, &d.amount)
		return d, err
	})
	if err != nil {
		s.log.Error("events: refunds due", "err", err)
		return 0
	}
	n := 0
	for _, d := range list {
		if d.amount > 0 {
			err := s.opt.Payments.Refund(ctx, d.ref, d.amount)
			switch {
			case errors.Is(err, payments.ErrNothingToRefund):
				// Refunded already (in Stripe's dashboard, say): nothing to retry.
				s.log.Warn("events: refund: nothing left to refund", "booking", d.ref)
			case err != nil:
				s.log.Error("events: refund", "booking", d.ref, "err", err)
				continue
			}
		}
		if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE bookings SET refund_pending = ?, refunded_minor = paid_minor, updated_at = ?
			WHERE ref = ? AND refund_pending = ?`), false, s.now().Unix(), d.ref, true); err != nil {
			s.log.Error("events: refund", "booking", d.ref, "err", err)
			continue
		}
		n++
	}
	return n
}
