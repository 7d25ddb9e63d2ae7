package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v82"
)

// PriceKey names one price of a plan: Stripe Prices cannot change, so each distinct
// amount, currency and interval is its own Stripe Price.
type PriceKey struct {
	Plan        string // the plan's slug
	Concession  string // the concession's slug, "" for the full price
	AmountMinor int64
	Currency    string // ISO 4217
	// Period is the plan's period in the membership vocabulary: "annual" and
	// "monthly" renew automatically (a Stripe subscription); "lifetime" and "fixed"
	// are one-off payments.
	Period string
}

// recurring is Stripe's interval for the period, "" for a one-off price.
func (k PriceKey) recurring() string {
	switch k.Period {
	case "annual":
		return "year"
	case "monthly":
		return "month"
	}
	return ""
}

func (k PriceKey) validate() error {
	if k.Plan == "" {
		return errors.New("payments: a price needs its plan's slug")
	}
	if k.AmountMinor <= 0 {
		return fmt.Errorf("payments: plan %q: a card payment must be more than nothing (got %d minor units)", k.Plan, k.AmountMinor)
	}
	if len(k.Currency) != 3 || strings.ToUpper(k.Currency) != k.Currency {
		return fmt.Errorf("payments: plan %q: currency must be a three-letter ISO 4217 code in capitals, got %q", k.Plan, k.Currency)
	}
	switch k.Period {
	case "annual", "monthly", "lifetime", "fixed":
	default:
		return fmt.Errorf("payments: plan %q: unknown period %q", k.Plan, k.Period)
	}
	return nil
}

// CheckoutRequest is what a room asks to be paid for.
type CheckoutRequest struct {
	Kind  string // "membership", "booking"
	RefID string // the membership id, the booking reference; becomes client_reference_id and metadata
	Price PriceKey
	// OneOff, when set, is paid instead of a plan's Price: a single payment of an
	// amount made up by the room (an event booking's tickets), with Name as the line.
	OneOff *OneOff
	// ExpiresAt, when set, ends the Checkout Session (Stripe accepts 30 minutes to 24
	// hours ahead): a booking's held places are not kept longer than that.
	ExpiresAt time.Time
	Name      string // what the payer sees, e.g. "Individual membership (student)"
	Email     string // prefills the Checkout form when no Customer is known
	Customer  string // cus_… of an earlier payment, so the Portal shows one history
	// SuccessURL and CancelURL are absolute; SuccessURL may carry
	// {CHECKOUT_SESSION_ID}, which Stripe fills in.
	SuccessURL string
	CancelURL  string
}

// OneOff is a single payment of an amount.
type OneOff struct {
	AmountMinor int64
	Currency    string // ISO 4217, upper case
}

// CheckoutSession is a created Checkout Session.
type CheckoutSession struct {
	ID  string
	URL string // where to send the browser
}

