// Command lineage is the whole of Lineage's backend in one binary: the web front door
// (`serve`), database migrations, and the operators' tools for content and data.
// This file only dispatches; each command lives in its own file.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

type command struct {
	run     func(ctx context.Context, args []string) error
	summary string
}

var commands = map[string]command{
	"serve":      {runServe, "serve the site, the API and the content API"},
	"migrate":    {runMigrate, "apply database migrations and list their state"},
	"content":    {runContent, "import, export and preview content documents"},
	"user":       {runUser, "add, list and delete accounts; set roles and passwords"},
	"membership": {subcommands("membership", membershipCommands), "membership scheme jobs: sync-stripe (create plans' Stripe prices)"},
	"events":     {subcommands("events", eventsCommands), "event bookings jobs: run-due (expire holds and offers; change notices, joining instructions, refunds)"},
	"member":     {runMember, "search members; record manual payments; grant complimentary memberships; import and export CSV"},
	"video":      {runVideo, "get video-host tokens; upload and replace learning-hub videos (resumable)"},
	"import":     {runImport, "import index records (CSV) into the research hub"},
	"demo":       {runDemo, "generate demo records for the research hub (or CSV files for benchmarks)"},
	"export":     {subcommands("export", exportKinds), "export a family tree as GEDCOM (docs/trees.md)"},
	"newsletter": {subcommands("newsletter", newsletterCommands), "newsletter and alerts: run-due (send due editions, match alerts, send digests)"},
	"storage":    {runStorage, "storage migrate: move the data folder's files into an S3-compatible bucket"},
}

func main() {
	slog.SetDefault(slog.New(logHandler(os.Stderr)))
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	cmd, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "lineage: unknown command %q\n\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := cmd.run(ctx, os.Args[2:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintf(os.Stderr, "lineage %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	raisePageGeneration(ctx, os.Args[1], os.Args[2:]) // pages.go
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: lineage COMMAND [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\nRun 'lineage COMMAND -h' for a command's flags.")
}

// newFlags makes a flag set for a subcommand that reports errors instead of exiting.
func newFlags(name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet("lineage "+name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: lineage %s %s\n\nflags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// logHandler is how every command logs: text lines from info level up.
func logHandler(w io.Writer) slog.Handler {
	return slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo})
}
