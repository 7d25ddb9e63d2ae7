-- +goose Up
-- The research hub (internal/research): collections, index records, the place
-- gazetteer, library and archive catalogues, and the name-search index. See
-- docs/research.md for how the engine uses these tables.
--
-- Day numbers (jdn_*) are Julian Day Numbers from internal/gendate; a record whose
-- date could not be read keeps its text and has NULL day numbers. Times are Unix seconds.

-- The gazetteer: place → county → country. Roots have parent_id 0. county_id and
-- country_id are the place's own ancestors at those levels (or itself), 0 if none, so
-- that "anywhere in Surrey" is one equality.
CREATE TABLE places (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    folded     TEXT    NOT NULL,
    kind       TEXT    NOT NULL,                  -- country | county | place
    parent_id  INTEGER NOT NULL DEFAULT 0,
    county_id  INTEGER NOT NULL DEFAULT 0,
    country_id INTEGER NOT NULL DEFAULT 0,
    lat        REAL,
    lon        REAL,
    UNIQUE (parent_id, folded)
);
CREATE INDEX places_folded ON places (folded);

CREATE TABLE collections (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    slug         TEXT    NOT NULL UNIQUE,
    kind         TEXT    NOT NULL,                -- record_set | index | memorial_cards | birth_briefs | archive | library
    title        TEXT    NOT NULL,
    description  TEXT    NOT NULL DEFAULT '',
    access       INTEGER NOT NULL DEFAULT 0,      -- default for its records: 0 public, 1 members
    record_count INTEGER NOT NULL DEFAULT 0,
    summary      TEXT    NOT NULL DEFAULT '{}',   -- counts by type, decade, county (JSON), refreshed by imports
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);

-- Small vocabularies, so that the search index stores one-byte ids.
CREATE TABLE record_types (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    slug  TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL
);
CREATE TABLE person_roles (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    slug  TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL
);

-- One index record. persons is a JSON array of {role, surname, given_names, sex, age}
-- in the order of the source; images a JSON array of references. key is the source's
-- record_id, unique within the collection, so re-importing a file updates in place.
CREATE TABLE records (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    key           TEXT    NOT NULL,
    type_id       INTEGER NOT NULL,
    date_text     TEXT    NOT NULL DEFAULT '',
    jdn_lo        INTEGER,
    jdn_hi        INTEGER,
    date_kind     INTEGER NOT NULL DEFAULT 0,
    place_id      INTEGER NOT NULL DEFAULT 0,
    county_id     INTEGER NOT NULL DEFAULT 0,
    place_text    TEXT    NOT NULL DEFAULT '',
    transcript    TEXT    NOT NULL DEFAULT '',
    source        TEXT    NOT NULL DEFAULT '',
    access        INTEGER NOT NULL DEFAULT 0,
    images        TEXT    NOT NULL DEFAULT '[]',
    persons       TEXT    NOT NULL,
    hash          TEXT    NOT NULL,
    import_run    INTEGER NOT NULL DEFAULT 0,
    UNIQUE (collection_id, key)
);
CREATE INDEX records_browse ON records (collection_id, jdn_lo, id);

-- Events as rows: what happened, when and where, to the record (person_seq -1) or one
-- of its persons. "Place + year for any fact" is one range on events_place.
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
CREATE INDEX record_events_place ON record_events (place_id, jdn_lo);

-- Name dictionaries. Every distinct surname key (names.SurnameKey) is stored once with
-- its variant key, Soundex, Daitch–Mokotoff and Double Metaphone codes, so that a
-- search resolves its spelling, variant or phonetic set to a handful of surname ids
-- with small index lookups, whatever the number of records.
CREATE TABLE surnames (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    folded  TEXT NOT NULL UNIQUE,
    variant TEXT NOT NULL,
    soundex TEXT NOT NULL
);
CREATE INDEX surnames_variant ON surnames (variant);
CREATE INDEX surnames_soundex ON surnames (soundex);

-- Phonetic codes of a surname: 'd' + each Daitch–Mokotoff code, 'm' + each Double
-- Metaphone code.
CREATE TABLE surname_codes (
    code       TEXT    NOT NULL,
    surname_id INTEGER NOT NULL,
    PRIMARY KEY (code, surname_id)
) WITHOUT ROWID;

