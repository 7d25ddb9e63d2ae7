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
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	file := filepath.Join(dir, "q.csv")
	os.WriteFile(file, []byte("record_id,record_type,date,place,role,surname,given_names\n"+
		"Q1,baptism,1850,Guildford,,Smith,John\n"+
		"Q2,baptism,1850,\"Guildford,,Smith,Mary\n"+
		"Q3,baptism,1851,\"Guildford, Surrey\",,Smith,Anne\n"+
		"Q4,baptism,1852,Guildford,,Smith,Jane\n"), 0o644)
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

// countInStore opens the data folder's store, as the next command would, and answers
// query's count.
func countInStore(t *testing.T, data, query string) int {
	t.Helper()
	db, err := store.Open(t.Context(), store.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
