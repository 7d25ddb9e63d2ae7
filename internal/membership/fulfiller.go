package membership

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"lineage/internal/store"
)

// Payment is a card payment the payments room reports (invoice.paid, a completed
// Checkout session). ExternalID (the invoice or session id) makes it idempotent.
type Payment struct {
	MembershipID int64
	ExternalID   string
	AmountMinor  int64
	Currency     string
	// PaidUntil is the end of the period paid for when the provider knows it (a
	// subscription's current period end); zero: one period of the plan on.
	PaidUntil time.Time
}

// Ref names a membership and the provider's object an event is about.
type Ref struct {
	MembershipID int64
	ExternalID   string
}

// Subscription is the provider's view of an auto-renewing membership.
type Subscription struct {
	MembershipID int64
	ExternalID   string
	// Ended is true when the subscription was deleted (customer.subscription.deleted).
	Ended bool
	// AutoRenew is false when it is set to cancel at the period's end.
	AutoRenew bool
}

// Refund is money given back for a recorded payment (ExternalID is the payment's).
type Refund struct {
	ExternalID    string
	RefundedMinor int64 // the total refunded so far
}

// Paid records a card payment and extends the membership; the same ExternalID twice
// extends it once.
func (s *Service) Paid(ctx context.Context, p Payment) error {
	var until *time.Time
	if !p.PaidUntil.IsZero() {
		t := p.PaidUntil.UTC()
		until = &t
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := s.pay(ctx, tx, p.MembershipID, payment{amount: p.AmountMinor, currency: p.Currency, method: MethodStripe,
			externalID: p.ExternalID, paidUntil: until, why: "card payment " + p.ExternalID})
		return err
	})
	if errors.Is(err, errDuplicate) {
		return nil
	}
	return err
}

// PaymentFailed notes a failed renewal in the history; the membership keeps its
// status, and time (Advance) moves it to grace and lapsed if no payment follows.
func (s *Service) PaymentFailed(ctx context.Context, ref Ref) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		raw, err := s.lockedMembership(ctx, tx, ref.MembershipID)
		if err != nil {
			return err
		}
		why := "card payment failed " + ref.ExternalID
		var one int
		err = tx.QueryRowContext(ctx, s.db.Rebind(`SELECT 1 FROM membership_history WHERE membership_id = ? AND why = ?`), ref.MembershipID, why).Scan(&one)
		if err == nil {
			return nil // reported before
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		return s.addHistory(ctx, tx, ref.MembershipID, 0, raw.Status, raw.Status, why, s.Now())
	})
}

// SubscriptionChanged follows the provider's subscription: whether it renews by
// itself, and its end. An ended subscription stops renewal; the membership keeps its
// scopes until paid-until and grace, then lapses.
func (s *Service) SubscriptionChanged(ctx context.Context, sub Subscription) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		raw, err := s.lockedMembership(ctx, tx, sub.MembershipID)
		if err != nil {
			return err
		}
		renew := sub.AutoRenew && !sub.Ended
		if raw.AutoRenew == renew {
			return nil
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE memberships SET auto_renew = ?, updated_at = ? WHERE id = ?`), renew, s.Now().Unix(), raw.ID); err != nil {
			return err
		}
		why := "automatic renewal on (" + sub.ExternalID + ")"
		if !renew {
			why = "automatic renewal off (" + sub.ExternalID + ")"
		}
		return s.addHistory(ctx, tx, raw.ID, 0, raw.Status, raw.Status, why, s.Now())
	})
}

// Refunded records a refund of a recorded payment. A full refund of the payment that
// made a membership active takes the membership back to the paid-until it had before
// (lapsed if that is past or there was none); a partial refund changes only the books.
func (s *Service) Refunded(ctx context.Context, r Refund) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var pid, mid, amount, before int64
		err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT id, membership_id, amount_minor, refunded_minor FROM membership_payments WHERE external_id = ?`),
			r.ExternalID).Scan(&pid, &mid, &amount, &before)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		if r.RefundedMinor <= before {
			return nil // reported before, or out of order behind a larger total
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE membership_payments SET refunded_minor = ? WHERE id = ?`), r.RefundedMinor, pid); err != nil {
			return err
		}
		raw, err := s.lockedMembership(ctx, tx, mid)
		if err != nil {
			return err
		}
		if r.RefundedMinor < amount {
			return s.addHistory(ctx, tx, mid, 0, raw.Status, raw.Status, "partial refund of "+r.ExternalID, s.Now())
		}
		// The paid-until the membership had before this payment: the latest other
		// payment's that is not refunded in full.
		var prev sql.NullInt64
		if err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT MAX(covers_until) FROM membership_payments
			WHERE membership_id = ? AND id <> ? AND refunded_minor < amount_minor`), mid, pid).Scan(&prev); err != nil {
			return err
		}
		until := store.TimeOrNil(prev)
		to := StatusActive
		if until == nil || !until.After(s.Now()) {
			to = StatusLapsed
		}
		keep := raw.Status == StatusComplimentary || raw.Status == StatusCancelled
		if keep {
			to = raw.Status
		}
		_, err = s.apply(ctx, tx, mid, raw.Status, change{status: to, paidUntil: until, setPaid: !keep, why: "refunded " + r.ExternalID}, s.Now())
		return err
	})
}
