package ingest_test

import (
	"bytes"
	"context"
	"lineage/internal/research/demo"
	"lineage/internal/research/ingest"
	"os"
	"sync/atomic"
	"testing"

	"lineage/internal/auth/authtest"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// While a bulk CSV import runs (batches, then the search indexes
// and tables built at its end), people sign in (GET /sanctum/csrf-cookie, POST
// /login: each creates a session, a write) without error, and the import completes.
// The first 100 sign-ins are paced with the batches, so the import is still writing
// batches when they end; sign-ins then go on until the import has ended, through
// its last steps, the build of the search tables waiting for one after each of its
// transactions. Before, a sign-in between two transactions of that build failed the
// import ("the store changed while the search tables were being built"). Latencies
// are logged, not asserted (the machine is shared).
//
// On SQLite records_browse is there at every step of the import: a bulk import used
// to drop it and build it again at its end with CREATE INDEX, one statement over the
// whole records table under the write lock (28 s at ten million records), which no
// sign-in could get past.
func TestSignInDuringBulkImport(t *testing.T) {
	const n = 50_000
	var csv bytes.Buffer
	if err := demo.WriteCSV(&csv, demo.Collections()[0], n, 1); err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db, 1000)
		fd := authtest.Start(t, db)
		pacer := authtest.NewPacer(1) // 200 batches of 250 records: 100 sign-ins by the 100th
		var importDone atomic.Bool
		type result struct {
			rep *research.ImportReport
			err error
		}
		res := make(chan result, 1)
		// After each chunk of the search tables' build, a sign-in completes before
		// the next chunk.
		signedIn, stopped := make(chan struct{}, 1), make(chan struct{})
		var buildChunks atomic.Int64
		defer ingest.SetStatChunk(1000)() // the statistics in many transactions too
		defer ingest.SetBuildChunks(20_000, func() {
			buildChunks.Add(1)
			select {
			case <-signedIn:
			default:
			}
			select {
			case <-signedIn:
			case <-stopped:
			}
		})()
		steps, browseMissing := 0, false // written by the import's goroutine, read after res
		go func() {
			rep, err := s.ImportRecords(context.Background(), bytes.NewReader(csv.Bytes()), nil, research.ImportOptions{
				Collection: "big", Bulk: research.BulkOn, BatchSize: 250,
				Progress: func(research.ImportProgress) {
					steps++
					if db.Dialect == store.SQLite && !browseMissing {
						var n int
						db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'records_browse'`).Scan(&n)
						browseMissing = n == 0
					}
					pacer.Step()
				},
			}, int64(csv.Len()))
			importDone.Store(true)
			res <- result{rep, err}
		}()
		paced := pacer.SignIns(fd, 100)
		running := !importDone.Load()
		after := &authtest.Report{}
		for !importDone.Load() {
			c, l, err := fd.SignIn()
			if err != nil {
				after.Errors = append(after.Errors, err)
				break
			}
			after.Cookie, after.Login = append(after.Cookie, c), append(after.Login, l)
			select {
			case signedIn <- struct{}{}:
			default:
			}
		}
		close(stopped)
		got := <-res
		load, _ := os.ReadFile("/proc/loadavg")
		t.Logf("during the batches: %s", paced)
		t.Logf("until the import ended: %s; %d chunks of the search tables' build; load %s", after, buildChunks.Load(), load)
		if len(paced.Errors) > 0 || len(paced.Cookie) != 100 {
			t.Fatalf("sign-in during the import: %v", paced.Errors)
		}
		if len(after.Errors) > 0 {
			t.Fatalf("sign-in at the end of the import: %v", after.Errors[0])
		}
		if !running {
			t.Fatal("the import had ended before the sign-ins did")
		}
		if got.err != nil {
			t.Fatalf("import: %v", got.err)
		}
		if browseMissing {
			t.Fatal("records_browse was missing during the import: it is built again in one statement that holds the write lock")
		}
		if steps < 100 {
			t.Fatalf("%d steps of the import", steps)
		}
		if got.rep.Added != n {
			t.Fatalf("import: %+v", got.rep)
		}
		checkStats(t, db)
		var keys, surnameRows int
		db.QueryRow(`SELECT COUNT(*) FROM search_keys WHERE surname_id <> 0`).Scan(&keys)
		if db.Dialect == store.SQLite {
			db.QueryRow(`SELECT COUNT(*) FROM search_keys_surname`).Scan(&surnameRows)
			if surnameRows != keys || keys == 0 {
				t.Fatalf("search tables: %d rows for %d keys", surnameRows, keys)
			}
		}
	})
}
