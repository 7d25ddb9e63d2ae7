// Package ready waits for a Lineage that a tool has started as a child process to
// answer, before the tool's measurements begin.
package ready

import (
	"fmt"
	"net/http"
	"time"
)

// Wait asks url every 300 ms until it answers 200, and fails once within has passed.
func Wait(url string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(300 * time.Millisecond)
	}
	return fmt.Errorf("the server did not answer %s within %s", url, within)
}
