package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	researchdemo "lineage/internal/research/demo"
	"os"
	"time"

	"lineage/internal/config"
	"lineage/internal/research"
)

const demoUsage = `usage: lineage demo generate --records N [--seed S] [--out DIR] [--data DIR]

Generates plausible index records — parish baptisms, marriages and burials, wills,
apprentices, census households, memorial cards and birth briefs — with a small library
and archive catalogue. With --out, writes one canonical CSV per collection and
collections.json into DIR (for 'lineage import records' and benchmarks); otherwise
imports them into the store (--data, LINEAGE_DATA or LINEAGE_DATABASE_URL).`

// runDemo is `lineage demo generate`.
func runDemo(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "generate" {
		fmt.Fprintln(os.Stderr, demoUsage)
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			return flag.ErrHelp
		}
		return errors.New("unknown or missing subcommand (want: generate)")
	}
	fs := newFlags("demo generate", "--records N [--seed S] [--out DIR]")
	cfgFn := config.DataFlags(fs)
	records := fs.Int("records", 10_000, "number of records")
	seed := fs.Uint64("seed", 1, "random seed: the same seed gives the same records")
	out := fs.String("out", "", "write CSV files into this directory instead of importing")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *records < 0 {
		return errors.New("--records must not be negative")
	}
	start := time.Now()
	if *out != "" {
		files, err := researchdemo.Write(*out, *records, *seed)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "wrote %d records in %d files to %s in %s\n", *records, len(files), *out, time.Since(start).Round(time.Millisecond))
		return nil
	}
	_, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := research.New(db, research.Options{})
	err = researchdemo.Load(ctx, svc, *records, *seed, func(slug string, rep *research.ImportReport) {
		printImportReport(os.Stderr, "demo", rep)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "demo records loaded into %s in %s\n", db.Where, time.Since(start).Round(time.Millisecond))
	return nil
}
