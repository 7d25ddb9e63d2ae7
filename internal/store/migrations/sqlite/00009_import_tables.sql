-- +goose Up
-- Leaner bulk imports (docs/decisions/008-sqlite-search-tables.md).
--
-- record_events goes: every record had exactly one row there, a copy of the record's
-- own type, date and place, and nothing searched it.
DROP TABLE record_events;

-- SQLite only (PostgreSQL keeps its two covering indexes on search_keys): the search
-- index's two orders become WITHOUT ROWID tables of the same names, holding the same
-- columns in the same order as the covering indexes did. A bulk import builds them by
-- sorting the rows in Go and writing them in key order, about three times faster
-- than CREATE INDEX sorts them (decision 008); search_keys stays, a record's rows in id order. An import that is not a bulk load
-- writes each row into all three.
DROP INDEX IF EXISTS search_keys_surname;
DROP INDEX IF EXISTS search_keys_given;
CREATE TABLE search_keys_surname (
    surname_id    INTEGER NOT NULL,
    span          INTEGER NOT NULL,
    jdn_lo        INTEGER NOT NULL,
    id            INTEGER NOT NULL,
    jdn_hi        INTEGER NOT NULL,
    dq            INTEGER NOT NULL,
    given_id      INTEGER NOT NULL,
    place_id      INTEGER NOT NULL,
    county_id     INTEGER NOT NULL,
    collection_id INTEGER NOT NULL,
    type_id       INTEGER NOT NULL,
    role_id       INTEGER NOT NULL,
    PRIMARY KEY (surname_id, span, jdn_lo, id)
) WITHOUT ROWID;
CREATE TABLE search_keys_given (
    surname_id    INTEGER NOT NULL,
    given_id      INTEGER NOT NULL,
    span          INTEGER NOT NULL,
    jdn_lo        INTEGER NOT NULL,
    id            INTEGER NOT NULL,
    jdn_hi        INTEGER NOT NULL,
    dq            INTEGER NOT NULL,
    place_id      INTEGER NOT NULL,
    county_id     INTEGER NOT NULL,
    collection_id INTEGER NOT NULL,
    type_id       INTEGER NOT NULL,
    role_id       INTEGER NOT NULL,
    PRIMARY KEY (surname_id, given_id, span, jdn_lo, id)
) WITHOUT ROWID;
INSERT INTO search_keys_surname (surname_id, span, jdn_lo, id, jdn_hi, dq, given_id, place_id, county_id, collection_id, type_id, role_id)
    SELECT surname_id, span, jdn_lo, id, jdn_hi, dq, given_id, place_id, county_id, collection_id, type_id, role_id
    FROM search_keys ORDER BY surname_id, span, jdn_lo, id;
INSERT INTO search_keys_given (surname_id, given_id, span, jdn_lo, id, jdn_hi, dq, place_id, county_id, collection_id, type_id, role_id)
    SELECT surname_id, given_id, span, jdn_lo, id, jdn_hi, dq, place_id, county_id, collection_id, type_id, role_id
    FROM search_keys ORDER BY surname_id, given_id, span, jdn_lo, id;

-- +goose Down
CREATE TABLE record_events (
    record_id  INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    person_seq INTEGER NOT NULL DEFAULT -1,
    type_id    INTEGER NOT NULL,
    role_id    INTEGER NOT NULL DEFAULT 0,
    date_text  TEXT    NOT NULL DEFAULT '',
    jdn_lo     INTEGER,
    jdn_hi     INTEGER,
    place_id   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (record_id, seq)
) WITHOUT ROWID;
INSERT INTO record_events (record_id, seq, person_seq, type_id, date_text, jdn_lo, jdn_hi, place_id)
    SELECT id, 0, -1, type_id, date_text, jdn_lo, jdn_hi, place_id FROM records;
CREATE INDEX record_events_place ON record_events (place_id, jdn_lo);
DROP TABLE search_keys_given;
DROP TABLE search_keys_surname;
CREATE INDEX search_keys_surname ON search_keys (surname_id, span, jdn_lo, id,
    jdn_hi, dq, given_id, place_id, county_id, collection_id, type_id, role_id);
CREATE INDEX search_keys_given ON search_keys (surname_id, given_id, span, jdn_lo, id,
    jdn_hi, dq, place_id, county_id, collection_id, type_id, role_id);
