-- +goose Up
-- Newsletter lists, subscribers, consents, editions and alerts (internal/newsletter,
-- docs/newsletter.md).
--
-- A subscriber is an address, with the account it belongs to when there is one:
-- deleting the account deletes the subscriber and everything below it. An address is
-- sent list mail only once confirmed (double opt-in); confirm_hash is the HMAC of the
-- pending confirmation token, cleared when it is used.
CREATE TABLE newsletter_lists (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    slug        TEXT    NOT NULL UNIQUE,
    name        TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    audience    TEXT    NOT NULL DEFAULT 'public' CHECK (audience IN ('public', 'members')),
    scope       TEXT    NOT NULL DEFAULT '',   -- the scope a members' list needs
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
INSERT INTO newsletter_lists (slug, name, description, audience, scope, created_at, updated_at) VALUES
    ('news', 'Society news', 'News of the society, a few times a year.', 'public', '', 0, 0),
    ('members', 'Members'' newsletter', 'The members'' newsletter, every month.', 'members', 'member', 0, 0),
    ('events', 'Events digest', 'Talks, courses and open days coming up.', 'public', '', 0, 0);

CREATE TABLE newsletter_subscribers (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    email           TEXT    NOT NULL UNIQUE,   -- lower-cased
    user_id         INTEGER REFERENCES users (id) ON DELETE CASCADE,
    confirmed_at    INTEGER NOT NULL DEFAULT 0,
    confirm_hash    TEXT    NOT NULL DEFAULT '',
    confirm_expires INTEGER NOT NULL DEFAULT 0,
    confirm_sent_at INTEGER NOT NULL DEFAULT 0,
    suppressed_at   INTEGER NOT NULL DEFAULT 0, -- the mail server refused it too often
    created_at      INTEGER NOT NULL
);
CREATE INDEX newsletter_subscribers_user ON newsletter_subscribers (user_id);
CREATE INDEX newsletter_subscribers_confirm ON newsletter_subscribers (confirm_hash) WHERE confirm_hash <> '';

-- status: pending until the address is confirmed, then subscribed; unsubscribed stays
-- so that the consent history reads in order.
CREATE TABLE newsletter_subscriptions (
    subscriber_id INTEGER NOT NULL REFERENCES newsletter_subscribers (id) ON DELETE CASCADE,
    list_id       INTEGER NOT NULL REFERENCES newsletter_lists (id) ON DELETE CASCADE,
    status        TEXT    NOT NULL CHECK (status IN ('pending', 'subscribed', 'unsubscribed')),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    PRIMARY KEY (list_id, subscriber_id)
);
CREATE INDEX newsletter_subscriptions_subscriber ON newsletter_subscriptions (subscriber_id);

-- One row per consent given or withdrawn: the list, the time, the page and the words
-- shown (GDPR art. 7(1): the controller must be able to show the consent).
CREATE TABLE newsletter_consents (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    subscriber_id INTEGER NOT NULL REFERENCES newsletter_subscribers (id) ON DELETE CASCADE,
    list_id       INTEGER NOT NULL REFERENCES newsletter_lists (id) ON DELETE CASCADE,
    action        TEXT    NOT NULL CHECK (action IN ('requested', 'confirmed', 'withdrawn')),
    source        TEXT    NOT NULL DEFAULT '',
    wording       TEXT    NOT NULL DEFAULT '',
    ip            TEXT    NOT NULL DEFAULT '',
    created_at    INTEGER NOT NULL
);
CREATE INDEX newsletter_consents_subscriber ON newsletter_consents (subscriber_id, created_at);
CREATE INDEX newsletter_consents_ip ON newsletter_consents (ip, created_at);

CREATE TABLE newsletter_editions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    list_id      INTEGER NOT NULL REFERENCES newsletter_lists (id),
    document     TEXT    NOT NULL,            -- uid of the content document (type newsletter)
    subject      TEXT    NOT NULL,
    sections     TEXT    NOT NULL DEFAULT '', -- comma-separated: news, events, collections
    status       TEXT    NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'scheduled', 'sending', 'sent')),
    scheduled_at INTEGER NOT NULL DEFAULT 0,
    started_at   INTEGER NOT NULL DEFAULT 0,
    sent_at      INTEGER NOT NULL DEFAULT 0,
    html         TEXT    NOT NULL DEFAULT '', -- frozen when sending starts
    body_text    TEXT    NOT NULL DEFAULT '',
    since        INTEGER NOT NULL DEFAULT 0,  -- automatic sections cover what is newer
    created_by   INTEGER,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX newsletter_editions_due ON newsletter_editions (status, scheduled_at);

-- A recipient of an edition, claimed in the same transaction as its outbox row: an
-- edition reaches each address once whatever stops in between.
CREATE TABLE newsletter_deliveries (
    edition_id    INTEGER NOT NULL REFERENCES newsletter_editions (id) ON DELETE CASCADE,
    subscriber_id INTEGER NOT NULL REFERENCES newsletter_subscribers (id) ON DELETE CASCADE,
    outbox_id     INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    PRIMARY KEY (edition_id, subscriber_id)
);

CREATE TABLE newsletter_alerts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    saved_search_id INTEGER NOT NULL UNIQUE REFERENCES saved_searches (id) ON DELETE CASCADE,
    frequency       TEXT    NOT NULL CHECK (frequency IN ('immediately', 'daily', 'weekly')),
    created_at      INTEGER NOT NULL,
    last_sent_at    INTEGER NOT NULL DEFAULT 0,
    primed          INTEGER NOT NULL DEFAULT 0  -- its current results are remembered as known
);
CREATE INDEX newsletter_alerts_user ON newsletter_alerts (user_id);

-- New matches waiting for their digest; sent_at set when the digest is enqueued.
CREATE TABLE newsletter_alert_matches (
    alert_id   INTEGER NOT NULL REFERENCES newsletter_alerts (id) ON DELETE CASCADE,
    item       TEXT    NOT NULL,  -- kind:id, e.g. record:123
    title      TEXT    NOT NULL,
    url        TEXT    NOT NULL,
    found_at   INTEGER NOT NULL,
    sent_at    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (item, alert_id)  -- by item first: what alerts know of an import's items
);
CREATE INDEX newsletter_alert_matches_unsent ON newsletter_alert_matches (sent_at, alert_id);

-- Deleting an account deletes the address's subscriber too, linked or not: the
-- person asked to be forgotten, whichever form they signed up with.
-- +goose StatementBegin
CREATE TRIGGER newsletter_forget_user AFTER DELETE ON users BEGIN
    DELETE FROM newsletter_subscribers WHERE email = OLD.email;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER newsletter_forget_user;
DROP TABLE newsletter_alert_matches;
DROP TABLE newsletter_alerts;
DROP TABLE newsletter_deliveries;
DROP TABLE newsletter_editions;
DROP TABLE newsletter_consents;
DROP TABLE newsletter_subscriptions;
DROP TABLE newsletter_subscribers;
DROP TABLE newsletter_lists;
