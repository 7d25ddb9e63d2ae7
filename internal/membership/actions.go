package membership

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// MaxNoteLen bounds an admin's note on a payment and a why of a change.
const MaxNoteLen = 500

func checkWhy(fe *httpx.FieldErrors, field, why string) string {
	w, err := textfield.SingleLine(why, MaxNoteLen)
	if err != nil {
		fe.Add(field, "The %s must be one line of at most %d characters.", field, MaxNoteLen)
	}
	return strings.TrimSpace(w)
}

// Join starts userID's membership of a plan: pending until paid. A person who had a
// membership before (lapsed, cancelled, or still pending) rejoins under the same
// number; one whose membership grants scopes now is told so (409).
func (s *Service) Join(ctx context.Context, userID int64, planSlug, concession string) (*Membership, error) {
	var fe httpx.FieldErrors
	plan, err := s.PlanBySlug(ctx, planSlug)
	if errors.Is(err, errNotFound) || (err == nil && !plan.OnSale) {
		fe.Add("plan", "Choose one of the plans on sale.")
	} else if err != nil {
		return nil, err
	} else if concession != "" {
		if _, ok := plan.Concession(concession); !ok {
			fe.Add("concession", "The plan %s has no concession %q.", plan.Name, textfield.Escape(concession))
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return s.latestOrNew(ctx, userID, func(tx *sql.Tx) (int64, error) {
		return s.newMembership(ctx, tx, userID, plan, concession, StatusPending, MethodStripe, nil, "", userID, "joined "+plan.Name)
	}, func(tx *sql.Tx, raw rawMembership) error {
		id := raw.ID
		if Granting(effectiveStatus(raw.Status, raw.PaidUntil, raw.GraceDays, s.Now())) && raw.Status != StatusPending {
			return &httpx.Error{Code: httpx.ECONFLICT, Message: "You are a member already: your membership " + raw.Number + " is " + raw.Status + "."}
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE memberships SET plan_id = ?, concession = ?, grace_days = ? WHERE id = ?`),
			plan.ID, concession, plan.GraceDays, id); err != nil {
			return err
		}
		if raw.Status == StatusPending {
			return nil
		}
		_, err := s.apply(ctx, tx, id, raw.Status, change{status: StatusPending, method: MethodStripe, by: userID, why: "rejoined " + plan.Name}, s.Now())
		return err
	})
}

// latestOrNew runs change on the user's latest membership in one transaction, or
// makes one with create when they have none, and answers the membership then.
func (s *Service) latestOrNew(ctx context.Context, userID int64, create func(tx *sql.Tx) (int64, error), change func(tx *sql.Tx, raw rawMembership) error) (*Membership, error) {
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		raw, err := scanMembership(tx.QueryRowContext(ctx, s.db.Rebind(`SELECT `+membershipColumns+membershipFrom+
			` WHERE m.user_id = ? ORDER BY m.id DESC LIMIT 1`), userID))
		if errors.Is(err, errNotFound) {
			id, err = create(tx)
			return err
		}
		if err != nil {
			return err
		}
		id = raw.ID
		return change(tx, raw)
	})
	if err != nil {
		return nil, err
	}
	return s.ByID(ctx, id)
}

// ManualPayment is a payment an admin records: cheque, bank transfer or cash.
type ManualPayment struct {
	AmountMinor int64      `json:"amount_minor"`
	Currency    string     `json:"currency"`
	Method      string     `json:"method"`
	Note        string     `json:"note"`
	PaidUntil   *time.Time `json:"paid_until"` // nil: one period of the plan on
}

// RecordPayment records a manual payment by admin `by` for membership id and makes it
// active until the payment's end.
func (s *Service) RecordPayment(ctx context.Context, by, id int64, p ManualPayment) (*Membership, error) {
	var fe httpx.FieldErrors
	if p.AmountMinor <= 0 || p.AmountMinor > MaxPriceMinor {
		fe.Add("amount_minor", "The amount must be a whole number of minor units (pence) from 1 to %d.", MaxPriceMinor)
	}
	p.Currency = checkCurrency(&fe, p.Currency)
	if p.Method == "" {
		p.Method = MethodManual
	}
	if p.Method != MethodManual {
		fe.Add("method", "An admin records manual payments only (cheque, bank transfer, cash): method must be manual.")
	}
	p.Note = checkWhy(&fe, "note", p.Note)
	if p.PaidUntil != nil && !p.PaidUntil.After(s.Now()) {
		fe.Add("paid_until", "Paid until must be in the future.")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return s.update(ctx, id, func(tx *sql.Tx) error {
		_, err := s.pay(ctx, tx, id, payment{amount: p.AmountMinor, currency: p.Currency, method: MethodManual,
			note: p.Note, paidUntil: p.PaidUntil, by: by, why: "manual payment recorded"})
		return err
	})
}

type payment struct {
	amount     int64
	currency   string
	method     string
	externalID string
	note       string
	paidUntil  *time.Time // nil: one period on
	by         int64
	why        string
}

// pay records a payment for membership id inside tx and extends it. A payment whose
// external id was recorded before changes nothing (false).
func (s *Service) pay(ctx context.Context, tx *sql.Tx, id int64, p payment) (bool, error) {
	raw, err := s.lockedMembership(ctx, tx, id)
	if err != nil {
		return false, err
	}
	plan, err := s.planByID(ctx, tx, raw.planID)
	if err != nil {
		return false, err
	}
	now := s.Now()
	until := p.paidUntil
	if until == nil {
		from := now
		if raw.PaidUntil != nil && effectiveStatus(raw.Status, raw.PaidUntil, raw.GraceDays, now) == StatusGrace {
			// Paid in grace: the new period follows the last one (the member kept its
			// scopes through grace), as a payment made early does.
			from = *raw.PaidUntil
		}
		until = nextPaidUntil(&plan, raw.PaidUntil, from)
	}
	if p.currency != plan.Currency && p.method != MethodManual {
		s.log.Warn("membership: a payment's currency differs from its plan's", "membership", raw.Number, "currency", p.currency, "plan", plan.Currency)
	}
	var ext any
	if p.externalID != "" {
		ext = p.externalID
	}
	var pid int64
	err = tx.QueryRowContext(ctx, s.db.Rebind(`INSERT INTO membership_payments (membership_id, receipt_number, amount_minor, currency,
		method, external_id, note, paid_at, covers_until, by_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		id, fmt.Sprintf("pending-%d-%d", id, now.UnixNano()), p.amount, p.currency, p.method, ext, p.note, now.Unix(), store.UnixOrNil(until), nullID(p.by), now.Unix()).Scan(&pid)
	if err != nil {
		if p.externalID != "" && store.IsUniqueViolation(err) {
			return false, errDuplicate
		}
		return false, err
	}
	if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE membership_payments SET receipt_number = ? WHERE id = ?`),
		fmt.Sprintf("R-%06d", pid), pid); err != nil {
		return false, err
	}
	status := StatusActive
	if plan.Period == PeriodLifetime {
		status, until = StatusLifetime, nil
	}
	c := change{status: status, method: p.method, paidUntil: until, setPaid: true, by: p.by, why: p.why}
	if raw.Status == status {
		// Still active: the status stays, the history row records the new paid-until.
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE memberships SET paid_until = ?, method = ?, updated_at = ? WHERE id = ?`),
			store.UnixOrNil(until), p.method, now.Unix(), id); err != nil {
			return false, err
		}
		return true, s.addHistory(ctx, tx, id, p.by, status, status, p.why+untilText(until), now)
	}
	c.why += untilText(until)
	_, err = s.apply(ctx, tx, id, raw.Status, c, now)
	return true, err
}

func untilText(t *time.Time) string {
	if t == nil {
		return ""
	}
	return "; paid until " + t.Format(time.DateOnly)
}

// errDuplicate ends the transaction of a payment recorded before; callers treat it as
// success.
var errDuplicate = errors.New("membership: payment recorded before")

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// existingPlan is the plan an admin names by its slug, any plan on sale or not; one
// that does not exist is fe's "plan" error.
func (s *Service) existingPlan(ctx context.Context, fe *httpx.FieldErrors, slug string) (Plan, error) {
	plan, err := s.PlanBySlug(ctx, slug)
	if errors.Is(err, errNotFound) {
		fe.Add("plan", "There is no plan %q.", textfield.Escape(slug))
		return plan, nil
	}
	return plan, err
}

// GrantComplimentary gives userID a complimentary membership of a plan (until nil: no
// end), reusing their membership (and number) if they have one.
func (s *Service) GrantComplimentary(ctx context.Context, by, userID int64, planSlug string, until *time.Time, why string) (*Membership, error) {
	var fe httpx.FieldErrors
	plan, err := s.existingPlan(ctx, &fe, planSlug)
	if err != nil {
		return nil, err
	}
	why = checkWhy(&fe, "why", why)
	if why == "" {
		why = "complimentary membership granted"
	}
	if until != nil && !until.After(s.Now()) {
		fe.Add("until", "The end of a complimentary membership must be in the future.")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return s.latestOrNew(ctx, userID, func(tx *sql.Tx) (int64, error) {
		return s.newMembership(ctx, tx, userID, plan, "", StatusComplimentary, MethodComplimentary, until, "", by, why)
	}, func(tx *sql.Tx, raw rawMembership) error {
		return s.setComplimentary(ctx, tx, raw, plan, until, by, why)
	})
}

func (s *Service) setComplimentary(ctx context.Context, tx *sql.Tx, raw rawMembership, plan Plan, until *time.Time, by int64, why string) error {
	if raw.Status == StatusComplimentary {
		_, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE memberships SET plan_id = ?, paid_until = ?, updated_at = ? WHERE id = ?`),
			plan.ID, store.UnixOrNil(until), s.Now().Unix(), raw.ID)
		if err == nil {
			err = s.addHistory(ctx, tx, raw.ID, by, raw.Status, StatusComplimentary, why, s.Now())
		}
		return err
	}
	_, err := s.apply(ctx, tx, raw.ID, raw.Status, change{status: StatusComplimentary, method: MethodComplimentary,
		planID: plan.ID, paidUntil: until, setPaid: true, by: by, why: why}, s.Now())
	return err
}

// GrantComplimentaryTo is GrantComplimentary for a membership named by id (the admin
// API's form).
func (s *Service) GrantComplimentaryTo(ctx context.Context, by, id int64, planSlug string, until *time.Time, why string) (*Membership, error) {
	m, err := s.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if m.UserID == nil {
		return nil, &httpx.Error{Code: httpx.ECONFLICT, Message: "The account of membership " + m.Number + " was deleted."}
	}
	return s.GrantComplimentary(ctx, by, *m.UserID, planSlug, until, why)
}

// ChangePlan moves membership id to another plan, keeping its status and paid-until.
func (s *Service) ChangePlan(ctx context.Context, by, id int64, planSlug, why string) (*Membership, error) {
	var fe httpx.FieldErrors
	plan, err := s.existingPlan(ctx, &fe, planSlug)
	if err != nil {
		return nil, err
	}
	why = checkWhy(&fe, "why", why)
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return s.updateLocked(ctx, id, func(tx *sql.Tx, raw rawMembership) error {
		if raw.planID == plan.ID {
			return invalid("plan", "The membership is on %s already.", plan.Name)
		}
		old, err := s.planByID(ctx, tx, raw.planID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE memberships SET plan_id = ?, concession = '', updated_at = ? WHERE id = ?`),
			plan.ID, s.Now().Unix(), id); err != nil {
			return err
		}
		msg := "plan changed from " + old.Name + " to " + plan.Name
		if why != "" {
			msg += ": " + why
		}
		return s.addHistory(ctx, tx, id, by, raw.Status, raw.Status, msg, s.Now())
	})
}

