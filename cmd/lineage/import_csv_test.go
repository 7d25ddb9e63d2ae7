package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lineage/internal/store"
)

// TestImportUnclosedQuote: a quote never closed is reported at its line; by default
// only its record is skipped and the later ones are imported; --strict imports
// nothing and names the line in its error.
func TestImportUnclosedQuote(t *testing.T) {
	ctx := context.Background()
	data, file := recordsInput(t, "q.csv", "Q1,baptism,1850,Guildford,,Smith,John\n"+
		"Q2,baptism,1850,\"Guildford,,Smith,Mary\n"+
		"Q3,baptism,1851,\"Guildford, Surrey\",,Smith,Anne\n"+
		"Q4,baptism,1852,Guildford,,Smith,Jane\n")
	err := runImport(ctx, []string{"records", "--data", data, "--collection", "strict", "--strict", "--quiet", file})
	if err == nil || !strings.Contains(err.Error(), "nothing was imported") || !strings.Contains(err.Error(), "line 3 (record Q2): a quoted field begins on this line") {
		t.Errorf("--strict: %v", err)
	}
	if n := countInStore(t, data, `SELECT COUNT(*) FROM records`); n != 0 {
		t.Errorf("--strict imported %d records", n)
	}
	if err := runImport(ctx, []string{"records", "--data", data, "--collection", "lenient", "--quiet", file}); err != nil {
		t.Fatal(err)
	}
	if n := countInStore(t, data, `SELECT COUNT(*) FROM records`); n != 3 {
		t.Errorf("%d records imported, want Q1, Q3 and Q4", n)
	}
}

// testFile writes text to the file name in dir, making dir if need be, and answers
// its path; a file that cannot be written fails the test.
func testFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// recordsInput makes a temporary folder holding name, a records CSV of rows under the
// canonical layout's header, and answers the path of a data folder beside it for the
// commands' store (the first command makes it) and the CSV's.
func recordsInput(t *testing.T, name, rows string) (data, file string) {
	t.Helper()
	dir := t.TempDir()
	return filepath.Join(dir, "data"), testFile(t, dir, name, "record_id,record_type,date,place,role,surname,given_names\n"+rows)
}

// openData opens the data folder's store, as the next command would; the caller
// closes it.
func openData(t *testing.T, data string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), store.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// countInStore opens the data folder's store, as the next command would, and answers
// query's count.
func countInStore(t *testing.T, data, query string) int {
	t.Helper()
	db := openData(t, data)
	defer db.Close()
	var n int
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
