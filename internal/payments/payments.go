package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/stripe/stripe-go/v82"

	"lineage/internal/store"
)

// StripeTimeout bounds one call to Stripe (stripe-go's own default is 80 s). A member
// waits on it when joining, and the web app gives up on the API after 10 s anyway.
const StripeTimeout = 10 * time.Second

// ErrOff is returned by the calls that need Stripe when no secret key is configured.
var ErrOff = errors.New("payments: card payment is off (LINEAGE_STRIPE_SECRET_KEY is not set)")

// ErrUnknownRef is what a Fulfiller returns (wrapped or not) when the reference names
// nothing it knows. The event is recorded with outcome "unknown_ref" and answered 200,
// since retrying cannot help; any other error answers 500 so Stripe retries.
var ErrUnknownRef = errors.New("payments: unknown reference")

// Ref says what a payment is for, from the metadata Lineage put on the Checkout
// Session and its Subscription: Kind "membership" with ID the membership id.
type Ref struct {
	Kind         string
	ID           string
	Customer     string // cus_…, when known
	Subscription string // sub_…, when the payment is part of one
}

// Checkout is a completed Checkout Session.
type Checkout struct {
	Ref
	Session       string // cs_…
	Mode          string // "payment" or "subscription"
	PaymentStatus string // "paid", "unpaid" (an asynchronous method still pending), "no_payment_required"
	Email         string // the customer's email as given at checkout
	At            time.Time
}

// Payment is money received: a paid invoice of a subscription, or a one-off Checkout.
type Payment struct {
	Ref
	PaymentID     int64  // the payments row
	ExternalID    string // in_… or cs_…
	AmountMinor   int64
	Currency      string // ISO 4217, upper case
	PaidAt        time.Time
	PeriodEnd     time.Time // end of the period an invoice paid for; zero for a one-off payment
	BillingReason string    // an invoice's: subscription_create, subscription_cycle, …
}

// Failure is a subscription invoice whose payment failed.
type Failure struct {
	Ref
	Invoice     string
	AmountMinor int64
	Currency    string
	At          time.Time
}

// Subscription is the state of a subscription after a change.
type Subscription struct {
	Ref
	Status            string // Stripe's: active, trialing, past_due, unpaid, canceled, incomplete…
	CancelAtPeriodEnd bool
	CurrentPeriodEnd  time.Time // zero when Stripe did not say
	Deleted           bool      // customer.subscription.deleted: it has ended for good
	At                time.Time // the event's time
}

// Refund is a charge refunded in part or in full.
type Refund struct {
	Ref
	PaymentID     int64  // the payments row refunded, 0 when none was found
	PaymentExtID  string // that row's Stripe id (cs_… or in_…), "" when none was found
	Charge        string
	RefundedMinor int64 // the total refunded on the charge so far
	Currency      string
	Full          bool
	At            time.Time
}

// Fulfiller is what the room owning a kind of payment does when Stripe reports on it.
// Each call runs in the transaction that records the event, and the room's writes go
// through tx so that they and the record commit together. Calls must be idempotent in
// effect (a Paid for a period already paid changes nothing) because the same payment
// may also arrive through a different event.
type Fulfiller interface {
	CheckoutCompleted(ctx context.Context, tx *sql.Tx, c Checkout) error
	Paid(ctx context.Context, tx *sql.Tx, p Payment) error
	PaymentFailed(ctx context.Context, tx *sql.Tx, f Failure) error
	SubscriptionChanged(ctx context.Context, tx *sql.Tx, s Subscription) error
	Refunded(ctx context.Context, tx *sql.Tx, r Refund) error
}

// Options configures a Service.
type Options struct {
	Config Config
	Log    *slog.Logger
	// HTTPClient talks to Stripe; nil uses one that gives up after StripeTimeout.
	HTTPClient *http.Client
	// PublicURL is the site's origin; the Customer Portal returns to a page under it.
	PublicURL string
	// Owner tells which membership the signed-in requester may manage payment for;
	// nil leaves the portal route answering 404.
	Owner Owner
	// Now is the clock for rows' received_at and created_at; nil uses time.Now.
	// Webhook signature freshness is always judged against the real clock.
	Now func() time.Time
}

