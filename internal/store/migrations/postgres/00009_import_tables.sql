-- +goose Up
-- Leaner bulk imports (docs/decisions/008-sqlite-search-tables.md): record_events
-- goes. Every record had exactly one row there, a copy of the record's own type,
-- date and place, and nothing searched it. (SQLite's 00009 also turns its covering
-- search indexes into tables; PostgreSQL keeps them.)
DROP TABLE record_events;

-- +goose Down
CREATE TABLE record_events (
    record_id  BIGINT NOT NULL,
    seq        BIGINT NOT NULL,
    person_seq BIGINT NOT NULL DEFAULT -1,
    type_id    BIGINT NOT NULL,
    role_id    BIGINT NOT NULL DEFAULT 0,
    date_text  TEXT    NOT NULL DEFAULT '',
    jdn_lo     BIGINT,
    jdn_hi     BIGINT,
    place_id   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (record_id, seq)
);
INSERT INTO record_events (record_id, seq, person_seq, type_id, date_text, jdn_lo, jdn_hi, place_id)
    SELECT id, 0, -1, type_id, date_text, jdn_lo, jdn_hi, place_id FROM records;
CREATE INDEX record_events_place ON record_events (place_id, jdn_lo);
