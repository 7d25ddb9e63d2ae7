-- +goose NO TRANSACTION
-- +goose Up
-- Membership (internal/membership): plans, memberships, their history, the payments
-- recorded against them, and household members. Accounts lose the old "member" role:
-- a free account is "registered", and being a member is a membership's doing.
--
-- SQLite cannot change a CHECK constraint in place, so users is rebuilt. Foreign keys
-- are off while it is (they can only be switched outside a transaction), or dropping
-- the old table would cascade to every session, token and bookmark.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;

CREATE TABLE users_new (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    email             TEXT    NOT NULL UNIQUE,          -- lower-cased
    name              TEXT    NOT NULL DEFAULT '',
    password_hash     TEXT    NOT NULL DEFAULT '',      -- argon2id PHC string; '' = no password (external sign-in only)
    role              TEXT    NOT NULL DEFAULT 'registered' CHECK (role IN ('registered', 'editor', 'admin')),
    email_verified_at INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);
INSERT INTO users_new (id, email, name, password_hash, role, email_verified_at, created_at, updated_at)
    SELECT id, email, name, password_hash, CASE role WHEN 'member' THEN 'registered' ELSE role END,
           email_verified_at, created_at, updated_at
    FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;
-- Existing accounts become "registered": the old role made every account a member,
-- which is what this change ends. An operator grants memberships (lineage member …).

CREATE TABLE membership_plans (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    slug           TEXT    NOT NULL UNIQUE,
    name           TEXT    NOT NULL,
    price_minor    INTEGER NOT NULL CHECK (price_minor >= 0),
    currency       TEXT    NOT NULL DEFAULT 'GBP',
    period         TEXT    NOT NULL CHECK (period IN ('annual', 'monthly', 'lifetime', 'fixed')),
    renew_month    INTEGER NOT NULL DEFAULT 0,
    renew_day      INTEGER NOT NULL DEFAULT 0,
    benefits       TEXT    NOT NULL DEFAULT '',
    scopes         TEXT    NOT NULL DEFAULT '["member"]',  -- JSON array of scope names
    household_size INTEGER NOT NULL DEFAULT 1 CHECK (household_size >= 1),
    concessions    TEXT    NOT NULL DEFAULT '[]',          -- JSON [{"slug","name","price_minor"}]
    on_sale        INTEGER NOT NULL DEFAULT 1,
    grace_days     INTEGER NOT NULL DEFAULT 30,
    position       INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);

-- One counter row: membership numbers are taken from it inside the transaction that
-- creates the membership, so two at once never get the same number.
CREATE TABLE membership_counter (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
INSERT INTO membership_counter (id, n) VALUES (1, 0);

-- user_id becomes NULL when the account is deleted (GDPR): the row stays, anonymous,
-- for the society's accounts.
CREATE TABLE memberships (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    number      TEXT    NOT NULL UNIQUE,
    user_id     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    plan_id     INTEGER NOT NULL REFERENCES membership_plans (id),
    concession  TEXT    NOT NULL DEFAULT '',
    status      TEXT    NOT NULL CHECK (status IN ('pending', 'active', 'grace', 'lapsed', 'cancelled', 'complimentary', 'lifetime')),
    method      TEXT    NOT NULL CHECK (method IN ('stripe', 'manual', 'complimentary')),
    started_at  INTEGER NOT NULL,
    paid_until  INTEGER,
    grace_days  INTEGER NOT NULL DEFAULT 30,
    auto_renew  INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
-- One membership per person: rejoining reuses it (and its number).
CREATE UNIQUE INDEX memberships_user ON memberships (user_id);
CREATE INDEX memberships_status ON memberships (status, paid_until);

-- Append-only: who (by_user_id, NULL for the system or a deleted account), when, from,
-- to and why.
CREATE TABLE membership_history (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    membership_id INTEGER NOT NULL REFERENCES memberships (id),
    at            INTEGER NOT NULL,
    by_user_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    from_status   TEXT    NOT NULL DEFAULT '',
    to_status     TEXT    NOT NULL,
    why           TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX membership_history_membership ON membership_history (membership_id, id);

-- Money received (or given back) for a membership. external_id is the payment
-- provider's id (a Stripe invoice or session): unique, so the same payment reported
-- twice is recorded once.
CREATE TABLE membership_payments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    membership_id  INTEGER NOT NULL REFERENCES memberships (id),
    receipt_number TEXT    NOT NULL UNIQUE,
    amount_minor   INTEGER NOT NULL,
    currency       TEXT    NOT NULL,
    method         TEXT    NOT NULL CHECK (method IN ('stripe', 'manual', 'complimentary')),
    external_id    TEXT    UNIQUE,
    note           TEXT    NOT NULL DEFAULT '',
    paid_at        INTEGER NOT NULL,
    covers_until   INTEGER,
    refunded_minor INTEGER NOT NULL DEFAULT 0,
    by_user_id     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at     INTEGER NOT NULL
);
CREATE INDEX membership_payments_membership ON membership_payments (membership_id, paid_at);

-- People sharing a household membership. An invited person without an account yet is
-- known by name and email; once they have an account, user_id names it and name and
-- email are left empty (the account holds them, and deleting it leaves nothing here).
CREATE TABLE membership_household (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    membership_id INTEGER NOT NULL REFERENCES memberships (id),
    user_id       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    name          TEXT    NOT NULL DEFAULT '',
    email         TEXT    NOT NULL DEFAULT '',
    removed_at    INTEGER,
    created_at    INTEGER NOT NULL
);
CREATE INDEX membership_household_membership ON membership_household (membership_id);
CREATE INDEX membership_household_user ON membership_household (user_id);
CREATE INDEX membership_household_email ON membership_household (email);

COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
DROP TABLE membership_household;
DROP TABLE membership_payments;
DROP TABLE membership_history;
DROP TABLE memberships;
DROP TABLE membership_counter;
DROP TABLE membership_plans;
CREATE TABLE users_old (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    email             TEXT    NOT NULL UNIQUE,
    name              TEXT    NOT NULL DEFAULT '',
    password_hash     TEXT    NOT NULL DEFAULT '',
    role              TEXT    NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'editor', 'admin')),
    email_verified_at INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);
INSERT INTO users_old (id, email, name, password_hash, role, email_verified_at, created_at, updated_at)
    SELECT id, email, name, password_hash, CASE role WHEN 'registered' THEN 'member' ELSE role END,
           email_verified_at, created_at, updated_at
    FROM users;
DROP TABLE users;
ALTER TABLE users_old RENAME TO users;
COMMIT;
PRAGMA foreign_keys = ON;
