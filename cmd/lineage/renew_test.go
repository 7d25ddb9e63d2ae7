package main

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/membership"
	"lineage/internal/payments/stripetest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestRenewEarlyByCard: a member of an annual plan paid by hand renews by card two
// months early. The Checkout is a one-off payment (a subscription would start its
// period today), and the completed session extends paid_until from the old paid-until.
func TestRenewEarlyByCard(t *testing.T) {
	mock := stripetest.Start(t)
	setStripeEnv(t, mock)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx, cfg, a := payingApp(t, db)
		start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		now := start
		a.membership.Now = func() time.Time { return now }
		joined := joinedAda(t, ctx, a, "")
		m, err := a.membership.RecordPayment(ctx, 0, joined.ID, membership.ManualPayment{AmountMinor: joined.Plan.PriceMinor})
		if err != nil {
			t.Fatal(err)
		}
		year1 := start.AddDate(1, 0, 0)
		if m.Plan.Period != membership.PeriodAnnual || m.Status != membership.StatusActive || !m.PaidUntil.Equal(year1) {
			t.Fatalf("paid by hand: %s %s until %v", m.Plan.Period, m.Status, m.PaidUntil)
		}

		now = year1.AddDate(0, -2, 0)
		url, err := startCheckout(ctx, a.payments, cfg.PublicURL, m, "")
		if err != nil || !strings.HasPrefix(url, "http") {
			t.Fatalf("renewal checkout: %q %v", url, err)
		}
		var recurring string
		if err := db.QueryRow(db.Rebind(`SELECT recurring FROM payment_prices WHERE plan = ? AND amount_minor = ?`), "individual", m.Plan.PriceMinor).Scan(&recurring); err != nil || recurring != "" {
			t.Fatalf("the renewal's price: recurring %q %v, want a one-off price", recurring, err)
		}

		srv := httptest.NewServer(httpx.Serve(a.routes()...))
		defer srv.Close()
		ref := strconv.FormatInt(m.ID, 10)
		session := map[string]any{"id": "cs_renew", "object": "checkout.session", "mode": "payment", "payment_status": "paid",
			"status": "complete", "client_reference_id": ref, "metadata": map[string]any{"kind": "membership", "membership_id": ref},
			"amount_total": m.Plan.PriceMinor, "currency": "gbp", "customer": "cus_1", "payment_intent": "pi_renew"}
		if code, body := signedPost(t, srv.URL, "evt_renew", "checkout.session.completed", now.Unix(), session); code != 200 {
			t.Fatalf("checkout.session.completed: %d %s", code, body)
		}
		got, err := a.membership.ByID(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := year1.AddDate(1, 0, 0); got.Status != membership.StatusActive || got.PaidUntil == nil || !got.PaidUntil.Equal(want) {
			t.Fatalf("after renewing: %s until %v, want active until %v", got.Status, got.PaidUntil, want)
		}
	})
}
