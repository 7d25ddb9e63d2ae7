package events

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"lineage/internal/jobs"
	"lineage/internal/store"
)

// DefaultJobInterval is how often `lineage serve` runs the bookings job.
const DefaultJobInterval = time.Minute

// DueReport is what one run of the job did.
type DueReport struct {
	Expired  int `json:"expired"`  // holds, offers and unconfirmed requests that lapsed
	Moved    int `json:"moved"`    // change notices sent for events whose date changed
	Joining  int `json:"joining"`  // joining instructions sent
	Refunded int `json:"refunded"` // refunds made
}

func (r DueReport) any() bool { return r.Expired+r.Moved+r.Joining+r.Refunded > 0 }

// RunDue runs the job once at now: lapsed holds and offers (their places go to the
// waiting list), change notices, joining instructions the day before, refunds due.
// Each effect is claimed by a conditional write in the transaction of its mail, so two
// runs at once, on one instance or two, do each once.
func (s *Service) RunDue(ctx context.Context, now time.Time) (DueReport, error) {
	var rep DueReport
	var err error
	if rep.Expired, err = s.expire(ctx, now); err != nil {
		return rep, fmt.Errorf("events: expiry: %w", err)
	}
	if rep.Moved, err = s.notifyMoves(ctx, now); err != nil {
		return rep, fmt.Errorf("events: change notices: %w", err)
	}
	if rep.Joining, err = s.sendJoining(ctx, now); err != nil {
		return rep, fmt.Errorf("events: joining instructions: %w", err)
	}
	rep.Refunded = s.RefundDue(ctx)
	if rep.any() {
		s.opt.Mailer.Wake()
	}
	if (s.dirty.Swap(false) || rep.Expired > 0) && s.opt.PagesChanged != nil {
		s.opt.PagesChanged(ctx)
	}
	return rep, nil
}

// Run runs the job at once, then every interval and whenever a change asks for it,
// until ctx ends (serve's scheduler). A failed run is logged and tried again.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	jobs.Repeat(ctx, every, s.kick, func(ctx context.Context) {
		rep, err := s.RunDue(ctx, s.Now())
		switch {
		case err != nil && ctx.Err() == nil:
			s.log.Error("events job", "err", err)
		case rep.any():
			s.log.Info("events job", "expired", rep.Expired, "moved", rep.Moved, "joining", rep.Joining, "refunded", rep.Refunded)
		}
	})
}

// errGone ends the transaction of an effect another run has had.
var errGone = errors.New("events: done before")

// effect runs fn in a transaction, and reports false when fn ended it with errGone.
func (s *Service) effect(ctx context.Context, fn func(tx *sql.Tx) error) (bool, error) {
	err := s.tx(ctx, fn)
	if errors.Is(err, errGone) {
		return false, nil
	}
	return err == nil, err
}

