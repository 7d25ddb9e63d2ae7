package main

import (
	"os"
	"strconv"
	"syscall"
)

// setNice sets every thread's nice value to at least n. On Linux each thread has its
// own, and a thread takes its maker's; the Go runtime makes threads whenever it needs
// them, so every thread there is gets it, twice over to catch one made during the
// first pass.
func setNice(n int) error {
	for range 2 {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			cur, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
			if err != nil {
				continue // the thread has ended
			}
			// The raw system call answers 20 - nice.
			if 20-cur >= n {
				continue
			}
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, n); err != nil && err != syscall.ESRCH {
				return err
			}
		}
	}
	return nil
}
