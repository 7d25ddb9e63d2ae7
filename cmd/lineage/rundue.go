package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"lineage/internal/config"
	"lineage/internal/mail"
	"lineage/internal/store"
)

// The commands cron runs (`lineage events run-due`, `membership run-due`, `newsletter
// run-due`) do a room's job once and deliver the mail it wrote, with no server running.

// jobFlags parses the flags of a job's command (the cron jobs, membership
// sync-stripe): the store's (--data DIR, or the environment) and nothing else.
func jobFlags(name string, args []string) (func() (config.Config, error), error) {
	fs := newFlags(name, "[--data DIR]")
	cfgFn := config.DataFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	return cfgFn, nil
}

// openJob starts a cron job's command: its flags (jobFlags), then settings, which reads
// the job's own settings from the environment (nil when it has none), then its store
// and the outbox its mail goes through (the sender from the environment). The caller
// closes the store.
func openJob(ctx context.Context, name string, args []string, settings func() error) (config.Config, *store.DB, *mail.Outbox, error) {
	cfgFn, err := jobFlags(name, args)
	if err != nil {
		return config.Config{}, nil, nil, err
	}
	if settings != nil {
		if err := settings(); err != nil {
			return config.Config{}, nil, nil, err
		}
	}
	cfg, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return cfg, nil, nil, err
	}
	log := slog.Default()
	sender, err := mail.FromEnv(os.Getenv, cfg.DataDir, cfg.PublicURL, log)
	if err != nil {
		db.Close()
		return cfg, nil, nil, err
	}
	return cfg, db, mail.NewOutbox(db, sender, log), nil
}

// deliverDue sends the mail that is due and says how much went.
func deliverDue(ctx context.Context, outbox *mail.Outbox, w io.Writer) error {
	sent, err := outbox.DeliverDue(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d mail(s) sent\n", sent)
	return nil
}