// CancelRenewal stops a membership renewing by itself; it keeps its scopes until
// paid-until and its grace end.
func (s *Service) CancelRenewal(ctx context.Context, by, id int64) (*Membership, error) {
	return s.updateLocked(ctx, id, func(tx *sql.Tx, raw rawMembership) error {
		if !raw.AutoRenew {
			return nil
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE memberships SET auto_renew = ?, updated_at = ? WHERE id = ?`), false, s.Now().Unix(), id); err != nil {
			return err
		}
		return s.addHistory(ctx, tx, id, by, raw.Status, raw.Status, "automatic renewal cancelled", s.Now())
	})
}

// Receipts lists the payments of a membership, newest first.
func (s *Service) Receipts(ctx context.Context, id int64) ([]Receipt, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id, receipt_number, amount_minor, currency, method, note, paid_at,
		covers_until, refunded_minor FROM membership_payments WHERE membership_id = ? ORDER BY paid_at DESC, id DESC`), id)
	return store.Collect(rs, err, func(r store.Row) (Receipt, error) {
		var x Receipt
		var paid int64
		var covers sql.NullInt64
		err := r.Scan(&x.ID, &x.Number, &x.AmountMinor, &x.Currency, &x.Method, &x.Note, &paid, &covers, &x.RefundedMinor)
		x.PaidAt, x.CoversUntil = store.Time(paid), store.TimeOrNil(covers)
		return x, err
	})
}

// SearchResult is a page of members for admins.
type SearchResult struct {
	Members []*Membership `json:"members"`
	Total   int           `json:"total"`
}

// PageSize is how many members a page of the admin list holds.
const PageSize = 50

// Search finds memberships by the holder's name or email, the number, and status
// ("" for any); page counts from 1.
func (s *Service) Search(ctx context.Context, q, status string, page int) (SearchResult, error) {
	where := []string{"1 = 1"}
	var args []any
	if q = strings.TrimSpace(q); q != "" {
		like := "%" + strings.ToLower(q) + "%"
		where = append(where, "(LOWER(COALESCE(u.name, '')) LIKE ? OR LOWER(COALESCE(u.email, '')) LIKE ? OR LOWER(m.number) LIKE ?)")
		args = append(args, like, like, like)
	}
	if status != "" {
		where = append(where, "m.status = ?")
		args = append(args, status)
	}
	if page < 1 {
		page = 1
	}
	w := ` WHERE ` + strings.Join(where, " AND ")
	var res SearchResult
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*)`+membershipFrom+w), args...).Scan(&res.Total); err != nil {
		return res, err
	}
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT `+membershipColumns+membershipFrom+w+` ORDER BY m.number LIMIT ? OFFSET ?`),
		append(args, PageSize, (page-1)*PageSize)...)
	raws, err := store.Collect(rs, err, scanMembership)
	if err != nil {
		return res, err
	}
	res.Members = []*Membership{}
	for _, raw := range raws {
		m, err := s.complete(ctx, s.db, raw)
		if err != nil {
			return res, err
		}
		res.Members = append(res.Members, m)
	}
	return res, nil
}
