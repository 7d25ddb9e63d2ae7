package main

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The import commands run every thread at nice 10, or LINEAGE_IMPORT_NICE; threads
// made afterwards too. Checked in a child process, so this test's own priority stays.
func TestLowerPriority(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread priorities are set on Linux only")
	}
	if want := os.Getenv("LINEAGE_NICE_CHILD"); want != "" {
		if err := lowerPriority(); err != nil {
			t.Fatal(err)
		}
		// Keep many goroutines busy in system calls so that the runtime makes threads.
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				runtime.LockOSThread()
				os.ReadFile("/proc/self/stat")
			}()
		}
		wg.Wait()
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range tasks {
			stat, err := os.ReadFile("/proc/self/task/" + task.Name() + "/stat")
			if err != nil {
				continue
			}
			// Field 19 (after the name in parentheses, which may hold spaces) is nice.
			f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
			if f[16] != want {
				t.Errorf("thread %s has nice %s, want %s", task.Name(), f[16], want)
			}
		}
		return
	}
	for _, c := range []struct{ env, want string }{{"", "10"}, {"15", "15"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLowerPriority$", "-test.count=1")
		cmd.Env = append(os.Environ(), "LINEAGE_NICE_CHILD="+c.want, "LINEAGE_IMPORT_NICE="+c.env)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("LINEAGE_IMPORT_NICE=%q: %v\n%s", c.env, err, out)
		}
	}
	for _, bad := range []string{"-1", "20", "low", "1.5"} {
		t.Setenv("LINEAGE_IMPORT_NICE", bad)
		if err := lowerPriority(); err == nil || !strings.Contains(err.Error(), strconv.Quote(bad)) {
			t.Errorf("LINEAGE_IMPORT_NICE=%q: %v, want an error naming it", bad, err)
		}
	}
}
