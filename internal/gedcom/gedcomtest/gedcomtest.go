// Package gedcomtest builds inputs for the tests of the GEDCOM reader and of the rooms
// that import GEDCOM files.
package gedcomtest

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

// Zip builds a zip archive of the named contents, in order, each deflated: a GEDZIP
// archive when one of them is gedcom.ged.
func Zip(t testing.TB, files ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f[0], Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, f[1])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
