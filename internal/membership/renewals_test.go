package membership_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/membership"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// renewalEnv is the membership room with the real mail outbox, sending to an
// in-process SMTP server, and the renewal job on the room's fake clock.
type renewalEnv struct {
	*env
	smtp    *mailtest.Server
	outbox  *mail.Outbox
	renewal *membership.Renewals
}

func newRenewalEnv(t *testing.T, db *store.DB, plans ...membership.Plan) *renewalEnv {
	e := &renewalEnv{env: newEnv(t, db, plans...)}
	e.smtp = mailtest.Start(t, "", "")
	e.outbox = mail.NewOutbox(db, e.smtp.Sender("no-reply@lineage.test"), quietLog)
	e.outbox.Now = e.clock.Now
	rem, err := membership.ParseReminders("")
	fatal(t, err)
	e.renewal = e.ms.Renewals(membership.RenewalOptions{Mailer: e.outbox, Reminders: rem, PublicURL: "https://lineage.test/", Log: quietLog})
	return e
}

// member makes an account with a paid annual membership (a manual payment at the
// clock's time: paid for one year).
func (e *renewalEnv) member(t *testing.T, email string) *membership.Membership {
	t.Helper()
	ctx := context.Background()
	_, _, m := e.joined(t, email)
	m, err := e.ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: 2400, Note: "cheque"})
	fatal(t, err)
	return m
}

func (e *renewalEnv) runDue(t *testing.T) membership.DueReport {
	t.Helper()
	rep, err := e.renewal.RunDue(context.Background(), e.clock.Now())
	fatal(t, err)
	return rep
}

// The job on a fake clock: nothing early; the 30-day reminder, then the 7-day one, then
// grace (no mail), then lapsed with its reminder; each exactly once though the job runs
// twice at every step; the mails arrive through the outbox with the right text.
func TestRenewalReminders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newRenewalEnv(t, db, annual)
		m := e.member(t, "ada@example.org")
		paid := *m.PaidUntil // 1 March 2027, 12:00 UTC
		steps := []struct {
			at          time.Time
			transitions int
			reminders   int
		}{
			{start.Add(days(1)), 0, 0},
			{paid.Add(-days(31)), 0, 0},
			{paid.Add(-days(30)), 0, 1},
			{paid.Add(-days(20)), 0, 0},
			{paid.Add(-days(7) + time.Hour), 0, 1},
			{paid.Add(-time.Hour), 0, 0},
			{paid.Add(days(1)), 1, 0},              // grace
			{paid.Add(days(30) + time.Hour), 1, 1}, // lapsed, and its reminder
			{paid.Add(days(40)), 0, 0},
		}
		for _, s := range steps {
			e.clock.Set(s.at)
			first, second := e.runDue(t), e.runDue(t)
			if first.Transitions != s.transitions || first.Reminders != s.reminders || second != (membership.DueReport{}) {
				t.Errorf("at %s: runs did %+v then %+v, want %d transitions and %d reminders, then nothing",
					s.at.Format(time.DateTime), first, second, s.transitions, s.reminders)
			}
		}
		got, err := e.ms.Reminded(ctx, m.ID)
		fatal(t, err)
		if want := []string{"30d@2027-03-01", "7d@2027-03-01", "lapse@2027-03-01"}; !slices.Equal(got, want) {
			t.Errorf("reminders recorded %v, want %v", got, want)
		}
		h, err := e.ms.History(ctx, m.ID)
		fatal(t, err)
		if got := statuses(h); !strings.HasSuffix(got, "active>grace grace>lapsed") {
			t.Errorf("history %s", got)
		}

		sent, err := e.outbox.DeliverDue(ctx)
		if err != nil || sent != 3 {
			t.Fatalf("DeliverDue = %d, %v; want 3", sent, err)
		}
		msgs := e.smtp.Messages()
		var subjects []string
		for _, msg := range msgs {
			subjects = append(subjects, msg.Subject)
			if len(msg.To) != 1 || msg.To[0] != "ada@example.org" {
				t.Errorf("sent to %v", msg.To)
			}
		}
		want := []string{
			"Your membership " + m.Number + " ends on 1 March 2027: time to renew",
			"Your membership " + m.Number + " ends on 1 March 2027: time to renew",
			"Your membership " + m.Number + " has lapsed",
		}
		if !slices.Equal(subjects, want) {
			t.Errorf("subjects %q, want %q", subjects, want)
		}
		body := strings.ReplaceAll(msgs[0].Body, "\r\n", "\n")
		for _, s := range []string{"Hello ada,", "Your Individual membership (" + m.Number + ") is paid until 1 March 2027.",
			"\nhttps://lineage.test/user-account/membership\n", "\n-- \nTest Society\n"} {
			if !strings.Contains(body, s) {
				t.Errorf("the 30-day reminder lacks %q:\n%s", s, body)
			}
		}
		if body := msgs[2].Body; !strings.Contains(body, "https://lineage.test/subscribe/individual") || !strings.Contains(body, "has lapsed") {
			t.Errorf("the lapse reminder:\n%s", body)
		}
	})
}

