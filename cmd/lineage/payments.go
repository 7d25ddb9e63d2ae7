package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/httpx"
	"lineage/internal/membership"
	"lineage/internal/payments"
	"lineage/internal/store"
)

// addPayments builds the payment layer (Stripe): its webhook, which Stripe calls
// without a session, and the Customer Portal route behind the accounts middleware
// (routes.go). Without LINEAGE_STRIPE_SECRET_KEY card payment is off and the rest of
// the site is unchanged.
func (a *app) addPayments(cfg config.Config, db *store.DB) error {
	svc, err := newPayments(cfg, db)
	if err != nil {
		return err
	}
	a.payments = svc
	return nil
}

// newPayments reads the LINEAGE_STRIPE_* settings and builds the payment layer (serve
// and `lineage membership sync-stripe`).
func newPayments(cfg config.Config, db *store.DB) (*payments.Service, error) {
	pc, err := payments.ConfigFromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	return payments.New(db, payments.Options{Config: pc, Log: slog.Default(), PublicURL: cfg.PublicURL}), nil
}

// connectPayments makes the membership room the one that card payments for kind
// "membership" are reported to, and the judge of whose payments a member may manage.
func (a *app) connectPayments() {
	a.payments.Handle("membership", membershipFulfiller{a.membership})
	a.payments.SetOwner(membershipOwner{a.membership})
}

// withCheckout gives the membership room a way to start a Stripe Checkout for a new
// pending membership, when card payment is on.
func withCheckout(p *payments.Service, publicURL string) func(*membership.Options) {
	return func(o *membership.Options) {
		if p == nil || !p.CardPayments() {
			return
		}
		o.Checkout = func(ctx context.Context, m *membership.Membership, returnTo string) (string, error) {
			return startCheckout(ctx, p, publicURL, m, returnTo)
		}
	}
}

// startCheckout makes the Checkout Session for membership m and returns its URL; ""
// when the plan costs nothing.
func startCheckout(ctx context.Context, p *payments.Service, publicURL string, m *membership.Membership, returnTo string) (string, error) {
	price, name := m.Plan.PriceMinor, m.Plan.Name
	if m.Concession != "" {
		if c, ok := m.Plan.Concession(m.Concession); ok {
			price, name = c.PriceMinor, m.Plan.Name+" ("+c.Name+")"
		}
	}
	if price <= 0 {
		return "", nil
	}
	ref := strconv.FormatInt(m.ID, 10)
	customer, err := p.Customer(ctx, "membership", ref)
	if err != nil {
		return "", err
	}
	email := m.Email
	if u := auth.UserFrom(ctx); u != nil && email == "" {
		email = u.Email
	}
	base := strings.TrimRight(publicURL, "/")
	success := base + "/user-account/membership?checkout=success&session_id={CHECKOUT_SESSION_ID}"
	// The seed's redirect rule, as for sign-in's return: only a path on this site.
	if returnTo != "" && auth.ValidRedirect(returnTo) {
		success += "&return_to=" + url.QueryEscape(returnTo)
	}
	period := m.Plan.Period
	if m.Status == membership.StatusActive || m.Status == membership.StatusGrace {
		// Renewing early (POST /api/membership/renew): one payment for the next period,
		// which the membership room extends from the current paid-until. A subscription
		// would start its period today.
		period = membership.PeriodFixed
	}
	cs, err := p.Checkout(ctx, payments.CheckoutRequest{
		Kind: "membership", RefID: ref, Name: name, Email: email, Customer: customer,
		Price:      payments.PriceKey{Plan: m.Plan.Slug, Concession: m.Concession, AmountMinor: price, Currency: m.Plan.Currency, Period: period},
		SuccessURL: success,
		CancelURL:  base + "/subscribe/" + url.PathEscape(m.Plan.Slug),
	})
	if err != nil {
		return "", err
	}
	return cs.URL, nil
}

// membershipFulfiller reports Stripe's events to the membership room, inside the
// transaction that records the event (membership.Service.In).
type membershipFulfiller struct{ m *membership.Service }

