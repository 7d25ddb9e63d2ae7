package membership

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// Viewer is who makes a request, as the auth room knows them (cmd/lineage adapts it).
type Viewer struct {
	ID    int64 // 0: nobody signed in
	Name  string
	Email string
	Admin bool
}

// Options configure a Service.
type Options struct {
	// Viewer tells who is signed in on a request that passed the accounts middleware.
	Viewer func(r *http.Request) Viewer
	// Checkout, when set, starts a card payment for a new pending membership and returns
	// the URL to send the browser to (the payments room). Nil: card payments are off.
	Checkout func(ctx context.Context, m *Membership, returnTo string) (string, error)
	// OtherWays tells how to pay without a card; GET /api/membership/plans shows it.
	OtherWays string
	// SocietyName heads receipts.
	SocietyName string
	// Accounts finds or makes the account of an imported member (auth, in cmd/lineage).
	Accounts Accounts
	Log      *slog.Logger
}

// Accounts is what the room needs from the auth room to import members.
type Accounts interface {
	// EnsureAccount returns the id of the account with this email, creating a
	// registered account without a password (the person resets it) when none has it.
	EnsureAccount(ctx context.Context, email, name string) (int64, error)
	// AccountID returns the id of the account with this email, or 0.
	AccountID(ctx context.Context, email string) (int64, error)
}

// Service is the membership room.
type Service struct {
	db  *store.DB
	opt Options
	log *slog.Logger
	Now func() time.Time // the clock; tests replace it

	joined *sql.Tx // the caller's transaction every write joins (In); nil: each opens its own
}

// New builds the room on an open, migrated store.
func New(db *store.DB, opt Options) *Service {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Viewer == nil { // a room without accounts (tests): nobody is signed in
		opt.Viewer = func(*http.Request) Viewer { return Viewer{} }
	}
	if opt.OtherWays == "" {
		opt.OtherWays = "You can also pay by cheque, bank transfer or cash: write to the membership secretary, who records your payment."
	}
	s := &Service{db: db, opt: opt, log: opt.Log, Now: time.Now}
	return s
}

// In returns the room bound to the caller's transaction tx: its writes join tx instead
// of opening transactions of their own, so that the caller's writes and the room's
// commit or roll back together. The payments room records a Stripe event and its
// effect on the membership in one transaction (s.In(tx).Paid(ctx, p)), so a replayed
// event cannot take effect twice.
func (s *Service) In(tx *sql.Tx) *Service {
	bound := *s
	bound.joined = tx
	return &bound
}

// tx runs fn in a transaction (on SQLite an immediate one: it holds the write lock from
// the start, so read-then-write steps inside cannot interleave with another writer),
// or in the caller's when the room is bound to one (In).
func (s *Service) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.joined != nil {
		return fn(s.joined)
	}
	return s.db.InTx(ctx, fn)
}

// update runs fn in a transaction (tx) and answers membership id as it is after: an
// admin's or member's change answers the membership it changed.
func (s *Service) update(ctx context.Context, id int64, fn func(tx *sql.Tx) error) (*Membership, error) {
	if err := s.tx(ctx, fn); err != nil {
		return nil, err
	}
	return s.ByID(ctx, id)
}

// updateLocked is update for a change of membership id that starts from the row as it
// is, read and locked in tx (lockedMembership).
func (s *Service) updateLocked(ctx context.Context, id int64, fn func(tx *sql.Tx, raw rawMembership) error) (*Membership, error) {
	return s.update(ctx, id, func(tx *sql.Tx) error {
		raw, err := s.lockedMembership(ctx, tx, id)
		if err != nil {
			return err
		}
		return fn(tx, raw)
	})
}

const membershipColumns = `m.id, m.number, m.user_id, m.plan_id, m.concession, m.status, m.method, m.started_at, m.paid_until,
	m.grace_days, m.auto_renew, COALESCE(u.name, ''), COALESCE(u.email, '')`

