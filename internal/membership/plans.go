package membership

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// Limits of what an admin may type into a plan.
const (
	MaxPlanNameLen     = 100
	MaxBenefitsLen     = 4000
	MaxScopes          = 20
	MaxConcessions     = 10
	MaxHouseholdSize   = 10
	MaxPriceMinor      = 100_000_000 // one million in major units
	MaxGraceDays       = 365
	DefaultCurrency    = "GBP"
	maxConcessionName  = 100
	maxScopeNameLength = 64
)

var (
	slugRe     = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	scopeRe    = regexp.MustCompile(`^[a-z][a-z0-9_-]*(?::[a-z0-9_-]+)*$`)
	currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)
)

// ValidCurrency reports whether c is an ISO 4217 code in form: three capital letters.
func ValidCurrency(c string) bool { return currencyRe.MatchString(c) }

// checkCurrency reads the currency field of a plan or a payment: none is
// DefaultCurrency, and any case will do.
func checkCurrency(fe *httpx.FieldErrors, c string) string {
	if c == "" {
		c = DefaultCurrency
	}
	c = strings.ToUpper(strings.TrimSpace(c))
	if !ValidCurrency(c) {
		fe.Add("currency", "The currency must be an ISO 4217 code of three letters, such as GBP.")
	}
	return c
}

// normalizePlan fills defaults and checks every field, answering field errors named
// like the JSON.
func normalizePlan(p *Plan) error {
	var fe httpx.FieldErrors
	p.Slug = strings.TrimSpace(p.Slug)
	if len(p.Slug) > 64 || !slugRe.MatchString(p.Slug) {
		fe.Add("slug", "The slug must be 1 to 64 lower-case letters, digits and single hyphens.")
	}
	if name, err := textfield.SingleLine(p.Name, MaxPlanNameLen); err != nil || strings.TrimSpace(name) == "" {
		fe.Add("name", "The name must be one line of 1 to %d characters.", MaxPlanNameLen)
	} else {
		p.Name = strings.TrimSpace(name)
	}
	if p.PriceMinor < 0 || p.PriceMinor > MaxPriceMinor {
		fe.Add("price_minor", "The price must be a whole number of minor units (pence) from 0 to %d.", MaxPriceMinor)
	}
	p.Currency = checkCurrency(&fe, p.Currency)
	switch p.Period {
	case PeriodAnnual, PeriodMonthly, PeriodLifetime:
		p.RenewMonth, p.RenewDay = 0, 0
	case PeriodFixed:
		if p.RenewMonth < 1 || p.RenewMonth > 12 {
			fe.Add("renew_month", "A fixed-date plan needs the month it renews in, 1 to 12.")
		} else if p.RenewDay < 1 || p.RenewDay > 28 {
			fe.Add("renew_day", "A fixed-date plan needs the day it renews on, 1 to 28 (every month has it).")
		}
	default:
		fe.Add("period", "The period must be annual, monthly, lifetime or fixed.")
	}
	if b, err := textfield.MultiLine(p.Benefits, MaxBenefitsLen); err != nil {
		fe.Add("benefits", "The benefits may be at most %d characters of text.", MaxBenefitsLen)
	} else {
		p.Benefits = b
	}
	if len(p.Scopes) == 0 {
		p.Scopes = []string{ScopeMember}
	}
	if len(p.Scopes) > MaxScopes {
		fe.Add("scopes", "A plan may grant at most %d scopes.", MaxScopes)
	}
	for _, sc := range p.Scopes {
		if len(sc) > maxScopeNameLength || !scopeRe.MatchString(sc) || sc == ScopeRegistered || sc == "editor" || sc == "admin" {
			fe.Add("scopes", "%q is not a scope a plan may grant: use lower-case names such as member or member:overseas (not registered, editor or admin).", textfield.Escape(sc))
		}
	}
	if p.HouseholdSize == 0 {
		p.HouseholdSize = 1
	}
	if p.HouseholdSize < 1 || p.HouseholdSize > MaxHouseholdSize {
		fe.Add("household_size", "A household may have 1 to %d people.", MaxHouseholdSize)
	}
	if len(p.Concessions) > MaxConcessions {
		fe.Add("concessions", "A plan may have at most %d concessions.", MaxConcessions)
	}
	seen := map[string]bool{}
	for i := range p.Concessions {
		c := &p.Concessions[i]
		if !slugRe.MatchString(c.Slug) || len(c.Slug) > 64 || seen[c.Slug] {
			fe.Add("concessions", "Each concession needs its own slug of lower-case letters, digits and hyphens.")
		}
		seen[c.Slug] = true
		if n, err := textfield.SingleLine(c.Name, maxConcessionName); err != nil || strings.TrimSpace(n) == "" {
			fe.Add("concessions", "Each concession needs a name of one line of at most %d characters.", maxConcessionName)
		}
		if c.PriceMinor < 0 || c.PriceMinor > MaxPriceMinor {
			fe.Add("concessions", "A concession's price must be a whole number of minor units from 0 to %d.", MaxPriceMinor)
		}
	}
	if p.Concessions == nil {
		p.Concessions = []Concession{}
	}
	if p.GraceDays == 0 {
		p.GraceDays = DefaultGraceDays
	}
	if p.GraceDays < 0 || p.GraceDays > MaxGraceDays {
		fe.Add("grace_days", "The grace period must be 0 to %d days.", MaxGraceDays)
	}
	return fe.Err()
}

