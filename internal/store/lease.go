package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Leases let one instance among several run a job: the holder of a lease's name runs
// it until the lease expires, renewing it while it works; when the holder dies the
// lease runs out and another instance acquires it. Times come from the caller's clock
// (the instances' clocks must agree to well within a lease's length: NTP does), and are
// kept in Unix milliseconds. internal/jobs runs a scheduler under one.
//
// A lease is not a lock on data: a holder that stalls for longer than the lease (a
// frozen process) can wake after another has taken over, until its next renewal fails.
// What a job writes is therefore still claimed row by row where a duplicate would harm
// (a mail is sent once because the outbox claims it, not because of the lease).

// AcquireLease makes holder the holder of the lease called name until now+ttl, if no
// one else holds it unexpired at now. It reports whether holder holds it afterwards
// (acquiring a lease one already holds extends it). Contenders at the same moment are
// decided by the database: exactly one wins.
func (db *DB) AcquireLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	if name == "" || holder == "" || ttl <= 0 {
		return false, errors.New("store: a lease needs a name, a holder and a positive length")
	}
	at := now.UnixMilli()
	res, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO leases (name, holder, acquired_ms, expires_ms) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET
			acquired_ms = CASE WHEN leases.holder = excluded.holder THEN leases.acquired_ms ELSE excluded.acquired_ms END,
			holder = excluded.holder, expires_ms = excluded.expires_ms
		WHERE leases.holder = excluded.holder OR leases.expires_ms <= ?`),
		name, holder, at, at+ttl.Milliseconds(), at)
	return changedOne(res, err, "acquire lease "+name)
}

// RenewLease extends holder's lease called name to now+ttl. It reports false when the
// lease is no longer holder's (another instance took it after it expired, or it was
// released): the holder must stop the work the lease covered.
func (db *DB) RenewLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE leases SET expires_ms = ? WHERE name = ? AND holder = ?`),
		now.UnixMilli()+ttl.Milliseconds(), name, holder)
	return changedOne(res, err, "renew lease "+name)
}

// changedOne reports whether the statement whose result is res (and err) changed its
// one row; what names the step in an error.
func changedOne(res sql.Result, err error, what string) (bool, error) {
	if err != nil {
		return false, fmt.Errorf("store: %s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: %s: %w", what, err)
	}
	return n == 1, nil
}

// ReleaseLease gives up holder's lease called name at once, so that another instance
// can take it without waiting for it to expire (an instance shutting down). Releasing
// a lease one does not hold does nothing.
func (db *DB) ReleaseLease(ctx context.Context, name, holder string) error {
	if _, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM leases WHERE name = ? AND holder = ?`), name, holder); err != nil {
		return fmt.Errorf("store: release lease %s: %w", name, err)
	}
	return nil
}

// Lease is the state of one lease.
type Lease struct {
	Name, Holder      string
	Acquired, Expires time.Time
}

// LeaseHeld returns the lease called name when someone holds it unexpired at now, and
// nil otherwise.
func (db *DB) LeaseHeld(ctx context.Context, name string, now time.Time) (*Lease, error) {
	l := Lease{Name: name}
	var acq, exp int64
	err := db.QueryRowContext(ctx, db.Rebind(`SELECT holder, acquired_ms, expires_ms FROM leases WHERE name = ? AND expires_ms > ?`),
		name, now.UnixMilli()).Scan(&l.Holder, &acq, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: lease %s: %w", name, err)
	}
	l.Acquired, l.Expires = time.UnixMilli(acq), time.UnixMilli(exp)
	return &l, nil
}
