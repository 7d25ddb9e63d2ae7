package ingest

// SetStatChunk makes a bulk import write its statistics n cells a transaction, and
// returns a function that restores the default.
func SetStatChunk(n int) (restore func()) {
	old := statChunk
	statChunk = n
	return func() { statChunk = old }
}
