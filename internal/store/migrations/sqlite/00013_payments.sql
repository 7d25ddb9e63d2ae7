-- +goose Up
-- The payment layer (internal/payments): Stripe's webhook events, the payments they
-- record, the last known state of each subscription, and the Stripe products and prices
-- made from the plans. Times are Unix seconds, as in 00003_auth.sql. Money is integer
-- minor units with an ISO 4217 code.

-- One row per Stripe event id, written in the same transaction as the event's effect,
-- so a replay or a duplicate delivered to another instance changes nothing.
CREATE TABLE payment_events (
    event_id    TEXT    PRIMARY KEY,
    type        TEXT    NOT NULL,
    created     INTEGER NOT NULL,  -- Stripe's time of the event
    received_at INTEGER NOT NULL,
    outcome     TEXT    NOT NULL,  -- applied, stale, not_ours, unknown_ref, unhandled, unreadable
    payload     TEXT    NOT NULL   -- the verified body, for an operator to read or replay
);

-- A payment received, for receipts and accounting. kind/ref name what it paid for
-- ("membership" and the membership id); nothing personal is kept here.
CREATE TABLE payments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    kind           TEXT    NOT NULL,
    ref            TEXT    NOT NULL,
    provider       TEXT    NOT NULL,             -- stripe
    external_id    TEXT    NOT NULL,             -- cs_… (one-off Checkout) or in_… (invoice)
    payment_intent TEXT    NOT NULL DEFAULT '',
    customer       TEXT    NOT NULL DEFAULT '',
    subscription   TEXT    NOT NULL DEFAULT '',
    amount_minor   INTEGER NOT NULL,
    currency       TEXT    NOT NULL,
    refunded_minor INTEGER NOT NULL DEFAULT 0,
    status         TEXT    NOT NULL,             -- paid, partially_refunded, refunded
    period_end     INTEGER,                      -- end of the period an invoice paid for
    paid_at        INTEGER NOT NULL,
    event_id       TEXT    NOT NULL,
    UNIQUE (provider, external_id)
);
CREATE INDEX payments_ref ON payments (kind, ref);
CREATE INDEX payments_intent ON payments (payment_intent);
CREATE INDEX payments_customer ON payments (customer);

-- The newest state of each subscription seen in an event. Events arrive out of order:
-- one older than the state kept here is recorded but not applied.
CREATE TABLE payment_subscriptions (
    subscription_id      TEXT    PRIMARY KEY,
    kind                 TEXT    NOT NULL,
    ref                  TEXT    NOT NULL,
    customer             TEXT    NOT NULL DEFAULT '',
    status               TEXT    NOT NULL,
    cancel_at_period_end INTEGER NOT NULL DEFAULT 0,
    current_period_end   INTEGER,
    event_created        INTEGER NOT NULL,
    event_id             TEXT    NOT NULL
);

-- Stripe's ids for what `lineage membership sync-stripe` (or the first checkout) made
-- from a plan. A price is never changed in Stripe: a new amount, currency or interval
-- gets a new Price, so a key here names one Stripe Price for good.
CREATE TABLE payment_products (
    plan       TEXT    PRIMARY KEY,
    product_id TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE payment_prices (
    plan         TEXT    NOT NULL,
    concession   TEXT    NOT NULL DEFAULT '',
    amount_minor INTEGER NOT NULL,
    currency     TEXT    NOT NULL,
    recurring    TEXT    NOT NULL DEFAULT '',   -- year, month, or '' for a one-off price
    price_id     TEXT    NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (plan, concession, amount_minor, currency, recurring)
);

-- +goose Down
DROP TABLE payment_prices;
DROP TABLE payment_products;
DROP TABLE payment_subscriptions;
DROP TABLE payments;
DROP TABLE payment_events;
