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

// subcommand is one job of a command that has several (`lineage membership run-due`,
// `lineage import records`); it parses its own flags and prints to w.
type subcommand struct {
	run func(ctx context.Context, args []string, w io.Writer) error
	// usage is its flags and arguments for the list, when it takes more than --data.
	usage   string
	summary string
}

// noSubcommand answers `lineage NAME` with no subcommand, -h, --help or help: it shows
// usage and is the error the command ends with (flag.ErrHelp when help was asked for).
// It is nil when args start with a subcommand.
func noSubcommand(args []string, usage func()) error {
	if len(args) > 0 && args[0] != "-h" && args[0] != "--help" && args[0] != "help" {
		return nil
	}
	usage()
	if len(args) == 0 {
		return errors.New("no subcommand given")
	}
	return flag.ErrHelp
}

// subcommands is the command `lineage name`, whose subcommands are cmds.
func subcommands(name string, cmds map[string]subcommand) func(ctx context.Context, args []string) error {
	return func(ctx context.Context, args []string) error { return runSubcommand(ctx, name, cmds, args) }
}

// runSubcommand runs `lineage NAME SUBCOMMAND …`: with no subcommand, -h or an unknown
// one it lists the subcommands on standard error.
func runSubcommand(ctx context.Context, name string, cmds map[string]subcommand, args []string) error {
	usage := func() {
		fmt.Fprintf(os.Stderr, "usage: lineage %s SUBCOMMAND [flags]\n\nsubcommands:\n", name)
		for _, n := range slices.Sorted(maps.Keys(cmds)) {
			fmt.Fprintf(os.Stderr, "  %-14s %s\n", n, cmds[n].summary)
			if u := cmds[n].usage; u != "" {
				fmt.Fprintf(os.Stderr, "  %-14s %s %s\n", "", n, u)
			}
		}
		fmt.Fprintf(os.Stderr, "\nRun 'lineage %s SUBCOMMAND -h' for its flags. Every subcommand takes --data DIR\n(or LINEAGE_DATA / LINEAGE_DATABASE_URL) like serve.\n", name)
	}
	if err := noSubcommand(args, usage); err != nil {
		return err
	}
	c, ok := cmds[args[0]]
	if !ok {
		usage()
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
	return c.run(ctx, args[1:], os.Stdout)
}
