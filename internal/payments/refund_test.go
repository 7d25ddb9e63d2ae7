package payments_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"lineage/internal/payments"
	"lineage/internal/payments/stripetest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// A one-off Checkout for an amount the room makes up (an event booking) is created in
// stripe-mock; once the signed webhook has recorded its payment, Refund refunds it
// through Stripe (at most what is left), and a reference without a payment has nothing
// to refund.
func TestOneOffCheckoutAndRefund(t *testing.T) {
	mock := stripetest.Start(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := stripeService(t, db, mock)
		rec := newRecorder(t, db)
		svc.Handle("booking", rec)
		srv := httptest.NewServer(handler(svc))
		t.Cleanup(srv.Close)

		cs, err := svc.Checkout(ctx, payments.CheckoutRequest{Kind: "booking", RefID: "B-7K3Q9", Name: "DNA talk — 2 tickets",
			OneOff: &payments.OneOff{AmountMinor: 1600, Currency: "GBP"}, SuccessURL: "https://lineage.test/ok", CancelURL: "https://lineage.test/no"})
		if err != nil || !strings.HasPrefix(cs.ID, "cs_") || cs.URL == "" {
			t.Fatalf("checkout: %+v %v", cs, err)
		}
		if _, err := svc.Checkout(ctx, payments.CheckoutRequest{Kind: "booking", RefID: "B-7K3Q9", SuccessURL: "https://x",
			OneOff: &payments.OneOff{AmountMinor: 0, Currency: "GBP"}}); err == nil {
			t.Error("a checkout of nothing was made")
		}
		if _, err := svc.Refund(ctx, "booking", "B-7K3Q9", 1600); !errors.Is(err, payments.ErrNothingToRefund) {
			t.Errorf("refund before any payment: %v", err)
		}
		obj := checkoutObject("payment", "paid", map[string]any{"kind": "booking", "booking_id": "B-7K3Q9"})
		obj["amount_total"] = 1600
		send(t, srv.URL, event("evt_booking_1", "checkout.session.completed", time.Now().Unix(), obj), 200)
		id, err := svc.Refund(ctx, "booking", "B-7K3Q9", 5000)
		if err != nil || !strings.HasPrefix(id, "re_") {
			t.Fatalf("refund: %q %v", id, err)
		}
		if _, err := svc.Refund(ctx, "booking", "B-OTHER", 100); !errors.Is(err, payments.ErrNothingToRefund) {
			t.Errorf("refund of another reference: %v", err)
		}
	})
}