-- Every distinct folded given-names string ("john william"); first is its first name,
-- inits the letters that name answers to as an initial (its own and its groups' keys').
CREATE TABLE given_names (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    folded TEXT NOT NULL UNIQUE,
    first  TEXT NOT NULL,
    inits  TEXT NOT NULL
);
CREATE INDEX given_names_first ON given_names (first);

-- The search index: one row per person, carrying everything a search filters on, so
-- that candidate generation is an index-only range scan of search_keys_surname, in
-- date order. id is record_id * 256 + the person's position in the record, so a
-- record's rows are one range of the primary key. surname_id and given_id are 0 when
-- the person has none.
-- span: 0 the record's date covers at most 11 years, 1 a longer range, 2 no date.
-- dq: 1 an exact date (day, month, quarter or year), 2 approximate, a range or open.
CREATE TABLE search_keys (
    id            INTEGER PRIMARY KEY,
    surname_id    INTEGER NOT NULL,
    span          INTEGER NOT NULL,
    jdn_lo        INTEGER NOT NULL,
    jdn_hi        INTEGER NOT NULL,
    dq            INTEGER NOT NULL,
    given_id      INTEGER NOT NULL,
    place_id      INTEGER NOT NULL,
    county_id     INTEGER NOT NULL,
    collection_id INTEGER NOT NULL,
    type_id       INTEGER NOT NULL,
    role_id       INTEGER NOT NULL
);
CREATE INDEX search_keys_surname ON search_keys (surname_id, span, jdn_lo, id,
    jdn_hi, dq, given_id, place_id, county_id, collection_id, type_id, role_id);
-- The same rows by surname and given names, for searches that name both: "Mary Smith"
-- is a few short ranges instead of a filter over every Smith.
CREATE INDEX search_keys_given ON search_keys (surname_id, given_id, span, jdn_lo, id,
    jdn_hi, dq, place_id, county_id, collection_id, type_id, role_id);

-- Per surname, the number of records it occurs in by collection, type, decade (0 =
-- undated) and county (0 = unknown): totals and facets of a broad surname search
-- without reading the index.
CREATE TABLE name_stats (
    surname_id    INTEGER NOT NULL,
    collection_id INTEGER NOT NULL,
    type_id       INTEGER NOT NULL,
    decade        INTEGER NOT NULL,
    county_id     INTEGER NOT NULL,
    records       INTEGER NOT NULL,
    PRIMARY KEY (surname_id, collection_id, type_id, decade, county_id)
) WITHOUT ROWID;

CREATE TABLE library_items (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    key           TEXT    NOT NULL,
    title         TEXT    NOT NULL,
    authors       TEXT    NOT NULL DEFAULT '',
    year          INTEGER,
    publisher     TEXT    NOT NULL DEFAULT '',
    subjects      TEXT    NOT NULL DEFAULT '',
    shelfmark     TEXT    NOT NULL DEFAULT '',
    search_text   TEXT    NOT NULL,
    UNIQUE (collection_id, key)
);

CREATE TABLE archive_items (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    reference     TEXT    NOT NULL,
    title         TEXT    NOT NULL,
    date_text     TEXT    NOT NULL DEFAULT '',
    jdn_lo        INTEGER,
    jdn_hi        INTEGER,
    level         TEXT    NOT NULL DEFAULT 'item',  -- fonds | series | file | item
    description   TEXT    NOT NULL DEFAULT '',
    parent_id     INTEGER NOT NULL DEFAULT 0,
    search_text   TEXT    NOT NULL,
    UNIQUE (collection_id, reference)
);
CREATE INDEX archive_items_parent ON archive_items (parent_id);

-- +goose Down
DROP TABLE archive_items;
DROP TABLE library_items;
DROP TABLE name_stats;
DROP TABLE search_keys;
DROP TABLE given_names;
DROP TABLE surname_codes;
DROP TABLE surnames;
DROP TABLE record_events;
DROP TABLE records;
DROP TABLE person_roles;
DROP TABLE record_types;
DROP TABLE collections;
DROP TABLE places;
