package trees_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"lineage/internal/auth/authtest"
	"lineage/internal/gedcom"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
	"lineage/internal/trees"
)

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return string(b[:min(len(b), 14)])
}

// While a large GEDCOM import writes, and while a large tree is
// deleted, 100 sign-ins (GET /sanctum/csrf-cookie, POST /login, each creating a
// session: a write) complete without error; the import and the delete are still
// under way when the last one completes, and both are whole afterwards. With the
// import in one transaction, the first sign-in on SQLite waited for the store's
// busy timeout and answered 500 ("database is locked"). Latencies are logged, not
// asserted (the machine is shared).
func TestSignInDuringImportAndDelete(t *testing.T) {
	path := writeGenerated(t, 30000) // about 40 000 records: 40 progress calls
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		fd := authtest.Start(t, db)
		ctx := context.Background()
		// Something to replace: the import swaps its staging tree in for this one.
		importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "big"})

		pacer := authtest.NewPacer(3) // 100 sign-ins by the 34th of 40 progress calls
		var importDone atomic.Bool
		var calls atomic.Int64
		r, err := gedcom.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		type result struct {
			rep *trees.ImportReport
			err error
		}
		res := make(chan result, 1)
		go func() {
			rep, err := s.Import(ctx, r, trees.ImportOptions{Slug: "big", Published: published(true), Progress: func(done, size int64, records int) {
				calls.Add(1)
				pacer.Step()
			}})
			importDone.Store(true)
			res <- result{rep, err}
		}()
		signed := pacer.SignIns(fd, 100)
		running, atCall := !importDone.Load(), calls.Load()
		got := <-res
		t.Logf("during the import: %s; progress call %d when they ended; load %s", signed, atCall, loadAvg())
		if len(signed.Errors) > 0 {
			t.Fatalf("sign-in during the import: %v", signed.Errors[0])
		}
		if len(signed.Cookie) != 100 {
			t.Fatalf("%d sign-ins completed", len(signed.Cookie))
		}
		if !running {
			t.Fatal("the import had ended before the sign-ins did")
		}
		if got.err != nil {
			t.Fatalf("import: %v", got.err)
		}
		if got.rep.Tree.Counts.People != 30000 || got.rep.Records < 30000 {
			t.Fatalf("import: %+v, %d records", got.rep.Tree.Counts, got.rep.Records)
		}
		var people, records int
		db.QueryRow(db.Rebind(`SELECT COUNT(*) FROM tree_people p JOIN trees t ON t.id = p.tree_id WHERE t.slug = ?`), "big").Scan(&people)
		db.QueryRow(`SELECT COUNT(*) FROM tree_records`).Scan(&records)
		if people != 30000 || records != got.rep.Records {
			t.Fatalf("stored: %d people, %d records (the replaced tree's rows must be gone)", people, records)
		}
		if n := hiddenTrees(t, db); n != 0 {
			t.Fatalf("%d hidden trees left after the import", n)
		}

		// The delete: hidden at once, its rows removed in chunks while people sign in.
		pacer = authtest.NewPacer(1)
		var chunks atomic.Int64
		defer trees.SetAfterRemoveChunk(func() { chunks.Add(1); pacer.Step() })()
		var delDone atomic.Bool
		delErr := make(chan error, 1)
		go func() {
			err := s.Delete(ctx, "big")
			delDone.Store(true)
			delErr <- err
		}()
		signed = pacer.SignIns(fd, 100)
		running, atChunk := !delDone.Load(), chunks.Load()
		err = <-delErr
		t.Logf("during the delete: %s; chunk %d when they ended; load %s", signed, atChunk, loadAvg())
		if len(signed.Errors) > 0 {
			t.Fatalf("sign-in during the delete: %v", signed.Errors[0])
		}
		if !running {
			t.Fatal("the delete had ended before the sign-ins did")
		}
		if err != nil {
			t.Fatalf("delete: %v", err)
		}
		for _, tbl := range []string{"trees", "tree_records", "tree_people", "tree_names", "tree_events", "tree_families", "tree_links"} {
			var n int
			db.QueryRow(`SELECT COUNT(*) FROM ` + tbl).Scan(&n)
			if n != 0 {
				t.Errorf("%d rows left in %s", n, tbl)
			}
		}
	})
}

func hiddenTrees(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM trees WHERE state <> 'ready'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A tree being loaded or deleted is seen by no reader: not by slug, not in the lists
// (even of staff), not in searches.
func TestHiddenTreesAreInvisible(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		ctx := withViewer(context.Background(), staff)
		importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "seen"})
		importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "hidden"})
		var hiddenID int64
		db.QueryRow(`SELECT id FROM trees WHERE slug = 'hidden'`).Scan(&hiddenID)
		for _, state := range []string{"loading", "deleting"} {
			if _, err := db.Exec(db.Rebind(`UPDATE trees SET state = ?, slug = ? WHERE id = ?`), state, "~"+state, hiddenID); err != nil {
				t.Fatal(err)
			}
			ts, err := s.Trees(ctx)
			if err != nil || len(ts) != 1 || ts[0].Slug != "seen" {
				t.Fatalf("%s: trees %v %v", state, ts, err)
			}
			if _, err := s.Tree(ctx, "~"+state); !errors.Is(err, trees.ErrNotFound) {
				t.Fatalf("%s: tree by slug: %v", state, err)
			}
			if ok, _ := s.Exists(ctx, "~"+state); ok {
				t.Fatalf("%s: exists", state)
			}
			q, errs := trees.ParsePeopleQuery(url.Values{"surname": {"Smith"}}, 20, 100)
			if errs != nil {
				t.Fatal(errs)
			}
			res, err := s.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			seen := fmt.Sprint(res)
			if res == nil || len(res.Trees) != 1 {
				t.Fatalf("%s: search: %s", state, seen)
			}
		}
	})
}

