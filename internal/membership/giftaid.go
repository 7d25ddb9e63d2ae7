package membership

import (
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"
	_ "time/tzdata" // UK dates without depending on the host's zoneinfo
	"unicode"
	"unicode/utf8"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// Limits of a Gift Aid declaration: HMRC's schedule takes a title of at most 4
// characters and first and last names of at most 35; the house name or number and the
// address are bounded so a page and a claim file stay readable.
const (
	MaxGiftAidTitle   = 4
	MaxGiftAidName    = 35
	MaxGiftAidHouse   = 40
	MaxGiftAidAddress = 500
	// giftAidLookback: HMRC's model declaration covers donations made in the 4 years
	// before it as well as those after.
	giftAidLookbackYears = 4
)

// GiftAidDeclaration is a donor's declaration, with the wording they agreed to. It
// covers payments from CoversFrom until it is cancelled.
type GiftAidDeclaration struct {
	ID          int64      `json:"id"`
	Title       string     `json:"title"`
	FirstName   string     `json:"first_name"`
	LastName    string     `json:"last_name"`
	House       string     `json:"house"`
	Postcode    string     `json:"postcode"`
	Address     string     `json:"address"`
	Wording     string     `json:"wording"`
	DeclaredAt  time.Time  `json:"declared_at"`
	CoversFrom  time.Time  `json:"covers_from"`
	CancelledAt *time.Time `json:"cancelled_at"`
}

// GiftAidInput is a declaration as a form sends it (POST /api/membership/gift-aid and
// the join form's "gift_aid"). Wording, when sent, is the text the page showed: if the
// society's wording changed since, the donor is asked to read it again.
type GiftAidInput struct {
	Declared  bool   `json:"declared"`
	Title     string `json:"title"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	House     string `json:"house"`
	Postcode  string `json:"postcode"`
	Address   string `json:"address"`
	Wording   string `json:"wording"`
}

// GiftAidWording is the declaration a donor agrees to: HMRC's model wording for a
// declaration covering past and future donations, with the society's name.
func (s *Service) GiftAidWording() string {
	society := textfield.LineOr(s.opt.SocietyName, 200, "Lineage")
	return "I want to Gift Aid my membership subscriptions and any donations I make in the future or have made in the past 4 years to " +
		society + ". I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax in the current tax year " +
		"than the amount of Gift Aid claimed on all my donations it is my responsibility to pay any difference."
}

var (
	ukPostcodeRe = regexp.MustCompile(`^([A-Z]{1,2}[0-9][A-Z0-9]?)([0-9][A-Z]{2})$`)
	titleRe      = regexp.MustCompile(`^[\pL.]+$`)
)

// NormalizePostcode writes a UK postcode as HMRC asks: capitals, one space before the
// last three characters ("s19 2bd" → "S19 2BD"). ok is false when it is not one.
func NormalizePostcode(s string) (string, bool) {
	compact := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToUpper(r)
	}, s)
	m := ukPostcodeRe.FindStringSubmatch(compact)
	if m == nil {
		return strings.TrimSpace(strings.ToUpper(s)), false
	}
	return m[1] + " " + m[2], true
}

// validPersonName: letters, spaces, apostrophes, hyphens and full stops ("J.", "O'Brien",
// "Smith-Jones"), starting with a letter, as HMRC's schedule accepts.
func validPersonName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r):
		case i > 0 && (r == ' ' || r == '\'' || r == '’' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

// checkGiftAid validates a declaration and returns it normalised.
func (s *Service) checkGiftAid(in GiftAidInput) (GiftAidInput, error) {
	var fe httpx.FieldErrors
	if !in.Declared {
		fe.Add("declared", "Tick the box to make the Gift Aid declaration.")
	}
	if in.Wording != "" && strings.TrimSpace(in.Wording) != s.GiftAidWording() {
		fe.Add("wording", "The wording of the declaration has changed since the page was opened: read it again and confirm.")
	}
	line := func(field, v string, max int, required bool) string {
		v, err := textfield.SingleLine(v, max)
		switch {
		case err != nil:
			fe.Add(field, "The %s must be one line of at most %d characters.", strings.ReplaceAll(field, "_", " "), max)
		case required && v == "":
			fe.Add(field, "The %s is required.", strings.ReplaceAll(field, "_", " "))
		}
		return strings.Join(strings.Fields(v), " ")
	}
	in.Title = line("title", in.Title, MaxGiftAidTitle, false)
	if in.Title != "" && !titleRe.MatchString(in.Title) {
		fe.Add("title", "The title may hold letters and full stops only, such as Mr, Mrs, Ms, Dr or Revd.")
	}
	in.FirstName = line("first_name", in.FirstName, MaxGiftAidName, true)
	if in.FirstName != "" && !validPersonName(in.FirstName) {
		fe.Add("first_name", "The first name may hold letters, spaces, apostrophes, hyphens and full stops (an initial will do).")
	}
	in.LastName = line("last_name", in.LastName, MaxGiftAidName, true)
	if in.LastName != "" && !validPersonName(in.LastName) {
		fe.Add("last_name", "The last name may hold letters, spaces, apostrophes, hyphens and full stops.")
	}
	in.House = line("house", in.House, MaxGiftAidHouse, true)
	if r, _ := utf8.DecodeRuneInString(in.House); in.House != "" && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		fe.Add("house", "The house name or number must start with a letter or a digit.")
	}
	pc := line("postcode", in.Postcode, 10, true)
	if pc != "" {
		var ok bool
		if in.Postcode, ok = NormalizePostcode(pc); !ok {
			fe.Add("postcode", "The postcode must be a UK postcode, such as S19 2BD: Gift Aid is for UK taxpayers.")
		}
	}
	addr, err := textfield.MultiLine(in.Address, MaxGiftAidAddress)
	switch {
	case err != nil:
		fe.Add("address", "The address may be at most %d characters of text.", MaxGiftAidAddress)
	case addr == "":
		fe.Add("address", "The home address is required.")
	}
	in.Address = addr
	return in, fe.Err()
}

const giftAidColumns = `id, title, first_name, last_name, house, postcode, address, wording, declared_at, covers_from, cancelled_at`

func scanGiftAid(row store.Row) (*GiftAidDeclaration, error) {
	var d GiftAidDeclaration
	var declared, covers int64
	var cancelled sql.NullInt64
	if err := row.Scan(&d.ID, &d.Title, &d.FirstName, &d.LastName, &d.House, &d.Postcode, &d.Address, &d.Wording,
		&declared, &covers, &cancelled); err != nil {
		return nil, err
	}
	d.DeclaredAt, d.CoversFrom, d.CancelledAt = store.Time(declared), store.Time(covers), store.TimeOrNil(cancelled)
	return &d, nil
}

// DeclareGiftAid records userID's declaration, with the wording of now. A newer
// declaration (a new address) stands beside the older ones; a claim uses the newest in
// force at each payment's date.
func (s *Service) DeclareGiftAid(ctx context.Context, userID int64, in GiftAidInput) (*GiftAidDeclaration, error) {
	in, err := s.checkGiftAid(in)
	if err != nil {
		return nil, err
	}
	now := s.Now().UTC()
	covers := now.AddDate(-giftAidLookbackYears, 0, 0)
	row := s.db.QueryRowContext(ctx, s.db.Rebind(`INSERT INTO gift_aid_declarations (user_id, title, first_name, last_name, house,
		postcode, address, wording, declared_at, covers_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+giftAidColumns),
		userID, in.Title, in.FirstName, in.LastName, in.House, in.Postcode, in.Address, s.GiftAidWording(), now.Unix(), covers.Unix())
	return scanGiftAid(row)
}

