// Package content is Lineage's content room: the editorial documents of the site (news,
// events, pages, the learning hub) and a read API that speaks Prismic's REST API v2, so
// the web app's unmodified @prismicio/client and @prismicio/react work against it
// exactly as against a hosted Prismic repository (protocols.md §1).
//
// What lives here:
//
//   - Storage (storage.go, migrations 00002_content.sql): documents with a published
//     and a draft version, the master ref (a new random ref on every publish; old ones
//     are remembered and answer 410) and preview tokens (refs that see drafts until they
//     expire; a release's preview token sees only its documents' drafts).
//   - Snapshots (snapshot.go, service.go): a ref is an immutable view, so each instance
//     keeps the current master's documents decoded in memory, loaded on first use and
//     dropped when the master moves (previews likewise, per revision of the drafts).
//     The current master is read from the database at most once per
//     Options.RefCheckInterval, so several instances can share one database; a ref this
//     instance does not know sends it back to the database at once. Because a snapshot
//     never changes, it memoises freely: sorted type lists, the ordered matches of each
//     query, each document's rendered JSON per set of render options, and a full-text
//     inverted index built on the first fulltext query. BenchmarkSearch10k measures it.
//   - The query language: predicates (predicate.go parses, evaluate.go matches),
//     orderings and paging (search.go), graphQuery (graphquery.go), route resolvers
//     (routes.go) and the response shape (render.go).
//   - HTTP (handlers.go, media.go): GET /content/api/v2, /content/api/v2/documents/search,
//     /content/api/v2/tags and /media/{file}, in Prismic's shapes (cmd/lineage's route table
//     lists them).
//     TestPrismicClient runs the web app's own @prismicio/client against them.
//   - Import and export of a directory of JSON documents (importexport.go), used by
//     `lineage content import|export` and by `serve --demo`.
//   - The studio (studio*.go, migration 00023, decision 019): the writing side. Type and
//     slice models in Prismic's Custom Types API shape (models/, embedded; an admin's
//     stored copy overrides a file), validation of every save against them, revisions
//     with 409 conflicts, the history of every document, releases published once by
//     RunReleases, the media library and outgoing webhooks, as JSON under
//     /api/studio/content/ in the project's one error contract (httpx).
//
// Choices where Prismic is silent or where we differ, for the next person:
//
//   - Without orderings, results are in document ID order; every ordering ends with
//     the ID as a tie-break, so pages and `after` cursors are stable. Documents missing
//     an ordering field sort last in either direction.
//   - pageSize is clamped to 1..100 (a larger one returns 100 per page, with
//     results_per_page saying so); a non-integer page or pageSize, or page < 1, is 400.
//   - A query string over 32 KiB is 414; more than 1000 parameters is 400; any parameter
//     that is neither a form field nor one the client is known to send (x-c, x-d,
//     integrationFieldsRef, referer) is 400.
//   - A my.<type> path of a type no document has is not an error: it matches nothing
//     (200, no results), so getByUID ends in NotFoundError and the site shows its 404.
//     Unknown document.<field> paths and malformed queries are 400 parsing-error bodies
//     with line and column.
//   - Predicates on my.<type> paths only ever match documents of that type, `not`
//     and `missing` included.
//   - fulltext matches words by prefix after folding case and accents ("register"
//     finds "registers", "seamus" finds "Séamus"): a stand-in for Prismic's stemming.
//     similar ranks documents by shared words.
//   - date.day-of-week counts Monday as 1 and Sunday as 7; date parts are UTC.
//   - `after` with an ID that is not among the results cuts where that document would
//     sort; an ID of no document gives no results.
//   - graphQuery: documents of types the query does not name keep all their fields;
//     slices the query does not name are left out of a selected slice zone.
//   - An unpublished link target gives isBroken: true (and url: brokenRoute if given).
//   - Image and media URLs stored root-relative (/media/…) leave the API absolute,
//     prefixed with Options.PublicURL or the request's origin (decision 001).
//   - Preview tokens are not listed in refs (they would show drafts to anyone); the
//     search endpoint accepts them with or without the access token.
package content
