package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"lineage/internal/audit"
	"lineage/internal/auth"
	"lineage/internal/config"
	staffroom "lineage/internal/staff"
	"lineage/internal/textfield"
)

const userUsage = `usage: lineage user SUBCOMMAND [flags]

subcommands:
  add           --email E --password P [--name N] [--role member|registered|editor|admin]
  set-role      --email E --role member|registered|editor|admin
  set-password  --email E --password P
  list
  delete        --email E

Every subcommand takes --data DIR (or LINEAGE_DATA / LINEAGE_DATABASE_URL) like serve,
and works while a server runs on the same store. --password - reads the password from
standard input. Accounts made here count as verified: an operator vouches for them.
A "registered" account is a free one; --role member (the default of add) makes a
registered account with a complimentary membership of the default plan (docs/membership.md).`

// roleMember is the old role --role still accepts (see userUsage).
const roleMember = "member"

// runUser manages accounts from the command line.
func runUser(ctx context.Context, args []string) error {
	if err := noSubcommand(args, func() { fmt.Fprintln(os.Stderr, userUsage) }); err != nil {
		return err
	}
	sub, args := args[0], args[1:]
	fs := newFlags("user "+sub, "[flags]")
	cfgFn := config.DataFlags(fs)
	var email, password, name, role string
	switch sub {
	case "add":
		fs.StringVar(&email, "email", "", "email address (required)")
		fs.StringVar(&password, "password", "", "password, at least 8 characters; - reads standard input (required)")
		fs.StringVar(&name, "name", "", "display name")
		fs.StringVar(&role, "role", roleMember, "member, registered, editor or admin")
	case "set-role":
		fs.StringVar(&email, "email", "", "email address (required)")
		fs.StringVar(&role, "role", "", "member, registered, editor or admin (required)")
	case "set-password":
		fs.StringVar(&email, "email", "", "email address (required)")
		fs.StringVar(&password, "password", "", "new password; - reads standard input (required)")
	case "delete":
		fs.StringVar(&email, "email", "", "email address (required)")
	case "list":
	default:
		fmt.Fprintln(os.Stderr, userUsage)
		return fmt.Errorf("unknown subcommand %q", sub)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if sub != "list" && email == "" {
		return errors.New("--email is required")
	}
	if password == "-" {
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil && err != io.EOF {
			return err
		}
		password = strings.TrimRight(line, "\r\n")
	}
	if (sub == "add" || sub == "set-password") && len([]rune(password)) < 8 {
		return errors.New("--password must have at least 8 characters")
	}
	if sub == "add" {
		if _, err := textfield.SingleLine(name, auth.MaxNameLen); err != nil {
			return fmt.Errorf("--name must be one line of at most %d characters without control characters", auth.MaxNameLen)
		}
	}
	// "member" is no role any more but a membership: the account is registered and
	// gets a complimentary membership, so scripts written for the old role still work.
	grant := role == roleMember
	if grant {
		role = auth.RoleRegistered
	}
	if (sub == "add" || sub == "set-role") && !auth.ValidRole(role) {
		return fmt.Errorf("--role must be one of %s, %s", roleMember, strings.Join(auth.Roles, ", "))
	}
	cfg, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := auth.New(db, auth.Options{PublicURL: cfg.PublicURL})
	ms := newMembership(db, svc)
	log := audit.New(db, nil)
	grantMember := func(u *auth.User) error {
		if !grant {
			return nil
		}
		m, err := ms.GrantMember(ctx, 0, u.ID, "lineage user --role member")
		if err != nil {
			return err
		}
		fmt.Printf("membership %s of %s is complimentary\n", m.Number, m.Plan.Name)
		return nil
	}

	switch sub {
	case "add":
		u, err := svc.CreateUser(ctx, auth.NewUser{Email: email, Name: name, Password: password, Role: role, Verified: true})
		if errors.Is(err, auth.ErrEmailTaken) {
			return fmt.Errorf("an account with the address %s exists already", email)
		}
		if err != nil {
			return err
		}
		fmt.Printf("added user %d <%s> as %s\n", u.ID, u.Email, u.Role)
		if err := log.Add(ctx, audit.Record{Actor: commandLine, Action: "user.add", Subject: userSubject(u), Summary: u.Email,
			After: map[string]string{"role": u.Role}}); err != nil {
			return err
		}
		return grantMember(u)
	case "list":
		users, err := svc.ListUsers(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tEMAIL\tNAME\tROLE\tVERIFIED\tCREATED")
		for _, u := range users {
			verified := "no"
			if u.Verified() {
				verified = "yes"
			}
			// A name stored before names were checked may hold line breaks or terminal
			// escapes: printed escaped, it stays on its row and cannot drive the terminal.
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", u.ID, textfield.Escape(u.Email), textfield.Escape(u.Name), u.Role, verified, u.CreatedAt.Format(time.DateOnly))
		}
		return tw.Flush()
	default:
		u, err := svc.UserByEmail(ctx, email)
		if errors.Is(err, auth.ErrNotFound) {
			return fmt.Errorf("no account has the address %s", email)
		}
		if err != nil {
			return err
		}
		switch sub {
		case "set-role":
			if err := svc.SetRole(ctx, u.ID, role); err != nil {
				return err
			}
			if err := log.Add(ctx, audit.Record{Actor: commandLine, Action: staffroom.ActionUserRole, Subject: userSubject(u), Summary: u.Email,
				Before: map[string]string{"role": u.Role}, After: map[string]string{"role": role}}); err != nil {
				return err
			}
			fmt.Printf("user %d <%s> is now %s\n", u.ID, u.Email, role)
			return grantMember(u)
		case "set-password":
			if err := svc.SetPassword(ctx, u.ID, password, ""); err != nil {
				return err
			}
			fmt.Printf("password of user %d <%s> changed; their sessions and tokens ended\n", u.ID, u.Email)
		case "delete":
			if err := svc.DeleteUser(ctx, u.ID); err != nil {
				return err
			}
			if err := log.Add(ctx, audit.Record{Actor: commandLine, Action: "user.delete", Subject: userSubject(u), Summary: u.Email,
				Before: map[string]string{"role": u.Role}}); err != nil {
				return err
			}
			fmt.Printf("deleted user %d <%s> and everything the account owned; its memberships and payments stay, anonymous\n", u.ID, u.Email)
		}
	}
	return nil
}