// GiftAid returns userID's newest declaration that is not cancelled, or nil.
func (s *Service) GiftAid(ctx context.Context, userID int64) (*GiftAidDeclaration, error) {
	d, err := scanGiftAid(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+giftAidColumns+` FROM gift_aid_declarations
		WHERE user_id = ? AND cancelled_at IS NULL ORDER BY declared_at DESC, id DESC LIMIT 1`), userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return d, err
}

// CancelGiftAid cancels every declaration of userID that is in force, from now on:
// payments made before now stay claimable (HMRC: a cancellation does not reach back).
// It returns the newest of them, now cancelled.
func (s *Service) CancelGiftAid(ctx context.Context, userID int64) (*GiftAidDeclaration, error) {
	current, err := s.GiftAid(ctx, userID)
	if err != nil {
		return nil, err
	}
	if current == nil {
		return nil, &httpx.Error{Code: httpx.ENOTFOUND, Message: "You have no Gift Aid declaration in force."}
	}
	now := s.Now().UTC()
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE gift_aid_declarations SET cancelled_at = ? WHERE user_id = ? AND cancelled_at IS NULL`),
		now.Unix(), userID); err != nil {
		return nil, err
	}
	current.CancelledAt = &now
	return current, nil
}

// getGiftAid answers the wording to show and the declaration in force, if any.
func (s *Service) GetGiftAid(w http.ResponseWriter, r *http.Request, v Viewer) error {
	w.Header().Set("Cache-Control", "no-store")
	d, err := s.GiftAid(r.Context(), v.ID)
	return httpx.Reply(w, http.StatusOK, map[string]any{"wording": s.GiftAidWording(), "declaration": d}, err)
}

func (s *Service) PostGiftAid(w http.ResponseWriter, r *http.Request, v Viewer) error {
	var in GiftAidInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	d, err := s.DeclareGiftAid(r.Context(), v.ID, in)
	return httpx.Reply(w, http.StatusCreated, map[string]any{"declaration": d}, err)
}

func (s *Service) PostGiftAidCancel(w http.ResponseWriter, r *http.Request, v Viewer) error {
	d, err := s.CancelGiftAid(r.Context(), v.ID)
	return httpx.Reply(w, http.StatusOK, map[string]any{"declaration": d}, err)
}

// ClaimRow is one line of HMRC's Gift Aid schedule.
type ClaimRow struct {
	Title, FirstName, LastName, House, Postcode string
	Date                                        time.Time
	AmountMinor                                 int64
	Receipt                                     string // ours, for the treasurer's cross-check; not in the file
}

// ClaimReport is a claim: its rows and what was left out, and why.
type ClaimReport struct {
	Rows          []ClaimRow
	TotalMinor    int64
	Refunded      int // refunded in full
	NoDeclaration int // no declaration in force at the payment's date (or the account was deleted)
	NotGBP        int // Gift Aid is on sterling donations
}

// GiftAidClaim gathers the eligible payments made in [from, to): membership payments
// (card and manual) in GBP, less any part refunded, by a donor with a declaration in
// force at the payment's date. Each row carries the newest such declaration's name and
// address.
func (s *Service) GiftAidClaim(ctx context.Context, from, to time.Time) (ClaimReport, error) {
	var rep ClaimReport
	type pay struct {
		receipt                  string
		amount, refunded, paidAt int64
		currency                 string
		userID                   sql.NullInt64
	}
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT p.receipt_number, p.amount_minor, p.refunded_minor, p.currency, p.paid_at, m.user_id
		FROM membership_payments p JOIN memberships m ON m.id = p.membership_id
		WHERE p.paid_at >= ? AND p.paid_at < ? AND p.method IN (?, ?) ORDER BY p.paid_at, p.id`),
		from.Unix(), to.Unix(), MethodStripe, MethodManual)
	pays, err := store.Collect(rs, err, func(row store.Row) (pay, error) {
		var p pay
		err := row.Scan(&p.receipt, &p.amount, &p.refunded, &p.currency, &p.paidAt, &p.userID)
		return p, err
	})
	if err != nil {
		return rep, err
	}
	for _, p := range pays {
		net := p.amount - p.refunded
		switch {
		case net <= 0:
			rep.Refunded++
			continue
		case p.currency != "GBP":
			rep.NotGBP++
			continue
		case !p.userID.Valid:
			rep.NoDeclaration++
			continue
		}
		d, err := s.giftAidAt(ctx, p.userID.Int64, store.Time(p.paidAt))
		if err != nil {
			return rep, err
		}
		if d == nil {
			rep.NoDeclaration++
			continue
		}
		rep.Rows = append(rep.Rows, ClaimRow{Title: d.Title, FirstName: d.FirstName, LastName: d.LastName, House: d.House,
			Postcode: d.Postcode, Date: store.Time(p.paidAt), AmountMinor: net, Receipt: p.receipt})
		rep.TotalMinor += net
	}
	return rep, nil
}

// ClaimHeader is the header row of the claim file: the columns of HMRC's schedule.
var ClaimHeader = []string{"Title", "First name or initial", "Last name", "House name or number", "Postcode",
	"Aggregated donations", "Sponsored event", "Donation date", "Amount"}

// Cells formats the row as HMRC's schedule asks: title of at most 4 characters (else
// left out), names of at most 35 with a space for a double-barrel hyphen in the last
// name, the postcode in capitals with its space, the date as DD/MM/YY (UK), the amount
// with two decimals and no £ sign, and the cells that do not apply (aggregated
// donations, sponsored event) blank, never 0.00.
func (c ClaimRow) Cells() []string {
	title := hmrcText(c.Title, MaxGiftAidTitle)
	if utf8.RuneCountInString(strings.TrimSpace(c.Title)) > MaxGiftAidTitle {
		title = ""
	}
	postcode, _ := NormalizePostcode(c.Postcode)
	return []string{
		title,
		hmrcText(c.FirstName, MaxGiftAidName),
		hmrcText(strings.ReplaceAll(c.LastName, "-", " "), MaxGiftAidName),
		hmrcText(c.House, MaxGiftAidHouse),
		hmrcText(postcode, 8),
		"",
		"",
		c.Date.In(ukLocation).Format("02/01/06"),
		formatMinor(c.AmountMinor),
	}
}

