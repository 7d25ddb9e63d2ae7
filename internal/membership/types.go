package membership

import (
	"slices"
	"time"
)

// Periods of a plan.
const (
	PeriodAnnual   = "annual"
	PeriodMonthly  = "monthly"
	PeriodLifetime = "lifetime"
	PeriodFixed    = "fixed" // annual, renewing on RenewMonth/RenewDay for everyone
)

// Statuses of a membership.
const (
	StatusPending       = "pending"
	StatusActive        = "active"
	StatusGrace         = "grace"
	StatusLapsed        = "lapsed"
	StatusCancelled     = "cancelled"
	StatusComplimentary = "complimentary"
	StatusLifetime      = "lifetime"
)

// Methods of payment.
const (
	MethodStripe        = "stripe"
	MethodManual        = "manual"
	MethodComplimentary = "complimentary"
)

// Scope names every account or membership may carry.
const (
	ScopeRegistered = "registered"
	ScopeMember     = "member"
)

// DefaultGraceDays is how long a membership keeps its scopes after paid-until.
const DefaultGraceDays = 30

// Concession is a price variant of a plan (student, over-75).
type Concession struct {
	Slug       string `json:"slug"`
	Name       string `json:"name"`
	PriceMinor int64  `json:"price_minor"`
}

// Plan is a tier of membership.
type Plan struct {
	ID            int64        `json:"id"`
	Slug          string       `json:"slug"`
	Name          string       `json:"name"`
	PriceMinor    int64        `json:"price_minor"`
	Currency      string       `json:"currency"`
	Period        string       `json:"period"`
	RenewMonth    int          `json:"renew_month"`
	RenewDay      int          `json:"renew_day"`
	Benefits      string       `json:"benefits"`
	Scopes        []string     `json:"scopes"`
	HouseholdSize int          `json:"household_size"`
	Concessions   []Concession `json:"concessions"`
	OnSale        bool         `json:"on_sale"`
	GraceDays     int          `json:"grace_days"`
}

// Concession returns the plan's concession with this slug.
func (p *Plan) Concession(slug string) (Concession, bool) {
	for _, c := range p.Concessions {
		if c.Slug == slug {
			return c, true
		}
	}
	return Concession{}, false
}

// Price is what the plan costs with a concession ("" for none).
func (p *Plan) Price(concession string) int64 {
	if c, ok := p.Concession(concession); ok {
		return c.PriceMinor
	}
	return p.PriceMinor
}

// HouseholdMember is one more person sharing a household membership.
type HouseholdMember struct {
	UserID *int64 `json:"user_id"`
	Name   string `json:"name"`
	Email  string `json:"email"`
	Status string `json:"status"` // "invited" (no account yet) or "joined"
}

// Membership is one person's membership of a plan.
type Membership struct {
	ID         int64             `json:"id"`
	Number     string            `json:"number"`
	UserID     *int64            `json:"user_id"` // nil once the account was deleted
	Plan       Plan              `json:"plan"`
	Concession string            `json:"concession"`
	Status     string            `json:"status"`
	Method     string            `json:"method"`
	StartedAt  time.Time         `json:"started_at"`
	PaidUntil  *time.Time        `json:"paid_until"`
	GraceDays  int               `json:"grace_days"`
	AutoRenew  bool              `json:"auto_renew"`
	Household  []HouseholdMember `json:"household"`
	Scopes     []string          `json:"scopes"`
	// Name and Email are the holder's, filled for admins' lists.
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
}

// HistoryRow is one change of a membership.
type HistoryRow struct {
	At   time.Time `json:"at"`
	By   string    `json:"by"` // the account's name or email; "system"; "" once deleted
	From string    `json:"from"`
	To   string    `json:"to"`
	Why  string    `json:"why"`
}

// Receipt is a payment recorded against a membership.
type Receipt struct {
	ID            int64      `json:"id"`
	Number        string     `json:"number"`
	AmountMinor   int64      `json:"amount_minor"`
	Currency      string     `json:"currency"`
	Method        string     `json:"method"`
	Note          string     `json:"note"`
	PaidAt        time.Time  `json:"paid_at"`
	CoversUntil   *time.Time `json:"covers_until"`
	RefundedMinor int64      `json:"refunded_minor"`
}

// Granting reports whether a status grants its plan's scopes.
func Granting(status string) bool {
	switch status {
	case StatusActive, StatusGrace, StatusComplimentary, StatusLifetime:
		return true
	}
	return false
}

// HasScope reports whether scope is among scopes (an account's auth.User.Scope).
func HasScope(scopes []string, scope string) bool { return slices.Contains(scopes, scope) }

// effectiveStatus is the status at now: an active membership past its paid-until is in
// grace, and past the grace it has lapsed, whether or not Advance has recorded it yet;
// a complimentary one with an end lapses at that end.
func effectiveStatus(status string, paidUntil *time.Time, graceDays int, now time.Time) string {
	if paidUntil == nil {
		return status
	}
	end := paidUntil.Add(time.Duration(graceDays) * 24 * time.Hour)
	switch status {
	case StatusActive:
		if !now.Before(end) {
			return StatusLapsed
		}
		if !now.Before(*paidUntil) {
			return StatusGrace
		}
	case StatusGrace:
		if !now.Before(end) {
			return StatusLapsed
		}
	case StatusComplimentary:
		if !now.Before(*paidUntil) {
			return StatusLapsed
		}
	}
	return status
}

// nextPaidUntil is how far a payment made at now extends a membership of plan p that
// was paid until cur (nil: never): from the later of the two, one period on. Lifetime
// plans have no end (nil).
func nextPaidUntil(p *Plan, cur *time.Time, now time.Time) *time.Time {
	from := now
	if cur != nil && cur.After(now) {
		from = *cur
	}
	var t time.Time
	switch p.Period {
	case PeriodLifetime:
		return nil
	case PeriodMonthly:
		t = from.AddDate(0, 1, 0)
	case PeriodFixed:
		t = time.Date(from.Year(), time.Month(p.RenewMonth), p.RenewDay, 0, 0, 0, 0, time.UTC)
		for !t.After(from) {
			t = t.AddDate(1, 0, 0)
		}
	default:
		t = from.AddDate(1, 0, 0)
	}
	t = t.UTC()
	return &t
}
