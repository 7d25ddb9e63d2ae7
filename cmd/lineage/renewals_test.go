package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/membership"
)

// lineage membership run-due sends a reminder that is due once (the second run finds
// it sent) and delivers it; gift-aid-claim writes the schedule of a declared donor's
// payment, refuses bad dates and keeps an existing file without --force.
func TestMembershipJobsCommands(t *testing.T) {
	ctx, data, db := jobData(t)
	accounts := auth.New(db, auth.Options{})
	ms := newMembership(db, accounts)
	_, err := ms.SavePlan(ctx, membership.Plan{Slug: "individual", Name: "Individual", PriceMinor: 2400, Period: membership.PeriodAnnual, OnSale: true})
	if err != nil {
		t.Fatal(err)
	}
	u, err := accounts.CreateUser(ctx, auth.NewUser{Email: "pat@example.org", Name: "Pat", Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ms.Join(ctx, u.ID, "individual", "")
	if err != nil {
		t.Fatal(err)
	}
	soon := time.Now().Add(5 * 24 * time.Hour)
	if _, err := ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: 2400, PaidUntil: &soon}); err != nil {
		t.Fatal(err)
	}
	if _, err := ms.DeclareGiftAid(ctx, u.ID, membership.GiftAidInput{Declared: true, FirstName: "Pat", LastName: "Smith-Jones",
		House: "3", Postcode: "s19 2bd", Address: "Mill Lane"}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	run := func(fn func(context.Context, []string, io.Writer) error, args ...string) (string, error) {
		return runJob(ctx, data, fn, args...)
	}
	out, err := run(runRunDue)
	if err != nil || out != "0 membership(s) moved to grace or lapsed; 1 reminder(s) put in the outbox (30d,7d,lapse)\n1 mail(s) sent\n" {
		t.Fatalf("run-due: %q %v", out, err)
	}
	if out, err := run(runRunDue); err != nil || !strings.Contains(out, "; 0 reminder(s)") {
		t.Errorf("run-due again: %q %v", out, err)
	}
	if eml, _ := filepath.Glob(filepath.Join(data, "mail", "*.eml")); len(eml) != 1 {
		t.Errorf("mail files %v, want one", eml)
	}

	today := time.Now().In(mustLondon(t)).Format(time.DateOnly)
	file := filepath.Join(t.TempDir(), "claim.csv")
	if _, err := run(runGiftAidClaim, "--from", today, file); err == nil || !strings.Contains(err.Error(), "--to is required") {
		t.Errorf("no --to: %v", err)
	}
	if _, err := run(runGiftAidClaim, "--from", today, "--to", "2020-01-01", file); err == nil || !strings.Contains(err.Error(), "before --from") {
		t.Errorf("--to before --from: %v", err)
	}
	out, err = run(runGiftAidClaim, "--from", today, "--to", today, file)
	if err != nil || !strings.HasPrefix(out, "1 donation(s), 24.00 GBP in all") {
		t.Fatalf("claim: %q %v", out, err)
	}
	b, _ := os.ReadFile(file)
	date := time.Now().In(mustLondon(t)).Format("02/01/06")
	if want := "Title,First name or initial,Last name,House name or number,Postcode,Aggregated donations,Sponsored event,Donation date,Amount\n" +
		",Pat,Smith Jones,3,S19 2BD,,," + date + ",24.00\n"; string(b) != want {
		t.Errorf("claim file:\n%s\nwant\n%s", b, want)
	}
	if _, err := run(runGiftAidClaim, "--from", today, "--to", today, file); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("an existing file: %v", err)
	}
	if out, err := run(runGiftAidClaim, "--from", "2020-01-01", "--to", "2020-12-31", "--force", file); err != nil || !strings.HasPrefix(out, "0 donation(s)") {
		t.Errorf("--force: %q %v", out, err)
	}
}

func mustLondon(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