const membershipFrom = ` FROM memberships m LEFT JOIN users u ON u.id = m.user_id`

type rawMembership struct {
	Membership
	planID int64
}

func scanMembership(row store.Row) (rawMembership, error) {
	var m rawMembership
	var uid, paid sql.NullInt64
	var started int64
	err := row.Scan(&m.ID, &m.Number, &uid, &m.planID, &m.Concession, &m.Status, &m.Method, &started, &paid,
		&m.GraceDays, &m.AutoRenew, &m.Name, &m.Email)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return m, errNotFound
		}
		return m, err
	}
	if uid.Valid {
		m.UserID = &uid.Int64
	}
	m.StartedAt = store.Time(started)
	m.PaidUntil = store.TimeOrNil(paid)
	return m, nil
}

// complete fills the plan, household and what the membership grants now.
func (s *Service) complete(ctx context.Context, q store.Querier, raw rawMembership) (*Membership, error) {
	m := raw.Membership
	p, err := s.planByID(ctx, q, raw.planID)
	if err != nil {
		return nil, err
	}
	m.Plan = p
	m.Status = effectiveStatus(m.Status, m.PaidUntil, m.GraceDays, s.Now())
	m.Scopes = []string{}
	if Granting(m.Status) {
		m.Scopes = append(m.Scopes, p.Scopes...)
	}
	if m.Household, err = s.household(ctx, q, m.ID); err != nil {
		return nil, err
	}
	return &m, nil
}

func (s *Service) membershipWhere(ctx context.Context, q store.Querier, where string, args ...any) (*Membership, error) {
	raw, err := scanMembership(q.QueryRowContext(ctx, s.db.Rebind(`SELECT `+membershipColumns+membershipFrom+` WHERE `+where), args...))
	if err != nil {
		return nil, err
	}
	return s.complete(ctx, q, raw)
}

// ByID returns a membership, or a not-found Error.
func (s *Service) ByID(ctx context.Context, id int64) (*Membership, error) {
	return s.membershipWhere(ctx, s.db, `m.id = ?`, id)
}

// ByNumber returns the membership with this number, or a not-found Error.
func (s *Service) ByNumber(ctx context.Context, number string) (*Membership, error) {
	return s.membershipWhere(ctx, s.db, `m.number = ?`, strings.ToUpper(strings.TrimSpace(number)))
}

// ForUser returns the user's own membership (the one they hold, not one they share as
// a household member), or nil. A person has at most one: rejoining reuses it, so the
// number stays theirs.
func (s *Service) ForUser(ctx context.Context, userID int64) (*Membership, error) {
	m, err := s.membershipWhere(ctx, s.db, `m.user_id = ? ORDER BY m.id DESC LIMIT 1`, userID)
	if errors.Is(err, errNotFound) {
		return nil, nil
	}
	return m, err
}

