package payments

import (
	"context"
	"fmt"
)

// SyncPlan is a plan as sync-stripe needs it.
type SyncPlan struct {
	Slug        string
	Name        string
	PriceMinor  int64
	Currency    string // ISO 4217
	Period      string // annual, monthly, lifetime, fixed
	Concessions []SyncConcession
}

// SyncConcession is a plan's price variant.
type SyncConcession struct {
	Slug       string
	Name       string
	PriceMinor int64
}

// PlanSource lists the plans to be sold by card; the membership room implements it.
type PlanSource interface {
	PlansForSync(ctx context.Context) ([]SyncPlan, error)
}

// SyncResult is one price that sync-stripe looked at.
type SyncResult struct {
	Key     PriceKey
	PriceID string
	Created bool // false when Stripe already had it
}

// SyncPrices makes sure Stripe has a Product for every plan and a Price for its full
// price and each concession, creating only what is missing, so a plan's price is typed
// once, in Lineage. Plans that cost nothing are skipped.
func (s *Service) SyncPrices(ctx context.Context, src PlanSource) ([]SyncResult, error) {
	if s.sc == nil {
		return nil, ErrOff
	}
	plans, err := src.PlansForSync(ctx)
	if err != nil {
		return nil, err
	}
	var out []SyncResult
	for _, p := range plans {
		items := []SyncConcession{{Slug: "", Name: p.Name, PriceMinor: p.PriceMinor}}
		for _, c := range p.Concessions {
			items = append(items, SyncConcession{Slug: c.Slug, Name: p.Name + " (" + c.Name + ")", PriceMinor: c.PriceMinor})
		}
		for _, it := range items {
			if it.PriceMinor <= 0 {
				continue
			}
			k := PriceKey{Plan: p.Slug, Concession: it.Slug, AmountMinor: it.PriceMinor, Currency: p.Currency, Period: p.Period}
			id, created, err := s.ensurePrice(ctx, k, p.Name)
			if err != nil {
				return out, fmt.Errorf("plan %q: %w", p.Slug, err)
			}
			out = append(out, SyncResult{Key: k, PriceID: id, Created: created})
		}
	}
	return out, nil
}
