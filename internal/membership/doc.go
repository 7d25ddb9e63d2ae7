// Package membership is the room for the society's subscriptions: the plans (tiers) an
// admin keeps, each person's membership of one plan, and what a membership grants.
//
// A plan has a price in integer minor units and an ISO 4217 currency, a period (annual,
// monthly, lifetime, or fixed: annual, renewing on one date for everyone), the scopes it
// grants (e.g. "member", "member:overseas"), a household size (up to N people sharing
// one membership, each with their own account) and concessions (price variants such as
// student or over-75).
//
// A membership has a stable, human-readable number (M-000123), a status (pending,
// active, grace, lapsed, cancelled, complimentary, lifetime), a payment method (stripe,
// manual, complimentary) and a paid-until time. Every change of status is an
// append-only history row: who, when, from, to and why. Times come from a clock passed
// in (Service.Now, or the now given to Advance), so tests move time by hand.
//
// The scope rule (seed-spec §6): a membership grants its plan's scopes while it is
// active, grace, complimentary or lifetime, to its holder and to every household member.
// ScopesFor answers that for the auth room, which adds them to GET /api/user's scope;
// staff roles keep their own scopes there. The rule is applied to the time of asking,
// so a membership past its paid-until plus grace grants nothing even before Advance has
// recorded the lapse.
//
// Nothing is deleted here. Deleting an account (GDPR) leaves the memberships, payments
// and history anonymous: their user columns become NULL through the schema, and a
// household member with an account is known only by that account.
//
// Payments reach the room in two ways: an admin records a manual one (cheque, bank
// transfer, cash), and the payments room (Stripe) reports card payments through the
// Fulfiller methods (Paid, PaymentFailed, SubscriptionChanged, Refunded), which are
// idempotent by the payment's external id.
//
// The renewal job (renewals.go; serve's scheduler and `lineage membership run-due`)
// runs Advance and sends renewal reminders through the mail outbox, each claimed by a
// unique row in the mail's own transaction so that concurrent runs send it once. Gift
// Aid (giftaid.go) keeps donors' declarations with their wording and writes HMRC's
// claim schedule of the eligible payments.
package membership
