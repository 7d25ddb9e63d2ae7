package store_test

import (
	"context"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestSetPragmas: a job's pragmas hold on its connection until restore puts back
// the values the connection had; a bad one fails and leaves nothing changed.
func TestSetPragmas(t *testing.T) {
	ctx := context.Background()
	db := storetest.SQLite(t)
	conn := oneConn(t, db)
	read := func(name string) string {
		var v string
		if err := conn.QueryRowContext(ctx, `PRAGMA `+name).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	names := []string{"cache_size", "foreign_keys", "mmap_size", "temp_store"}
	before := map[string]string{}
	for _, n := range names {
		before[n] = read(n)
	}
	job := []store.Pragma{{"cache_size", "-16384"}, {"foreign_keys", "OFF"}, {"mmap_size", "1048576"}, {"temp_store", "MEMORY"}}
	restore, err := db.SetPragmas(ctx, conn, job)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[string]string{"cache_size": "-16384", "foreign_keys": "0", "mmap_size": "1048576", "temp_store": "2"} {
		if got := read(n); got != want {
			t.Errorf("during the job %s = %s, want %s", n, got, want)
		}
	}
	restore()
	for _, n := range names {
		if got := read(n); got != before[n] {
			t.Errorf("after restore %s = %s, was %s", n, got, before[n])
		}
	}

	if _, err := db.SetPragmas(ctx, conn, []store.Pragma{{"cache_size", "-16384"}, {"no_such_pragma_x", "1 +"}}); err == nil {
		t.Error("a bad pragma was accepted")
	}
	if got := read("cache_size"); got != before["cache_size"] {
		t.Errorf("after a failed SetPragmas cache_size = %s, was %s", got, before["cache_size"])
	}

	pg := storetest.Postgres(t)
	restore, err = pg.SetPragmas(ctx, oneConn(t, pg), job)
	if err != nil {
		t.Fatalf("PostgreSQL: %v", err)
	}
	restore()
}
