package payments

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"lineage/internal/httpx"
)

// Outcomes recorded in payment_events.
const (
	outcomeApplied    = "applied"     // the Fulfiller (or the subscription state) took it
	outcomeStale      = "stale"       // a subscription state older than the one kept
	outcomeNotOurs    = "not_ours"    // no Lineage metadata (another use of the Stripe account), or no room for its kind
	outcomeUnknownRef = "unknown_ref" // the Fulfiller knows no such reference
	outcomeUnhandled  = "unhandled"   // an event type this room does not act on
	outcomeUnreadable = "unreadable"  // signed by Stripe, but its object is not what the type promises
)

// errVersion marks an event sent on an API version stripe-go cannot read reliably.
var errVersion = errors.New("payments: event API version")

// Webhook serves POST /api/stripe/webhook. 400 for a body that is not a fresh, signed
// Stripe event; 200 once the event is recorded (or was already); 500 when it could not
// be, so that Stripe tries again.
func (s *Service) Webhook(w http.ResponseWriter, r *http.Request) error {
	if s.cfg.WebhookSecret == "" {
		s.log.Warn("stripe webhook: received, but LINEAGE_STRIPE_WEBHOOK_SECRET is not set")
		return &httpx.Error{Code: httpx.EUNAVAILABLE, Message: "Stripe webhooks are not configured on this server."}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.WebhookMaxBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &httpx.Error{Code: httpx.ETOOLARGE,
				Message: fmt.Sprintf("A Stripe webhook body may be at most %d bytes (LINEAGE_STRIPE_WEBHOOK_MAX_BYTES).", s.cfg.WebhookMaxBytes)}
		}
		return &httpx.Error{Code: httpx.EBADREQUEST, Message: "The request body could not be read."}
	}
	ev, err := s.verify(body, r.Header.Get("Stripe-Signature"))
	if err != nil {
		if errors.Is(err, errVersion) {
			s.log.Error("stripe webhook: rejected", "err", err, "remote", httpx.ClientIP(r))
		} else {
			s.log.Warn("stripe webhook: rejected", "err", err, "remote", httpx.ClientIP(r))
		}
		return &httpx.Error{Code: httpx.EBADREQUEST, Message: err.Error()}
	}
	dup, outcome, err := s.Process(r.Context(), ev, body)
	if err != nil {
		s.log.Error("stripe webhook: not recorded; Stripe will retry", "event", ev.ID, "type", ev.Type, "err", err)
		return &httpx.Error{Code: httpx.EINTERNAL, Message: "The event could not be recorded; please retry."}
	}
	if dup {
		s.log.Info("stripe webhook: already recorded", "event", ev.ID, "type", ev.Type)
	} else if outcome != outcomeApplied && outcome != outcomeUnhandled {
		s.log.Warn("stripe webhook: recorded without effect", "event", ev.ID, "type", ev.Type, "outcome", outcome)
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"received": true, "duplicate": dup})
	return nil
}

// verify checks the signature (every v1 in the header, HMAC-SHA256 of "t.body" with
// the endpoint secret, at most webhook.DefaultTolerance old) and then the event's API
// version. The version is checked by us, after the signature, so that a genuine event
// on the wrong version is told apart from a forgery in the log: stripe-go decodes
// objects in the shape of its own release train (basil), and an event from another
// train could be misread, so it is refused (400) until the endpoint is recreated on a
// basil version; Stripe keeps retrying for three days, so nothing is lost meanwhile.
func (s *Service) verify(body []byte, header string) (stripe.Event, error) {
	var ev stripe.Event
	if header == "" {
		return ev, errors.New("missing Stripe-Signature header")
	}
	if err := webhook.ValidatePayloadWithTolerance(body, header, s.cfg.WebhookSecret, webhook.DefaultTolerance); err != nil {
		switch {
		case errors.Is(err, webhook.ErrTooOld):
			return ev, errors.New("stale Stripe-Signature: the timestamp is more than 300 s old")
		case errors.Is(err, webhook.ErrNoValidSignature):
			return ev, errors.New("wrong Stripe-Signature: no v1 signature matches this endpoint's secret")
		default:
			return ev, errors.New("malformed Stripe-Signature header")
		}
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		return ev, errors.New("the body is not a Stripe event")
	}
	if ev.ID == "" || ev.Type == "" {
		return ev, errors.New("the body is not a Stripe event: no id or type")
	}
	if !sameReleaseTrain(ev.APIVersion, stripe.APIVersion) {
		return ev, fmt.Errorf("%w %q is not on the %q release train this server reads; create the webhook endpoint with API version %s",
			errVersion, ev.APIVersion, train(stripe.APIVersion), stripe.APIVersion)
	}
	return ev, nil
}

