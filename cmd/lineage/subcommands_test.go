package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"maps"
	"slices"
	"testing"
)

// A command with subcommands runs the one named with the rest of the arguments, and
// answers none, help and an unknown name with the list (on standard error).
func TestRunSubcommand(t *testing.T) {
	var got []string
	cmds := map[string]subcommand{"run-due": {func(ctx context.Context, args []string, w io.Writer) error {
		got = args
		return nil
	}, "", "do what is due"}}
	ctx := context.Background()
	if err := runSubcommand(ctx, "things", cmds, []string{"run-due", "--data", "x"}); err != nil || !slices.Equal(got, []string{"--data", "x"}) {
		t.Errorf("run-due: %v %q", err, got)
	}
	if err := runSubcommand(ctx, "things", cmds, nil); err == nil || err.Error() != "no subcommand given" {
		t.Errorf("none: %v", err)
	}
	if err := runSubcommand(ctx, "things", cmds, []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
	if err := runSubcommand(ctx, "things", cmds, []string{"later"}); err == nil || err.Error() != `unknown subcommand "later"` {
		t.Errorf("unknown: %v", err)
	}
	for name, cmds := range map[string]map[string]subcommand{"events": eventsCommands, "membership": membershipCommands, "newsletter": newsletterCommands} {
		if _, ok := cmds["run-due"]; !ok {
			t.Errorf("lineage %s has no run-due", name)
		}
	}
	// import and export list each kind with its flags; images registers itself.
	for name, want := range map[string][]string{"import": {"archive", "gedcom", "images", "library", "records"}, "export": {"gedcom"}} {
		kinds := map[string]map[string]subcommand{"import": importKinds, "export": exportKinds}[name]
		if got := slices.Sorted(maps.Keys(kinds)); !slices.Equal(got, want) {
			t.Errorf("lineage %s: kinds %q, want %q", name, got, want)
		}
		for k, c := range kinds {
			if c.usage == "" {
				t.Errorf("lineage %s %s lists no usage", name, k)
			}
		}
	}
}
