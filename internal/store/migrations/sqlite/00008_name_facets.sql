-- +goose Up
-- name_stats counted a surname's records by collection, type, decade and county at
-- once: thousands of cells for a common surname, all read by a broad search. What a
-- search uses are the two sides of it, by decade and by county (within collection and
-- type): name_facets keeps those, a tenth of the cells (docs/research.md, "Totals and
-- facets"). facet 0: value is the decade (0 = undated); facet 1: value is the county
-- (0 = unknown). The decade rows of a surname, collection and type add up to the same
-- number of records as its county rows.
CREATE TABLE name_facets (
    surname_id    INTEGER NOT NULL,
    collection_id INTEGER NOT NULL,
    type_id       INTEGER NOT NULL,
    facet         INTEGER NOT NULL,
    value         INTEGER NOT NULL,
    records       INTEGER NOT NULL,
    PRIMARY KEY (surname_id, collection_id, type_id, facet, value)
) WITHOUT ROWID;
INSERT INTO name_facets (surname_id, collection_id, type_id, facet, value, records)
    SELECT surname_id, collection_id, type_id, 0, decade, SUM(records) FROM name_stats
    GROUP BY surname_id, collection_id, type_id, decade;
INSERT INTO name_facets (surname_id, collection_id, type_id, facet, value, records)
    SELECT surname_id, collection_id, type_id, 1, county_id, SUM(records) FROM name_stats
    GROUP BY surname_id, collection_id, type_id, county_id;
DROP TABLE name_stats;

-- +goose Down
CREATE TABLE name_stats (
    surname_id    INTEGER NOT NULL,
    collection_id INTEGER NOT NULL,
    type_id       INTEGER NOT NULL,
    decade        INTEGER NOT NULL,
    county_id     INTEGER NOT NULL,
    records       INTEGER NOT NULL,
    PRIMARY KEY (surname_id, collection_id, type_id, decade, county_id)
) WITHOUT ROWID;
-- The joint cells cannot be recovered from the two sides: going down leaves
-- name_stats empty until the records are imported again.
DROP TABLE name_facets;
