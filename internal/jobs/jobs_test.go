package jobs_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"lineage/internal/jobs"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// record notes which holders' jobs run, and how many at once.
type record struct {
	mu      sync.Mutex
	running map[string]bool
	most    int
	ran     []string
	started chan string
	ended   chan string
}

func newRecord() *record {
	return &record{running: map[string]bool{}, started: make(chan string, 16), ended: make(chan string, 16)}
}

// job is a scheduler's loop that runs until its context ends.
func (rec *record) job(holder string) func(ctx context.Context) {
	return func(ctx context.Context) {
		rec.mu.Lock()
		rec.running[holder] = true
		rec.most = max(rec.most, len(rec.running))
		rec.ran = append(rec.ran, holder)
		rec.mu.Unlock()
		rec.started <- holder
		<-ctx.Done()
		rec.mu.Lock()
		delete(rec.running, holder)
		rec.mu.Unlock()
		rec.ended <- holder
	}
}

// waitRenewals waits until the lease called name has been renewed n times, so that the
// other runners, trying on the same period, have had as many chances to take it.
func waitRenewals(t *testing.T, db *store.DB, name string, n int) *store.Lease {
	t.Helper()
	var last time.Time
	for seen := 0; ; time.Sleep(time.Millisecond) {
		l, err := db.LeaseHeld(context.Background(), name, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if l == nil {
			continue
		}
		if l.Expires.After(last) {
			if !last.IsZero() {
				seen++
			}
			last = l.Expires
		}
		if seen >= n {
			return l
		}
	}
}

func TestRunner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		t.Run("ExactlyOneAndHandover", func(t *testing.T) {
			rec := newRecord()
			const n = 3
			cancels := map[string]context.CancelFunc{}
			done := map[string]chan struct{}{}
			for i := range n {
				holder := fmt.Sprintf("instance-%d", i)
				r := jobs.New(db, jobs.Options{Holder: holder, TTL: time.Hour, Every: 5 * time.Millisecond})
				ctx, cancel := context.WithCancel(context.Background())
				cancels[holder] = cancel
				d := make(chan struct{})
				done[holder] = d
				go func() {
					defer close(d)
					r.Run(ctx, "sweeper", rec.job(holder))
				}()
			}
			// Stop each holder in turn: the lease passes on each time, to one instance.
			for range n {
				holder := <-rec.started
				if l := waitRenewals(t, db, "sweeper", 3); l.Holder != holder {
					t.Fatalf("lease held by %q while %q runs", l.Holder, holder)
				}
				cancels[holder]()
				<-done[holder]
				if got := <-rec.ended; got != holder {
					t.Fatalf("%s ended, want %s", got, holder)
				}
			}
			if rec.most != 1 {
				t.Fatalf("%d instances ran the job at once", rec.most)
			}
			slices.Sort(rec.ran)
			if !slices.Equal(rec.ran, []string{"instance-0", "instance-1", "instance-2"}) {
				t.Fatalf("ran %v, want each instance once", rec.ran)
			}
			if l, err := db.LeaseHeld(context.Background(), "sweeper", time.Now()); err != nil || l != nil {
				t.Fatalf("lease %+v after every instance stopped (%v)", l, err)
			}
		})

		t.Run("TakeoverWhenTheHolderStopsRenewing", func(t *testing.T) {
			// a's clock stands still, as a frozen or dead process's renewals would: on b's
			// clock, a TTL later, the lease has run out, b takes it over and a's job stops.
			rec := newRecord()
			t0 := time.Now()
			const ttl = time.Hour
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			a := jobs.New(db, jobs.Options{Holder: "a", TTL: ttl, Every: 5 * time.Millisecond, Now: func() time.Time { return t0 }})
			aDone := make(chan struct{})
			go func() { defer close(aDone); a.Run(ctx, "renewals", rec.job("a")) }()
			if got := <-rec.started; got != "a" {
				t.Fatalf("%s started first", got)
			}
			var mu sync.Mutex
			bNow := t0.Add(ttl - time.Millisecond)
			bClock := func() time.Time { mu.Lock(); defer mu.Unlock(); return bNow }
			b := jobs.New(db, jobs.Options{Holder: "b", TTL: ttl, Every: 5 * time.Millisecond, Now: bClock})
			bDone := make(chan struct{})
			go func() { defer close(bDone); b.Run(ctx, "renewals", rec.job("b")) }()
			// Not yet expired on b's clock: b keeps trying and a keeps the lease.
			if l := waitRenewals(t, db, "renewals", 0); l.Holder != "a" {
				t.Fatalf("holder %q before expiry", l.Holder)
			}
			mu.Lock()
			bNow = t0.Add(ttl)
			mu.Unlock()
			if got := <-rec.ended; got != "a" {
				t.Fatalf("%s ended, want a", got)
			}
			if got := <-rec.started; got != "b" {
				t.Fatalf("%s took over, want b", got)
			}
			if held := b.Held(); !slices.Equal(held, []string{"renewals"}) {
				t.Fatalf("b holds %v", held)
			}
			if held := a.Held(); len(held) != 0 {
				t.Fatalf("a still holds %v", held)
			}
			cancel()
			<-aDone
			<-bDone
		})
	})
}

// TestRepeat: run is called at once, again whenever wake receives (the interval, an
// hour, never comes), with Repeat's context, and Repeat returns when that context
// ends; with a short interval and no wake it repeats on its own.
func TestRepeat(t *testing.T) {
	type key struct{}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "repeat"))
	defer cancel()
	wake := make(chan struct{})
	runs := make(chan int)
	done := make(chan struct{})
	n := 0
	go func() {
		defer close(done)
		jobs.Repeat(ctx, time.Hour, wake, func(ctx context.Context) {
			if ctx.Value(key{}) != "repeat" {
				t.Error("run did not get Repeat's context")
			}
			n++
			if n == 3 {
				cancel()
			}
			runs <- n
		})
	}()
	if got := <-runs; got != 1 {
		t.Fatalf("run %d at once, want 1", got)
	}
	wake <- struct{}{}
	if got := <-runs; got != 2 {
		t.Fatalf("run %d after a wake, want 2", got)
	}
	wake <- struct{}{}
	<-runs
	<-done // the third run ended the context: Repeat returns without a fourth
	if n != 3 {
		t.Fatalf("%d runs, want 3", n)
	}

	ticks := make(chan struct{}, 3)
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan struct{})
	go func() {
		defer close(done2)
		jobs.Repeat(ctx2, time.Millisecond, nil, func(context.Context) {
			select {
			case ticks <- struct{}{}:
			default: // three seen; Repeat is being stopped
			}
		})
	}()
	for range 3 {
		<-ticks
	}
	cancel2()
	<-done2
}