const planColumns = `id, slug, name, price_minor, currency, period, renew_month, renew_day, benefits, scopes, household_size, concessions, on_sale, grace_days`

func scanPlan(row store.Row) (Plan, error) {
	var p Plan
	var scopes, conc string
	err := row.Scan(&p.ID, &p.Slug, &p.Name, &p.PriceMinor, &p.Currency, &p.Period, &p.RenewMonth, &p.RenewDay,
		&p.Benefits, &scopes, &p.HouseholdSize, &conc, &p.OnSale, &p.GraceDays)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return p, errNotFound
		}
		return p, err
	}
	if err := json.Unmarshal([]byte(scopes), &p.Scopes); err != nil {
		return p, err
	}
	if err := json.Unmarshal([]byte(conc), &p.Concessions); err != nil {
		return p, err
	}
	if p.Concessions == nil {
		p.Concessions = []Concession{}
	}
	return p, nil
}

// Plans lists the plans in their order; onSaleOnly leaves out those not on sale.
func (s *Service) Plans(ctx context.Context, onSaleOnly bool) ([]Plan, error) {
	q := `SELECT ` + planColumns + ` FROM membership_plans`
	if onSaleOnly {
		q += ` WHERE on_sale = ?`
	}
	q += ` ORDER BY position, id`
	var args []any
	if onSaleOnly {
		args = append(args, true)
	}
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(q), args...)
	return store.Collect(rs, err, scanPlan)
}

// PlanBySlug returns a plan, or a not-found Error.
func (s *Service) PlanBySlug(ctx context.Context, slug string) (Plan, error) {
	return scanPlan(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+planColumns+` FROM membership_plans WHERE slug = ?`), slug))
}

func (s *Service) planByID(ctx context.Context, q store.Querier, id int64) (Plan, error) {
	return scanPlan(q.QueryRowContext(ctx, s.db.Rebind(`SELECT `+planColumns+` FROM membership_plans WHERE id = ?`), id))
}

// SavePlan creates the plan with p.Slug or, when one exists, replaces its fields. The
// slug is the plan's name in URLs and imports and never changes.
func (s *Service) SavePlan(ctx context.Context, p Plan) (Plan, error) {
	if err := normalizePlan(&p); err != nil {
		return p, err
	}
	scopes, _ := json.Marshal(p.Scopes)
	conc, _ := json.Marshal(p.Concessions)
	now := s.Now().Unix()
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE membership_plans SET name = ?, price_minor = ?, currency = ?, period = ?,
		renew_month = ?, renew_day = ?, benefits = ?, scopes = ?, household_size = ?, concessions = ?, on_sale = ?,
		grace_days = ?, updated_at = ? WHERE slug = ?`),
		p.Name, p.PriceMinor, p.Currency, p.Period, p.RenewMonth, p.RenewDay, p.Benefits, string(scopes),
		p.HouseholdSize, string(conc), p.OnSale, p.GraceDays, now, p.Slug)
	if err != nil {
		return p, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO membership_plans (slug, name, price_minor, currency, period,
			renew_month, renew_day, benefits, scopes, household_size, concessions, on_sale, grace_days, position, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM membership_plans), ?, ?)`),
			p.Slug, p.Name, p.PriceMinor, p.Currency, p.Period, p.RenewMonth, p.RenewDay, p.Benefits, string(scopes),
			p.HouseholdSize, string(conc), p.OnSale, p.GraceDays, now, now)
		if err != nil && store.IsUniqueViolation(err) {
			return s.SavePlan(ctx, p) // another admin created it meanwhile: update theirs
		}
		if err != nil {
			return p, err
		}
	}
	return s.PlanBySlug(ctx, p.Slug)
}
