package clocktest

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	start := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	c := New(start)
	if !c.Now().Equal(start) {
		t.Fatalf("New: %v", c.Now())
	}
	c.Add(90 * time.Minute)
	if want := start.Add(90 * time.Minute); !c.Now().Equal(want) {
		t.Fatalf("Add: %v, want %v", c.Now(), want)
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Fatalf("Set: %v", c.Now())
	}
}
