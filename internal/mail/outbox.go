package mail

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"lineage/internal/jobs"
	"lineage/internal/store"
)

// DefaultBackoff is the wait before each retry: about sixteen hours from the first
// attempt to the last, long enough to ride out a mail provider's outage.
var DefaultBackoff = []time.Duration{
	30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 4 * time.Hour, 8 * time.Hour,
}

// Outbox is the table of mail to send and the worker that sends it.
type Outbox struct {
	db     *store.DB
	sender Sender
	log    *slog.Logger
	wake   chan struct{}

	// Backoff lists the waits between attempts; a message is given up (status
	// 'failed') after len(Backoff)+1 attempts.
	Backoff []time.Duration
	// Poll is how often the worker looks for mail other instances enqueued or that
	// became due; default 15 s.
	Poll time.Duration
	// Now is the clock (tests move it).
	Now func() time.Time
}

// NewOutbox makes an outbox that sends through sender.
func NewOutbox(db *store.DB, sender Sender, log *slog.Logger) *Outbox {
	if log == nil {
		log = slog.Default()
	}
	return &Outbox{
		db: db, sender: sender, log: log,
		wake:    make(chan struct{}, 1),
		Backoff: DefaultBackoff,
		Poll:    15 * time.Second,
		Now:     time.Now,
	}
}

// Enqueue stores m for delivery and wakes the worker. It returns once the message is
// safely in the table, never waiting for the mail server.
func (o *Outbox) Enqueue(ctx context.Context, m Message) error {
	if _, err := o.insert(ctx, o.db, m); err != nil {
		return err
	}
	o.Wake()
	return nil
}

// EnqueueTx stores m inside the caller's transaction, so the message exists if and
// only if the caller's own writes commit (a renewal reminder and the row that says it
// was sent). The worker cannot see it before the commit: call Wake after it. It
// returns the message's outbox id (mail_outbox.id), by which a room follows what
// became of its mail.
func (o *Outbox) EnqueueTx(ctx context.Context, tx *sql.Tx, m Message) (int64, error) {
	return o.insert(ctx, tx, m)
}

// Wake makes the worker look for due mail now rather than at its next poll.
func (o *Outbox) Wake() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

