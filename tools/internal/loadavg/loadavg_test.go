package loadavg

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestReadGivesTheFirstNAverages(t *testing.T) {
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		t.Fatalf("this test needs Linux's /proc/loadavg: %v", err)
	}
	for _, n := range []int{1, 3} {
		got := strings.Fields(Read(n))
		if len(got) != n {
			t.Fatalf("Read(%d) = %q, want %d averages", n, Read(n), n)
		}
		for _, v := range got {
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				t.Errorf("Read(%d): %q is not a load average", n, v)
			}
		}
	}
}

// /proc/loadavg holds five fields; asking for more than it has is an answer of "?",
// not a panic.
func TestReadMoreThanTheFileHas(t *testing.T) {
	if got := Read(6); got != "?" {
		t.Errorf("Read(6) = %q, want ?", got)
	}
}
