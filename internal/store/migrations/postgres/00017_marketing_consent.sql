-- +goose Up
-- Marketing consent (internal/membership consent.go), kept apart from the membership:
-- one row each time an account gives or withdraws it, with the exact words the page
-- showed and the page it was given on; the newest row is the account's answer. No law
-- asks to keep these after the account is gone, so deleting the account deletes them.
CREATE TABLE marketing_consents (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    given    BOOLEAN NOT NULL,
    at       BIGINT NOT NULL,
    wording  TEXT    NOT NULL,
    source   TEXT    NOT NULL  -- the page, e.g. /subscribe/individual
);
CREATE INDEX marketing_consents_user ON marketing_consents (user_id, at);

-- +goose Down
DROP TABLE marketing_consents;