func (o *Outbox) insert(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}, m Message) (int64, error) {
	if err := m.check(); err != nil {
		return 0, err
	}
	var method, cal, headers string
	if m.Calendar != nil {
		method, cal = m.Calendar.Method, m.Calendar.Data
	}
	if len(m.Headers) > 0 {
		b, err := json.Marshal(m.Headers)
		if err != nil {
			return 0, err
		}
		headers = string(b)
	}
	now := o.Now().Unix()
	var id int64
	err := q.QueryRowContext(ctx, o.db.Rebind(
		`INSERT INTO mail_outbox (to_addr, subject, body_text, body_html, calendar_method, calendar, headers, next_attempt_at, created_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		m.To, m.Subject, m.Text, m.HTML, method, cal, headers, now, now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("mail: enqueue: %w", err)
	}
	return id, nil
}

// Run delivers due mail until ctx ends.
func (o *Outbox) Run(ctx context.Context) {
	jobs.Repeat(ctx, o.Poll, o.wake, func(ctx context.Context) {
		if _, err := o.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			o.log.Error("mail outbox", "err", err)
		}
	})
}

// claimFor is how long a claimed message is hidden from other workers; longer than a
// send can take, so a worker that dies mid-send only delays the message.
const claimFor = 5 * time.Minute

// DeliverDue sends every message that is due now and returns how many were sent.
// Several processes may call it at once: a message is claimed with a conditional
// UPDATE before it is sent, so each attempt happens once.
func (o *Outbox) DeliverDue(ctx context.Context) (sent int, err error) {
	for {
		now := o.Now().Unix()
		rows, err := o.db.QueryContext(ctx, o.db.Rebind(
			`SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ? AND locked_until <= ? ORDER BY id LIMIT 20`),
			now, now)
		ids, err := store.Collect(rows, err, store.Scalar[int64])
		if err != nil {
			return sent, fmt.Errorf("mail: due messages: %w", err)
		}
		if len(ids) == 0 {
			return sent, nil
		}
		for _, id := range ids {
			ok, err := o.attempt(ctx, id)
			if err != nil {
				return sent, err
			}
			if ok {
				sent++
			}
		}
	}
}

// attempt claims message id, sends it and records the outcome. It reports whether
// the message went out; a send failure is recorded, not returned.
func (o *Outbox) attempt(ctx context.Context, id int64) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	// Everything but the send itself runs to its end even when ctx ends meanwhile: a
	// claim whose outcome is unknown, or a send whose result is not recorded, would
	// leave the message locked for claimFor instead of retried at the next start.
	db := context.WithoutCancel(ctx)
	now := o.Now()
	res, err := o.db.ExecContext(db, o.db.Rebind(
		`UPDATE mail_outbox SET locked_until = ?, attempts = attempts + 1 WHERE id = ? AND status = 'pending' AND locked_until <= ?`),
		now.Add(claimFor).Unix(), id, now.Unix())
	if err != nil {
		return false, fmt.Errorf("mail: claim %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return false, nil // another worker has it
	}
	m := Message{ID: id}
	var attempts int
	var method, cal, headers string
	err = o.db.QueryRowContext(db, o.db.Rebind(
		`SELECT to_addr, subject, body_text, body_html, calendar_method, calendar, headers, attempts FROM mail_outbox WHERE id = ?`), id).
		Scan(&m.To, &m.Subject, &m.Text, &m.HTML, &method, &cal, &headers, &attempts)
	if err != nil {
		return false, fmt.Errorf("mail: load %d: %w", id, err)
	}
	if method != "" {
		m.Calendar = &Calendar{Method: method, Data: cal}
	}
	if headers != "" {
		if err := json.Unmarshal([]byte(headers), &m.Headers); err != nil {
			return false, fmt.Errorf("mail: headers of %d: %w", id, err)
		}
	}
	sendErr := o.sender.Send(ctx, m)
	if sendErr == nil {
		// Recorded even when ctx ended during the send: the mail has gone, and a claim
		// left behind would send it again once it expired.
		_, err = o.db.ExecContext(db, o.db.Rebind(
			`UPDATE mail_outbox SET status = 'sent', sent_at = ?, locked_until = 0, last_error = '' WHERE id = ?`),
			o.Now().Unix(), id)
		if err != nil {
			return false, fmt.Errorf("mail: mark %d sent: %w", id, err)
		}
		return true, nil
	}
	if errors.Is(sendErr, context.Canceled) && ctx.Err() != nil {
		// Shutting down: release the claim so the next start retries at once.
		o.db.ExecContext(db, o.db.Rebind(
			`UPDATE mail_outbox SET locked_until = 0, attempts = attempts - 1 WHERE id = ?`), id)
		return false, ctx.Err()
	}
	msg := sendErr.Error()
	if len(msg) > 1000 {
		msg = msg[:1000]
	}
	if rejected := errors.Is(sendErr, ErrRejected); rejected || attempts > len(o.Backoff) || errors.Is(sendErr, ErrBadMessage) {
		o.log.Error("mail given up", "id", id, "to", m.To, "subject", m.Subject, "attempts", attempts, "err", sendErr)
		_, err = o.db.ExecContext(db, o.db.Rebind(
			`UPDATE mail_outbox SET status = 'failed', locked_until = 0, last_error = ?, rejected = ? WHERE id = ?`), msg, boolInt(rejected), id)
	} else {
		next := o.Now().Add(o.Backoff[attempts-1])
		o.log.Warn("mail not sent, will retry", "id", id, "to", m.To, "attempt", attempts, "retry_at", next.UTC().Format(time.RFC3339), "err", sendErr)
		_, err = o.db.ExecContext(db, o.db.Rebind(
			`UPDATE mail_outbox SET next_attempt_at = ?, locked_until = 0, last_error = ? WHERE id = ?`), next.Unix(), msg, id)
	}
	if err != nil {
		return false, fmt.Errorf("mail: record failure of %d: %w", id, err)
	}
	return false, nil
}

// Status is one outbox row as operators and tests see it.
type Status struct {
	ID        int64
	To        string
	Subject   string
	Text      string
	Status    string // pending, sent, failed
	Attempts  int
	LastError string
	Rejected  bool // failed because the mail server refused the message for good
}

// List returns the newest messages first, at most limit.
func (o *Outbox) List(ctx context.Context, limit int) ([]Status, error) {
	rows, err := o.db.QueryContext(ctx, o.db.Rebind(
		`SELECT id, to_addr, subject, body_text, status, attempts, last_error, rejected FROM mail_outbox ORDER BY id DESC LIMIT ?`), limit)
	return store.Collect(rows, err, func(row store.Row) (s Status, err error) {
		var rejected int
		err = row.Scan(&s.ID, &s.To, &s.Subject, &s.Text, &s.Status, &s.Attempts, &s.LastError, &rejected)
		s.Rejected = rejected == 1
		return s, err
	})
}

// Rejections counts the messages to addr that the mail server refused for good; lists
// stop writing to an address past a number of them.
func (o *Outbox) Rejections(ctx context.Context, addr string) (int, error) {
	var n int
	err := o.db.QueryRowContext(ctx, o.db.Rebind(
		`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = ? AND rejected = 1`), addr).Scan(&n)
	return n, err
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Sweep deletes sent mail older than maxAge (failed mail stays for an operator to see).
func (o *Outbox) Sweep(ctx context.Context, maxAge time.Duration) error {
	_, err := o.db.ExecContext(ctx, o.db.Rebind(
		`DELETE FROM mail_outbox WHERE status = 'sent' AND sent_at < ?`), o.Now().Add(-maxAge).Unix())
	return err
}
