-- +goose Up
-- Event bookings (internal/events, docs/events.md). event_settings holds the booking
-- settings of one event content document (by its uid) and the places taken per mode:
-- every booking that takes or gives back places changes taken_* with one conditional
-- UPDATE of this row, which is what keeps an event from being oversold
-- (docs/decisions/017-event-capacity.md).
CREATE TABLE event_settings (
    uid                 TEXT    PRIMARY KEY,
    enabled             BOOLEAN NOT NULL DEFAULT FALSE,
    opens_at            BIGINT,
    closes_at           BIGINT,
    capacity_in_person  BIGINT NOT NULL DEFAULT 0,
    capacity_online     BIGINT NOT NULL DEFAULT 0,
    taken_in_person     BIGINT NOT NULL DEFAULT 0,
    taken_online        BIGINT NOT NULL DEFAULT 0,
    max_per_booking     BIGINT NOT NULL DEFAULT 4,
    waitlist            BOOLEAN NOT NULL DEFAULT TRUE,
    refund_cutoff_hours BIGINT NOT NULL DEFAULT 48,
    ticket_types        TEXT    NOT NULL DEFAULT '[]',  -- JSON array
    online_link         TEXT    NOT NULL DEFAULT '',
    online_instructions TEXT    NOT NULL DEFAULT '',
    cancelled_at        BIGINT,
    known_start         BIGINT,  -- the content document's start as last seen (change notices)
    known_end           BIGINT,
    updated_at          BIGINT NOT NULL,
    updated_by          BIGINT REFERENCES users (id) ON DELETE SET NULL,
    CHECK (taken_in_person >= 0 AND taken_online >= 0)
);

CREATE TABLE bookings (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ref              TEXT    NOT NULL UNIQUE,          -- B-7K3Q9
    event_uid        TEXT    NOT NULL REFERENCES event_settings (uid),
    user_id          BIGINT REFERENCES users (id) ON DELETE SET NULL,
    name             TEXT    NOT NULL,
    email            TEXT    NOT NULL,
    email_confirmed  BOOLEAN NOT NULL,
    mode             TEXT    NOT NULL,                 -- in_person, online
    tickets          TEXT    NOT NULL,                 -- JSON array of {type,label,name,price}
    places           BIGINT NOT NULL,
    total_minor      BIGINT NOT NULL,
    currency         TEXT    NOT NULL,
    status           TEXT    NOT NULL,                 -- held, confirmed, waitlisted, cancelled, refunded, attended
    awaiting         TEXT    NOT NULL DEFAULT '',      -- '', payment, email
    hold_expires_at  BIGINT,
    offer_expires_at BIGINT,
    waitlisted_at    BIGINT,
    cancel_reason    TEXT    NOT NULL DEFAULT '',
    sequence         BIGINT NOT NULL DEFAULT 0,       -- iCalendar SEQUENCE of the invitation
    checkout_url     TEXT    NOT NULL DEFAULT '',
    paid_minor       BIGINT NOT NULL DEFAULT 0,
    refunded_minor   BIGINT NOT NULL DEFAULT 0,
    refund_pending   BOOLEAN NOT NULL DEFAULT FALSE,
    checked_in_at    BIGINT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX bookings_event ON bookings (event_uid, status, mode);
CREATE INDEX bookings_user ON bookings (user_id);
CREATE INDEX bookings_due ON bookings (status, hold_expires_at);
-- One active booking per account and event.
CREATE UNIQUE INDEX bookings_one_active ON bookings (event_uid, user_id)
    WHERE user_id IS NOT NULL AND status IN ('held', 'confirmed', 'waitlisted', 'attended');

-- Every change of a booking's status: who, when, from, to and why. Append-only.
CREATE TABLE booking_history (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    booking_id  BIGINT NOT NULL REFERENCES bookings (id),
    at          BIGINT NOT NULL,
    from_status TEXT    NOT NULL,
    to_status   TEXT    NOT NULL,
    actor       TEXT    NOT NULL,   -- booker, editor:<id>, system, stripe
    note        TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX booking_history_booking ON booking_history (booking_id, id);

-- One-time links: a visitor's email confirmation, a waiting-list offer. Only the
-- HMAC of the token is kept.
CREATE TABLE booking_tokens (
    token_hash TEXT    PRIMARY KEY,
    booking_id BIGINT NOT NULL REFERENCES bookings (id),
    purpose    TEXT    NOT NULL,   -- confirm, offer
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX booking_tokens_booking ON booking_tokens (booking_id);

-- Scheduled mails claimed in the mail's own transaction: the key makes a second run,
-- or a second instance, send nothing.
CREATE TABLE booking_mails (
    booking_id BIGINT NOT NULL REFERENCES bookings (id),
    kind       TEXT    NOT NULL,   -- joining, change
    key        TEXT    NOT NULL,   -- the event start it was about (unix seconds)
    sent_at    BIGINT NOT NULL,
    PRIMARY KEY (booking_id, kind, key)
);

-- +goose Down
DROP TABLE booking_mails;
DROP TABLE booking_tokens;
DROP TABLE booking_history;
DROP TABLE bookings;
DROP TABLE event_settings;
