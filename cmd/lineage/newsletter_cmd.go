package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"lineage/internal/auth"
	"lineage/internal/content"
	"lineage/internal/research"
	"lineage/internal/trees"
)

// newsletterCommands are the subcommands of `lineage newsletter`.
var newsletterCommands = map[string]subcommand{
	"run-due": {runNewsletterDue, "", "send the due editions (at LINEAGE_NEWSLETTER_RATE a minute, until done), match new records against alerts, send the due digests, deliver the mail"},
}

// runNewsletterDue is the scheduler's work once, for cron and for tests that cannot
// wait for serve's tick; it also delivers the mail, so it works with no server.
func runNewsletterDue(ctx context.Context, args []string, w io.Writer) error {
	var ns newsletterSettings
	cfg, db, outbox, err := openJob(ctx, "newsletter run-due", args, func() (err error) {
		ns, err = newsletterSettingsFromEnv(os.Getenv)
		return err
	})
	if err != nil {
		return err
	}
	defer db.Close()
	accounts := auth.New(db, auth.Options{PublicURL: cfg.PublicURL})
	newMembership(db, accounts) // members' scopes come from their memberships
	rs := research.New(db, research.Options{})
	tr := trees.New(db, trees.Options{Viewer: treeViewer})
	ct := content.New(db, content.Options{PublicURL: cfg.PublicURL, DataDir: cfg.DataDir})
	svc := newNewsletter(db, cfg, ns, accounts, ct, rs, tr, outbox)
	enqueued, digests := 0, 0
	for {
		rep, err := svc.RunDue(ctx, ns.Rate)
		if err != nil {
			return err
		}
		enqueued += rep.Enqueued
		digests += rep.Digests
		if rep.Match.Items > 0 {
			fmt.Fprintf(w, "%d new or changed item(s) matched against %d alert(s) in %d search(es): %d new match(es)\n",
				rep.Match.Items, rep.Match.Alerts, rep.Match.Runs, rep.Match.Matches)
		}
		if _, err := outbox.DeliverDue(ctx); err != nil {
			return err
		}
		if !rep.Sending {
			break
		}
		if rep.Enqueued >= ns.Rate {
			select { // the rate: at most Rate messages a minute
			case <-ctx.Done():
				return ctx.Err()
			case <-waitMinute():
			}
		}
	}
	fmt.Fprintf(w, "%d edition message(s) and %d digest(s) put in the outbox\n", enqueued, digests)
	return nil
}

func waitMinute() <-chan time.Time { return time.After(time.Minute) }
