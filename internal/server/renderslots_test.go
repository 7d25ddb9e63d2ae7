package server

import (
	"context"
	"testing"
	"time"
)

// TestRenderSlots: at most n renders at once, the next waiting until one is done; a
// wait that runs out or a request that goes away gets no slot; a render still running
// after the grace frees its slot by itself.
func TestRenderSlots(t *testing.T) {
	const long = time.Hour // never reached: the waits below end by a release or a cancel

	t.Run("OK", func(t *testing.T) {
		s := newRenderSlots(2, long)
		first, ok1 := s.take(context.Background(), long)
		_, ok2 := s.take(context.Background(), long)
		if !ok1 || !ok2 {
			t.Fatal("two free slots were not given")
		}
		got := make(chan bool)
		go func() {
			_, ok := s.take(context.Background(), long)
			got <- ok
		}()
		waitFor(t, "the third render to wait", func() bool { return len(s.ch) == 2 })
		select {
		case <-got:
			t.Fatal("a third render was let through while two were in flight")
		default:
		}
		first()
		first() // a second release of the same slot frees nothing more
		if !<-got {
			t.Fatal("the waiting render got no slot after one was released")
		}
		if len(s.ch) != 2 {
			t.Errorf("%d slots taken, want 2", len(s.ch))
		}
	})

	t.Run("WaitRunsOut", func(t *testing.T) {
		s := newRenderSlots(1, long)
		if _, ok := s.take(context.Background(), long); !ok {
			t.Fatal("the free slot was not given")
		}
		if _, ok := s.take(context.Background(), time.Millisecond); ok {
			t.Error("a slot was given while the only one was taken")
		}
	})

	t.Run("RequestGone", func(t *testing.T) {
		s := newRenderSlots(1, long)
		s.take(context.Background(), long)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, ok := s.take(ctx, long); ok {
			t.Error("a slot was given to a request that had gone")
		}
	})

	t.Run("SlowRenderFreesItsSlot", func(t *testing.T) {
		s := newRenderSlots(1, time.Millisecond)
		release, ok := s.take(context.Background(), long)
		if !ok {
			t.Fatal("the free slot was not given")
		}
		if _, ok := s.take(context.Background(), long); !ok {
			t.Fatal("the slot of a render past its grace was not freed")
		}
		release() // the slow render ends: it must not free the slot the next one holds
		if len(s.ch) != 1 {
			t.Errorf("%d slots taken after the slow render ended, want 1", len(s.ch))
		}
	})
}
