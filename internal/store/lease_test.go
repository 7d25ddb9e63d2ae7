package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestLease(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 26, 1, 0, 0, 0, time.UTC)
		const ttl = 20 * time.Second
		acquire := func(name, holder string, at time.Time) bool {
			t.Helper()
			ok, err := db.AcquireLease(ctx, name, holder, at, ttl)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		renew := func(name, holder string, at time.Time) bool {
			t.Helper()
			ok, err := db.RenewLease(ctx, name, holder, at, ttl)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		holder := func(name string, at time.Time) string {
			t.Helper()
			l, err := db.LeaseHeld(ctx, name, at)
			if err != nil {
				t.Fatal(err)
			}
			if l == nil {
				return ""
			}
			return l.Holder
		}

		t.Run("HeldUntilItExpires", func(t *testing.T) {
			if !acquire("sweeper", "a", t0) {
				t.Fatal("a did not get a free lease")
			}
			if acquire("sweeper", "b", t0.Add(ttl-time.Millisecond)) {
				t.Fatal("b took a lease a still holds")
			}
			if !acquire("sweeper", "a", t0.Add(time.Second)) {
				t.Fatal("a could not acquire its own lease again")
			}
			if got := holder("sweeper", t0.Add(time.Second)); got != "a" {
				t.Fatalf("holder %q", got)
			}
			// Another name is another lease.
			if !acquire("renewals", "b", t0) {
				t.Fatal("b did not get another free lease")
			}
		})

		t.Run("RenewKeepsIt", func(t *testing.T) {
			if !acquire("events", "a", t0) || !renew("events", "a", t0.Add(15*time.Second)) {
				t.Fatal("a could not take and renew")
			}
			// Past the first expiry, but renewed: still a's.
			if acquire("events", "b", t0.Add(25*time.Second)) {
				t.Fatal("b took a renewed lease")
			}
			if renew("events", "b", t0.Add(25*time.Second)) {
				t.Fatal("b renewed a lease it does not hold")
			}
		})

		t.Run("TakeoverAfterExpiry", func(t *testing.T) {
			if !acquire("newsletter", "a", t0) {
				t.Fatal("a did not get a free lease")
			}
			// a dies without releasing: at expiry b takes over, and a, waking, has lost it.
			if got := holder("newsletter", t0.Add(ttl)); got != "" {
				t.Fatalf("an expired lease is held by %q", got)
			}
			if !acquire("newsletter", "b", t0.Add(ttl)) {
				t.Fatal("b did not take over an expired lease")
			}
			if renew("newsletter", "a", t0.Add(ttl+time.Second)) {
				t.Fatal("a renewed a lease b took over")
			}
			if acquire("newsletter", "a", t0.Add(ttl+time.Second)) {
				t.Fatal("a took back b's lease")
			}
			l, err := db.LeaseHeld(ctx, "newsletter", t0.Add(ttl+time.Second))
			if err != nil || l == nil || l.Holder != "b" || !l.Acquired.Equal(t0.Add(ttl)) || !l.Expires.Equal(t0.Add(2*ttl)) {
				t.Fatalf("lease %+v, %v", l, err)
			}
		})

		t.Run("ReleaseHandsOver", func(t *testing.T) {
			if !acquire("release", "a", t0) {
				t.Fatal("a did not get a free lease")
			}
			// Releasing someone else's lease does nothing.
			if err := db.ReleaseLease(ctx, "release", "b"); err != nil {
				t.Fatal(err)
			}
			if acquire("release", "b", t0.Add(time.Second)) {
				t.Fatal("b took a's lease after releasing what it did not hold")
			}
			if err := db.ReleaseLease(ctx, "release", "a"); err != nil {
				t.Fatal(err)
			}
			if renew("release", "a", t0.Add(time.Second)) {
				t.Fatal("a renewed a lease it released")
			}
			if !acquire("release", "b", t0.Add(time.Second)) {
				t.Fatal("b could not take a released lease before its expiry")
			}
		})

		t.Run("ContendersAtOnce", func(t *testing.T) {
			// Free and then expired: each time exactly one of many contenders wins.
			other := reopen(t, db)
			for round, at := range []time.Time{t0, t0.Add(time.Hour)} {
				const n = 8
				won := make([]bool, n)
				atOnce([]*store.DB{db, other}, n, func(i int, h *store.DB) {
					ok, err := h.AcquireLease(ctx, "contended", fmt.Sprintf("r%d-%d", round, i), at, ttl)
					if err != nil {
						t.Error(err)
					}
					won[i] = ok
				})
				winners := 0
				for _, w := range won {
					if w {
						winners++
					}
				}
				if winners != 1 {
					t.Fatalf("round %d: %d contenders won (%v)", round, winners, won)
				}
			}
		})

		t.Run("BadArguments", func(t *testing.T) {
			for _, c := range []struct {
				name, holder string
				ttl          time.Duration
			}{{"", "a", ttl}, {"x", "", ttl}, {"x", "a", 0}, {"x", "a", -time.Second}} {
				if ok, err := db.AcquireLease(ctx, c.name, c.holder, t0, c.ttl); err == nil || ok {
					t.Errorf("%+v: acquired %v, err %v", c, ok, err)
				}
			}
		})
	})
}
