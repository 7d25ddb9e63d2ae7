package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/httpx"
	"lineage/internal/membership"
	"lineage/internal/textfield"
)

const memberUsage = `usage: lineage member SUBCOMMAND [flags]

subcommands:
  list          [--q TEXT] [--status S] [--page N]   search by name, email or number
  show          --number N | --email E               one membership, its history and payments
  pay           --number N --amount-minor 2400 [--currency GBP] [--note TEXT] [--paid-until 2027-05-01]
                                                     record a manual payment (cheque, transfer, cash)
  grant         --email E [--plan SLUG] [--until 2027-05-01] [--why TEXT]
                                                     a complimentary membership (default plan if none)
  change-plan   --number N --plan SLUG [--why TEXT]
  export        [--out FILE]                         every membership as CSV (standard output)
  import        [--dry-run] FILE                     the society's list: name,email,plan,paid_until,number

Every subcommand takes --data DIR (or LINEAGE_DATA / LINEAGE_DATABASE_URL) like serve.
Amounts are whole minor units (pence): 2400 is £24.00. An import checks every row first;
a bad row is named by line and column and nothing is imported. docs/membership.md.`

// runMember is `lineage member …`: the admin's membership operations.
func runMember(ctx context.Context, args []string) error {
	if err := noSubcommand(args, func() { fmt.Fprintln(os.Stderr, memberUsage) }); err != nil {
		return err
	}
	sub, args := args[0], args[1:]
	fs := newFlags("member "+sub, "[flags]")
	cfgFn := config.DataFlags(fs)
	var q, status, number, email, plan, note, currency, until, why, out string
	var page int
	var amount int64
	var dry bool
	switch sub {
	case "list":
		fs.StringVar(&q, "q", "", "name, email or membership number (part of)")
		fs.StringVar(&status, "status", "", "pending, active, grace, lapsed, cancelled, complimentary or lifetime")
		fs.IntVar(&page, "page", 1, "page of 50")
	case "show":
		fs.StringVar(&number, "number", "", "membership number")
		fs.StringVar(&email, "email", "", "the holder's email address")
	case "pay":
		fs.StringVar(&number, "number", "", "membership number (required)")
		fs.Int64Var(&amount, "amount-minor", 0, "amount in minor units, e.g. 2400 for £24.00 (required)")
		fs.StringVar(&currency, "currency", membership.DefaultCurrency, "ISO 4217 currency code")
		fs.StringVar(&note, "note", "", "e.g. cheque number")
		fs.StringVar(&until, "paid-until", "", "date the payment covers (default: one period of the plan on)")
	case "grant":
		fs.StringVar(&email, "email", "", "the account's email address (required)")
		fs.StringVar(&plan, "plan", "", "plan slug (default: the first individual plan granting member)")
		fs.StringVar(&until, "until", "", "end date (default: none)")
		fs.StringVar(&why, "why", "", "reason, kept in the history")
	case "change-plan":
		fs.StringVar(&number, "number", "", "membership number (required)")
		fs.StringVar(&plan, "plan", "", "plan slug (required)")
		fs.StringVar(&why, "why", "", "reason, kept in the history")
	case "export":
		fs.StringVar(&out, "out", "", "write to this file instead of standard output")
	case "import":
		fs.BoolVar(&dry, "dry-run", false, "check and report only")
	default:
		fmt.Fprintln(os.Stderr, memberUsage)
		return fmt.Errorf("unknown subcommand %q", sub)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if sub == "import" {
		if fs.NArg() != 1 {
			return errors.New("give one CSV file to import")
		}
	} else if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	var untilT *time.Time
	if until != "" {
		t, err := time.Parse(time.DateOnly, until)
		if err != nil {
			return fmt.Errorf("%q is not a date such as 2027-05-01", until)
		}
		untilT = &t
	}
	_, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	accounts := auth.New(db, auth.Options{})
	ms := newMembership(db, accounts)
	w := os.Stdout

	byNumber := func() (*membership.Membership, error) {
		if number == "" {
			return nil, errors.New("--number is required")
		}
		m, err := ms.ByNumber(ctx, number)
		if isNotFound(err) {
			return nil, fmt.Errorf("no membership has the number %s", number)
		}
		return m, err
	}
	switch sub {
	case "list":
		res, err := ms.Search(ctx, q, status, page)
		if err != nil {
			return cliError(err)
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NUMBER\tNAME\tEMAIL\tPLAN\tSTATUS\tPAID UNTIL")
		for _, m := range res.Members {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", m.Number, textfield.Escape(m.Name), textfield.Escape(m.Email), m.Plan.Slug, m.Status, dateOr(m.PaidUntil, "-"))
		}
		tw.Flush()
		fmt.Fprintf(w, "%d of %d (page %d)\n", len(res.Members), res.Total, max(page, 1))
		return nil
	case "show":
		var m *membership.Membership
		switch {
		case number != "":
			if m, err = byNumber(); err != nil {
				return err
			}
		case email != "":
			u, err := accounts.UserByEmail(ctx, email)
			if errors.Is(err, auth.ErrNotFound) {
				return fmt.Errorf("no account has the address %s", email)
			}
			if err != nil {
				return err
			}
			if m, err = ms.ForUser(ctx, u.ID); err != nil {
				return err
			}
			if m == nil {
				return fmt.Errorf("%s has no membership", email)
			}
		default:
			return errors.New("--number or --email is required")
		}
		return printMembership(ctx, w, ms, m)
	case "pay":
		m, err := byNumber()
		if err != nil {
			return err
		}
		if amount <= 0 {
			return errors.New("--amount-minor is required: a whole number of minor units, e.g. 2400 for £24.00")
		}
		m, err = ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: amount, Currency: currency, Note: note, PaidUntil: untilT})
		if err != nil {
			return cliError(err)
		}
		fmt.Fprintf(w, "payment recorded: %s is %s until %s\n", m.Number, m.Status, dateOr(m.PaidUntil, "-"))
		return nil
	case "grant":
		if email == "" {
			return errors.New("--email is required")
		}
		u, err := accounts.UserByEmail(ctx, email)
		if errors.Is(err, auth.ErrNotFound) {
			return fmt.Errorf("no account has the address %s (lineage user add --role member makes one with a membership)", email)
		}
		if err != nil {
			return err
		}
		if plan == "" {
			p, err := ms.DefaultPlan(ctx)
			if err != nil {
				return err
			}
			plan = p.Slug
		}
		m, err := ms.GrantComplimentary(ctx, 0, u.ID, plan, untilT, why)
		if err != nil {
			return cliError(err)
		}
		fmt.Fprintf(w, "membership %s of %s (%s) is complimentary until %s\n", m.Number, m.Plan.Name, u.Email, dateOr(m.PaidUntil, "further notice"))
		return nil
	case "change-plan":
		m, err := byNumber()
		if err != nil {
			return err
		}
		if m, err = ms.ChangePlan(ctx, 0, m.ID, plan, why); err != nil {
			return cliError(err)
		}
		fmt.Fprintf(w, "membership %s is now on %s\n", m.Number, m.Plan.Name)
		return nil
	case "export":
		dst := io.Writer(w)
		if out != "" {
			f, err := os.Create(out)
			if err != nil {
				return err
			}
			defer f.Close()
			dst = f
		}
		return ms.ExportCSV(ctx, dst)
	case "import":
		return importMembers(ctx, w, ms, fs.Arg(0), dry)
	}
	return nil
}

