package membership_test

import (
	"context"
	"strings"
	"testing"

	"lineage/internal/membership"
	"lineage/internal/store/storetest"
)

// FuzzImportCSV: whatever the file, a dry run answers a report (never an error or a
// panic), every error names a line, and nothing is written.
func FuzzImportCSV(f *testing.F) {
	for _, s := range []string{
		"name,email,plan,paid_until,number\nAnn,ann@example.org,individual,2026-12-31,L-1\n",
		"email,plan\nbad,gold\n",
		"\"unterminated\n",
		"name,email\n",
		"",
		"email,plan,paid_until\nx@example.org,individual,31/12/2026\n\"a,b\n",
		"\ufeffEmail,Plan,Concession\nx@example.org,individual,student\n",
	} {
		f.Add(s)
	}
	db := storetest.SQLite(f)
	ms := membership.New(db, membership.Options{})
	ctx := context.Background()
	if _, err := ms.SavePlan(ctx, membership.Plan{Slug: "individual", Name: "Individual", PriceMinor: 2400, Period: membership.PeriodAnnual}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		rep, err := ms.ImportCSV(ctx, 0, strings.NewReader(in), true)
		if err != nil {
			t.Fatalf("dry run: %v", err)
		}
		for _, e := range rep.Errors {
			if e.Line < 1 || e.Message == "" {
				t.Errorf("error without a line or message: %+v", e)
			}
		}
		if rep.Imported {
			t.Error("a dry run imported")
		}
	})
}
