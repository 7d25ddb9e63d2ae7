// Package search answers the research room's name searches over the index that
// ingest writes (package index): it parses a query, plans it against the name
// dictionaries and the gazetteer, reads candidates, scores and pages them, and counts
// facets. It only reads; it does not import ingest.
//
// # How a name search works
//
// Names are stored once, in dictionaries: every distinct surname key (names.SurnameKey)
// is a row of surnames with its variant key and Soundex, and surname_codes holds its
// Daitch–Mokotoff and Double Metaphone codes; every distinct folded given-names string
// is a row of given_names. The index, search_keys, has one narrow row per person: the
// ids of its surname and given names, the record's date as day numbers, its place and
// county, collection, record type and the person's role. Everything is computed in Go
// at import time (ARCHITECTURE.md §4), so both databases see the same integers.
//
// A query is resolved against the dictionaries first: the surname and its search mode
// become a few sets of surname ids (exact, variant, phonetic), the given names a few
// sets of given-name ids (exact, variant, initial), the place a set of place ids. The
// candidates are then one range scan of the surname order of the index per surname id
// (search_keys_surname: a covering index on PostgreSQL, a WITHOUT ROWID table on
// SQLite, decision 008), or of its surname-and-given-names order, with every other
// condition checked on the entry itself. Up to Options.Cap
// candidates are scored in Go; beyond that the engine streams candidates in ranking
// order class by class (score levels are discrete) and takes totals and facets from
// name_facets, so a search for a common surname does not read every Smith.
//
// # Ranking
//
// A person's score adds the quality of each field the query asked for: the surname
// (exact 40, variant 30, phonetic or Soundex 20), given names (exact 20, variant 15,
// initials 10, none recorded 0), the year (the exact year with an exact date 15, within
// the tolerance 10, an approximate or open date 6, undated 0) and the place (in the
// place asked for 15, in a place that contains it 7, no place 0). A field the record
// lacks scores nothing; a field that contradicts the query excludes the record. A
// record ranks by its best-scoring person, then by date, then by id.
//
// # Paywall
//
// Records of members-only collections (or marked members-only on import) are found by
// everyone, but requesters who are not members see a teaser: the first person's name,
// the year and the collection, the same in results and on the record's page
// (TeaserPersons). Such a requester matches a members-only record only on that person
// (plan.withholds, paywall.go), so no search, total, facet or relative filter reveals
// a withheld one. The API enforces this (see Membership); pages only present it.
package search