// hmrcText makes a stored value a safe cell: control characters and line breaks become
// spaces, runs of spaces one, characters a spreadsheet reads as a formula are dropped
// from the start, and it is cut to max characters.
func hmrcText(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if !textfield.Valid(string(r)) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, " "))
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimLeft(s, "=+-@ ")
	if utf8.RuneCountInString(s) > max {
		s = strings.TrimSpace(string([]rune(s)[:max]))
	}
	return s
}

// WriteClaimCSV writes the header and the rows.
func WriteClaimCSV(w io.Writer, rows []ClaimRow) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(ClaimHeader); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(r.Cells()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ParseClaimRange reads the --from and --to dates of a claim (YYYY-MM-DD, UK calendar
// dates, both included) and returns the instants [start, end) they span.
func ParseClaimRange(from, to string) (start, end time.Time, err error) {
	parse := func(flag, v string) (time.Time, error) {
		v = strings.TrimSpace(v)
		if v == "" {
			return time.Time{}, fmt.Errorf("--%s is required: a date such as 2026-04-06", flag)
		}
		d, err := time.ParseInLocation(time.DateOnly, v, ukLocation)
		if err != nil || d.Year() < 2000 || d.Year() > 2200 {
			return time.Time{}, fmt.Errorf("--%s \"%s\" is not a date such as 2026-04-06", flag, textfield.Escape(v))
		}
		return d, nil
	}
	if start, err = parse("from", from); err != nil {
		return
	}
	var last time.Time
	if last, err = parse("to", to); err != nil {
		return
	}
	if last.Before(start) {
		return time.Time{}, time.Time{}, fmt.Errorf("--to %s is before --from %s", last.Format(time.DateOnly), start.Format(time.DateOnly))
	}
	y, m, d := last.Date()
	end = time.Date(y, m, d+1, 0, 0, 0, 0, ukLocation)
	return start.UTC(), end.UTC(), nil
}

// FormatClaimAmount writes minor units as HMRC's amounts: 2 decimals, no £ sign.
func FormatClaimAmount(minor int64) string { return formatMinor(minor) }

// prefixFields names the fields of a validation error as parts of a larger form
// ("gift_aid.postcode" in the join form).
func prefixFields(err error, prefix string) error {
	var e *httpx.Error
	if !errors.As(err, &e) || e.Code != httpx.EINVALID {
		return err
	}
	fields := map[string][]string{}
	for k, msgs := range e.Fields {
		fields[prefix+k] = msgs
	}
	return &httpx.Error{Code: httpx.EINVALID, Message: e.Message, Fields: fields}
}

// GiftAidDeclarations lists all of userID's declarations, cancelled ones too, newest
// first.
func (s *Service) GiftAidDeclarations(ctx context.Context, userID int64) ([]*GiftAidDeclaration, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT `+giftAidColumns+` FROM gift_aid_declarations
		WHERE user_id = ? ORDER BY declared_at DESC, id DESC`), userID)
	return store.Collect(rs, err, scanGiftAid)
}

// GiftAidExporter is the Gift Aid part of "download my data" (the auth room's
// Exporter): a donor's declarations, with their wording, name and address.
type GiftAidExporter struct{ Service *Service }

// ExportUserData implements auth.Exporter.
func (x GiftAidExporter) ExportUserData(ctx context.Context, userID int64) (map[string]any, error) {
	return exportPart(ctx, userID, "gift_aid_declarations", x.Service.GiftAidDeclarations)
}

// giftAidAt returns userID's newest declaration in force at t, or nil.
func (s *Service) giftAidAt(ctx context.Context, userID int64, t time.Time) (*GiftAidDeclaration, error) {
	d, err := scanGiftAid(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+giftAidColumns+` FROM gift_aid_declarations
		WHERE user_id = ? AND covers_from <= ? AND (cancelled_at IS NULL OR cancelled_at > ?)
		ORDER BY declared_at DESC, id DESC LIMIT 1`), userID, t.Unix(), t.Unix()))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return d, err
}

// giftAidStatement is the receipt's Gift Aid line: "" unless the payment is one a claim
// would include (in GBP, not refunded in full, a declaration in force on its date).
func (s *Service) giftAidStatement(ctx context.Context, m *Membership, rc Receipt) (string, error) {
	if m.UserID == nil || rc.Currency != "GBP" || rc.AmountMinor-rc.RefundedMinor <= 0 ||
		(rc.Method != MethodStripe && rc.Method != MethodManual) {
		return "", nil
	}
	d, err := s.giftAidAt(ctx, *m.UserID, rc.PaidAt)
	if err != nil || d == nil {
		return "", err
	}
	return "Declared on " + ukDate(d.DeclaredAt) + ": " + textfield.LineOr(s.opt.SocietyName, 200, "the society") +
		" may claim Gift Aid on this payment.", nil
}
