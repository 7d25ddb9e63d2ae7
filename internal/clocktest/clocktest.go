// Package clocktest is a clock that tests set and move by hand, shared by the rooms'
// tests (a service's Now is set to its Now method). Imported only by tests.
package clocktest

import (
	"sync"
	"time"
)

// Clock is a time that stands still until a test moves it; safe for the goroutines of
// the service under test.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New is a clock standing at t.
func New(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// Set puts the clock at t.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }
