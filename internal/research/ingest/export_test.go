package ingest

import (
	"lineage/internal/research/index"
)

// DecadeOf exposes the decade rule of name_facets to the external tests.
func DecadeOf(lo, hi int64) int64 { return int64(index.DecadeOf(true, int(lo), int(hi))) }

// SetMaxSortedBuild changes the largest index buildSQLite sorts in memory, for
// TestBuildSearchTables; the returned function restores it.
func SetMaxSortedBuild(n int64) (restore func()) {
	old := maxSortedBuild
	maxSortedBuild = n
	return func() { maxSortedBuild = old }
}

// SetBuildChunks makes buildSQLite write n rows a transaction and call after (when
// not nil) after each, for TestBuildSearchTables; the returned function restores both.
func SetBuildChunks(n int, after func()) (restore func()) {
	oldN, oldAfter := buildChunkRows, afterBuildChunk
	buildChunkRows, afterBuildChunk = n, after
	return func() { buildChunkRows, afterBuildChunk = oldN, oldAfter }
}
