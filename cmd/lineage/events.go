package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/content"
	"lineage/internal/events"
	"lineage/internal/mail"
	"lineage/internal/pagegen"
	"lineage/internal/payments"
	"lineage/internal/store"
)

// addEvents builds the event bookings room on the content, accounts, mail and payments
// rooms, registers it with the payments room for kind "booking", and starts its job
// (expiry, change notices, joining instructions, refunds) in serve every
// LINEAGE_EVENTS_JOB_INTERVAL (default 1m; "off": run `lineage events run-due` from
// cron), on the instance that holds its lease. With --demo, three demo events become bookable.
func (a *app) addEvents(ctx context.Context, cfg config.Config, db *store.DB) error {
	every, err := eventsJobInterval(os.Getenv)
	if err != nil {
		return err
	}
	svc := newEvents(db, cfg, a.content, a.outbox, a.payments)
	a.payments.Handle(events.PaymentKind, svc.Fulfiller())
	if err := loadDemo(cfg.Demo, "bookable events", func() (bool, error) { return svc.LoadDemo(ctx) }, "demo bookable events loaded"); err != nil {
		return err
	}
	a.events = svc
	if every == 0 {
		slog.Info("events job off (LINEAGE_EVENTS_JOB_INTERVAL=off): run lineage events run-due from cron")
		return nil
	}
	go a.jobs.Run(ctx, "events", func(ctx context.Context) { svc.Run(ctx, every) })
	return nil
}

// eventsJobInterval reads LINEAGE_EVENTS_JOB_INTERVAL: a Go duration from 10s to 1h,
// or "off".
func eventsJobInterval(getenv func(string) string) (time.Duration, error) {
	v := strings.TrimSpace(getenv("LINEAGE_EVENTS_JOB_INTERVAL"))
	switch {
	case v == "":
		return events.DefaultJobInterval, nil
	case strings.EqualFold(v, "off"):
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 10*time.Second || d > time.Hour {
		return 0, fmt.Errorf("LINEAGE_EVENTS_JOB_INTERVAL must be a duration from 10s to 1h, such as 1m, or off; got %q", v)
	}
	return d, nil
}

// newEvents builds the room (serve and `lineage events run-due`).
func newEvents(db *store.DB, cfg config.Config, ct *content.Service, outbox *mail.Outbox, pay *payments.Service) *events.Service {
	opt := events.Options{Viewer: eventsViewer, Event: events.FromContent(ct), Mailer: outbox, PublicURL: cfg.PublicURL,
		SocietyName: societyName(), Log: slog.Default(),
		PagesChanged: func(ctx context.Context) {
			if _, err := pagegen.Raise(ctx, db); err != nil {
				slog.Error("events: page cache not told of a change", "err", err)
			}
		}}
	if pay != nil && pay.CardPayments() {
		opt.Payments = events.Stripe{P: pay}
	}
	return events.New(db, opt)
}

// eventsViewer tells the events room who is signed in, with the scope that decides
// members' prices.
func eventsViewer(r *http.Request) events.Viewer {
	u := auth.UserFrom(r.Context())
	if u == nil {
		return events.Viewer{}
	}
	return events.Viewer{ID: u.ID, Name: u.Name, Email: u.Email, Verified: u.Verified(), Scope: u.Scope,
		Staff: u.Role == auth.RoleEditor || u.Role == auth.RoleAdmin}
}

// eventsCommands are the subcommands of `lineage events`.
var eventsCommands = map[string]subcommand{
	"run-due": {runEventsRunDue, "", "expire holds and offers; send change notices, joining instructions and refunds due (for cron)"},
}

// runEventsRunDue is `lineage events run-due`: the bookings job once, then the mail
// that is due, so cron sends them without a server running.
func runEventsRunDue(ctx context.Context, args []string, w io.Writer) error {
	cfg, db, outbox, err := openJob(ctx, "events run-due", args, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	ct := content.New(db, content.Options{PublicURL: cfg.PublicURL, DataDir: cfg.DataDir, AccessToken: cfg.ContentToken})
	pay, err := newPayments(cfg, db)
	if err != nil {
		return err
	}
	svc := newEvents(db, cfg, ct, outbox, pay)
	rep, err := svc.RunDue(ctx, svc.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d booking(s) expired; %d change notice(s), %d joining instruction(s) put in the outbox; %d refund(s) made\n",
		rep.Expired, rep.Moved, rep.Joining, rep.Refunded)
	return deliverDue(ctx, outbox, w)
}
