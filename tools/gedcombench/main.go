// Command gedcombench generates GEDCOM files of invented families and measures how fast
// internal/gedcom reads them: `make bench-gedcom` (scripts/bench-gedcom) uses it with
// `lineage import gedcom` to fill docs/benchmarks.md.
//
//	gedcombench generate -people 200000 -seed 1 FILE.ged
//	gedcombench parse FILE.ged
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"

	"lineage/internal/gedcom"
	"lineage/internal/trees"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gedcombench generate|parse …")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "generate":
		err = generate(os.Args[2:])
	case "parse":
		err = parse(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gedcombench:", err)
		os.Exit(1)
	}
}

func generate(args []string) error {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	people := fs.Int("people", 200000, "number of people")
	seed := fs.Uint64("seed", 1, "random seed (the same seed gives the same file)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("give one output file")
	}
	f, err := os.Create(fs.Arg(0))
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := trees.GenerateGEDCOM(bw, *people, *seed); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// parse reads every record and prints: bytes, seconds, MB/s, records, lines, peak heap.
func parse(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("give one file")
	}
	st, err := os.Stat(args[0])
	if err != nil {
		return err
	}
	var peak uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	start := time.Now()
	cpu0 := cpuTime()
	r, err := gedcom.Open(args[0], nil)
	if err != nil {
		return err
	}
	records, lines := 0, 0
	for rec, err := range r.Records() {
		if err != nil {
			return err
		}
		records++
		lines += rec.Count()
	}
	r.Close()
	el := time.Since(start)
	cpu := cpuTime() - cpu0
	close(stop)
	<-done
	mb := float64(st.Size()) / 1e6
	fmt.Printf("bytes=%d seconds=%.3f mbps=%.1f cpu_seconds=%.3f cpu_mbps=%.1f records=%d lines=%d warnings=%d peak_heap_mb=%.1f\n",
		st.Size(), el.Seconds(), mb/el.Seconds(), cpu.Seconds(), mb/cpu.Seconds(), records, lines, r.WarningCount(), float64(peak)/1e6)
	return nil
}

// cpuTime is the process's user and system CPU time so far: on a shared machine it
// shows the work done, where wall time also shows the waiting.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
