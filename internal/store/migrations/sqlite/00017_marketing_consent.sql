-- +goose Up
-- Marketing consent (internal/membership consent.go), kept apart from the membership:
-- one row each time an account gives or withdraws it, with the exact words the page
-- showed and the page it was given on; the newest row is the account's answer. No law
-- asks to keep these after the account is gone, so deleting the account deletes them.
CREATE TABLE marketing_consents (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    given    INTEGER NOT NULL,  -- 1 given, 0 withdrawn
    at       INTEGER NOT NULL,
    wording  TEXT    NOT NULL,
    source   TEXT    NOT NULL  -- the page, e.g. /subscribe/individual
);
CREATE INDEX marketing_consents_user ON marketing_consents (user_id, at);

-- +goose Down
DROP TABLE marketing_consents;