// expire ends the holds, offers and unconfirmed requests whose time is up.
func (s *Service) expire(ctx context.Context, now time.Time) (int, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT ref FROM bookings
		WHERE (status IN (?, ?) AND hold_expires_at IS NOT NULL AND hold_expires_at <= ?)
		   OR (status = ? AND offer_expires_at IS NOT NULL AND offer_expires_at <= ?) ORDER BY id`),
		StatusHeld, StatusWaitlisted, now.Unix(), StatusWaitlisted, now.Unix())
	refs, err := store.Collect(rs, err, store.Scalar[string])
	if err != nil {
		return 0, err
	}
	n := 0
	for _, ref := range refs {
		done, err := s.effect(ctx, func(tx *sql.Tx) error {
			b, err := s.lockedBooking(ctx, tx, ref)
			if err != nil {
				return err
			}
			reason := ""
			switch {
			case b.Status == StatusHeld && b.HoldExpiresAt != nil && !now.Before(*b.HoldExpiresAt):
				reason = ReasonHoldExpired
				if b.Awaiting != nil && *b.Awaiting == AwaitEmail {
					reason = ReasonUnconfirmed
				}
			case b.Status == StatusWaitlisted && b.OfferExpiresAt != nil && !now.Before(*b.OfferExpiresAt):
				reason = ReasonOfferExpired
			case b.Status == StatusWaitlisted && b.HoldExpiresAt != nil && !now.Before(*b.HoldExpiresAt):
				reason = ReasonUnconfirmed
			default:
				return errGone
			}
			ev, st, err := s.eventAndSettings(ctx, tx, b.EventUID)
			if err != nil {
				return err
			}
			return s.end(ctx, tx, b, ev, st, "system", reason, false)
		})
		if err != nil {
			return n, err
		}
		if done {
			n++
		}
	}
	return n, nil
}

// claim records that mail kind about key went to a booking; false when it had.
func (s *Service) claim(ctx context.Context, tx *sql.Tx, booking int64, kind, key string, now time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO booking_mails (booking_id, kind, key, sent_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (booking_id, kind, key) DO NOTHING`), booking, kind, key, now.Unix())
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// notifyMoves compares each bookable event's published date with the one last seen;
// when an editor has moved it, every booker holding places gets a change notice with
// the updated invitation, once: the date seen is replaced by a conditional UPDATE in
// the notices' transaction, so only one run can do it.
func (s *Service) notifyMoves(ctx context.Context, now time.Time) (int, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT uid, known_start, known_end FROM event_settings
		WHERE cancelled_at IS NULL AND known_start IS NOT NULL AND known_start > ?`), now.Add(-24*time.Hour).Unix())
	type seen struct {
		uid        string
		start, end sql.NullInt64
	}
	list, err := store.Collect(rs, err, func(row store.Row) (seen, error) {
		var x seen
		err := row.Scan(&x.uid, &x.start, &x.end)
		return x, err
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, x := range list {
		ev, err := s.event(ctx, x.uid)
		if err == errNotFound || (err == nil && ev.Start.IsZero()) {
			continue
		}
		if err != nil {
			return sent, err
		}
		var end int64
		if !ev.End.IsZero() {
			end = ev.End.Unix()
		}
		if ev.Start.Unix() == x.start.Int64 && end == x.end.Int64 {
			continue
		}
		_, err = s.effect(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE event_settings SET known_start = ?, known_end = ?
				WHERE uid = ? AND known_start = ? AND COALESCE(known_end, 0) = ?`), ev.Start.Unix(), end, x.uid, x.start.Int64, x.end.Int64)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return errGone
			}
			if ev.Start.Unix() == x.start.Int64 {
				return nil // only the end moved: the invitation's next update carries it
			}
			st, err := s.settings(ctx, tx, x.uid, true)
			if err != nil {
				return err
			}
			list, err := s.listBookings(ctx, tx, x.uid, StatusConfirmed, StatusHeld, StatusAttended)
			if err != nil {
				return err
			}
			key := strconv.FormatInt(ev.Start.Unix(), 10)
			for _, b := range list {
				ok, err := s.claim(ctx, tx, b.ID, mailChanged, key, now)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
				if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE bookings SET sequence = sequence + 1, updated_at = ? WHERE id = ?`),
					now.Unix(), b.ID); err != nil {
					return err
				}
				b.Sequence++
				if err := s.mail(ctx, tx, b, ev, st, mailChanged, ""); err != nil {
					return err
				}
				sent++
			}
			return nil
		})
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// sendJoining sends each confirmed booking of an event starting within JoiningAhead
// its joining instructions (online) or reminder (in person), once per booking and
// start.
func (s *Service) sendJoining(ctx context.Context, now time.Time) (int, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT b.ref, e.known_start FROM bookings b JOIN event_settings e ON e.uid = b.event_uid
		WHERE b.status = ? AND e.cancelled_at IS NULL AND e.known_start > ? AND e.known_start <= ?
		AND NOT EXISTS (SELECT 1 FROM booking_mails m WHERE m.booking_id = b.id AND m.kind = ? AND m.key = `+s.castText("e.known_start")+`)
		ORDER BY b.id`), StatusConfirmed, now.Unix(), now.Add(JoiningAhead).Unix(), mailJoining)
	type due struct {
		ref   string
		start int64
	}
	list, err := store.Collect(rs, err, func(row store.Row) (due, error) {
		var d due
		err := row.Scan(&d.ref, &d.start)
		return d, err
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, d := range list {
		done, err := s.effect(ctx, func(tx *sql.Tx) error {
			b, err := s.lockedBooking(ctx, tx, d.ref)
			if err != nil {
				return err
			}
			if b.Status != StatusConfirmed {
				return errGone
			}
			ok, err := s.claim(ctx, tx, b.ID, mailJoining, strconv.FormatInt(d.start, 10), now)
			if err != nil {
				return err
			}
			if !ok {
				return errGone
			}
			ev, st, err := s.eventAndSettings(ctx, tx, b.EventUID)
			if err != nil {
				return err
			}
			return s.mail(ctx, tx, b, ev, st, mailJoining, "")
		})
		if err != nil {
			return sent, err
		}
		if done {
			sent++
		}
	}
	return sent, nil
}

func (s *Service) castText(col string) string { return "CAST(" + col + " AS TEXT)" }
