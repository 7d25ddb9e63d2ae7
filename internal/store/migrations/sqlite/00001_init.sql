-- +goose Up
-- Key/value settings of the installation (for example the secret used to sign tokens).
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- +goose Down
DROP TABLE settings;
