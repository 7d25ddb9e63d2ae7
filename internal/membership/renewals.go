package membership

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"lineage/internal/jobs"
	"lineage/internal/mail"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// Renewal settings: which reminders are sent, and how often serve's scheduler runs the
// job. Both are read by RenewalSettingsFromEnv.
const (
	// DefaultReminders: 30 and 7 days before paid-until, and when a membership lapses.
	DefaultReminders = "30d,7d,lapse"
	// DefaultJobInterval is how often `lineage serve` runs the renewal job.
	DefaultJobInterval = 10 * time.Minute
	// MaxReminders bounds the list of reminders; MaxReminderDays an offset.
	MaxReminders    = 10
	MaxReminderDays = 366
	// ReminderLapse names the reminder sent when a membership lapses.
	ReminderLapse = "lapse"
	// lapseWindow: a lapse older than this gets no reminder, so that the first run on a
	// store of imported, long-lapsed memberships does not mail every one of them.
	lapseWindow = 30 * 24 * time.Hour
)

// Reminders is which renewal reminders are sent: days before paid-until, and whether
// one goes when a membership lapses.
type Reminders struct {
	Before []int // days, largest first
	Lapse  bool
}

var reminderRe = regexp.MustCompile(`^([0-9]{1,4})d$`)

// ParseReminders reads a list such as "30d,7d,lapse" (LINEAGE_MEMBERSHIP_REMINDERS):
// offsets in days before paid-until and "lapse", in any order. "" is the default;
// "none" sends no reminders.
func ParseReminders(s string) (Reminders, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		s = DefaultReminders
	}
	var r Reminders
	if strings.EqualFold(s, "none") {
		return r, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > MaxReminders {
		return r, fmt.Errorf("LINEAGE_MEMBERSHIP_REMINDERS may list at most %d reminders", MaxReminders)
	}
	for _, p := range parts {
		p = strings.ToLower(strings.TrimSpace(p))
		if p == ReminderLapse {
			if r.Lapse {
				return Reminders{}, errors.New("LINEAGE_MEMBERSHIP_REMINDERS lists lapse twice")
			}
			r.Lapse = true
			continue
		}
		m := reminderRe.FindStringSubmatch(p)
		if m == nil {
			return Reminders{}, fmt.Errorf("LINEAGE_MEMBERSHIP_REMINDERS: \"%s\" is neither a number of days such as 30d nor lapse", textfield.Escape(p))
		}
		n, _ := strconv.Atoi(m[1])
		if n < 1 || n > MaxReminderDays {
			return Reminders{}, fmt.Errorf("LINEAGE_MEMBERSHIP_REMINDERS: %s is out of range; a reminder goes 1d to %dd before paid-until", p, MaxReminderDays)
		}
		if slices.Contains(r.Before, n) {
			return Reminders{}, fmt.Errorf("LINEAGE_MEMBERSHIP_REMINDERS lists %s twice", p)
		}
		r.Before = append(r.Before, n)
	}
	slices.Sort(r.Before)
	slices.Reverse(r.Before)
	return r, nil
}

