// Package store opens Lineage's database — SQLite in the data directory by default,
// PostgreSQL when a postgres:// URL is configured — and applies the embedded migrations
// of the matching dialect. Domain packages keep their own SQL; they write it with `?`
// placeholders and pass it through DB.Rebind, so one query text serves both dialects.
package store
