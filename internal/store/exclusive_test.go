package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// reopen opens the database of db a second time, as another process would.
func reopen(t *testing.T, db *store.DB) *store.DB {
	t.Helper()
	opts := store.Options{DataDir: filepath.Dir(db.Where), SkipMigrate: true}
	if db.Dialect == store.Postgres {
		opts = store.Options{DatabaseURL: db.Where, SkipMigrate: true}
	}
	other, err := store.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}

// atOnce runs fn n times in goroutines released together, the i-th on handles[i %
// len(handles)] (handles of one database, as processes would hold), and waits for all.
func atOnce(handles []*store.DB, n int, fn func(i int, h *store.DB)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		h := handles[i%len(handles)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			fn(i, h)
		}()
	}
	close(start)
	wg.Wait()
}

// TestMigrateConcurrently: instances starting at once on an empty database, or on one
// an upgrade left behind, all migrate it, and each migration is applied once (without
// the lock, PostgreSQL failed with "relation already exists" or a duplicate pg_type key).
// From an empty database goose's own retry (a second) hides the race when the
// migrations are quick, as on the test cluster; from version 1 nothing hides it.
func TestMigrateConcurrently(t *testing.T) {
	for _, from := range []int64{0, 1} {
		t.Run(fmt.Sprintf("from%d", from), func(t *testing.T) { testMigrateConcurrently(t, from) })
	}
}

func testMigrateConcurrently(t *testing.T, from int64) {
	empty := map[string]func(t *testing.T) store.Options{
		"sqlite": func(t *testing.T) store.Options { return store.Options{DataDir: t.TempDir()} },
		"postgres": func(t *testing.T) store.Options {
			url, err := storetest.NewPostgresDatabase()
			if err != nil {
				t.Fatal(err)
			}
			return store.Options{DatabaseURL: url}
		},
	}
	for name, opts := range empty {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			o := opts(t)
			o.SkipMigrate = true
			const n = 4
			dbs := make([]*store.DB, n)
			for i := range dbs {
				db, err := store.Open(ctx, o)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				dbs[i] = db
			}
			if from > 0 {
				if err := dbs[0].MigrateTo(ctx, from); err != nil {
					t.Fatal(err)
				}
			}
			errs := make([]error, n)
			atOnce(dbs, n, func(i int, db *store.DB) { errs[i] = db.Migrate(ctx) })
			for i, err := range errs {
				if err != nil {
					t.Errorf("instance %d: %v", i, err)
				}
			}
			// Each database file keeps its own record (SQLite's sign-in state has its own).
			var applied, distinct int
			for _, db := range []*store.DB{dbs[0], dbs[0].SignIn()} {
				var a, d int
				if err := db.QueryRow(`SELECT count(*), count(DISTINCT version_id) FROM goose_db_version WHERE version_id > 0`).Scan(&a, &d); err != nil {
					t.Fatal(err)
				}
				applied, distinct = applied+a, distinct+d
				if db.SignIn() == db {
					break
				}
			}
			st, err := dbs[0].MigrationStatus(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if applied != len(st) || distinct != applied {
				t.Fatalf("%d migrations recorded (%d distinct), want each of %d once", applied, distinct, len(st))
			}
		})
	}
}

func TestExclusive(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		other := reopen(t, db)

		t.Run("OneAtATime", func(t *testing.T) {
			var inside, most atomic.Int32
			atOnce([]*store.DB{db, other}, 8, func(i int, h *store.DB) {
				err := h.Exclusive(ctx, "test", func(ctx context.Context) error {
					n := inside.Add(1)
					defer inside.Add(-1)
					for {
						m := most.Load()
						if n <= m || most.CompareAndSwap(m, n) {
							break
						}
					}
					// Some real work while holding the lock.
					_, err := h.ExecContext(ctx, h.Rebind(`INSERT INTO settings (key, value) VALUES (?, 'x')`), "exclusive-"+string(rune('a'+i)))
					return err
				})
				if err != nil {
					t.Error(err)
				}
			})
			if most.Load() != 1 {
				t.Fatalf("%d holders at once", most.Load())
			}
		})

		t.Run("WaiterGivesUpWithItsContext", func(t *testing.T) {
			held, release := make(chan struct{}), make(chan struct{})
			done := make(chan error, 1)
			go func() {
				done <- db.Exclusive(ctx, "test", func(ctx context.Context) error {
					close(held)
					<-release
					return nil
				})
			}()
			<-held
			wctx, cancel := context.WithCancel(ctx)
			ran := false
			waited := make(chan error, 1)
			go func() {
				waited <- other.Exclusive(wctx, "test", func(ctx context.Context) error { ran = true; return nil })
			}()
			cancel()
			if err := <-waited; err == nil || ran {
				t.Fatalf("a waiter whose context ended ran (%v) or returned %v", ran, err)
			}
			// Another name is not held.
			if err := other.Exclusive(ctx, "other", func(ctx context.Context) error { return nil }); err != nil {
				t.Fatal(err)
			}
			close(release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			// Released: the other handle gets it now.
			if err := other.Exclusive(ctx, "test", func(ctx context.Context) error { return nil }); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("ErrorPassesThroughAndReleases", func(t *testing.T) {
			boom := errors.New("boom")
			if err := db.Exclusive(ctx, "test", func(ctx context.Context) error { return boom }); !errors.Is(err, boom) {
				t.Fatalf("err = %v", err)
			}
			if err := other.Exclusive(ctx, "test", func(ctx context.Context) error { return nil }); err != nil {
				t.Fatal(err)
			}
		})
	})
}
