-- +goose Up
-- Event bookings (internal/events, docs/events.md). event_settings holds the booking
-- settings of one event content document (by its uid) and the places taken per mode:
-- every booking that takes or gives back places changes taken_* with one conditional
-- UPDATE of this row, which is what keeps an event from being oversold
-- (docs/decisions/017-event-capacity.md).
CREATE TABLE event_settings (
    uid                 TEXT    PRIMARY KEY,
    enabled             INTEGER NOT NULL DEFAULT 0,
    opens_at            INTEGER,
    closes_at           INTEGER,
    capacity_in_person  INTEGER NOT NULL DEFAULT 0,
    capacity_online     INTEGER NOT NULL DEFAULT 0,
    taken_in_person     INTEGER NOT NULL DEFAULT 0,
    taken_online        INTEGER NOT NULL DEFAULT 0,
    max_per_booking     INTEGER NOT NULL DEFAULT 4,
    waitlist            INTEGER NOT NULL DEFAULT 1,
    refund_cutoff_hours INTEGER NOT NULL DEFAULT 48,
    ticket_types        TEXT    NOT NULL DEFAULT '[]',  -- JSON array
    online_link         TEXT    NOT NULL DEFAULT '',
    online_instructions TEXT    NOT NULL DEFAULT '',
    cancelled_at        INTEGER,
    known_start         INTEGER,  -- the content document's start as last seen (change notices)
    known_end           INTEGER,
    updated_at          INTEGER NOT NULL,
    updated_by          INTEGER REFERENCES users (id) ON DELETE SET NULL,
    CHECK (taken_in_person >= 0 AND taken_online >= 0)
);

CREATE TABLE bookings (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    ref              TEXT    NOT NULL UNIQUE,          -- B-7K3Q9
    event_uid        TEXT    NOT NULL REFERENCES event_settings (uid),
    user_id          INTEGER REFERENCES users (id) ON DELETE SET NULL,
    name             TEXT    NOT NULL,
    email            TEXT    NOT NULL,
    email_confirmed  INTEGER NOT NULL,
    mode             TEXT    NOT NULL,                 -- in_person, online
    tickets          TEXT    NOT NULL,                 -- JSON array of {type,label,name,price}
    places           INTEGER NOT NULL,
    total_minor      INTEGER NOT NULL,
    currency         TEXT    NOT NULL,
    status           TEXT    NOT NULL,                 -- held, confirmed, waitlisted, cancelled, refunded, attended
    awaiting         TEXT    NOT NULL DEFAULT '',      -- '', payment, email
    hold_expires_at  INTEGER,
    offer_expires_at INTEGER,
    waitlisted_at    INTEGER,
    cancel_reason    TEXT    NOT NULL DEFAULT '',
    sequence         INTEGER NOT NULL DEFAULT 0,       -- iCalendar SEQUENCE of the invitation
    checkout_url     TEXT    NOT NULL DEFAULT '',
    paid_minor       INTEGER NOT NULL DEFAULT 0,
    refunded_minor   INTEGER NOT NULL DEFAULT 0,
    refund_pending   INTEGER NOT NULL DEFAULT 0,
    checked_in_at    INTEGER,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX bookings_event ON bookings (event_uid, status, mode);
CREATE INDEX bookings_user ON bookings (user_id);
CREATE INDEX bookings_due ON bookings (status, hold_expires_at);
-- One active booking per account and event.
CREATE UNIQUE INDEX bookings_one_active ON bookings (event_uid, user_id)
    WHERE user_id IS NOT NULL AND status IN ('held', 'confirmed', 'waitlisted', 'attended');

-- Every change of a booking's status: who, when, from, to and why. Append-only.
CREATE TABLE booking_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    booking_id  INTEGER NOT NULL REFERENCES bookings (id),
    at          INTEGER NOT NULL,
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
    booking_id INTEGER NOT NULL REFERENCES bookings (id),
    purpose    TEXT    NOT NULL,   -- confirm, offer
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX booking_tokens_booking ON booking_tokens (booking_id);

-- Scheduled mails claimed in the mail's own transaction: the key makes a second run,
-- or a second instance, send nothing.
CREATE TABLE booking_mails (
    booking_id INTEGER NOT NULL REFERENCES bookings (id),
    kind       TEXT    NOT NULL,   -- joining, change
    key        TEXT    NOT NULL,   -- the event start it was about (unix seconds)
    sent_at    INTEGER NOT NULL,
    PRIMARY KEY (booking_id, kind, key)
);

-- +goose Down
DROP TABLE booking_mails;
DROP TABLE booking_tokens;
DROP TABLE booking_history;
DROP TABLE bookings;
DROP TABLE event_settings;