// String writes r as ParseReminders reads it.
func (r Reminders) String() string {
	var parts []string
	for _, d := range r.Before {
		parts = append(parts, strconv.Itoa(d)+"d")
	}
	if r.Lapse {
		parts = append(parts, ReminderLapse)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// RenewalSettings configure the renewal job.
type RenewalSettings struct {
	Reminders Reminders
	Every     time.Duration // serve's scheduler interval; 0: off
}

// RenewalSettingsFromEnv reads LINEAGE_MEMBERSHIP_REMINDERS and
// LINEAGE_MEMBERSHIP_JOB_INTERVAL (a Go duration from 1m to 24h, or "off": serve runs no
// job and cron runs lineage membership run-due).
func RenewalSettingsFromEnv(getenv func(string) string) (RenewalSettings, error) {
	var rs RenewalSettings
	var err error
	if rs.Reminders, err = ParseReminders(getenv("LINEAGE_MEMBERSHIP_REMINDERS")); err != nil {
		return rs, err
	}
	rs.Every = DefaultJobInterval
	if v := strings.TrimSpace(getenv("LINEAGE_MEMBERSHIP_JOB_INTERVAL")); strings.EqualFold(v, "off") {
		rs.Every = 0
	} else if v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute || d > 24*time.Hour {
			return rs, fmt.Errorf("LINEAGE_MEMBERSHIP_JOB_INTERVAL must be a duration from 1m to 24h, such as 10m; got \"%s\"", textfield.Escape(v))
		}
		rs.Every = d
	}
	return rs, nil
}

// Mailer is the mail outbox as the renewal job uses it (mail.Outbox): a reminder is
// stored in the same transaction as the row that records it.
type Mailer interface {
	EnqueueTx(ctx context.Context, tx *sql.Tx, m mail.Message) (int64, error)
	Wake()
}

// RenewalOptions configure Renewals.
type RenewalOptions struct {
	Mailer    Mailer
	Reminders Reminders
	PublicURL string // links in the mails
	Log       *slog.Logger
}

// Renewals is the renewal job: it records the transitions time has brought (Advance)
// and sends the reminders that are due. Several instances may run it at once.
type Renewals struct {
	s   *Service
	opt RenewalOptions
}

// Renewals builds the renewal job on the room.
func (s *Service) Renewals(opt RenewalOptions) *Renewals {
	if opt.Log == nil {
		opt.Log = s.log
	}
	opt.PublicURL = strings.TrimRight(opt.PublicURL, "/")
	return &Renewals{s: s, opt: opt}
}

// DueReport is what one run of the job did.
type DueReport struct {
	Transitions int `json:"transitions"` // memberships moved to grace or lapsed
	Reminders   int `json:"reminders"`   // reminders put in the outbox
}

// RunDue runs the job once at now: transitions first, so a lapse reminder goes in the
// same run as the lapse.
func (r *Renewals) RunDue(ctx context.Context, now time.Time) (DueReport, error) {
	var rep DueReport
	var err error
	if rep.Transitions, err = r.s.Advance(ctx, now); err != nil {
		return rep, fmt.Errorf("membership: transitions: %w", err)
	}
	if rep.Reminders, err = r.remind(ctx, now); err != nil {
		return rep, fmt.Errorf("membership: reminders: %w", err)
	}
	if rep.Reminders > 0 {
		r.opt.Mailer.Wake()
	}
	return rep, nil
}

// Run runs the job at once and then every interval until ctx ends (serve's scheduler),
// on the room's clock. A failed run is logged and tried again at the next tick.
func (r *Renewals) Run(ctx context.Context, every time.Duration) {
	jobs.Repeat(ctx, every, nil, func(ctx context.Context) {
		rep, err := r.RunDue(ctx, r.s.Now())
		switch {
		case err != nil && ctx.Err() == nil:
			r.opt.Log.Error("membership renewal job", "err", err)
		case rep.Transitions > 0 || rep.Reminders > 0:
			r.opt.Log.Info("membership renewal job", "transitions", rep.Transitions, "reminders", rep.Reminders)
		}
	})
}

// dueReminder is one membership that may be owed a reminder.
type dueReminder struct {
	id        int64
	number    string
	status    string
	paidUntil time.Time
	graceDays int
	autoRenew bool
	email     string
	name      string
	planName  string
	planSlug  string
	period    string
}

// remind sends each reminder that is due at now and not sent before, and returns how
// many it sent.
func (r *Renewals) remind(ctx context.Context, now time.Time) (int, error) {
	rem := r.opt.Reminders
	if len(rem.Before) == 0 && !rem.Lapse {
		return 0, nil
	}
	maxBefore := 0
	if len(rem.Before) > 0 {
		maxBefore = rem.Before[0]
	}
	// Candidates: paid-until within the largest offset ahead, or recent enough behind
	// that a lapse (after at most MaxGraceDays of grace) is within lapseWindow.
	lo := now.Add(-time.Duration(MaxGraceDays)*24*time.Hour - lapseWindow)
	hi := now.Add(time.Duration(maxBefore) * 24 * time.Hour)
	rs, err := r.s.db.QueryContext(ctx, r.s.db.Rebind(`SELECT m.id, m.number, m.status, m.paid_until, m.grace_days, m.auto_renew,
		u.email, u.name, p.name, p.slug, p.period
		FROM memberships m JOIN users u ON u.id = m.user_id JOIN membership_plans p ON p.id = m.plan_id
		WHERE m.status IN (?, ?, ?) AND m.method <> ? AND m.paid_until IS NOT NULL AND m.paid_until > ? AND m.paid_until <= ?
		ORDER BY m.id`), StatusActive, StatusGrace, StatusLapsed, MethodComplimentary, lo.Unix(), hi.Unix())
	list, err := store.Collect(rs, err, func(row store.Row) (dueReminder, error) {
		var d dueReminder
		var paid int64
		err := row.Scan(&d.id, &d.number, &d.status, &paid, &d.graceDays, &d.autoRenew, &d.email, &d.name, &d.planName, &d.planSlug, &d.period)
		d.paidUntil = store.Time(paid)
		return d, err
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, d := range list {
		kind := rem.due(d, now)
		if kind == "" {
			continue
		}
		ok, err := r.send(ctx, d, kind, now)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

// due names the reminder membership d is owed at now, or "". Before paid-until it is
// the nearest offset already reached (a run that missed the 30-day one sends the 7-day
// one only). Offsets as long as the plan's period are skipped, and so are monthly plans
// that renew by themselves: a mail every month would be noise.
func (rem Reminders) due(d dueReminder, now time.Time) string {
	status := effectiveStatus(d.status, &d.paidUntil, d.graceDays, now)
	switch status {
	case StatusActive:
		if d.period == PeriodMonthly && d.autoRenew {
			return ""
		}
		left := d.paidUntil.Sub(now)
		kind := ""
		for _, days := range rem.Before { // largest first: the last reached is the nearest
			off := time.Duration(days) * 24 * time.Hour
			if d.period == PeriodMonthly && days >= 28 {
				continue
			}
			if left <= off {
				kind = strconv.Itoa(days) + "d"
			}
		}
		return kind
	case StatusLapsed:
		lapsedAt := d.paidUntil.Add(time.Duration(d.graceDays) * 24 * time.Hour)
		if rem.Lapse && now.Sub(lapsedAt) < lapseWindow {
			return ReminderLapse
		}
	}
	return ""
}

// errSentBefore ends the transaction of a reminder another run has sent.
var errSentBefore = errors.New("membership: reminder sent before")

// send records reminder kind of d's period and puts its mail in the outbox, in one
// transaction: the row's key (membership, paid-until, kind) lets one run only do it.
// The membership is read again under a lock, so a payment that arrived meanwhile (a
// new paid-until) stops a reminder about the old one.
func (r *Renewals) send(ctx context.Context, d dueReminder, kind string, now time.Time) (bool, error) {
	msg, err := r.message(d, kind)
	if err != nil {
		r.opt.Log.Warn("membership reminder not sent", "membership", d.number, "reminder", kind, "err", err)
		return false, nil
	}
	err = r.s.tx(ctx, func(tx *sql.Tx) error {
		raw, err := r.s.lockedMembership(ctx, tx, d.id)
		if err != nil {
			return err
		}
		if raw.PaidUntil == nil || !raw.PaidUntil.Equal(d.paidUntil) || raw.Status != d.status {
			return errSentBefore
		}
		q := `INSERT INTO membership_reminders (membership_id, period_end, reminder, sent_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (membership_id, period_end, reminder) DO NOTHING`
		res, err := tx.ExecContext(ctx, r.s.db.Rebind(q), d.id, d.paidUntil.Unix(), kind, now.Unix())
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errSentBefore
		}
		_, err = r.opt.Mailer.EnqueueTx(ctx, tx, msg)
		return err
	})
	if errors.Is(err, errSentBefore) {
		return false, nil
	}
	if errors.Is(err, mail.ErrBadMessage) {
		r.opt.Log.Warn("membership reminder not sent", "membership", d.number, "reminder", kind, "err", err)
		return false, nil
	}
	return err == nil, err
}

// Reminded lists the reminders recorded for a membership as "kind@paid-until date"
// (operators and tests).
func (s *Service) Reminded(ctx context.Context, id int64) ([]string, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT reminder, period_end FROM membership_reminders
		WHERE membership_id = ? ORDER BY sent_at, period_end, reminder`), id)
	return store.Collect(rs, err, func(row store.Row) (string, error) {
		var kind string
		var end int64
		err := row.Scan(&kind, &end)
		return kind + "@" + store.Time(end).Format(time.DateOnly), err
	})
}

// ukLocation is where the society's dates are read: reminders and Gift Aid dates are
// UK calendar dates.
var ukLocation = func() *time.Location {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		panic(err) // time/tzdata is embedded (giftaid.go)
	}
	return loc
}()

func ukDate(t time.Time) string { return t.In(ukLocation).Format("2 January 2006") }

// message is the reminder mail: plain text made only of validated values.
func (r *Renewals) message(d dueReminder, kind string) (mail.Message, error) {
	name := textfield.LineOr(d.name, 200, "")
	greeting := "Hello,"
	if name != "" {
		greeting = "Hello " + name + ","
	}
	number := textfield.LineOr(d.number, 40, "")
	plan := textfield.LineOr(d.planName, MaxPlanNameLen, "membership")
	society := textfield.LineOr(r.s.opt.SocietyName, 200, "Lineage")
	account := r.opt.PublicURL + "/user-account/membership"
	rejoin := r.opt.PublicURL + "/subscribe"
	if slugRe.MatchString(d.planSlug) {
		rejoin += "/" + d.planSlug
	}
	until := ukDate(d.paidUntil)
	var subject, body string
	switch {
	case kind == ReminderLapse:
		subject = "Your membership " + number + " has lapsed"
		body = "Your " + plan + " membership (" + number + ") was paid until " + until +
			" and has lapsed: members-only records, scans and trees are closed to you now.\n\n" +
			"You can rejoin at any time, keeping your membership number:\n\n" + rejoin + "\n"
	case d.autoRenew:
		subject = "Your membership " + number + " renews on " + until
		body = "Your " + plan + " membership (" + number + ") renews by itself on " + until + ", and the card on file will be charged then.\n\n" +
			"To change your card or stop the renewal, open:\n\n" + account + "\n"
	default:
		subject = "Your membership " + number + " ends on " + until + ": time to renew"
		body = "Your " + plan + " membership (" + number + ") is paid until " + until + ". To keep it, renew before then:\n\n" + account + "\n\n" +
			"If you have renewed already, or pay by cheque or bank transfer that is on its way, ignore this message.\n"
	}
	text := greeting + "\n\n" + body + "\n-- \n" + society + "\nThis message was sent automatically; replies are not read.\n"
	if _, err := textfield.MultiLine(text, 0); err != nil {
		return mail.Message{}, fmt.Errorf("%w: reminder text: %v", mail.ErrBadMessage, err)
	}
	return mail.Message{To: d.email, Subject: subject, Text: text}, nil
}
