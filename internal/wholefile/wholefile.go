// Package wholefile writes a file so that nobody ever reads half of it: the bytes go to
// a temporary file in the same directory, which is synced and renamed over the old one.
// A crash or a failed write leaves the old file as it was, or none.
package wholefile

import (
	"io"
	"os"
	"path/filepath"
)

// Write makes path hold what write writes, with the permissions perm.
func Write(path string, perm os.FileMode, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // nothing to remove once renamed
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
