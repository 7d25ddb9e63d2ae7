package wholefile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"lineage/internal/wholefile"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "claim.csv")
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := wholefile.Write(path, 0o644, write("first")); err != nil {
		t.Fatal(err)
	}
	// A write that fails half way leaves the old file whole, and no temporary file.
	boom := errors.New("boom")
	err := wholefile.Write(path, 0o644, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Fatalf("after a failed write the file holds %q", b)
	}
	if err := wholefile.Write(path, 0o600, write("second")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "second" {
		t.Fatalf("the file holds %q", b)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600", fi.Mode(), err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Fatalf("files left: %v", left)
	}
	// A directory that does not exist is an error, not a file somewhere else.
	if err := wholefile.Write(filepath.Join(dir, "no", "x"), 0o644, write("x")); err == nil {
		t.Fatal("wrote into a missing directory")
	}
}