// Checkout creates a Stripe Checkout Session: mode "subscription" for a plan that
// renews automatically, "payment" for a one-off. The membership is fulfilled from the
// webhook, never from the browser's return to SuccessURL.
func (s *Service) Checkout(ctx context.Context, req CheckoutRequest) (CheckoutSession, error) {
	if s.sc == nil {
		return CheckoutSession{}, ErrOff
	}
	if req.Kind == "" || req.RefID == "" {
		return CheckoutSession{}, errors.New("payments: a checkout needs a kind and a reference")
	}
	if req.SuccessURL == "" {
		return CheckoutSession{}, errors.New("payments: a checkout needs a success URL")
	}
	var item *stripe.CheckoutSessionCreateLineItemParams
	if o := req.OneOff; o != nil {
		if o.AmountMinor <= 0 || len(o.Currency) != 3 || strings.ToUpper(o.Currency) != o.Currency {
			return CheckoutSession{}, fmt.Errorf("payments: a one-off payment needs an amount above nothing and an ISO 4217 currency, got %d %q", o.AmountMinor, o.Currency)
		}
		name := req.Name
		if name == "" {
			name = req.Kind + " " + req.RefID
		}
		item = &stripe.CheckoutSessionCreateLineItemParams{Quantity: stripe.Int64(1), PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
			Currency: stripe.String(strings.ToLower(o.Currency)), UnitAmount: stripe.Int64(o.AmountMinor),
			ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(name)},
		}}
	} else {
		price, err := s.EnsurePrice(ctx, req.Price, req.Name)
		if err != nil {
			return CheckoutSession{}, err
		}
		item = &stripe.CheckoutSessionCreateLineItemParams{Price: stripe.String(price), Quantity: stripe.Int64(1)}
	}
	meta := map[string]string{"kind": req.Kind, metaRefKey(req.Kind): req.RefID}
	p := &stripe.CheckoutSessionCreateParams{
		ClientReferenceID: stripe.String(req.RefID),
		LineItems:         []*stripe.CheckoutSessionCreateLineItemParams{item},
		Metadata:          meta,
		SuccessURL:        stripe.String(req.SuccessURL),
	}
	if req.CancelURL != "" {
		p.CancelURL = stripe.String(req.CancelURL)
	}
	if !req.ExpiresAt.IsZero() {
		p.ExpiresAt = stripe.Int64(req.ExpiresAt.Unix())
	}
	if req.Customer != "" {
		p.Customer = stripe.String(req.Customer)
	} else if req.Email != "" {
		p.CustomerEmail = stripe.String(req.Email)
	}
	if req.OneOff == nil && req.Price.recurring() != "" {
		p.Mode = stripe.String(string(stripe.CheckoutSessionModeSubscription))
		// On the Subscription too, so its events and invoices name the membership even
		// when they arrive before checkout.session.completed.
		p.SubscriptionData = &stripe.CheckoutSessionCreateSubscriptionDataParams{Metadata: meta}
	} else {
		p.Mode = stripe.String(string(stripe.CheckoutSessionModePayment))
		p.PaymentIntentData = &stripe.CheckoutSessionCreatePaymentIntentDataParams{Metadata: meta}
		if req.Customer == "" {
			// A Customer even for a one-off payment, so "Manage payment" has one to open.
			p.CustomerCreation = stripe.String(string(stripe.CheckoutSessionCustomerCreationAlways))
		}
	}
	cs, err := s.sc.V1CheckoutSessions.Create(ctx, p)
	if err != nil {
		return CheckoutSession{}, fmt.Errorf("payments: create checkout session: %w", err)
	}
	return CheckoutSession{ID: cs.ID, URL: cs.URL}, nil
}

// metaRefKey is the metadata key holding the reference: "membership_id" for kind
// "membership".
func metaRefKey(kind string) string { return kind + "_id" }

// Portal creates a Stripe Customer Portal session for a customer ("Manage payment")
// and returns its URL. Portal sessions are short-lived: make one per click.
func (s *Service) Portal(ctx context.Context, customer, returnURL string) (string, error) {
	if s.sc == nil {
		return "", ErrOff
	}
	if customer == "" {
		return "", errors.New("payments: no Stripe customer to open the portal for")
	}
	p := &stripe.BillingPortalSessionCreateParams{Customer: stripe.String(customer)}
	if returnURL != "" {
		p.ReturnURL = stripe.String(returnURL)
	}
	ps, err := s.sc.V1BillingPortalSessions.Create(ctx, p)
	if err != nil {
		return "", fmt.Errorf("payments: create portal session: %w", err)
	}
	return ps.URL, nil
}