// ScopesFor is the scope rule for the auth room: the scopes userID holds now through
// their own membership or as a household member of someone else's.
func (s *Service) ScopesFor(ctx context.Context, userID int64) ([]string, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT m.status, m.paid_until, m.grace_days, p.scopes,
		CASE WHEN m.user_id = ? OR EXISTS (SELECT 1 FROM membership_household x
			WHERE x.membership_id = m.id AND x.removed_at IS NULL AND x.user_id = ?) THEN 0 ELSE 1 END
		FROM memberships m JOIN membership_plans p ON p.id = m.plan_id
		WHERE m.user_id = ? OR m.id IN (SELECT h.membership_id FROM membership_household h
			WHERE h.removed_at IS NULL AND (h.user_id = ? OR (h.user_id IS NULL AND h.email <> '' AND h.email = (SELECT email FROM users WHERE id = ?))))`),
		userID, userID, userID, userID, userID)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	now := s.Now()
	var out []string
	claim := false
	for rs.Next() {
		var status, scopes string
		var paid sql.NullInt64
		var grace int
		var byEmail bool
		if err := rs.Scan(&status, &paid, &grace, &scopes, &byEmail); err != nil {
			return nil, err
		}
		claim = claim || byEmail
		if !Granting(effectiveStatus(status, store.TimeOrNil(paid), grace, now)) {
			continue
		}
		var list []string
		if err := jsonUnmarshal(scopes, &list); err != nil {
			return nil, err
		}
		for _, sc := range list {
			if !HasScope(out, sc) {
				out = append(out, sc)
			}
		}
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	rs.Close()
	if claim {
		// Invited by address before having an account: link the invitation to the account
		// now, keeping no copy of the name and address (which go with the account, also
		// when it is deleted).
		if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE membership_household SET user_id = ?, name = '', email = ''
			WHERE user_id IS NULL AND removed_at IS NULL AND email <> '' AND email = (SELECT email FROM users WHERE id = ?)`), userID, userID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// nextNumber takes the next free membership number inside tx. The counter row is
