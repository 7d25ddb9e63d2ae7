package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
)

// subcommand is one job of a command that has several (`lineage membership run-due`);
// it parses its own flags and prints to w.
type subcommand struct {
	run     func(ctx context.Context, args []string, w io.Writer) error
	summary string
}

// runSubcommand runs `lineage NAME SUBCOMMAND …`: with no subcommand, -h or an unknown
// one it lists the subcommands on standard error.
func runSubcommand(ctx context.Context, name string, cmds map[string]subcommand, args []string) error {
	usage := func() {
		fmt.Fprintf(os.Stderr, "usage: lineage %s SUBCOMMAND [flags]\n\nsubcommands:\n", name)
		for _, n := range slices.Sorted(maps.Keys(cmds)) {
			fmt.Fprintf(os.Stderr, "  %-14s %s\n", n, cmds[n].summary)
		}
		fmt.Fprintln(os.Stderr, "\nEvery subcommand takes --data DIR (or LINEAGE_DATA / LINEAGE_DATABASE_URL) like serve.")
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage()
		if len(args) == 0 {
			return errors.New("no subcommand given")
		}
		return flag.ErrHelp
	}
	c, ok := cmds[args[0]]
	if !ok {
		usage()
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
	return c.run(ctx, args[1:], os.Stdout)
}