func importMembers(ctx context.Context, w io.Writer, ms *membership.Service, path string, dry bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rep, err := ms.ImportCSV(ctx, 0, io.LimitReader(f, 64<<20), dry)
	if err != nil {
		return err
	}
	for _, e := range rep.Errors {
		col := ""
		if e.Column != "" {
			col = ", column " + e.Column
		}
		fmt.Fprintf(w, "%s: line %d%s: %s\n", path, e.Line, col, e.Message)
	}
	if len(rep.Errors) > 0 {
		return fmt.Errorf("%d bad rows; nothing imported", len(rep.Errors))
	}
	if dry {
		fmt.Fprintf(w, "would add %d memberships and would update %d\n", rep.WouldAdd, rep.WouldUpdate)
	} else {
		fmt.Fprintf(w, "added %d memberships and updated %d\n", rep.WouldAdd, rep.WouldUpdate)
	}
	return nil
}

func printMembership(ctx context.Context, w io.Writer, ms *membership.Service, m *membership.Membership) error {
	d, err := ms.Detail(ctx, m.ID)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "number\t%s\nholder\t%s <%s>\nplan\t%s (%s)\nstatus\t%s\nmethod\t%s\nstarted\t%s\npaid until\t%s\nauto-renew\t%v\nscopes\t%s\n",
		d.Number, textfield.Escape(d.Name), textfield.Escape(d.Email), d.Plan.Name, d.Plan.Slug, d.Status, d.Method,
		d.StartedAt.Format(time.DateOnly), dateOr(d.PaidUntil, "-"), d.AutoRenew, strings.Join(d.Scopes, " "))
	for _, h := range d.Household {
		fmt.Fprintf(tw, "household\t%s <%s> (%s)\n", textfield.Escape(h.Name), textfield.Escape(h.Email), h.Status)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nhistory:")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, h := range d.History {
		fmt.Fprintf(tw, "%s\t%s\t%s → %s\t%s\n", h.At.Format(time.DateTime), textfield.Escape(h.By), dashIfEmpty(h.From), h.To, textfield.Escape(h.Why))
	}
	tw.Flush()
	fmt.Fprintln(w, "\npayments:")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, p := range d.Payments {
		fmt.Fprintf(tw, "%s\t%s\t%d %s\t%s\t%s\n", p.Number, p.PaidAt.Format(time.DateOnly), p.AmountMinor, p.Currency, p.Method, textfield.Escape(p.Note))
	}
	return tw.Flush()
}

func dateOr(t *time.Time, none string) string {
	if t == nil {
		return none
	}
	return t.Format(time.DateOnly)
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func isNotFound(err error) bool {
	var e *httpx.Error
	return errors.As(err, &e) && e.Code == httpx.ENOTFOUND
}

// cliError turns the room's field errors into one line per field.
func cliError(err error) error {
	var e *httpx.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		if errors.As(err, &e) {
			return errors.New(e.Message)
		}
		return err
	}
	fields := make([]string, 0, len(e.Fields))
	for f := range e.Fields {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	var lines []string
	for _, f := range fields {
		lines = append(lines, "--"+strings.ReplaceAll(f, "_", "-")+": "+strings.Join(e.Fields[f], " "))
	}
	return errors.New(strings.Join(lines, "; "))
}
