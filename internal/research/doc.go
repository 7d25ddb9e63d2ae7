// Package research is the room for the research hub: collections, index records (each
// with its persons, roles, events, place, transcript, source, access and image
// references), the library and archive catalogues, the place gazetteer, and the
// name-search engine over all of them. cmd/lineage lists its HTTP API in the route
// table (routes.go) behind auth's middleware and wires its import and demo commands;
// the web app's pages read the API documented in docs/research.md.
//
// The room is cut around its index (docs/decisions/011-house-plan.md):
//
//	research/            the room's API: Service, handlers, records, catalogue
//	├── index/           the record model as stored, search-key rows, dictionaries
//	├── gazetteer/       places
//	├── search/          queries, plans, execution, results, facets (reads only)
//	├── ingest/          CSV reading, the import pipeline, statistics (writes)
//	├── demo/            the demo generator (no production path imports it)
//	└── researchtest/    what the room's tests share
//
// search and ingest both build on index and gazetteer and never import each other;
// research offers their types under its own names (api.go), so that callers outside
// the room see one package.
package research
