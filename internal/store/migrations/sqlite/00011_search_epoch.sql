-- +goose Up
-- A counter that every research import batch adding or changing records raises on
-- SQLite, in its own transaction. A build of the search tables, which writes them in
-- many short transactions from rows read at its start, compares it between two of
-- them: a raised counter means search_keys changed meanwhile and the rows are
-- stale. (Any other write, a sign-in's session, does not concern the build.)
CREATE TABLE search_epoch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  BIGINT  NOT NULL
);
INSERT INTO search_epoch (id, n) VALUES (1, 0);

-- +goose Down
DROP TABLE search_epoch;
