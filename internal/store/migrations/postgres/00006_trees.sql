-- +goose Up
-- Family trees (internal/trees, docs/trees.md). A tree is one imported GEDCOM file:
-- every level-0 record is kept as read (tree_records) so that export is lossless, and
-- people, names, events, families and their links are kept in narrow tables for the
-- API and the searches. Rows of a tree are keyed by (tree_id, …) and deleted with it.
-- Person and family numbers (pid, fid) are the record's position in the file.
-- Day numbers (jdn_*) are Julian Day Numbers from internal/gendate (NULL when the date
-- could not be placed). Times are Unix seconds.

CREATE TABLE trees (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    slug           TEXT    NOT NULL UNIQUE,
    title          TEXT    NOT NULL,
    description    TEXT    NOT NULL DEFAULT '',
    owner_id       BIGINT  REFERENCES users (id) ON DELETE SET NULL,
    published      BIGINT  NOT NULL DEFAULT 0,
    source_file    TEXT    NOT NULL DEFAULT '',
    gedcom_version TEXT    NOT NULL DEFAULT '',
    header         TEXT    NOT NULL DEFAULT '',   -- the HEAD record, encoded like tree_records.data
    n_people       BIGINT  NOT NULL DEFAULT 0,
    n_families     BIGINT  NOT NULL DEFAULT 0,
    n_events       BIGINT  NOT NULL DEFAULT 0,
    n_sources      BIGINT  NOT NULL DEFAULT 0,
    n_notes        BIGINT  NOT NULL DEFAULT 0,
    n_media        BIGINT  NOT NULL DEFAULT 0,
    created_at     BIGINT  NOT NULL,
    updated_at     BIGINT  NOT NULL,
    published_at   BIGINT
);
CREATE INDEX trees_owner ON trees (owner_id);

-- Every level-0 record but HEAD and TRLR, in file order (seq), encoded by
-- internal/trees (encodeRecord).
CREATE TABLE tree_records (
    tree_id BIGINT  NOT NULL,
    seq     BIGINT  NOT NULL,
    tag     TEXT    NOT NULL,
    xref    TEXT    NOT NULL,
    data    TEXT    NOT NULL,
    PRIMARY KEY (tree_id, seq)
);
CREATE INDEX tree_records_xref ON tree_records (tree_id, xref);

-- One row per INDI record. living is 1 for the living and the restricted (RESN), as
-- computed at import (docs/trees.md "The living"). sort_key orders lists: folded
-- surname, a space, folded given names.
CREATE TABLE tree_people (
    tree_id     BIGINT  NOT NULL,
    pid         BIGINT  NOT NULL,
    xref        TEXT    NOT NULL,
    sex         TEXT    NOT NULL,
    living      BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    given       TEXT    NOT NULL,
    surname     TEXT    NOT NULL,
    sort_key    TEXT    NOT NULL,
    birth_text  TEXT    NOT NULL,
    birth_lo    BIGINT,
    birth_hi    BIGINT,
    birth_place TEXT    NOT NULL,
    death_text  TEXT    NOT NULL,
    death_lo    BIGINT,
    death_hi    BIGINT,
    death_place TEXT    NOT NULL,
    PRIMARY KEY (tree_id, pid)
);
CREATE UNIQUE INDEX tree_people_xref ON tree_people (tree_id, xref);
CREATE INDEX tree_people_sort ON tree_people (tree_id, sort_key);

-- The surname dictionary of the trees, with the research search's keys
-- (names.Keys): folded, variant, Soundex; Daitch–Mokotoff ('d' + code) and Double
-- Metaphone ('m' + code) codes in tree_surname_codes.
CREATE TABLE tree_surnames (
    id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    folded  TEXT    NOT NULL UNIQUE,
    variant TEXT    NOT NULL,
    soundex TEXT    NOT NULL
);
CREATE INDEX tree_surnames_variant ON tree_surnames (variant);
CREATE INDEX tree_surnames_soundex ON tree_surnames (soundex);

CREATE TABLE tree_surname_codes (
    code       TEXT    NOT NULL,
    surname_id BIGINT  NOT NULL,
    PRIMARY KEY (code, surname_id)
);

-- Every NAME of every person: surname_id 0 when the name has no surname; given the
-- folded given names. living copies the person's flag so searches filter in the index.
CREATE TABLE tree_names (
    tree_id    BIGINT  NOT NULL,
    pid        BIGINT  NOT NULL,
    ord        BIGINT  NOT NULL,
    surname_id BIGINT  NOT NULL,
    given      TEXT    NOT NULL,
    living     BIGINT  NOT NULL,
    PRIMARY KEY (tree_id, pid, ord)
);
CREATE INDEX tree_names_surname ON tree_names (surname_id, tree_id, pid);

-- Every event of a person, and every family event once for each partner (fid set).
CREATE TABLE tree_events (
    tree_id BIGINT  NOT NULL,
    pid     BIGINT  NOT NULL,
    ord     BIGINT  NOT NULL,
    fid     BIGINT  NOT NULL,
    tag     TEXT    NOT NULL,
    jdn_lo  BIGINT,
    jdn_hi  BIGINT,
    place   TEXT    NOT NULL,                    -- folded (names.Fold), for place searches
    PRIMARY KEY (tree_id, pid, ord)
);

CREATE TABLE tree_families (
    tree_id  BIGINT  NOT NULL,
    fid      BIGINT  NOT NULL,
    xref     TEXT    NOT NULL,
    partner1 BIGINT  NOT NULL,                   -- pid, 0 when none
    partner2 BIGINT  NOT NULL,
    PRIMARY KEY (tree_id, fid)
);

-- Who belongs to which family: role 'P' partner, 'C' child (with its pedigree).
CREATE TABLE tree_links (
    tree_id  BIGINT  NOT NULL,
    pid      BIGINT  NOT NULL,
    role     TEXT    NOT NULL,
    fid      BIGINT  NOT NULL,
    ord      BIGINT  NOT NULL,
    pedigree TEXT    NOT NULL,
    PRIMARY KEY (tree_id, pid, role, fid)
);
CREATE INDEX tree_links_family ON tree_links (tree_id, fid, role, ord);

-- +goose Down
DROP TABLE tree_links;
DROP TABLE tree_families;
DROP TABLE tree_events;
DROP TABLE tree_names;
DROP TABLE tree_surname_codes;
DROP TABLE tree_surnames;
DROP TABLE tree_people;
DROP TABLE tree_records;
DROP TABLE trees;
