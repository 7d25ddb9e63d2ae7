package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"lineage/internal/auth"
	"lineage/internal/payments"
)

// membershipCommands are the subcommands of `lineage membership`: the society-wide jobs
// of the membership scheme (a member's own record is `lineage member`). Each parses
// its own flags; a new job adds a line here.
var membershipCommands = map[string]subcommand{
	"sync-stripe":    {runSyncStripe, "", "create the Stripe Product and Prices of every plan that lacks them"},
	"run-due":        {runRunDue, "", "move memberships to grace and lapsed; send the renewal reminders due (for cron)"},
	"gift-aid-claim": {runGiftAidClaim, giftAidClaimUsage, "write HMRC's Gift Aid schedule rows of the eligible payments between two dates"},
}

// runSyncStripe creates in Stripe what the plans need and Stripe lacks, so each price is
// typed once, in Lineage's plans. Run it after adding a plan or changing a price; a
// checkout also creates a missing Price on first use.
func runSyncStripe(ctx context.Context, args []string, w io.Writer) error {
	cfgFn, err := jobFlags("membership sync-stripe", args)
	if err != nil {
		return err
	}
	cfg, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	pay, err := newPayments(cfg, db)
	if err != nil {
		return err
	}
	if !pay.CardPayments() {
		return errors.New("LINEAGE_STRIPE_SECRET_KEY is not set: there is no Stripe account to sync with")
	}
	ms := newMembership(db, auth.New(db, auth.Options{}))
	res, err := pay.SyncPrices(ctx, membershipPlans{ms})
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PLAN\tCONCESSION\tAMOUNT\tCURRENCY\tRENEWS\tSTRIPE PRICE\t")
	created := 0
	for _, r := range res {
		concession := r.Key.Concession
		if concession == "" {
			concession = "-"
		}
		what := "kept"
		if r.Created {
			what, created = "created", created+1
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", r.Key.Plan, concession, r.Key.AmountMinor, r.Key.Currency,
			renews(r.Key), r.PriceID, what)
	}
	tw.Flush()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d price(s) created, %d already in Stripe\n", created, len(res)-created)
	return nil
}

func renews(k payments.PriceKey) string {
	switch k.Period {
	case "annual":
		return "yearly"
	case "monthly":
		return "monthly"
	}
	return "no (one-off)"
}