// A killed import (the process gone mid-way, no chance to clean up) leaves a hidden
// staging tree and nothing visible; the next import removes it once it has had no
// heartbeat for long enough. The import runs in a child process (this test binary)
// killed with SIGKILL.
func TestKilledImport(t *testing.T) {
	if os.Getenv("TREES_KILLED_IMPORT_CHILD") != "" {
		killedImportChild(t)
		return
	}
	path := writeGenerated(t, 30000)
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			opts := store.Options{DataDir: t.TempDir()}
			if dialect == "postgres" {
				u, err := storetest.NewPostgresDatabase()
				if err != nil {
					t.Fatal(err)
				}
				opts = store.Options{DatabaseURL: u}
			}
			db, err := store.Open(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			s := newService(t, db)
			importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "kept", Title: "Kept"})
			before := snapshot(t, s, "kept")

			cmd := exec.Command(os.Args[0], "-test.run=^TestKilledImport$", "-test.v")
			cmd.Env = append(os.Environ(), "TREES_KILLED_IMPORT_CHILD=1", "TREES_CHILD_DATA="+opts.DataDir,
				"TREES_CHILD_DB="+opts.DatabaseURL, "TREES_CHILD_FILE="+path)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			for sc.Scan() && sc.Text() != "importing" {
			}
			// The child goes on slowly; it is killed once some of its rows are in.
			var staged, rows int
			for range 600 {
				db.QueryRow(`SELECT COUNT(*) FROM tree_records r JOIN trees t ON t.id = r.tree_id WHERE t.state = 'loading'`).Scan(&rows)
				if rows > 0 {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			go io.Copy(io.Discard, out)

			db.QueryRow(`SELECT COUNT(*) FROM trees WHERE state = 'loading'`).Scan(&staged)
			db.QueryRow(`SELECT COUNT(*) FROM tree_records r JOIN trees t ON t.id = r.tree_id WHERE t.state = 'loading'`).Scan(&rows)
			if staged != 1 || rows == 0 {
				t.Fatalf("after the kill: %d staging trees with %d records (the child was to be killed mid-way)", staged, rows)
			}
			if after := snapshot(t, s, "kept"); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Fatal("the killed import changed the tree it was replacing")
			}
			ts, err := s.Trees(withViewer(context.Background(), staff))
			if err != nil || len(ts) != 1 {
				t.Fatalf("trees after the kill: %v %v", ts, err)
			}
			// An import soon after leaves the staging tree alone (it could be an import
			// of another process that is still running)…
			importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "next"})
			if n := hiddenTrees(t, db); n != 1 {
				t.Fatalf("%d hidden trees after an import right after the kill", n)
			}
			// …and one after the staging tree's heartbeat is long gone removes it.
			s.Now = func() time.Time { return testNow.Add(time.Hour) }
			importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "later"})
			if n := hiddenTrees(t, db); n != 0 {
				t.Fatalf("%d hidden trees after a later import", n)
			}
			var left int
			db.QueryRow(`SELECT COUNT(*) FROM tree_records WHERE tree_id NOT IN (SELECT id FROM trees)`).Scan(&left)
			if left != 0 {
				t.Fatalf("%d records of no tree", left)
			}
		})
	}
}

// killedImportChild imports the file into the tree "kept" of the parent's store,
// slowly, and says "importing" once some of it is written.
func killedImportChild(t *testing.T) {
	db, err := store.Open(context.Background(), store.Options{DataDir: os.Getenv("TREES_CHILD_DATA"), DatabaseURL: os.Getenv("TREES_CHILD_DB")})
	if err != nil {
		t.Fatal(err)
	}
	s := trees.New(db, trees.Options{Log: quietLog()})
	s.Now = func() time.Time { return testNow }
	r, err := gedcom.Open(os.Getenv("TREES_CHILD_FILE"), nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	s.Import(context.Background(), r, trees.ImportOptions{Slug: "kept", Progress: func(done, size int64, records int) {
		if calls++; calls == 5 {
			fmt.Println("importing")
		}
		if calls >= 5 {
			time.Sleep(time.Second) // the parent kills it meanwhile
		}
	}})
	t.Fatal("the child import was not killed")
}

// A scan attached to a person (iiif_items: target 'person', target_id the tree's id)
// stays attached when the tree is imported again: the swap gives the new tree's id.
func TestReimportKeepsScans(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newService(t, db)
		first := importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "scans"})
		for _, q := range []string{
			`INSERT INTO collections (slug, kind, title, created_at, updated_at) VALUES ('scans', 'archive', 'Scans', 0, 0)`,
			`INSERT INTO iiif_items (slug, collection_id, target, target_id, target_ref, label, created_at, updated_at)
				SELECT 'p1', c.id, 'person', ` + fmt.Sprint(first.Tree.ID) + `, 'I1', 'John Smith', 0, 0 FROM collections c WHERE c.slug = 'scans'`,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		second := importPath(t, s, "testdata/privacy.ged", trees.ImportOptions{Slug: "scans"})
		if second.Tree.ID == first.Tree.ID {
			t.Fatal("the re-import kept the tree's id: it was to fill a new one")
		}
		var target int64
		if err := db.QueryRow(`SELECT target_id FROM iiif_items WHERE slug = 'p1'`).Scan(&target); err != nil || target != second.Tree.ID {
			t.Fatalf("the scan points at tree %d (%v), want %d", target, err, second.Tree.ID)
		}
	})
}

// An import whose staging tree another process has taken for dead (and begun to
// remove) does not swap it in: it fails, and the tree it was replacing stays.
func TestStagingTreeTakenAway(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		importWhileStagingTaken(t, db, 3000)
	})
}
