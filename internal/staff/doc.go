// Package staff is the studio's staff tools: what editors and admins do in the
// browser that was done with `lineage import` and `lineage user` — records from a
// spreadsheet (an upload, a proposed mapping to the canonical columns, a dry run, an
// import as a background job through the research room's engine, taken back whole if
// it stops), scans attached to records, catalogue entries or people (through the
// image room's import), the review queue of members' family trees, and people's
// accounts (roles, disabling, password resets). Every action goes to the audit log
// (internal/audit), which admins read here. Jobs live in the store, so that any server
// streams their progress and another takes back the job of one that died.
// docs/studio-staff.md is the HTTP contract; docs/decisions/020 says why.
package staff