// Customer is the newest Stripe customer seen paying for a reference, "" when none.
func (s *Service) Customer(ctx context.Context, kind, ref string) (string, error) {
	var c string
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT customer FROM (
		SELECT customer, paid_at AS at FROM payments WHERE kind = ? AND ref = ? AND customer <> ''
		UNION ALL
		SELECT customer, event_created AS at FROM payment_subscriptions WHERE kind = ? AND ref = ? AND customer <> ''
	) c ORDER BY at DESC LIMIT 1`), kind, ref, kind, ref).Scan(&c)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return c, err
}

// EnsurePrice returns the Stripe Price for k, creating the plan's Product and the
// Price in Stripe the first time and keeping their ids. name names a new Product.
func (s *Service) EnsurePrice(ctx context.Context, k PriceKey, name string) (string, error) {
	id, _, err := s.ensurePrice(ctx, k, name)
	return id, err
}

// ensurePrice is EnsurePrice that also says whether it created the Price.
func (s *Service) ensurePrice(ctx context.Context, k PriceKey, name string) (string, bool, error) {
	if s.sc == nil {
		return "", false, ErrOff
	}
	if err := k.validate(); err != nil {
		return "", false, err
	}
	var id string
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT price_id FROM payment_prices
		WHERE plan = ? AND concession = ? AND amount_minor = ? AND currency = ? AND recurring = ?`),
		k.Plan, k.Concession, k.AmountMinor, k.Currency, k.recurring()).Scan(&id)
	if err == nil {
		return id, false, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", false, err
	}
	product, err := s.ensureProduct(ctx, k.Plan, name)
	if err != nil {
		return "", false, err
	}
	p := &stripe.PriceCreateParams{
		Product:    stripe.String(product),
		UnitAmount: stripe.Int64(k.AmountMinor),
		Currency:   stripe.String(strings.ToLower(k.Currency)),
		Metadata:   map[string]string{"plan": k.Plan, "concession": k.Concession},
	}
	if k.Concession != "" {
		p.Nickname = stripe.String(k.Concession)
	}
	if r := k.recurring(); r != "" {
		p.Recurring = &stripe.PriceCreateRecurringParams{Interval: stripe.String(r)}
	}
	// Two instances (or a retry after a lost answer) asking for the same price within
	// Stripe's idempotency window get the same Price back.
	p.SetIdempotencyKey("lineage-price-" + k.Plan + "-" + k.Concession + "-" +
		strconv.FormatInt(k.AmountMinor, 10) + "-" + k.Currency + "-" + k.recurring())
	pr, err := s.sc.V1Prices.Create(ctx, p)
	if err != nil {
		return "", false, fmt.Errorf("payments: create price for plan %q: %w", k.Plan, err)
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO payment_prices
		(plan, concession, amount_minor, currency, recurring, price_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`),
		k.Plan, k.Concession, k.AmountMinor, k.Currency, k.recurring(), pr.ID, s.now().Unix())
	if err != nil {
		return "", false, err
	}
	// Another instance may have stored its Price first; use the stored one.
	err = s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT price_id FROM payment_prices
		WHERE plan = ? AND concession = ? AND amount_minor = ? AND currency = ? AND recurring = ?`),
		k.Plan, k.Concession, k.AmountMinor, k.Currency, k.recurring()).Scan(&id)
	return id, id == pr.ID, err
}

func (s *Service) ensureProduct(ctx context.Context, plan, name string) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT product_id FROM payment_products WHERE plan = ?`), plan).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	if name == "" {
		name = plan
	}
	p := &stripe.ProductCreateParams{Name: stripe.String(name), Metadata: map[string]string{"plan": plan}}
	p.SetIdempotencyKey("lineage-product-" + plan)
	pr, err := s.sc.V1Products.Create(ctx, p)
	if err != nil {
		return "", fmt.Errorf("payments: create product for plan %q: %w", plan, err)
	}
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO payment_products (plan, product_id, created_at)
		VALUES (?, ?, ?) ON CONFLICT DO NOTHING`), plan, pr.ID, s.now().Unix()); err != nil {
		return "", err
	}
	err = s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT product_id FROM payment_products WHERE plan = ?`), plan).Scan(&id)
	return id, err
}