// sameReleaseTrain compares the suffix after the date ("basil"), as stripe-go does.
func sameReleaseTrain(event, sdk string) bool {
	return train(event) != "" && train(event) == train(sdk)
}

func train(v string) string {
	_, t, ok := strings.Cut(v, ".")
	if !ok {
		return ""
	}
	return t
}

// Process records a verified event and applies its effect in one transaction. dup is
// true when the event id was recorded before (by this or another instance), in which
// case nothing changes. The webhook handler calls it after verifying the signature.
func (s *Service) Process(ctx context.Context, ev stripe.Event, body []byte) (dup bool, outcome string, err error) {
	act, derr := decode(ev)
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO payment_events
			(event_id, type, created, received_at, outcome, payload) VALUES (?, ?, ?, ?, '', ?)
			ON CONFLICT (event_id) DO NOTHING`),
			ev.ID, string(ev.Type), ev.Created, s.now().Unix(), string(body))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			dup = true
			return nil
		}
		switch {
		case derr != nil:
			s.log.Error("stripe webhook: unreadable object", "event", ev.ID, "type", ev.Type, "err", derr)
			outcome = outcomeUnreadable
		case act == nil:
			outcome = outcomeUnhandled
		default:
			outcome, err = s.apply(ctx, tx, ev, act)
			if err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, s.db.Rebind(`UPDATE payment_events SET outcome = ? WHERE event_id = ?`), outcome, ev.ID)
		return err
	})
	if err != nil {
		return false, "", err
	}
	return dup, outcome, nil
}

// action is an event decoded into what this room acts on; exactly one field is set.
type action struct {
	checkout *stripe.CheckoutSession
	invoice  *stripe.Invoice
	failed   *stripe.Invoice
	sub      *stripe.Subscription
	deleted  bool
	charge   *stripe.Charge
}

// decode reads the event's object for the types this room handles; (nil, nil) for
// any other type.
func decode(ev stripe.Event) (*action, error) {
	if ev.Data == nil || len(ev.Data.Raw) == 0 || string(ev.Data.Raw) == "null" {
		switch ev.Type {
		case stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded,
			stripe.EventTypeInvoicePaid, stripe.EventTypeInvoicePaymentFailed,
			stripe.EventTypeCustomerSubscriptionUpdated, stripe.EventTypeCustomerSubscriptionDeleted,
			stripe.EventTypeChargeRefunded:
			return nil, errors.New("no data.object")
		}
		return nil, nil
	}
	var a action
	var into any
	switch ev.Type {
	case stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded:
		a.checkout = &stripe.CheckoutSession{}
		into = a.checkout
	case stripe.EventTypeInvoicePaid:
		a.invoice = &stripe.Invoice{}
		into = a.invoice
	case stripe.EventTypeInvoicePaymentFailed:
		a.failed = &stripe.Invoice{}
		into = a.failed
	case stripe.EventTypeCustomerSubscriptionUpdated, stripe.EventTypeCustomerSubscriptionDeleted:
		a.sub = &stripe.Subscription{}
		a.deleted = ev.Type == stripe.EventTypeCustomerSubscriptionDeleted
		into = a.sub
	case stripe.EventTypeChargeRefunded:
		a.charge = &stripe.Charge{}
		into = a.charge
	default:
		return nil, nil
	}
	if err := json.Unmarshal(ev.Data.Raw, into); err != nil {
		return nil, err
	}
	return &a, nil
}

// refOf reads Lineage's metadata; ok is false when the object is not Lineage's.
func refOf(meta map[string]string) (Ref, bool) {
	kind := meta["kind"]
	if kind == "" {
		return Ref{}, false
	}
	id := meta[metaRefKey(kind)]
	if id == "" {
		return Ref{}, false
	}
	return Ref{Kind: kind, ID: id}, true
}

func idOf[T interface {
	*stripe.Customer | *stripe.Subscription | *stripe.PaymentIntent
}](v T) string {
	switch x := any(v).(type) {
	case *stripe.Customer:
		if x != nil {
			return x.ID
		}
	case *stripe.Subscription:
		if x != nil {
			return x.ID
		}
	case *stripe.PaymentIntent:
		if x != nil {
			return x.ID
		}
	}
	return ""
}

func unix(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(n, 0).UTC()
}

// apply does what the event says, inside tx, and returns the outcome to record.
func (s *Service) apply(ctx context.Context, tx *sql.Tx, ev stripe.Event, a *action) (string, error) {
	at := unix(ev.Created)
	var ref Ref
	var ok bool
	var call func(f Fulfiller) error
	switch {
	case a.checkout != nil:
		cs := a.checkout
		ref, ok = refOf(cs.Metadata)
		if !ok {
			return outcomeNotOurs, nil
		}
		ref.Customer, ref.Subscription = idOf(cs.Customer), idOf(cs.Subscription)
		c := Checkout{Ref: ref, Session: cs.ID, Mode: string(cs.Mode), PaymentStatus: string(cs.PaymentStatus), At: at}
		if cs.CustomerDetails != nil {
			c.Email = cs.CustomerDetails.Email
		}
		var pay *Payment
		if cs.Mode == stripe.CheckoutSessionModePayment && cs.PaymentStatus == stripe.CheckoutSessionPaymentStatusPaid {
			// A one-off payment is paid by the session itself; a subscription's is paid
			// by its first invoice, which arrives as invoice.paid.
			p := Payment{Ref: ref, ExternalID: cs.ID, AmountMinor: cs.AmountTotal,
				Currency: strings.ToUpper(string(cs.Currency)), PaidAt: at}
			id, fresh, err := s.recordPayment(ctx, tx, ev.ID, p, idOf(cs.PaymentIntent))
			if err != nil {
				return "", err
			}
			if fresh {
				p.PaymentID = id
				pay = &p
			}
		}
		call = func(f Fulfiller) error {
			if err := f.CheckoutCompleted(ctx, tx, c); err != nil {
				return err
			}
			if pay != nil {
				return f.Paid(ctx, tx, *pay)
			}
			return nil
		}
	case a.invoice != nil || a.failed != nil:
		inv := a.invoice
		if inv == nil {
			inv = a.failed
		}
		sd := subscriptionDetails(inv)
		if sd == nil {
			return outcomeNotOurs, nil
		}
		ref, ok = refOf(sd.Metadata)
		if !ok {
			return outcomeNotOurs, nil
		}
		ref.Customer, ref.Subscription = idOf(inv.Customer), idOf(sd.Subscription)
		cur := strings.ToUpper(string(inv.Currency))
		if a.failed != nil {
			f := Failure{Ref: ref, Invoice: inv.ID, AmountMinor: inv.AmountDue, Currency: cur, At: at}
			call = func(fl Fulfiller) error { return fl.PaymentFailed(ctx, tx, f) }
			break
		}
		p := Payment{Ref: ref, ExternalID: inv.ID, AmountMinor: inv.AmountPaid, Currency: cur,
			PaidAt: at, PeriodEnd: periodEnd(inv), BillingReason: string(inv.BillingReason)}
		id, fresh, err := s.recordPayment(ctx, tx, ev.ID, p, "")
		if err != nil {
			return "", err
		}
		if !fresh {
			return outcomeApplied, nil
		}
		p.PaymentID = id
		call = func(f Fulfiller) error { return f.Paid(ctx, tx, p) }
	case a.sub != nil:
		sub := a.sub
		ref, ok = refOf(sub.Metadata)
		if !ok {
			return outcomeNotOurs, nil
		}
		ref.Customer, ref.Subscription = idOf(sub.Customer), sub.ID
		st := Subscription{Ref: ref, Status: string(sub.Status), CancelAtPeriodEnd: sub.CancelAtPeriodEnd,
			CurrentPeriodEnd: subscriptionPeriodEnd(sub), Deleted: a.deleted, At: at}
		if a.deleted {
			st.Status = string(stripe.SubscriptionStatusCanceled)
		}
		newer, err := s.keepSubscription(ctx, tx, ev, st)
		if err != nil {
			return "", err
		}
		if !newer {
			return outcomeStale, nil
		}
		call = func(f Fulfiller) error { return f.SubscriptionChanged(ctx, tx, st) }
	case a.charge != nil:
		ch := a.charge
		r := Refund{Charge: ch.ID, RefundedMinor: ch.AmountRefunded, Currency: strings.ToUpper(string(ch.Currency)),
			Full: ch.Refunded, At: at}
		var err error
		r.Ref, r.PaymentID, r.PaymentExtID, ok, err = s.refundTarget(ctx, tx, ch)
		if err != nil {
			return "", err
		}
		if !ok {
			return outcomeNotOurs, nil
		}
		if r.PaymentID != 0 {
			// amount_refunded is the charge's running total, so taking the larger
			// converges whatever order partial refunds arrive in.
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE payments SET refunded_minor = ?,
				status = CASE WHEN ? >= amount_minor THEN 'refunded' ELSE 'partially_refunded' END
				WHERE id = ? AND refunded_minor < ?`), r.RefundedMinor, r.RefundedMinor, r.PaymentID, r.RefundedMinor); err != nil {
				return "", err
			}
		}
		ref = r.Ref
		call = func(f Fulfiller) error { return f.Refunded(ctx, tx, r) }
	default:
		return outcomeUnhandled, nil
	}
	f := s.fulfiller(ref.Kind)
	if f == nil {
		// Recorded (and any payment row kept) so nothing is lost; the room for this kind
		// is not part of this server.
		s.log.Warn("stripe webhook: no room handles this kind", "kind", ref.Kind, "event", ev.ID)
		return outcomeNotOurs, nil
	}
	// A savepoint, so that a Fulfiller that wrote something before finding the
	// reference unknown leaves nothing behind while the event and payment rows commit.
	if _, err := tx.ExecContext(ctx, `SAVEPOINT fulfil`); err != nil {
		return "", err
	}
	if err := call(f); err != nil {
		if errors.Is(err, ErrUnknownRef) {
			if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT fulfil`); rerr != nil {
				return "", rerr
			}
			return outcomeUnknownRef, nil
		}
		return "", err
	}
	if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT fulfil`); err != nil {
		return "", err
	}
	return outcomeApplied, nil
}

