// Package ingest writes the research room's records: it reads CSV files (the
// canonical layout or another through a Mapping, with bounds on what one row may
// hold), checks and prepares each record in Go (dictionary keys, date ranges, places,
// hashes), and writes records, search-index rows and name statistics through one
// bulk.Writer on one connection, in transactions sized to the store's write lock. It
// also builds the search indexes a bulk load left out. It does not import search;
// what both must agree on is in package index.
package ingest
