-- +goose Up
-- The page generation: a counter that anything changing what anonymous visitors see
-- (content, records, trees, collections, scans, membership plans) raises, from any
-- process on this store. Every server watches it and empties its page cache when it
-- moves (internal/pagegen; docs/decisions/015-page-cache-and-csp.md).
CREATE TABLE page_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  BIGINT  NOT NULL
);
INSERT INTO page_generation (id, n) VALUES (1, 0);

-- +goose Down
DROP TABLE page_generation;