func subscriptionDetails(inv *stripe.Invoice) *stripe.InvoiceParentSubscriptionDetails {
	if inv.Parent == nil {
		return nil
	}
	return inv.Parent.SubscriptionDetails
}

// periodEnd is the latest end among an invoice's lines: the end of the period it pays.
func periodEnd(inv *stripe.Invoice) time.Time {
	var end int64
	if inv.Lines != nil {
		for _, l := range inv.Lines.Data {
			if l != nil && l.Period != nil && l.Period.End > end {
				end = l.Period.End
			}
		}
	}
	return unix(end)
}

// subscriptionPeriodEnd reads current_period_end, which basil moved onto the items.
func subscriptionPeriodEnd(sub *stripe.Subscription) time.Time {
	var end int64
	if sub.Items != nil {
		for _, it := range sub.Items.Data {
			if it != nil && it.CurrentPeriodEnd > end {
				end = it.CurrentPeriodEnd
			}
		}
	}
	return unix(end)
}

// recordPayment keeps a payment row; fresh is false when its Stripe id was kept before
// (the same payment reported by another event).
func (s *Service) recordPayment(ctx context.Context, tx *sql.Tx, eventID string, p Payment, intent string) (id int64, fresh bool, err error) {
	var pe any
	if !p.PeriodEnd.IsZero() {
		pe = p.PeriodEnd.Unix()
	}
	res, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO payments (kind, ref, provider, external_id,
		payment_intent, customer, subscription, amount_minor, currency, status, period_end, paid_at, event_id)
		VALUES (?, ?, 'stripe', ?, ?, ?, ?, ?, ?, 'paid', ?, ?, ?) ON CONFLICT (provider, external_id) DO NOTHING`),
		p.Kind, p.Ref.ID, p.ExternalID, intent, p.Customer, p.Subscription, p.AmountMinor, p.Currency, pe, p.PaidAt.Unix(), eventID)
	if err != nil {
		return 0, false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, false, err
	}
	err = tx.QueryRowContext(ctx, s.db.Rebind(`SELECT id FROM payments WHERE provider = 'stripe' AND external_id = ?`), p.ExternalID).Scan(&id)
	return id, n == 1, err
}

// keepSubscription stores st as the subscription's state if its event is at least as
// new as the state kept, and the kept state is not already final ("canceled"). newer
// reports whether it did. The conditional upsert locks the row, so two instances
// applying events of one subscription at once are ordered.
func (s *Service) keepSubscription(ctx context.Context, tx *sql.Tx, ev stripe.Event, st Subscription) (newer bool, err error) {
	var pe any
	if !st.CurrentPeriodEnd.IsZero() {
		pe = st.CurrentPeriodEnd.Unix()
	}
	cancel := 0
	if st.CancelAtPeriodEnd {
		cancel = 1
	}
	res, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO payment_subscriptions
		(subscription_id, kind, ref, customer, status, cancel_at_period_end, current_period_end, event_created, event_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (subscription_id) DO UPDATE SET customer = excluded.customer, status = excluded.status,
			cancel_at_period_end = excluded.cancel_at_period_end, current_period_end = excluded.current_period_end,
			event_created = excluded.event_created, event_id = excluded.event_id
		WHERE payment_subscriptions.status <> 'canceled' AND payment_subscriptions.event_created <= excluded.event_created`),
		st.Subscription, st.Kind, st.ID, st.Customer, st.Status, cancel, pe, ev.Created, ev.ID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// refundTarget finds what a refunded charge paid for: the payment row with its payment
