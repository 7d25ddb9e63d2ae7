package membership

import (
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"strings"
	"time"

	"lineage/internal/store"
	"lineage/internal/textfield"
)

// MaxImportRows bounds one members CSV import.
const MaxImportRows = 20000

var exportHeader = []string{"number", "name", "email", "plan", "concession", "status", "method", "started_at", "paid_until", "auto_renew"}

// ExportCSV writes every membership, by number, in the columns import reads back.
func (s *Service) ExportCSV(ctx context.Context, w io.Writer) error {
	rs, err := s.db.QueryContext(ctx, `SELECT `+membershipColumns+`, p.slug`+membershipFrom+` JOIN membership_plans p ON p.id = m.plan_id ORDER BY m.number`)
	if err != nil {
		return err
	}
	defer rs.Close()
	cw := csv.NewWriter(w)
	cw.Write(exportHeader)
	now := s.Now()
	for rs.Next() {
		var slug string
		raw, err := scanMembership(scanExtra{rs, &slug})
		if err != nil {
			return err
		}
		paid := ""
		if raw.PaidUntil != nil {
			paid = raw.PaidUntil.Format(time.DateOnly)
		}
		auto := "no"
		if raw.AutoRenew {
			auto = "yes"
		}
		cw.Write([]string{raw.Number, textfield.SpreadsheetSafe(raw.Name), textfield.SpreadsheetSafe(raw.Email), slug, raw.Concession,
			effectiveStatus(raw.Status, raw.PaidUntil, raw.GraceDays, now), raw.Method, raw.StartedAt.Format(time.DateOnly), paid, auto})
	}
	if err := rs.Err(); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// scanExtra scans a membership row followed by more columns.
type scanExtra struct {
	r     store.Row
	extra *string
}

func (x scanExtra) Scan(dst ...any) error { return x.r.Scan(append(dst, x.extra)...) }

// ImportError names a bad cell: line (1 is the header) and column (the header's name).
type ImportError struct {
	Line    int    `json:"line"`
	Column  string `json:"column"`
	Message string `json:"message"`
}

// ImportReport is what an import did, or with dry run would do.
type ImportReport struct {
	WouldAdd    int           `json:"would_add"`
	WouldUpdate int           `json:"would_update"`
	Errors      []ImportError `json:"errors"`
	Imported    bool          `json:"imported"`
}

type importRow struct {
	line                    int
	name, email, plan, conc string
	number                  string
	paidUntil               *time.Time
	userID                  int64 // 0: no account yet
	existing                *rawMembership
}

// ImportCSV reads the society's membership list (a header with name, email, plan,
// paid_until and optionally number and concession; the export's other columns are
// ignored) and adds or updates memberships. Every row is checked first: with any bad
// row nothing is imported and the report names each one's line and column. dryRun
// checks and counts only.
func (s *Service) ImportCSV(ctx context.Context, by int64, r io.Reader, dryRun bool) (ImportReport, error) {
	rep := ImportReport{Errors: []ImportError{}}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		rep.Errors = append(rep.Errors, csvError(err, 1, "The file must start with a header line: name,email,plan,paid_until,number."))
		return rep, nil
	}
	col := map[string]int{}
	known := map[string]bool{"concession": true}
	for _, h := range exportHeader {
		known[h] = true
	}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if !known[h] {
			rep.Errors = append(rep.Errors, ImportError{1, textfield.Escape(h), fmt.Sprintf("Unknown column %q: use name, email, plan, paid_until, number, concession.", textfield.Escape(h))})
			continue
		}
		col[h] = i
	}
	for _, need := range []string{"email", "plan"} {
		if _, ok := col[need]; !ok {
			rep.Errors = append(rep.Errors, ImportError{1, need, "The header has no " + need + " column."})
		}
	}
	if len(rep.Errors) > 0 {
		return rep, nil
	}
	plans := map[string]Plan{}
	all, err := s.Plans(ctx, false)
	if err != nil {
		return rep, err
	}
	for _, p := range all {
		plans[p.Slug] = p
	}
	var list []importRow
	seenEmail, seenNumber := map[string]int{}, map[string]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			rep.Errors = append(rep.Errors, csvError(err, 0, ""))
			var pe *csv.ParseError
			if errors.As(err, &pe) && pe.Err == csv.ErrFieldCount {
				continue
			}
			if errors.As(err, &pe) {
				break // the rest of a broken quote cannot be read
			}
			continue
		}
		line, _ := cr.FieldPos(0)
		if len(list) >= MaxImportRows {
			rep.Errors = append(rep.Errors, ImportError{line, "", fmt.Sprintf("An import may have at most %d rows; split the file.", MaxImportRows)})
			break
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		bad := func(column, format string, args ...any) {
			rep.Errors = append(rep.Errors, ImportError{line, column, fmt.Sprintf(format, args...)})
		}
		row := importRow{line: line, email: strings.ToLower(get("email")), plan: get("plan"), conc: get("concession"), number: strings.ToUpper(get("number"))}
		if n, err := textfield.SingleLine(get("name"), MaxHouseholdNameLen); err != nil {
			bad("name", "The name must be one line of at most %d characters.", MaxHouseholdNameLen)
		} else {
			row.name = n
		}
		if a, err := mail.ParseAddress(row.email); err != nil || a.Address != row.email || len(row.email) > 254 {
			bad("email", "%q is not an email address.", textfield.Escape(row.email))
		} else if first, ok := seenEmail[row.email]; ok {
			bad("email", "%s is on line %d already.", row.email, first)
		} else {
			seenEmail[row.email] = line
		}
		p, ok := plans[row.plan]
		if !ok {
			bad("plan", "There is no plan %q (plans: %s).", textfield.Escape(row.plan), planSlugs(all))
		} else if row.conc != "" {
			if _, ok := p.Concession(row.conc); !ok {
				bad("concession", "The plan %s has no concession %q.", p.Slug, textfield.Escape(row.conc))
			}
		}
		if v := get("paid_until"); v != "" {
			t, err := time.Parse(time.DateOnly, v)
			if err != nil {
				bad("paid_until", "%q is not a date such as 2026-05-01.", textfield.Escape(v))
			} else {
				row.paidUntil = &t
			}
		} else if ok && p.Period != PeriodLifetime {
			bad("paid_until", "A %s plan needs the date it is paid until, such as 2026-05-01.", p.Period)
		}
		if row.number != "" {
			if len(row.number) > 32 || !textfield.Valid(row.number) || strings.ContainsAny(row.number, " ,") {
				bad("number", "The membership number must be at most 32 characters without spaces.")
			} else if first, ok := seenNumber[row.number]; ok {
				bad("number", "The number %s is on line %d already.", row.number, first)
			} else {
				seenNumber[row.number] = line
			}
		}
		list = append(list, row)
	}
	// Check rows against the store: the account, its membership, the number's owner.
	for i := range list {
		row := &list[i]
		if s.opt.Accounts != nil && row.email != "" {
			id, err := s.opt.Accounts.AccountID(ctx, row.email)
			if err != nil {
				return rep, err
			}
			row.userID = id
		}
		if row.userID != 0 {
			raw, err := scanMembership(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+membershipColumns+membershipFrom+
				` WHERE m.user_id = ? ORDER BY m.id DESC LIMIT 1`), row.userID))
			if err == nil {
				row.existing = &raw
			} else if !errors.Is(err, errNotFound) {
				return rep, err
			}
		}
		if row.number != "" {
			other, err := scanMembership(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+membershipColumns+membershipFrom+` WHERE m.number = ?`), row.number))
			switch {
			case errors.Is(err, errNotFound):
				if row.existing != nil {
					rep.Errors = append(rep.Errors, ImportError{row.line, "number", fmt.Sprintf("%s has the membership number %s already; numbers never change.", row.email, row.existing.Number)})
				}
			case err != nil:
				return rep, err
			case row.existing == nil || other.ID != row.existing.ID:
				rep.Errors = append(rep.Errors, ImportError{row.line, "number", fmt.Sprintf("The number %s belongs to another member.", row.number)})
			}
		}
		if row.existing != nil {
			rep.WouldUpdate++
		} else {
			rep.WouldAdd++
		}
	}
	if len(rep.Errors) > 0 || dryRun {
		return rep, nil
	}
	if s.opt.Accounts == nil {
		return rep, errors.New("membership: import needs Options.Accounts")
	}
	for i := range list {
		if list[i].userID == 0 {
			if list[i].userID, err = s.opt.Accounts.EnsureAccount(ctx, list[i].email, list[i].name); err != nil {
				return rep, fmt.Errorf("line %d: %w", list[i].line, err)
			}
		}
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		now := s.Now()
		for _, row := range list {
			p := plans[row.plan]
			status, method := StatusActive, MethodManual
			if p.Period == PeriodLifetime {
				status = StatusLifetime
			}
			if row.existing == nil {
				if _, err := s.newMembership(ctx, tx, row.userID, p, row.conc, status, method, row.paidUntil, row.number, by, "imported"); err != nil {
					return err
				}
				continue
			}
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE memberships SET plan_id = ?, concession = ?, grace_days = ? WHERE id = ?`),
				p.ID, row.conc, p.GraceDays, row.existing.ID); err != nil {
				return err
			}
			c := change{status: status, method: method, paidUntil: row.paidUntil, setPaid: true, by: by, why: "imported" + untilText(row.paidUntil)}
			ok, err := s.apply(ctx, tx, row.existing.ID, row.existing.Status, c, now)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("line %d: the membership of %s changed during the import; run it again", row.line, row.email)
			}
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	rep.Imported = true
	return rep, nil
}

func planSlugs(ps []Plan) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Slug)
	}
	return strings.Join(out, ", ")
}

// csvError turns the CSV reader's error into a report row with its line and column.
func csvError(err error, line int, msg string) ImportError {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if msg == "" {
			msg = "The line is not valid CSV: " + pe.Err.Error() + "."
		}
		return ImportError{Line: pe.Line, Column: fmt.Sprintf("%d", pe.Column), Message: msg}
	}
	if msg == "" {
		msg = err.Error()
	}
	return ImportError{Line: line, Message: msg}
}