// A renewal resets the cycle: the next period's reminders are new keys; a run that
// missed the 30-day mark sends only the nearer 7-day reminder; a name that is not one
// line is left out of the greeting.
func TestRenewalNextPeriodAndMissedOffset(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newRenewalEnv(t, db, annual)
		m := e.member(t, "bob@example.org")
		fatal(t, db.QueryRowContext(ctx, db.Rebind(`UPDATE users SET name = ? WHERE email = ? RETURNING id`), "Bob\nBcc: x@example.org", "bob@example.org").Scan(new(int64)))
		paid := *m.PaidUntil
		e.clock.Set(paid.Add(-days(5)))
		if rep := e.runDue(t); rep.Reminders != 1 {
			t.Fatalf("5 days before: %+v, want the 7-day reminder only", rep)
		}
		// Renewed: paid for another year; the new period gets its own reminders.
		m, err := e.ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: 2400})
		fatal(t, err)
		e.clock.Set(m.PaidUntil.Add(-days(29)))
		if rep := e.runDue(t); rep.Reminders != 1 {
			t.Fatalf("29 days before the next end: %+v", rep)
		}
		got, _ := e.ms.Reminded(ctx, m.ID)
		if want := []string{"7d@2027-03-01", "30d@2028-03-01"}; !slices.Equal(got, want) {
			t.Errorf("reminders %v, want %v", got, want)
		}
		st, err := e.outbox.List(ctx, 10)
		fatal(t, err)
		for _, s := range st {
			if !strings.HasPrefix(s.Text, "Hello,\n\n") {
				t.Errorf("greeting of %q: %q", s.Subject, s.Text[:min(40, len(s.Text))])
			}
		}
	})
}

// Two runs of the job at the same moment, on two goroutines of one instance and on two
// Service instances, send one mail per reminder.
func TestRenewalRemindersConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newRenewalEnv(t, db, annual)
		const n = 6
		for i := range n {
			e.member(t, fmt.Sprintf("m%d@example.org", i))
		}
		other := membership.New(db, membership.Options{SocietyName: "Test Society", Log: quietLog})
		other.Now = e.clock.Now
		otherJob := other.Renewals(membership.RenewalOptions{Mailer: e.outbox, Reminders: membership.Reminders{Before: []int{30, 7}, Lapse: true}, Log: quietLog})
		jobs := []*membership.Renewals{e.renewal, e.renewal, otherJob, otherJob}
		for _, at := range []time.Time{start.AddDate(1, 0, -30), start.AddDate(1, 0, -6), start.AddDate(1, 0, 31)} {
			e.clock.Set(at)
			reps := runAtOnce(t, jobs, at)
			total := 0
			for _, r := range reps {
				total += r.Reminders
			}
			if total != n {
				t.Errorf("at %s the runs sent %d reminders (%+v), want %d", at.Format(time.DateOnly), total, reps, n)
			}
		}
		st, err := e.outbox.List(ctx, 100)
		fatal(t, err)
		if len(st) != 3*n {
			t.Errorf("the outbox holds %d mails, want %d", len(st), 3*n)
		}
	})
}

// runAtOnce runs every job's RunDue at the same moment, each in a goroutine of its
// own, and returns their reports in the jobs' order.
func runAtOnce(t *testing.T, jobs []*membership.Renewals, at time.Time) []membership.DueReport {
	t.Helper()
	var wg sync.WaitGroup
	reps := make([]membership.DueReport, len(jobs))
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if reps[i], err = j.RunDue(context.Background(), at); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	return reps
}