// intent (one-off Checkout payments), else the charge's own metadata (copied from the
// payment intent's), else the newest payment of its customer (a subscription's invoice,
// whose payment intent the invoice event no longer carries under basil).
func (s *Service) refundTarget(ctx context.Context, tx *sql.Tx, ch *stripe.Charge) (ref Ref, id int64, ext string, ok bool, err error) {
	intent, customer := idOf(ch.PaymentIntent), idOf(ch.Customer)
	find := func(where string, arg string) (Ref, int64, string, bool, error) {
		var r Ref
		var id int64
		var ext string
		err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT id, external_id, kind, ref, customer, subscription FROM payments
			WHERE provider = 'stripe' AND `+where+` = ? ORDER BY paid_at DESC, id DESC LIMIT 1`), arg).
			Scan(&id, &ext, &r.Kind, &r.ID, &r.Customer, &r.Subscription)
		if errors.Is(err, sql.ErrNoRows) {
			return r, 0, "", false, nil
		}
		return r, id, ext, err == nil, err
	}
	if intent != "" {
		if r, id, ext, ok, err := find("payment_intent", intent); ok || err != nil {
			return r, id, ext, ok, err
		}
	}
	if r, ok := refOf(ch.Metadata); ok {
		r.Customer = customer
		return r, 0, "", true, nil
	}
	if customer != "" {
		return find("customer", customer)
	}
	return Ref{}, 0, "", false, nil
}
