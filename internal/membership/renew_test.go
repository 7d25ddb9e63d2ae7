package membership_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"lineage/internal/membership"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// Paying the next period early, while active or in grace, extends paid_until from the
// current paid_until, not from the day of paying: by card (a one-off Checkout payment
// reaches Paid with no period end) and by an admin's manual payment.
func TestRenewEarlyExtendsFromPaidUntil(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual)
		paidUntil := func(id int64) time.Time {
			t.Helper()
			m, err := e.ms.ByID(ctx, id)
			fatal(t, err)
			if m.PaidUntil == nil {
				t.Fatalf("membership %d has no paid-until", id)
			}
			return *m.PaidUntil
		}
		year1 := start.AddDate(1, 0, 0)
		for i, email := range []string{"ada@example.org", "bob@example.org"} {
			_, _, m := e.joined(t, email)
			e.clock.Set(start)
			_, err := e.ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: 2400})
			fatal(t, err)
			if got := paidUntil(m.ID); !got.Equal(year1) {
				t.Fatalf("first payment: until %v, want %v", got, year1)
			}
			pay := func(ext string) {
				t.Helper()
				if i == 0 {
					fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: m.ID, ExternalID: ext, AmountMinor: 2400, Currency: "GBP"}))
				} else {
					_, err := e.ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: 2400, Note: ext})
					fatal(t, err)
				}
			}
			// Active, two months before the end.
			e.clock.Set(year1.Add(-days(60)))
			pay("cs_early_" + email)
			if got, want := paidUntil(m.ID), year1.AddDate(1, 0, 0); !got.Equal(want) {
				t.Errorf("%s: renewed while active: until %v, want %v", email, got, want)
			}
			// In grace, ten days after the end.
			year2 := year1.AddDate(1, 0, 0)
			e.clock.Set(year2.Add(days(10)))
			if n, err := e.ms.Advance(ctx, e.clock.Now()); err != nil || n == 0 {
				t.Fatalf("advance to grace: %d %v", n, err)
			}
			if got, _ := e.ms.ByID(ctx, m.ID); got.Status != membership.StatusGrace {
				t.Fatalf("%s: status %s, want grace", email, got.Status)
			}
			pay("cs_grace_" + email)
			got, err := e.ms.ByID(ctx, m.ID)
			fatal(t, err)
			if want := year2.AddDate(1, 0, 0); got.Status != membership.StatusActive || !got.PaidUntil.Equal(want) {
				t.Errorf("%s: renewed in grace: %s until %v, want active until %v", email, got.Status, got.PaidUntil, want)
			}
		}
	})
}

// POST /api/membership/renew answers 409 saying why when there is nothing to pay:
// a subscription renews by itself, a lifetime membership never lapses, a lapsed one
// joins again, and without card payments the society is paid another way.
func TestRenewRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, annual, membership.Plan{Slug: "life", Name: "Life", PriceMinor: 40000, Period: membership.PeriodLifetime, OnSale: true})
		member := func(email, plan string) (int64, string) {
			uid, tok := e.user(t, email, "")
			m, err := e.ms.Join(ctx, uid, plan, "")
			fatal(t, err)
			return m.ID, tok
		}
		expect := func(tok, want string) {
			t.Helper()
			code, got := e.do(t, "POST", "/api/membership/renew", tok, "")
			if msg, _ := got["message"].(string); code != 409 || !strings.Contains(msg, want) {
				t.Errorf("renew: %d %v, want 409 saying %q", code, got, want)
			}
		}

		id, tok := member("sub@example.org", "individual")
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: id, ExternalID: "in_1", AmountMinor: 2400, Currency: "GBP", PaidUntil: start.AddDate(1, 0, 0)}))
		fatal(t, e.ms.SubscriptionChanged(ctx, membership.Subscription{MembershipID: id, ExternalID: "sub_1", AutoRenew: true}))
		expect(tok, "renews automatically")

		id, tok = member("life@example.org", "life")
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: id, ExternalID: "cs_life", AmountMinor: 40000, Currency: "GBP"}))
		expect(tok, "never lapses")

		id, tok = member("manual@example.org", "individual")
		_, err := e.ms.RecordPayment(ctx, 0, id, membership.ManualPayment{AmountMinor: 2400})
		fatal(t, err)
		expect(tok, "Card payments are not taken here")

		_, tok = member("pending@example.org", "individual")
		expect(tok, "join again at /subscribe/individual")

		_, tok = e.user(t, "none@example.org", "")
		if code, got := e.do(t, "POST", "/api/membership/renew", tok, ""); code != 404 {
			t.Errorf("renew without a membership: %d %v", code, got)
		}
	})
}