// Service is the payment layer.
type Service struct {
	db     *store.DB
	cfg    Config
	log    *slog.Logger
	now    func() time.Time
	sc     *stripe.Client // nil without a secret key
	pub    string         // PublicURL without a trailing slash
	owner  Owner
	mu     sync.RWMutex
	byKind map[string]Fulfiller
}

// New builds the payment layer on db.
func New(db *store.DB, opts Options) *Service {
	s := &Service{db: db, cfg: opts.Config, log: opts.Log, now: opts.Now, byKind: map[string]Fulfiller{},
		pub: strings.TrimRight(opts.PublicURL, "/"), owner: opts.Owner}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.cfg.WebhookMaxBytes <= 0 {
		s.cfg.WebhookMaxBytes = DefaultWebhookMaxBytes
	}
	if s.cfg.SecretKey != "" {
		hc := opts.HTTPClient
		if hc == nil {
			hc = &http.Client{Timeout: StripeTimeout}
		}
		bc := &stripe.BackendConfig{HTTPClient: hc, LeveledLogger: stripeLogger{s.log}}
		if s.cfg.APIBase != "" {
			bc.URL = stripe.String(strings.TrimRight(s.cfg.APIBase, "/"))
		}
		s.sc = stripe.NewClient(s.cfg.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(bc)))
	}
	return s
}

// Handle registers the Fulfiller for payments whose metadata "kind" is kind.
func (s *Service) Handle(kind string, f Fulfiller) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byKind[kind] = f
}

func (s *Service) fulfiller(kind string) Fulfiller {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byKind[kind]
}

// SetOwner sets the Options.Owner after New, for rooms built after the payment layer.
func (s *Service) SetOwner(o Owner) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.owner = o
}

// CardPayments reports whether card payment through Stripe is on.
func (s *Service) CardPayments() bool { return s.sc != nil }

// stripeLogger passes stripe-go's warnings and errors (retries, failed requests) to
// slog; its chatter about every request is dropped.
type stripeLogger struct{ log *slog.Logger }

func (l stripeLogger) Debugf(format string, v ...any) {}
func (l stripeLogger) Infof(format string, v ...any)  {}
func (l stripeLogger) Warnf(format string, v ...any) {
	l.log.Warn("stripe: " + fmt.Sprintf(format, v...))
}
func (l stripeLogger) Errorf(format string, v ...any) {
	l.log.Warn("stripe: " + fmt.Sprintf(format, v...))
}

// Row is a payment kept for receipts and accounting.
type Row struct {
	ID            int64      `json:"id"`
	Kind          string     `json:"kind"`
	Ref           string     `json:"ref"`
	Provider      string     `json:"provider"`
	ExternalID    string     `json:"external_id"`
	Customer      string     `json:"customer,omitempty"`
	Subscription  string     `json:"subscription,omitempty"`
	AmountMinor   int64      `json:"amount_minor"`
	Currency      string     `json:"currency"`
	RefundedMinor int64      `json:"refunded_minor"`
	Status        string     `json:"status"`
	PeriodEnd     *time.Time `json:"period_end"`
	PaidAt        time.Time  `json:"paid_at"`
}

// Payments lists the payments made for one reference (e.g. a membership), oldest first.
func (s *Service) Payments(ctx context.Context, kind, ref string) ([]Row, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id, kind, ref, provider, external_id, customer,
		subscription, amount_minor, currency, refunded_minor, status, period_end, paid_at
		FROM payments WHERE kind = ? AND ref = ? ORDER BY paid_at, id`), kind, ref)
	return store.Collect(rows, err, func(row store.Row) (r Row, err error) {
		var pe sql.NullInt64
		var paid int64
		err = row.Scan(&r.ID, &r.Kind, &r.Ref, &r.Provider, &r.ExternalID, &r.Customer, &r.Subscription,
			&r.AmountMinor, &r.Currency, &r.RefundedMinor, &r.Status, &pe, &paid)
		r.PeriodEnd, r.PaidAt = store.TimeOrNil(pe), store.Time(paid)
		return r, err
	})
}