// Two instances of the server on one PostgreSQL database (two connection pools, two
// outboxes, two rooms) run the job at the same moment: one mail per reminder.
func TestRenewalRemindersTwoInstancesOnePostgres(t *testing.T) {
	url, err := storetest.NewPostgresDatabase()
	fatal(t, err)
	ctx := context.Background()
	var dbs []*store.DB
	for range 2 {
		db, err := store.Open(ctx, store.Options{DatabaseURL: url})
		fatal(t, err)
		t.Cleanup(func() { db.Close() })
		dbs = append(dbs, db)
	}
	e := newRenewalEnv(t, dbs[0])
	e.plan(t, annual)
	const n = 5
	for i := range n {
		e.member(t, fmt.Sprintf("p%d@example.org", i))
	}
	second := membership.New(dbs[1], membership.Options{SocietyName: "Test Society", Log: quietLog})
	second.Now = e.clock.Now
	secondOutbox := mail.NewOutbox(dbs[1], e.smtp.Sender("no-reply@lineage.test"), quietLog)
	rem, _ := membership.ParseReminders("30d,7d,lapse")
	jobs := []*membership.Renewals{e.renewal, second.Renewals(membership.RenewalOptions{Mailer: secondOutbox, Reminders: rem, Log: quietLog})}
	for _, at := range []time.Time{start.AddDate(1, 0, -30), start.AddDate(1, 0, -6), start.AddDate(1, 0, 31)} {
		reps := runAtOnce(t, jobs, at)
		if reps[0].Reminders+reps[1].Reminders != n {
			t.Errorf("at %s: %+v, want %d reminders in all", at.Format(time.DateOnly), reps, n)
		}
		if at.After(start.AddDate(1, 0, 30)) && reps[0].Transitions+reps[1].Transitions != n {
			t.Errorf("at %s: %+v, want %d transitions to lapsed in all", at.Format(time.DateOnly), reps, n)
		}
	}
	var mails int
	fatal(t, dbs[1].QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_outbox`).Scan(&mails))
	if mails != 3*n {
		t.Errorf("%d mails in the outbox, want %d", mails, 3*n)
	}
}

// Which memberships get which reminders: none for complimentary and lifetime ones,
// none before paid-until for monthly plans that renew by themselves, and only offsets
// shorter than a month for monthly plans that do not; an auto-renewing annual one is
// told it renews; a lapse long ago gets no mail on the job's first run.
func TestRenewalWhoIsReminded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newRenewalEnv(t, db, annual)
		e.plan(t, membership.Plan{Slug: "monthly", Name: "Monthly", PriceMinor: 300, Period: membership.PeriodMonthly, OnSale: true})
		e.plan(t, membership.Plan{Slug: "life", Name: "Life", PriceMinor: 50000, Period: membership.PeriodLifetime, OnSale: true})
		join := func(email, plan string) *membership.Membership {
			uid, _ := e.user(t, email, "")
			m, err := e.ms.Join(ctx, uid, plan, "")
			fatal(t, err)
			return m
		}
		comp, err := e.ms.GrantComplimentary(ctx, 0, func() int64 { id, _ := e.user(t, "comp@example.org", ""); return id }(), "individual", ptr(start.Add(days(20))), "")
		fatal(t, err)
		life := join("life@example.org", "life")
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: life.ID, ExternalID: "cs_life", AmountMinor: 50000, Currency: "GBP"}))
		monthly := join("monthly@example.org", "monthly")
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: monthly.ID, ExternalID: "in_m1", AmountMinor: 300, Currency: "GBP"}))
		auto := join("auto@example.org", "monthly")
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: auto.ID, ExternalID: "in_a1", AmountMinor: 300, Currency: "GBP"}))
		fatal(t, e.ms.SubscriptionChanged(ctx, membership.Subscription{MembershipID: auto.ID, ExternalID: "sub_a", AutoRenew: true}))
		yearly := join("yearly@example.org", "individual")
		fatal(t, e.ms.Paid(ctx, membership.Payment{MembershipID: yearly.ID, ExternalID: "in_y1", AmountMinor: 2400, Currency: "GBP"}))
		fatal(t, e.ms.SubscriptionChanged(ctx, membership.Subscription{MembershipID: yearly.ID, ExternalID: "sub_y", AutoRenew: true}))

		e.clock.Set(start.Add(days(25))) // the monthly ones end in 6 days; comp ended 5 days ago
		e.runDue(t)
		e.clock.Set(start.AddDate(0, 2, 1)) // the monthly ones lapsed yesterday
		e.runDue(t)
		e.clock.Set(start.AddDate(1, 0, -10)) // the yearly one is 10 days from its end
		e.runDue(t)
		got := map[int64][]string{}
		for _, m := range []*membership.Membership{comp, life, monthly, auto, yearly} {
			got[m.ID], _ = e.ms.Reminded(ctx, m.ID)
		}
		if len(got[comp.ID])+len(got[life.ID]) != 0 {
			t.Errorf("complimentary %v, lifetime %v: want no reminders", got[comp.ID], got[life.ID])
		}
		if !slices.Equal(got[auto.ID], []string{"lapse@2026-04-01"}) {
			t.Errorf("auto-renewing monthly: %v, want only the lapse (its renewal failed)", got[auto.ID])
		}
		if !slices.Equal(got[monthly.ID], []string{"7d@2026-04-01", "lapse@2026-04-01"}) {
			t.Errorf("monthly: %v, want the 7-day reminder (not the 30-day one) and the lapse", got[monthly.ID])
		}
		if !slices.Equal(got[yearly.ID], []string{"30d@2027-03-01"}) {
			t.Errorf("yearly: %v", got[yearly.ID])
		}
		st, _ := e.outbox.List(ctx, 1)
		if want := "Your membership " + yearly.Number + " renews on 1 March 2027"; len(st) != 1 || st[0].Subject != want {
			t.Errorf("auto-renewing reminder %+v, want subject %q", st, want)
		}

		// A store whose memberships lapsed long before the job first ran sends nothing.
		old := e.member(t, "old@example.org")
		e.clock.Set(old.PaidUntil.AddDate(0, 3, 0))
		e.runDue(t)
		if r, _ := e.ms.Reminded(ctx, old.ID); len(r) != 0 {
			t.Errorf("a lapse 2 months old got %v", r)
		}
	})
}

func TestParseReminders(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"", "30d,7d,lapse", ""},
		{"  ", "30d,7d,lapse", ""},
		{"lapse, 7d ,30D", "30d,7d,lapse", ""},
		{"none", "none", ""},
		{"1d", "1d", ""},
		{"366d", "366d", ""},
		{"367d", "", "out of range"},
		{"0d", "", "out of range"},
		{"7", "", "neither"},
		{"-7d", "", "neither"},
		{"7d,7d", "", "twice"},
		{"lapse,lapse", "", "twice"},
		{"7d,", "", "neither"},
		{"1d,2d,3d,4d,5d,6d,7d,8d,9d,10d,11d", "", "at most 10"},
		{"7d\n", "7d", ""},
		{"7d\x00", "", "neither"},
	} {
		r, err := membership.ParseReminders(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseReminders(%q) = %v, %v; want an error with %q", c.in, r, err, c.err)
		case c.err == "" && (err != nil || r.String() != c.want):
			t.Errorf("ParseReminders(%q) = %v, %v; want %s", c.in, r, err, c.want)
		}
	}
}

func TestRenewalSettingsFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	rs, err := membership.RenewalSettingsFromEnv(env())
	if err != nil || rs.Every != 10*time.Minute || rs.Reminders.String() != "30d,7d,lapse" {
		t.Errorf("defaults: %+v, %v", rs, err)
	}
	rs, err = membership.RenewalSettingsFromEnv(env("LINEAGE_MEMBERSHIP_JOB_INTERVAL", "1h", "LINEAGE_MEMBERSHIP_REMINDERS", "14d"))
	if err != nil || rs.Every != time.Hour || rs.Reminders.String() != "14d" {
		t.Errorf("set: %+v, %v", rs, err)
	}
	if rs, err := membership.RenewalSettingsFromEnv(env("LINEAGE_MEMBERSHIP_JOB_INTERVAL", "off")); err != nil || rs.Every != 0 {
		t.Errorf("off: %+v, %v", rs, err)
	}
	for _, bad := range []string{"10", "30s", "25h", "-1m", "x", "0"} {
		if _, err := membership.RenewalSettingsFromEnv(env("LINEAGE_MEMBERSHIP_JOB_INTERVAL", bad)); err == nil || !strings.Contains(err.Error(), "LINEAGE_MEMBERSHIP_JOB_INTERVAL") {
			t.Errorf("interval %q: %v", bad, err)
		}
	}
}

func FuzzParseReminders(f *testing.F) {
	for _, s := range []string{"", "30d,7d,lapse", "none", "366d", "7d,7d", "1d,2d", "lapse"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := membership.ParseReminders(s)
		if err != nil {
			return
		}
		// What parses prints back to the same reminders, in order, without duplicates.
		again, err := membership.ParseReminders(r.String())
		if err != nil || again.String() != r.String() {
			t.Fatalf("%q → %q → %q, %v", s, r.String(), again.String(), err)
		}
		if len(r.Before) > membership.MaxReminders || !slices.IsSortedFunc(r.Before, func(a, b int) int { return b - a }) {
			t.Fatalf("%q → %v", s, r.Before)
		}
		for i, d := range r.Before {
			if d < 1 || d > membership.MaxReminderDays || (i > 0 && d == r.Before[i-1]) {
				t.Fatalf("%q → %v", s, r.Before)
			}
		}
	})
}
