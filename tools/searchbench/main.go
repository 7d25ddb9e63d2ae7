// Command searchbench measures the research search engine in process against a store
// that `lineage import records` filled: for each query of a fixed mix (every surname
// mode, with and without a year range and a place, plus given names, a relative, a
// second page and the cheap count) it runs the query repeatedly and prints p50, p95
// and p99 latencies as Markdown table rows. Used by scripts/bench-search; not part of
// the product.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"lineage/internal/research"
	"lineage/internal/store"
)

// mix is the fixed query mix. Smith is the commonest surname of the demo data (about
// 1% of people); Wilkinson is mid-table; Ashworth is from the long tail.
var mix = []struct{ label, params string }{
	{"exact, common surname", "surname=Smith&surname_mode=exact"},
	{"exact + year ±5", "surname=Smith&surname_mode=exact&year=1850&year_pm=5"},
	{"exact + year ±5 + place", "surname=Smith&surname_mode=exact&year=1850&year_pm=5&place=Yorkshire"},
	{"variants", "surname=Smith&surname_mode=variants"},
	{"variants + year ±5", "surname=Smith&surname_mode=variants&year=1850&year_pm=5"},
	{"variants + year ±5 + place", "surname=Smith&surname_mode=variants&year=1850&year_pm=5&place=Yorkshire"},
	{"soundex", "surname=Smith&surname_mode=soundex"},
	{"soundex + year ±5", "surname=Smith&surname_mode=soundex&year=1850&year_pm=5"},
	{"soundex + year ±5 + place", "surname=Smith&surname_mode=soundex&year=1850&year_pm=5&place=Yorkshire"},
	{"phonetic", "surname=Smith&surname_mode=phonetic"},
	{"phonetic + year ±5", "surname=Smith&surname_mode=phonetic&year=1850&year_pm=5"},
	{"phonetic + year ±5 + place", "surname=Smith&surname_mode=phonetic&year=1850&year_pm=5&place=Yorkshire"},
	{"wildcard", "surname=Wil*son&surname_mode=wildcard"},
	{"wildcard + year ±5", "surname=Wil*son&surname_mode=wildcard&year=1850&year_pm=5"},
	{"wildcard + year ±5 + place", "surname=Wil*son&surname_mode=wildcard&year=1850&year_pm=5&place=Yorkshire"},
	{"mid-table surname, variants", "surname=Wilkinson"},
	{"rare surname, phonetic", "surname=Ashworth&surname_mode=phonetic"},
	{"given + surname + year ±10", "surname=Smith&given=John&year=1850&year_pm=10"},
	{"given + surname, no year", "surname=Smith&given=Mary"},
	{"given + surname + year ±2 + place", "surname=Smith&given=William&year=1820&year_pm=2&place=Lancashire"},
	{"relative (father)", "surname=Wilkinson&given=John&relative=William&relative_role=father"},
	{"year ±40, sorted by date", "surname=Smith&year=1850&year_pm=40&sort=date"},
	{"second page", "surname=Smith&surname_mode=variants&year=1850&year_pm=5&@page=2"},
	{"count (See N results)", "surname=Smith&surname_mode=phonetic&@count=1"},
}

func main() {
	data := flag.String("data", "", "SQLite data directory")
	dbURL := flag.String("db", "", "PostgreSQL URL (instead of -data)")
	n := flag.Int("n", 30, "runs of each query")
	repair := flag.Bool("repair", false, "first create any search index the store lacks, and refresh the planner's statistics")
	only := flag.String("only", "", "run only the queries whose label contains this text")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the measured runs to this file")
	flag.Parse()
	ctx := context.Background()
	db, err := store.Open(ctx, store.Options{DataDir: *data, DatabaseURL: *dbURL})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Close()
	svc := research.New(db, research.Options{})
	if *repair {
		start := time.Now()
		if err := svc.RepairIndexes(ctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := svc.Analyze(ctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "indexes and statistics ready in %s\n", time.Since(start).Round(time.Second))
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	var all []time.Duration
	for _, m := range mix {
		if *only != "" && !strings.Contains(m.label, *only) {
			continue
		}
		v, _ := url.ParseQuery(m.params)
		page, count := v.Get("@page") != "", v.Get("@count") != ""
		v.Del("@page")
		v.Del("@count")
		q, errs := research.ParseQuery(v)
		if errs != nil {
			fmt.Fprintln(os.Stderr, m.label, errs)
			os.Exit(1)
		}
		if page {
			res, err := svc.Search(ctx, q, memberScope)
			if err != nil || res.Next == nil {
				fmt.Fprintln(os.Stderr, m.label, "no second page", err)
				os.Exit(1)
			}
			q.After = *res.Next
		}
		var total int64
		var exact bool
		run := func() error {
			if count {
				var err error
				total, exact, err = svc.Count(ctx, q, memberScope)
				return err
			}
			res, err := svc.Search(ctx, q, memberScope)
			if err == nil {
				total, exact = res.Total, res.TotalExact
			}
			return err
		}
		for i := 0; i < 3; i++ { // warm the caches
			if err := run(); err != nil {
				fmt.Fprintln(os.Stderr, m.label, err)
				os.Exit(1)
			}
		}
		times := make([]time.Duration, 0, *n)
		for i := 0; i < *n; i++ {
			start := time.Now()
			if err := run(); err != nil {
				fmt.Fprintln(os.Stderr, m.label, err)
				os.Exit(1)
			}
			times = append(times, time.Since(start))
		}
		all = append(all, times...)
		approx := ""
		if !exact {
			approx = "≈"
		}
		p := percentiles(times)
		fmt.Printf("| %s | `%s` | %s%d | %s | %s | %s |\n", m.label, strings.ReplaceAll(strings.ReplaceAll(m.params, "&@page=2", ""), "&@count=1", ""), approx, total, p[0], p[1], p[2])
	}
	p := percentiles(all)
	fmt.Printf("| **all queries** | | | %s | %s | %s |\n", p[0], p[1], p[2])
}

// percentiles returns p50, p95 and p99 in milliseconds, formatted.
func percentiles(ts []time.Duration) [3]string {
	s := slices.Clone(ts)
	slices.Sort(s)
	var out [3]string
	for i, q := range []float64{0.50, 0.95, 0.99} {
		idx := int(q*float64(len(s))+0.5) - 1
		idx = max(0, min(idx, len(s)-1))
		out[i] = fmt.Sprintf("%.1f", float64(s[idx].Microseconds())/1000)
	}
	return out
}

// memberScope is a member's scope: the benchmark searches as a member does.
var memberScope = []string{"registered", "member"}
