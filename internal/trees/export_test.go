package trees

import "time"

// SetChunkBudget sets how long an import keeps one transaction open, and returns a
// function that restores it.
func SetChunkBudget(d time.Duration) (restore func()) {
	old := chunkBudget
	chunkBudget = d
	return func() { chunkBudget = old }
}

// SetAfterRemoveChunk makes fn run after each chunk of a tree's removal, and returns
// a function that undoes it.
func SetAfterRemoveChunk(fn func()) (restore func()) {
	old := afterRemoveChunk
	afterRemoveChunk = fn
	return func() { afterRemoveChunk = old }
}
