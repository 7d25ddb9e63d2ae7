package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestImportDeferAndBuildIndex: `import records --bulk defer` leaves the search
// indexes out, `--build-index` builds them, and the flags refuse misuse.
func TestImportDeferAndBuildIndex(t *testing.T) {
	ctx := context.Background()
	data, file := recordsInput(t, "b.csv", "B1,baptism,1850,Guildford,,Smith,John\nB2,baptism,1851,Guildford,,Smyth,Mary\n")
	const indexes = `SELECT COUNT(*) FROM sqlite_master WHERE type IN ('index', 'table') AND name IN ('search_keys_surname', 'search_keys_given', 'records_browse')`
	if err := runImport(ctx, []string{"records", "--data", data, "--collection", "baptisms", "--bulk", "defer", "--quiet", file}); err != nil {
		t.Fatal(err)
	}
	if n := countInStore(t, data, indexes); n != 1 { // records_browse stays (decision 010)
		t.Errorf("%d search indexes after --bulk defer", n)
	}
	if err := runImport(ctx, []string{"records", "--data", data, "--build-index"}); err != nil {
		t.Fatal(err)
	}
	if n := countInStore(t, data, indexes); n != 3 {
		t.Errorf("%d search indexes after --build-index", n)
	}
	if err := runImport(ctx, []string{"records", "--data", data, "--build-index"}); err != nil {
		t.Errorf("a second --build-index: %v", err)
	}
	if err := runImport(ctx, []string{"records", "--data", data, "--build-index", file}); err == nil {
		t.Error("--build-index with a file: no error")
	}
	if err := runImport(ctx, []string{"records", "--data", data, "--collection", "x", "--bulk", "later", file}); err == nil {
		t.Error("--bulk later: no error")
	}
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	if err := runImport(ctx, []string{"records", "--data", data, "--collection", "baptisms", "--quiet", "--cpuprofile", prof, file}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("--cpuprofile: %v", err)
	}
}
