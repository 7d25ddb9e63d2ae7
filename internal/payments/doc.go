// Package payments is the room for taking money by card through Stripe: it makes
// Checkout and Customer Portal sessions, creates Stripe Products and Prices from the
// society's plans (`lineage membership sync-stripe`), and receives Stripe's webhook
// events at POST /api/stripe/webhook, keeping every payment as a row for receipts and
// accounting.
//
// It knows nothing of memberships. What a payment is for travels with it as a kind and
// a reference (metadata "kind"="membership", "membership_id"=…; later "booking"), and
// the room that owns that kind implements Fulfiller, registered with Handle. Each
// verified event is recorded in payment_events in the same transaction as the
// Fulfiller's effect, so a replay, or one event delivered to two instances at once,
// takes effect once. Events arrive out of order: payments are additive (each invoice
// or one-off Checkout is one row, keyed by its Stripe id, and carries the end of the
// period it paid for), and a subscription's state is applied only when its event is at
// least as new as the state already kept (payment_subscriptions), with "canceled" final.
//
// Without a secret key, card payment is off (CardPayments is false), Checkout answers
// ErrOff and nothing else changes: manual payments are the membership room's.
//
// Webhook events must be sent on a Stripe API version of the release train the pinned
// stripe-go reads (basil); see docs/membership.md "Stripe".
package payments
