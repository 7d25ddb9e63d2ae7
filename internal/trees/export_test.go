package trees

// SetDeferIndexThreshold sets the file size from which an SQLite import defers the
// tree tables' indexes, and returns a function that restores it.
func SetDeferIndexThreshold(n int64) (restore func()) {
	old := deferIndexThreshold
	deferIndexThreshold = n
	return func() { deferIndexThreshold = old }
}
