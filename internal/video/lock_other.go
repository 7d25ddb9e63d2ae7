//go:build !unix

package video

// lockFile is a no-op where flock is not available; the upload server's own lock (423)
// still keeps two writers apart.
func lockFile(path string) (unlock func(), err error) { return func() {}, nil }
