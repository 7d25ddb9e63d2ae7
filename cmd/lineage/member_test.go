package main

import (
	"context"
	"strings"
	"testing"
)

// The lineage member commands on one store: grant, pay, show with history, change of
// plan, export, and an import whose bad rows are named and import nothing.
func TestMemberCommand(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	member := func(args ...string) (string, error) {
		args = append([]string{args[0], "--data", data}, args[1:]...) // flags before the file of import
		return captureStdout(t, func() error { return runMember(ctx, args) })
	}
	user := userCommand(t, data)
	if out, err := user("add", "--email", "pat@example.org", "--password", "correct horse", "--name", "Pat", "--role", "registered"); err != nil {
		t.Fatalf("user add: %q %v", out, err)
	}
	out, err := member("grant", "--email", "pat@example.org", "--until", "2099-01-01", "--why", "volunteer")
	if err != nil || !strings.Contains(out, "membership M-000001 of Honorary (pat@example.org) is complimentary until 2099-01-01") {
		t.Fatalf("grant: %q %v", out, err)
	}
	if _, err := member("pay", "--number", "M-000001", "--amount-minor", "0"); err == nil || !strings.Contains(err.Error(), "--amount-minor is required") {
		t.Errorf("pay without an amount: %v", err)
	}
	if _, err := member("pay", "--number", "M-000001", "--amount-minor", "2400", "--currency", "pounds"); err == nil || !strings.Contains(err.Error(), "--currency: The currency must be an ISO 4217 code") {
		t.Errorf("pay in pounds: %v", err)
	}
	// The honorary plan (made for the grant) is a lifetime one: a payment makes it so.
	out, err = member("pay", "--number", "m-000001", "--amount-minor", "2400", "--note", "cheque 100234")
	if err != nil || !strings.Contains(out, "M-000001 is lifetime until -") {
		t.Fatalf("pay: %q %v", out, err)
	}
	out, err = member("show", "--email", "pat@example.org")
	if err != nil || !strings.Contains(out, "complimentary → lifetime") || !strings.Contains(out, "cheque 100234") || !strings.Contains(out, "volunteer") {
		t.Errorf("show: %q %v", out, err)
	}
	if out, err := member("list", "--q", "pat"); err != nil || !strings.Contains(out, "M-000001") || !strings.Contains(out, "1 of 1") {
		t.Errorf("list: %q %v", out, err)
	}
	if _, err := member("change-plan", "--number", "M-000001", "--plan", "gold"); err == nil || !strings.Contains(err.Error(), `--plan: There is no plan "gold"`) {
		t.Errorf("change-plan to a plan that does not exist: %v", err)
	}

	dir := t.TempDir()
	bad := testFile(t, dir, "bad.csv", "name,email,plan,paid_until,number\nAnn,ann@example.org,honorary,,\nBea,bea@,honorary,,\n")
	out, err = member("import", "--dry-run", bad)
	if err == nil || !strings.Contains(out, "bad.csv: line 3, column email:") || !strings.Contains(err.Error(), "nothing imported") {
		t.Errorf("import with a bad row: %q %v", out, err)
	}
	good := testFile(t, dir, "good.csv", "name,email,plan,paid_until,number\nAnn,ann@example.org,honorary,,L-1\n")
	if out, err := member("import", "--dry-run", good); err != nil || out != "would add 1 memberships and would update 0\n" {
		t.Errorf("dry run: %q %v", out, err)
	}
	if out, err := member("import", good); err != nil || out != "added 1 memberships and updated 0\n" {
		t.Errorf("import: %q %v", out, err)
	}
	out, err = member("export")
	if err != nil || !strings.Contains(out, "L-1,Ann,ann@example.org,honorary,,lifetime,manual") || !strings.Contains(out, "M-000001,Pat,pat@example.org,honorary,,lifetime,manual") {
		t.Errorf("export: %q %v", out, err)
	}
}
