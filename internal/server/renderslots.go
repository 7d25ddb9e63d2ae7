package server

import (
	"context"
	"sync"
	"time"
)

// Renders in flight per SSR worker. A worker renders on one thread: requests beyond
// what keeps it busy while some of its renders wait for the Go API only share its
// thread, so every page of a burst finishes late (at 64 connections the slowest pages
// took 3–4 times the median). Waiting here instead, in arrival order, a page is
// rendered as soon as a slot frees, and the worker's throughput is the same.
const rendersPerWorker = 4

// slowRenderGrace is how long a render holds its slot: one still running after it
// (a loader waiting for a slow or failing API) frees the slot, so a slow upstream
// cannot hold every slot and stop the pages that do not need it.
const slowRenderGrace = time.Second

// renderSlots bounds the requests in flight to the SSR workers (pages()): at most n at
// once, the others waiting in the order they came.
type renderSlots struct {
	ch    chan struct{}
	grace time.Duration
}

func newRenderSlots(n int, grace time.Duration) *renderSlots {
	return &renderSlots{ch: make(chan struct{}, n), grace: grace}
}

// take waits for a slot, at most wait. It returns the slot's release (call it when the
// answer is done; the slot frees itself after the grace anyway), or ok false when no
// slot came in time or ctx ended first.
func (s *renderSlots) take(ctx context.Context, wait time.Duration) (release func(), ok bool) {
	select {
	case s.ch <- struct{}{}:
	default:
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case s.ch <- struct{}{}:
		case <-t.C:
			return nil, false
		case <-ctx.Done():
			return nil, false
		}
	}
	free := sync.OnceFunc(func() { <-s.ch })
	slow := time.AfterFunc(s.grace, free)
	return func() {
		slow.Stop()
		free()
	}, true
}