func (f membershipFulfiller) id(ref payments.Ref) (int64, error) {
	n, err := strconv.ParseInt(ref.ID, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("membership id %q: %w", ref.ID, payments.ErrUnknownRef)
	}
	return n, nil
}

// known turns the room's "not found" into payments.ErrUnknownRef: retrying cannot
// make a membership that does not exist.
func known(err error) error {
	var e *httpx.Error
	if errors.As(err, &e) && e.Code == httpx.ENOTFOUND {
		return fmt.Errorf("%v: %w", err, payments.ErrUnknownRef)
	}
	return err
}

// CheckoutCompleted needs nothing from the membership room: a one-off payment arrives
// as Paid in the same event, a subscription's as its first invoice, and the payment
// layer keeps the Stripe customer.
func (f membershipFulfiller) CheckoutCompleted(ctx context.Context, tx *sql.Tx, c payments.Checkout) error {
	_, err := f.id(c.Ref)
	return err
}

func (f membershipFulfiller) Paid(ctx context.Context, tx *sql.Tx, p payments.Payment) error {
	id, err := f.id(p.Ref)
	if err != nil {
		return err
	}
	return known(f.m.In(tx).Paid(ctx, membership.Payment{MembershipID: id, ExternalID: p.ExternalID,
		AmountMinor: p.AmountMinor, Currency: p.Currency, PaidUntil: p.PeriodEnd}))
}

func (f membershipFulfiller) PaymentFailed(ctx context.Context, tx *sql.Tx, fl payments.Failure) error {
	id, err := f.id(fl.Ref)
	if err != nil {
		return err
	}
	return known(f.m.In(tx).PaymentFailed(ctx, membership.Ref{MembershipID: id, ExternalID: fl.Invoice}))
}

func (f membershipFulfiller) SubscriptionChanged(ctx context.Context, tx *sql.Tx, s payments.Subscription) error {
	id, err := f.id(s.Ref)
	if err != nil {
		return err
	}
	ended := s.Deleted || s.Status == "canceled" || s.Status == "incomplete_expired"
	return known(f.m.In(tx).SubscriptionChanged(ctx, membership.Subscription{MembershipID: id,
		ExternalID: s.Subscription, Ended: ended, AutoRenew: !ended && !s.CancelAtPeriodEnd}))
}

func (f membershipFulfiller) Refunded(ctx context.Context, tx *sql.Tx, r payments.Refund) error {
	if r.PaymentExtID == "" {
		return fmt.Errorf("charge %s: no recorded payment: %w", r.Charge, payments.ErrUnknownRef)
	}
	return known(f.m.In(tx).Refunded(ctx, membership.Refund{ExternalID: r.PaymentExtID, RefundedMinor: r.RefundedMinor}))
}

// membershipOwner lets the holder of a membership (not a household member) manage its
// card payments.
type membershipOwner struct{ m *membership.Service }

func (o membershipOwner) OwnedRef(r *http.Request) (string, string, error) {
	u := auth.UserFrom(r.Context())
	if u == nil {
		return "", "", payments.ErrSignedOut
	}
	m, err := o.m.ForUser(r.Context(), u.ID)
	if err != nil {
		return "", "", err
	}
	if m == nil || m.UserID == nil || *m.UserID != u.ID {
		return "", "", payments.ErrNoRef
	}
	return "membership", strconv.FormatInt(m.ID, 10), nil
}

// membershipPlans lists the membership room's plans for sync-stripe.
type membershipPlans struct{ m *membership.Service }

func (p membershipPlans) PlansForSync(ctx context.Context) ([]payments.SyncPlan, error) {
	plans, err := p.m.Plans(ctx, false)
	if err != nil {
		return nil, err
	}
	out := make([]payments.SyncPlan, 0, len(plans))
	for _, pl := range plans {
		sp := payments.SyncPlan{Slug: pl.Slug, Name: pl.Name, PriceMinor: pl.PriceMinor, Currency: pl.Currency, Period: pl.Period}
		for _, c := range pl.Concessions {
			sp.Concessions = append(sp.Concessions, payments.SyncConcession{Slug: c.Slug, Name: c.Name, PriceMinor: c.PriceMinor})
		}
		out = append(out, sp)
	}
	return out, nil
}
