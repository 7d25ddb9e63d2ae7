package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/membership"
	"lineage/internal/wholefile"
)

// addRenewals starts the membership renewal job in serve: transitions to grace and
// lapsed, and renewal reminders through the outbox, every LINEAGE_MEMBERSHIP_JOB_INTERVAL
// until ctx ends, on the instance that holds its lease (the store would still let only
// one send each reminder).
func (a *app) addRenewals(ctx context.Context, cfg config.Config) error {
	rs, err := membership.RenewalSettingsFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	if rs.Every == 0 {
		slog.Info("membership renewal job off (LINEAGE_MEMBERSHIP_JOB_INTERVAL=off): run lineage membership run-due from cron")
		return nil
	}
	job := a.membership.Renewals(membership.RenewalOptions{Mailer: a.outbox, Reminders: rs.Reminders, PublicURL: cfg.PublicURL, Log: slog.Default()})
	go a.jobs.Run(ctx, "membership-renewals", func(ctx context.Context) { job.Run(ctx, rs.Every) })
	return nil
}

// runRunDue is `lineage membership run-due`: the renewal job once, for cron. It also
// delivers the mail that is due, so a cron job sends its reminders even when no server
// is running.
func runRunDue(ctx context.Context, args []string, w io.Writer) error {
	var rs membership.RenewalSettings
	cfg, db, outbox, err := openJob(ctx, "membership run-due", args, func() (err error) {
		rs, err = membership.RenewalSettingsFromEnv(os.Getenv)
		return err
	})
	if err != nil {
		return err
	}
	defer db.Close()
	ms := newMembership(db, auth.New(db, auth.Options{}))
	job := ms.Renewals(membership.RenewalOptions{Mailer: outbox, Reminders: rs.Reminders, PublicURL: cfg.PublicURL, Log: slog.Default()})
	rep, err := job.RunDue(ctx, ms.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d membership(s) moved to grace or lapsed; %d reminder(s) put in the outbox (%s)\n", rep.Transitions, rep.Reminders, rs.Reminders)
	return deliverDue(ctx, outbox, w)
}

const giftAidClaimUsage = "--from 2026-04-06 --to 2027-04-05 [--force] FILE.csv"

// runGiftAidClaim is `lineage membership gift-aid-claim --from DATE --to DATE FILE.csv`:
// the rows of HMRC's Gift Aid schedule for the eligible payments between the dates.
// The file is written whole or not at all, and an existing one is kept unless --force.
func runGiftAidClaim(ctx context.Context, args []string, w io.Writer) error {
	fs := newFlags("membership gift-aid-claim", giftAidClaimUsage)
	cfgFn := config.DataFlags(fs)
	from := fs.String("from", "", "first day of the claim, a UK date such as 2026-04-06 (required)")
	to := fs.String("to", "", "last day of the claim, included (required)")
	force := fs.Bool("force", false, "replace FILE.csv if it exists")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("give one CSV file to write, after the flags")
	}
	path := fs.Arg(0)
	start, end, err := membership.ParseClaimRange(*from, *to)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err == nil && !*force {
		return fmt.Errorf("%s exists: choose another name, or give --force to replace it", path)
	}
	_, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	ms := newMembership(db, auth.New(db, auth.Options{}))
	rep, err := ms.GiftAidClaim(ctx, start, end)
	if err != nil {
		return err
	}
	if err := wholefile.Write(path, 0o600, func(w io.Writer) error { return membership.WriteClaimCSV(w, rep.Rows) }); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d donation(s), %s GBP in all, written to %s\n", len(rep.Rows), membership.FormatClaimAmount(rep.TotalMinor), path)
	fmt.Fprintf(w, "left out: %d refunded in full, %d without a Gift Aid declaration in force on the day, %d not in GBP\n",
		rep.Refunded, rep.NoDeclaration, rep.NotGBP)
	return nil
}
