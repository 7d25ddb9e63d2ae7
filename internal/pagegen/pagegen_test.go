package pagegen_test

import (
	"context"
	"testing"
	"time"

	"lineage/internal/pagegen"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// twoHandles opens the same store twice, as two processes (a server and a command, or
// two instances) do.
func twoHandles(t *testing.T, dialect string) (*store.DB, *store.DB) {
	t.Helper()
	var opts store.Options
	if dialect == "postgres" {
		url, err := storetest.NewPostgresDatabase()
		if err != nil {
			t.Fatal(err)
		}
		opts.DatabaseURL = url
	} else {
		opts.DataDir = t.TempDir()
	}
	open := func() *store.DB {
		db, err := store.Open(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	return open(), open()
}

func TestRaiseAndCurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if n, err := pagegen.Current(ctx, db); err != nil || n != 0 {
			t.Fatalf("a new store's generation: %d, %v", n, err)
		}
		for want := int64(1); want <= 3; want++ {
			n, err := pagegen.Raise(ctx, db)
			if err != nil || n != want {
				t.Fatalf("Raise: %d, %v; want %d", n, err, want)
			}
		}
		if n, _ := pagegen.Current(ctx, db); n != 3 {
			t.Fatalf("Current %d", n)
		}
	})
}

// waitChange waits for one call of a watcher's callback; the deadline only keeps a
// broken watcher from hanging the test.
func waitChange(t *testing.T, ch <-chan bool, what string) bool {
	t.Helper()
	select {
	case local := <-ch:
		return local
	case <-time.After(30 * time.Second):
		t.Fatalf("no change seen: %s", what)
		return false
	}
}

func noChange(t *testing.T, ch <-chan bool, w *pagegen.Watcher, what string) {
	t.Helper()
	// One more read of the row settles whatever was pending.
	if err := w.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case local := <-ch:
		t.Fatalf("unexpected change (local %v): %s", local, what)
	default:
	}
}

func TestWatcherSeesOtherProcesses(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			server, command := twoHandles(t, dialect)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			changes := make(chan bool, 10)
			w := pagegen.NewWatcher(server, func(local bool) { changes <- local })
			if dialect == "postgres" {
				// Only LISTEN/NOTIFY can tell it within the test: the row is not polled.
				w.Poll = time.Hour
			} else {
				w.Poll = 10 * time.Millisecond
			}
			if _, err := pagegen.Raise(ctx, command); err != nil { // before Run: nothing to purge
				t.Fatal(err)
			}
			if err := w.Start(ctx); err != nil {
				t.Fatal(err)
			}
			if dialect == "postgres" {
				waitListening(t, server)
			}

			if _, err := pagegen.Raise(ctx, command); err != nil {
				t.Fatal(err)
			}
			if local := waitChange(t, changes, "a raise by another process"); local {
				t.Fatal("another process's raise reported as local")
			}

			// This process's own raise: reported once, as local, not again when the
			// notification or the next read of the row comes back.
			if err := w.Raise(ctx); err != nil {
				t.Fatal(err)
			}
			if local := waitChange(t, changes, "a raise by this process"); !local {
				t.Fatal("this process's raise reported as another's")
			}
			if dialect == "postgres" {
				// Let the notification of our own raise arrive (the next raise is
				// numbered after it), then check nothing came of it.
				if _, err := pagegen.Raise(ctx, command); err != nil {
					t.Fatal(err)
				}
				if local := waitChange(t, changes, "a second raise by another process"); local {
					t.Fatal("reported as local")
				}
			}
			noChange(t, changes, w, "after the raises were reported")
		})
	}
}

// waitListening waits until some session of the store LISTENs on the channel.
func waitListening(t *testing.T, db *store.DB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN lineage_pages%'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the watcher never listened")
}
