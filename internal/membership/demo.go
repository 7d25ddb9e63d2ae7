package membership

import (
	"context"
	"errors"
	"slices"
)

// DemoPlans are the plans `lineage serve --demo` starts with, so the pages have
// something to show.
var DemoPlans = []Plan{
	{Slug: "individual", Name: "Individual", PriceMinor: 2400, Period: PeriodAnnual, OnSale: true,
		Benefits:    "The journal four times a year, members-only records, scans and trees, and the library's lending service.",
		Concessions: []Concession{{Slug: "student", Name: "Student", PriceMinor: 1200}, {Slug: "over-75", Name: "Over 75", PriceMinor: 1800}}},
	{Slug: "joint", Name: "Joint (household)", PriceMinor: 3000, Period: PeriodAnnual, HouseholdSize: 2, OnSale: true,
		Benefits: "Everything in Individual for two people at one address, each with their own account; one copy of the journal."},
	{Slug: "overseas", Name: "Overseas", PriceMinor: 2800, Period: PeriodAnnual, OnSale: true, Scopes: []string{ScopeMember, "member:overseas"},
		Benefits: "Everything in Individual, with the journal posted abroad and the overseas members' research service."},
	{Slug: "life", Name: "Life", PriceMinor: 40000, Period: PeriodLifetime, OnSale: true,
		Benefits: "Everything in Individual, for life, with one payment."},
}

// HonoraryPlan is made when a member is granted a complimentary membership on a store
// without any plan granting "member" (`lineage user add --role member` on a new site).
var HonoraryPlan = Plan{Slug: "honorary", Name: "Honorary", PriceMinor: 0, Period: PeriodLifetime, OnSale: false,
	Benefits: "Complimentary membership granted by the society."}

// LoadDemoPlans saves DemoPlans into a store without plans; it reports whether it did.
func (s *Service) LoadDemoPlans(ctx context.Context) (bool, error) {
	have, err := s.Plans(ctx, false)
	if err != nil || len(have) > 0 {
		return false, err
	}
	for _, p := range DemoPlans {
		if _, err := s.SavePlan(ctx, p); err != nil {
			return false, err
		}
	}
	return true, nil
}

// DefaultPlan is the plan a complimentary membership uses when none is named: the
// first individual plan granting "member", else the honorary plan (made if missing).
func (s *Service) DefaultPlan(ctx context.Context) (Plan, error) {
	plans, err := s.Plans(ctx, false)
	if err != nil {
		return Plan{}, err
	}
	for _, p := range plans {
		if p.HouseholdSize == 1 && slices.Contains(p.Scopes, ScopeMember) {
			return p, nil
		}
	}
	p, err := s.PlanBySlug(ctx, HonoraryPlan.Slug)
	if errors.Is(err, errNotFound) {
		return s.SavePlan(ctx, HonoraryPlan)
	}
	return p, err
}

// GrantMember gives userID a complimentary membership of the default plan: what
// `lineage user add --role member` does, and how tests make a member.
func (s *Service) GrantMember(ctx context.Context, by, userID int64, why string) (*Membership, error) {
	p, err := s.DefaultPlan(ctx)
	if err != nil {
		return nil, err
	}
	return s.GrantComplimentary(ctx, by, userID, p.Slug, nil, why)
}
