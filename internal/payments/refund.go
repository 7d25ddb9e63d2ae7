package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/stripe/stripe-go/v82"
)

// ErrNothingToRefund is Refund's answer when the reference has no card payment left to
// refund.
var ErrNothingToRefund = errors.New("payments: no payment to refund")

// Refund refunds amountMinor of the newest card payment for a reference (kind
// "booking", ref "B-7K3Q9") and returns Stripe's refund id. The idempotency key is the
// reference and amount, so a retry after a lost answer (or a second instance doing
// the same) refunds once. The payments row learns the refunded total from the
// charge.refunded event, as for a refund made in Stripe's dashboard.
func (s *Service) Refund(ctx context.Context, kind, ref string, amountMinor int64) (string, error) {
	if s.sc == nil {
		return "", ErrOff
	}
	if amountMinor <= 0 {
		return "", fmt.Errorf("payments: refund of %d minor units", amountMinor)
	}
	var intent string
	var paid, refunded int64
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT payment_intent, amount_minor, refunded_minor FROM payments
		WHERE kind = ? AND ref = ? AND payment_intent <> '' ORDER BY paid_at DESC, id DESC LIMIT 1`), kind, ref).Scan(&intent, &paid, &refunded)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("%s %s: %w", kind, ref, ErrNothingToRefund)
	}
	if err != nil {
		return "", err
	}
	if amountMinor > paid-refunded {
		amountMinor = paid - refunded
	}
	if amountMinor <= 0 {
		return "", fmt.Errorf("%s %s: %w", kind, ref, ErrNothingToRefund)
	}
	p := &stripe.RefundCreateParams{PaymentIntent: stripe.String(intent), Amount: stripe.Int64(amountMinor),
		Metadata: map[string]string{"kind": kind, metaRefKey(kind): ref}}
	p.SetIdempotencyKey("lineage-refund-" + kind + "-" + ref + "-" + strconv.FormatInt(amountMinor, 10))
	r, err := s.sc.V1Refunds.Create(ctx, p)
	if err != nil {
		return "", fmt.Errorf("payments: refund %s %s: %w", kind, ref, err)
	}
	return r.ID, nil
}