// locked by the UPDATE until tx ends, so concurrent creations queue; a number already
// used (an imported one) is skipped.
func (s *Service) nextNumber(ctx context.Context, tx *sql.Tx) (string, error) {
	for {
		var n int64
		if err := tx.QueryRowContext(ctx, `UPDATE membership_counter SET n = n + 1 WHERE id = 1 RETURNING n`).Scan(&n); err != nil {
			return "", err
		}
		num := fmt.Sprintf("M-%06d", n)
		var one int
		err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT 1 FROM memberships WHERE number = ?`), num).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return num, nil
		}
		if err != nil {
			return "", err
		}
	}
}

// change is one transition: the new status and fields, and the history row's why.
type change struct {
	status    string
	method    string     // "" keeps it
	planID    int64      // 0 keeps it
	paidUntil *time.Time // with setPaid
	setPaid   bool
	why       string
	by        int64 // 0: the system
}

// newMembership inserts a membership for userID and its first history row.
func (s *Service) newMembership(ctx context.Context, tx *sql.Tx, userID int64, plan Plan, concession, status, method string,
	paidUntil *time.Time, number string, by int64, why string) (int64, error) {
	now := s.Now()
	if number == "" {
		var err error
		if number, err = s.nextNumber(ctx, tx); err != nil {
			return 0, err
		}
	}
	var uid any
	if userID != 0 {
		uid = userID
	}
	var id int64
	err := tx.QueryRowContext(ctx, s.db.Rebind(`INSERT INTO memberships (number, user_id, plan_id, concession, status, method,
		started_at, paid_until, grace_days, auto_renew, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		number, uid, plan.ID, concession, status, method, now.Unix(), store.UnixOrNil(paidUntil), plan.GraceDays, false, now.Unix(), now.Unix()).Scan(&id)
	if err != nil {
		if store.IsUniqueViolation(err) && strings.Contains(err.Error(), "number") {
			return 0, invalid("number", "The membership number %s is taken.", number)
		}
		if store.IsUniqueViolation(err) {
			return 0, &httpx.Error{Code: httpx.ECONFLICT, Message: "This account has a membership already."}
		}
		return 0, err
	}
	return id, s.addHistory(ctx, tx, id, by, "", status, why, now)
}

func (s *Service) addHistory(ctx context.Context, q store.Querier, id, by int64, from, to, why string, at time.Time) error {
	var byID any
	if by != 0 {
		byID = by
	}
	_, err := q.ExecContext(ctx, s.db.Rebind(`INSERT INTO membership_history (membership_id, at, by_user_id, from_status, to_status, why)
		VALUES (?, ?, ?, ?, ?, ?)`), id, at.Unix(), byID, from, to, why)
	return err
}

// apply makes a change to membership id inside tx, provided its stored status is still
// from (so two instances applying the same change make it once), and writes its
// history row. It reports whether it changed anything.
func (s *Service) apply(ctx context.Context, tx *sql.Tx, id int64, from string, c change, at time.Time) (bool, error) {
	set := []string{"status = ?", "updated_at = ?"}
	args := []any{c.status, at.Unix()}
	if c.method != "" {
		set, args = append(set, "method = ?"), append(args, c.method)
	}
	if c.planID != 0 {
		set, args = append(set, "plan_id = ?"), append(args, c.planID)
	}
	if c.setPaid {
		set, args = append(set, "paid_until = ?"), append(args, store.UnixOrNil(c.paidUntil))
	}
	args = append(args, id, from)
	res, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE memberships SET `+strings.Join(set, ", ")+` WHERE id = ? AND status = ?`), args...)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	return true, s.addHistory(ctx, tx, id, c.by, from, c.status, c.why, at)
}

// lockedMembership reads a membership inside tx for a change. On PostgreSQL the row is
// locked until tx ends; on SQLite the immediate transaction already excludes writers.
func (s *Service) lockedMembership(ctx context.Context, tx *sql.Tx, id int64) (rawMembership, error) {
	q := `SELECT ` + membershipColumns + membershipFrom + ` WHERE m.id = ?` + s.db.ForUpdate("m")
	return scanMembership(tx.QueryRowContext(ctx, s.db.Rebind(q), id))
}

// Advance records the transitions that time has brought by now: active memberships
// past paid-until go to grace, grace past its days to lapsed, complimentary ones past
// their end to lapsed. It is what the scheduler calls; running it twice, or on two
// instances at once, records each transition once (every step is conditional on the
// status it leaves). It returns how many memberships changed.
func (s *Service) Advance(ctx context.Context, now time.Time) (int, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id, status, paid_until, grace_days FROM memberships
		WHERE status IN (?, ?, ?) AND paid_until IS NOT NULL AND paid_until <= ? ORDER BY id`),
		StatusActive, StatusGrace, StatusComplimentary, now.Unix())
	type due struct {
		id, paid  int64
		status    string
		graceDays int
	}
	list, err := store.Collect(rs, err, func(row store.Row) (d due, err error) {
		err = row.Scan(&d.id, &d.status, &d.paid, &d.graceDays)
		return d, err
	})
	if err != nil {
		return 0, err
	}
	changed := 0
	for _, d := range list {
		paid := store.Time(d.paid)
		to := effectiveStatus(d.status, &paid, d.graceDays, now)
		if to == d.status {
			continue
		}
		why := "paid-until passed; grace period began"
		if to == StatusLapsed {
			why = "grace period ended"
			if d.status == StatusComplimentary {
				why = "complimentary membership ended"
			}
		}
		var ok bool
		err := s.tx(ctx, func(tx *sql.Tx) error {
			var err error
			ok, err = s.apply(ctx, tx, d.id, d.status, change{status: to, why: why}, now)
			return err
		})
		if err != nil {
			return changed, err
		}
		if ok {
			changed++
		}
	}
	return changed, nil
}

// History lists a membership's changes, oldest first.
func (s *Service) History(ctx context.Context, id int64) ([]HistoryRow, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT h.at, h.by_user_id, COALESCE(u.name, ''), COALESCE(u.email, ''),
		h.from_status, h.to_status, h.why FROM membership_history h LEFT JOIN users u ON u.id = h.by_user_id
		WHERE h.membership_id = ? ORDER BY h.id`), id)
	return store.Collect(rs, err, func(r store.Row) (HistoryRow, error) {
		var h HistoryRow
		var at int64
		var by sql.NullInt64
		var name, email string
		err := r.Scan(&at, &by, &name, &email, &h.From, &h.To, &h.Why)
		h.At = store.Time(at)
		switch {
		case !by.Valid:
			h.By = "system"
		case name != "":
			h.By = name
		default:
			h.By = email
		}
		return h, err
	})
}
