package main

import (
	"context"
	"fmt"
	"os"

	"lineage/internal/pagegen"
	"lineage/internal/store"
)

// pageCommands are the commands that change what anonymous visitors see, by name and
// subcommand ("" = every one). After one of them succeeds, main raises the page
// generation of every store it opened, so running servers purge their page caches
// (internal/pagegen).
var pageCommands = map[string][]string{
	"content":    {"import"},      // documents published (drafts too: harmless, rare)
	"import":     {""},            // records, collections, scans, family trees
	"demo":       {"generate"},    // generated records
	"membership": {"sync-stripe"}, // the plans /subscribe offers
}

// openedStores are the stores this process opened (openStore).
var openedStores []store.Options

// changesPages reports whether `lineage name args…` is one of pageCommands.
func changesPages(name string, args []string) bool {
	subs, ok := pageCommands[name]
	if !ok {
		return false
	}
	for _, sub := range subs {
		if sub == "" || (len(args) > 0 && args[0] == sub) {
			return true
		}
	}
	return false
}

// raisePageGeneration tells the servers on the stores this command opened that pages
// changed. A failure is reported but does not fail the command: its work is done, and
// the servers' caches go stale within their freshness time.
func raisePageGeneration(ctx context.Context, name string, args []string) {
	if !changesPages(name, args) {
		return
	}
	for _, opts := range openedStores {
		opts.SkipMigrate = true
		db, err := store.Open(ctx, opts)
		if err == nil {
			_, err = pagegen.Raise(ctx, db)
			db.Close()
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "lineage %s: the change is saved, but running servers were not told to purge their page caches: %v\n", name, err)
		}
	}
}
