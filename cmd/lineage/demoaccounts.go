package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"lineage/internal/auth"
	"lineage/internal/config"
)

// demoAccounts are the accounts serve --demo makes when the store lacks them, so that a
// newcomer signs in as each kind of visitor without registering and fishing the
// verification link out of data/mail.
var demoAccounts = []struct {
	email, name, role string
	member            bool // with a complimentary membership of the default plan
}{
	{"member@example.org", "Demo Member", auth.RoleRegistered, true},
	{"editor@example.org", "Demo Editor", auth.RoleEditor, false},
	{"admin@example.org", "Demo Admin", auth.RoleAdmin, false},
}

// demoPasswordsFile, in the data directory and readable by its owner only, keeps the
// passwords serve --demo chose for the accounts it made, so that every start prints
// them again. A fixed, documented password would be simpler still, but `make run`
// listens on every interface: anyone on the network could then sign in as the admin.
const demoPasswordsFile = "demo-accounts.txt"

// demoLogin is one demo account as start-up prints it; Password is empty when it is
// not known (the account was made by another data directory's server, or the file
// was removed).
type demoLogin struct {
	Email, Role, Password string
	Member                bool
}

// addDemoAccounts makes, with --demo only, the demo accounts the store lacks, each
// with a random password, and keeps every demo account's login for start-up to print.
func (a *app) addDemoAccounts(ctx context.Context, cfg config.Config) error {
	if !cfg.Demo {
		return nil
	}
	known := readDemoPasswords(filepath.Join(cfg.DataDir, demoPasswordsFile))
	made := false
	a.demoLogins = nil
	for _, d := range demoAccounts {
		_, err := a.accounts.UserByEmail(ctx, d.email)
		if errors.Is(err, auth.ErrNotFound) {
			password := rand.Text()[:16]
			u, err := a.accounts.CreateUser(ctx, auth.NewUser{Email: d.email, Name: d.name, Password: password, Role: d.role, Verified: true})
			if err != nil {
				return fmt.Errorf("demo account %s: %w", d.email, err)
			}
			if d.member {
				if _, err := a.membership.GrantMember(ctx, 0, u.ID, "demo account"); err != nil {
					return fmt.Errorf("demo account %s: %w", d.email, err)
				}
			}
			known[d.email], made = password, true
		} else if err != nil {
			return err
		}
		role := d.role
		if d.member {
			role = "member"
		}
		a.demoLogins = append(a.demoLogins, demoLogin{Email: d.email, Role: role, Password: known[d.email], Member: d.member})
	}
	if made {
		return writeDemoPasswords(filepath.Join(cfg.DataDir, demoPasswordsFile), a.demoLogins)
	}
	return nil
}

// readDemoPasswords reads demoPasswordsFile: "email password" lines.
func readDemoPasswords(path string) map[string]string {
	known := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return known
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if email, password, ok := strings.Cut(strings.TrimSpace(sc.Text()), " "); ok && !strings.HasPrefix(email, "#") {
			known[email] = password
		}
	}
	return known
}

func writeDemoPasswords(path string, logins []demoLogin) error {
	var b strings.Builder
	b.WriteString("# serve --demo's accounts: email password (made with random passwords; see README)\n")
	for _, l := range logins {
		if l.Password != "" {
			fmt.Fprintf(&b, "%s %s\n", l.Email, l.Password)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

// printDemoLogins writes what a newcomer needs after start-up: where to sign in and as whom.
func printDemoLogins(w io.Writer, publicURL, dataDir string, logins []demoLogin) {
	if len(logins) == 0 {
		return
	}
	fmt.Fprintf(w, "\nDemo accounts (sign in at %s/sign-in; passwords kept in %s):\n", publicURL, filepath.Join(dataDir, demoPasswordsFile))
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	for _, l := range logins {
		password := l.Password
		if password == "" {
			password = "(unknown here: bin/lineage user set-password --email " + l.Email + " --password …)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", l.Role, l.Email, password)
	}
	tw.Flush()
	fmt.Fprintln(w)
}
