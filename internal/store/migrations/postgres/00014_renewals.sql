-- +goose Up
-- Renewal reminders and Gift Aid (internal/membership renewals.go, giftaid.go).

-- One row per reminder sent: the key (membership, the paid-until it is about, which
-- reminder) is inserted in the same transaction as the mail in the outbox, so a job
-- that runs twice, or on two instances at once, sends each reminder once.
CREATE TABLE membership_reminders (
    membership_id BIGINT  NOT NULL REFERENCES memberships (id),
    period_end    BIGINT  NOT NULL,  -- the membership's paid_until the reminder is about
    reminder      TEXT    NOT NULL,  -- '30d', '7d' … or 'lapse'
    sent_at       BIGINT  NOT NULL,
    PRIMARY KEY (membership_id, period_end, reminder)
);

-- A donor's Gift Aid declaration, kept with the exact wording they agreed to. HMRC
-- asks for it to be kept for 6 years after the last donation claimed on it, so a
-- cancelled declaration stays (cancelled_at set) and deleting the account keeps the
-- row (user_id NULL). It covers payments from covers_from (the model declaration
-- reaches back 4 years) until cancelled_at.
CREATE TABLE gift_aid_declarations (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      BIGINT  REFERENCES users (id) ON DELETE SET NULL,
    title        TEXT    NOT NULL DEFAULT '',
    first_name   TEXT    NOT NULL,
    last_name    TEXT    NOT NULL,
    house        TEXT    NOT NULL,  -- house name or number
    postcode     TEXT    NOT NULL,
    address      TEXT    NOT NULL,  -- the rest of the home address
    wording      TEXT    NOT NULL,
    declared_at  BIGINT  NOT NULL,
    covers_from  BIGINT  NOT NULL,
    cancelled_at BIGINT
);
CREATE INDEX gift_aid_declarations_user ON gift_aid_declarations (user_id);

-- +goose Down
DROP TABLE gift_aid_declarations;
DROP TABLE membership_reminders;
