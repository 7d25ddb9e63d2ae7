// Package index is what the research room's ingest and search share: the record
// model as it is stored (collections, persons, access marks), the encoding of the
// search index's rows (search_keys: one narrow row per person, its date as span and
// date-quality classes, its id the record's id times MaxKeyWidth plus the person's
// place in the record), the search tables SQLite answers from, the name
// dictionaries (surnames, given_names) and the vocabularies of record types and
// roles, and each collection's summary.
//
// ingest writes what this package describes and search reads it; neither imports
// the other, so everything both need to agree on lives here, once.
package index
