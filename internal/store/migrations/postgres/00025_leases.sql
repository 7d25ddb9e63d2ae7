-- +goose Up
-- Leases (store.DB.AcquireLease, internal/jobs): a scheduler that must run on one
-- instance at a time (the sweeper, renewals, events, newsletter) holds the row of its
-- name while it runs, renewing expires_ms; when the holder dies the row expires and
-- another instance takes it. Times are Unix milliseconds on the holders' clocks.
CREATE TABLE leases (
    name        TEXT   NOT NULL PRIMARY KEY,
    holder      TEXT   NOT NULL,
    acquired_ms BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL
);

-- +goose Down
DROP TABLE leases;
