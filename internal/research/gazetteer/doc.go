// Package gazetteer is the research room's places: countries, counties and places in
// a tree (the table places), the shipped gazetteer.txt and its file format, and the
// Resolver that turns a place as written in a record or a query into a place of the
// tree, remembering what it has seen. ingest adds places through it; search and the
// room's API read them. It knows nothing of records.
package gazetteer
