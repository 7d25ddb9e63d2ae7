// Package loadavg reads the machine's load average for the benchmark and soak tools,
// which print it beside each figure: a ratio measured on a busy machine says so.
package loadavg

import (
	"os"
	"strings"
)

// Read returns the first n of the 1-, 5- and 15-minute load averages, joined by
// spaces, or "?" where /proc/loadavg cannot be read.
func Read(n int) string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < n {
		return "?"
	}
	return strings.Join(f[:n], " ")
}
