package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/content"
	"lineage/internal/events"
	"lineage/internal/mail"
	"lineage/internal/payments"
	"lineage/internal/store"
)

// addEvents builds the event bookings room on the content, accounts, mail and payments
// rooms, registers it with the payments room for kind "booking", and starts its job
// (expiry, change notices, joining instructions, refunds) in serve every
// LINEAGE_EVENTS_JOB_INTERVAL (default 1m; "off": run `lineage events run-due` from
// cron). With --demo, three demo events become bookable.
func (a *app) addEvents(ctx context.Context, cfg config.Config, db *store.DB) error {
	every, err := eventsJobInterval(os.Getenv)
	if err != nil {
		return err
	}
	svc := newEvents(db, cfg, a.content, a.outbox, a.payments)
	a.payments.Handle(events.PaymentKind, svc.Fulfiller())
	if cfg.Demo {
		loaded, err := svc.LoadDemo(ctx)
		if err != nil {
			return fmt.Errorf("load demo bookable events: %w", err)
		}
		if loaded {
			slog.Info("demo bookable events loaded")
		}
	}
	a.events = svc
	if every == 0 {
		slog.Info("events job off (LINEAGE_EVENTS_JOB_INTERVAL=off): run lineage events run-due from cron")
		return nil
	}
	go svc.Run(ctx, every)
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
	name := os.Getenv("LINEAGE_SOCIETY_NAME")
	if name == "" {
		name = "Lineage"
	}
	opt := events.Options{Viewer: eventsViewer, Event: contentEvent(ct), Mailer: outbox, PublicURL: cfg.PublicURL,
		SocietyName: name, Log: slog.Default()}
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

var eventUIDRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,199}$`)

// contentEvent reads an event document's title, start, end and location from the
// published content (the master ref).
func contentEvent(ct *content.Service) func(ctx context.Context, uid string) (events.Event, error) {
	return func(ctx context.Context, uid string) (events.Event, error) {
		if !eventUIDRe.MatchString(uid) {
			return events.Event{}, events.ErrNoEvent
		}
		repo, err := ct.Repository(ctx)
		if err != nil {
			return events.Event{}, err
		}
		res, err := ct.Search(ctx, content.SearchParams{
			Ref:      repo.MasterRef,
			Q:        []string{`[[at(document.type, "event")]]`, `[[at(my.event.uid, "` + uid + `")]]`},
			PageSize: 1, Lang: "*",
		})
		if err != nil {
			return events.Event{}, err
		}
		if len(res.Results) == 0 {
			return events.Event{}, events.ErrNoEvent
		}
		return eventFromData(uid, res.Results[0].Data), nil
	}
}

// eventFromData reads the fields of an event document's data.
func eventFromData(uid string, data map[string]any) events.Event {
	ev := events.Event{UID: uid}
	if parts, ok := data["title"].([]any); ok {
		var b strings.Builder
		for _, p := range parts {
			if m, ok := p.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					if b.Len() > 0 {
						b.WriteString(" ")
					}
					b.WriteString(t)
				}
			}
		}
		ev.Title = b.String()
	}
	ev.Start = prismicTime(data["start"])
	ev.End = prismicTime(data["end"])
	ev.Location, _ = data["location"].(string)
	return ev
}

// prismicTime reads a Timestamp field ("2026-12-02T19:00:00+0000"); zero when absent.
func prismicTime(v any) time.Time {
	s, _ := v.(string)
	for _, layout := range []string{"2006-01-02T15:04:05-0700", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// eventsCommands are the subcommands of `lineage events`.
var eventsCommands = map[string]struct {
	run     func(ctx context.Context, args []string, w io.Writer) error
	summary string
}{
	"run-due": {runEventsRunDue, "expire holds and offers; send change notices, joining instructions and refunds due (for cron)"},
}

// runEvents dispatches `lineage events SUBCOMMAND`.
func runEvents(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: lineage events run-due [--data DIR]")
		return fmt.Errorf("no subcommand given")
	}
	c, ok := eventsCommands[args[0]]
	if !ok {
		fmt.Fprintln(os.Stderr, "usage: lineage events run-due [--data DIR]")
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
	return c.run(ctx, args[1:], os.Stdout)
}

// runEventsRunDue is `lineage events run-due`: the bookings job once, then the mail
// that is due, so cron sends them without a server running.
func runEventsRunDue(ctx context.Context, args []string, w io.Writer) error {
	fs := newFlags("events run-due", "[--data DIR]")
	cfgFn := config.DataFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	cfg, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	log := slog.Default()
	sender, err := mail.FromEnv(os.Getenv, cfg.DataDir, cfg.PublicURL, log)
	if err != nil {
		return err
	}
	outbox := mail.NewOutbox(db, sender, log)
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
	sent, err := outbox.DeliverDue(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d mail(s) sent\n", sent)
	return nil
}
