package main

import (
	"testing"
	"time"
)

func TestDrainPeriod(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{"", defaultDrain, false},
		{"  ", defaultDrain, false},
		{"0", 0, false},
		{"0s", 0, false},
		{"250ms", 250 * time.Millisecond, false},
		{"30s", 30 * time.Second, false},
		{"2m", 2 * time.Minute, false},
		{"2m1s", 0, true},
		{"-1s", 0, true},
		{"5", 0, true},
		{"five seconds", 0, true},
		{"1h", 0, true},
	} {
		got, err := drainPeriod(func(k string) string {
			if k == "LINEAGE_DRAIN" {
				return c.in
			}
			return ""
		})
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("LINEAGE_DRAIN=%q: %v, %v; want %v (error: %v)", c.in, got, err, c.want, c.bad)
		}
	}
}
