package membership

import (
	"context"
	"errors"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"lineage/internal/httpx"
)

// handlerFunc is a handler of the room, told who asks.
type handlerFunc func(w http.ResponseWriter, r *http.Request, v Viewer) error

// viewer is who asks. A method value, so that the route table can be built before
// the room is.
func (s *Service) viewer(r *http.Request) Viewer { return s.opt.Viewer(r) }

// Public makes fn a handler anyone may call.
func (s *Service) Public(fn handlerFunc) httpx.HandlerFunc { return httpx.Guard(s.viewer, nil, fn) }

// SignedIn makes fn a handler for accounts only; anonymous callers get a 401.
func (s *Service) SignedIn(fn handlerFunc) httpx.HandlerFunc {
	return httpx.Guard(s.viewer, signedIn, fn)
}

// Admin makes fn a handler for admins only: a 401 anonymously, a 403 to other accounts;
// its answers are never cached.
func (s *Service) Admin(fn handlerFunc) httpx.HandlerFunc {
	return httpx.Guard(s.viewer, func(v Viewer) error {
		if err := signedIn(v); err != nil || v.Admin {
			return err
		}
		return &httpx.Error{Code: httpx.EFORBIDDEN, Message: "Only admins may manage members."}
	}, func(w http.ResponseWriter, r *http.Request, v Viewer) error {
		w.Header().Set("Cache-Control", "no-store")
		return fn(w, r, v)
	})
}

func signedIn(v Viewer) error {
	if v.ID == 0 {
		return httpx.ErrUnauthenticated
	}
	return nil
}

// CardPayments reports whether the payments room can take card payments.
func (s *Service) CardPayments() bool { return s.opt.Checkout != nil }

func (s *Service) GetPlans(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	plans, err := s.Plans(r.Context(), true)
	return httpx.Reply(w, http.StatusOK, map[string]any{"plans": plans, "card_payments": s.CardPayments(), "other_ways": s.opt.OtherWays}, err)
}

func (s *Service) GetPlan(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	p, err := s.PlanBySlug(r.Context(), r.PathValue("slug"))
	return httpx.Reply(w, http.StatusOK, p, err)
}

func (s *Service) GetMine(w http.ResponseWriter, r *http.Request, v Viewer) error {
	w.Header().Set("Cache-Control", "no-store")
	m, err := s.ForUser(r.Context(), v.ID)
	if err != nil {
		return err
	}
	receipts := []Receipt{}
	if m != nil {
		if receipts, err = s.Receipts(r.Context(), m.ID); err != nil {
			return err
		}
	}
	consent, err := s.MarketingConsentOf(r.Context(), v.ID)
	if err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"membership": m, "receipts": receipts,
		"marketing_consent": consent, "marketing_wording": MarketingWording})
	return nil
}

type joinInput struct {
	Plan       string `json:"plan"`
	Concession string `json:"concession"`
	Household  []struct {
		Name  string `json:"name"`
		Email string `json:"email"`
	} `json:"household"`
	ReturnTo string `json:"return_to"`
	// GiftAid: a declaration made with the join form (giftaid.go); null or not declared: none.
	GiftAid *GiftAidInput `json:"gift_aid"`
	// MarketingConsent: the join form's box for MarketingWording (consent.go); kept
	// apart from the membership, and only when ticked.
	MarketingConsent bool `json:"marketing_consent"`
}

func (s *Service) PostJoin(w http.ResponseWriter, r *http.Request, v Viewer) error {
	var in joinInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.ReturnTo != "" && !validReturnTo(in.ReturnTo) {
		return invalid("return_to", "The return path must be a path on this site, starting with one /.")
	}
	ctx := r.Context()
	if in.GiftAid != nil && !in.GiftAid.Declared {
		in.GiftAid = nil
	}
	if in.GiftAid != nil {
		if _, err := s.checkGiftAid(*in.GiftAid); err != nil {
			return prefixFields(err, "gift_aid.")
		}
	}
	if p, err := s.PlanBySlug(ctx, in.Plan); err == nil && len(in.Household) > p.HouseholdSize-1 {
		return invalid("household", "The plan %s is for at most %d people.", p.Name, p.HouseholdSize)
	}
	m, err := s.Join(ctx, v.ID, in.Plan, in.Concession)
	if err != nil {
		return err
	}
	for i, h := range in.Household {
		if m, err = s.AddHousehold(ctx, v.ID, m.ID, h.Name, h.Email); err != nil {
			var e *httpx.Error
			if errors.As(err, &e) && e.Code == httpx.EINVALID {
				fields := map[string][]string{}
				for k, msgs := range e.Fields {
					fields["household."+strconv.Itoa(i)+"."+k] = msgs
				}
				return &httpx.Error{Code: httpx.EINVALID, Message: e.Message, Fields: fields}
			}
			return err
		}
	}
	if in.GiftAid != nil {
		if _, err := s.DeclareGiftAid(ctx, v.ID, *in.GiftAid); err != nil {
			return prefixFields(err, "gift_aid.")
		}
	}
	if in.MarketingConsent {
		if _, err := s.SetMarketingConsent(ctx, v.ID, true, "/subscribe/"+m.Plan.Slug); err != nil {
			return err
		}
	}
	var checkout any
	if s.opt.Checkout != nil {
		url, err := s.opt.Checkout(ctx, m, in.ReturnTo)
		if err != nil {
			return err
		}
		checkout = url
	}
	httpx.JSON(w, http.StatusCreated, map[string]any{"membership": m, "checkout_url": checkout})
	return nil
}

// validReturnTo: a path on this site, starting with one /.
func validReturnTo(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && !strings.ContainsAny(p, "\\\r\n")
}

func (s *Service) mine(ctx context.Context, v Viewer) (*Membership, error) {
	m, err := s.ForUser(ctx, v.ID)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, &httpx.Error{Code: httpx.ENOTFOUND, Message: "You have no membership."}
	}
	return m, nil
}

func (s *Service) PostCancelRenewal(w http.ResponseWriter, r *http.Request, v Viewer) error {
	m, err := s.mine(r.Context(), v)
	if err != nil {
		return err
	}
	m, err = s.CancelRenewal(r.Context(), v.ID, m.ID)
	return httpx.Reply(w, http.StatusOK, m, err)
}

func (s *Service) PostHousehold(w http.ResponseWriter, r *http.Request, v Viewer) error {
	var in struct{ Name, Email string }
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	m, err := s.mine(r.Context(), v)
	if err != nil {
		return err
	}
	m, err = s.AddHousehold(r.Context(), v.ID, m.ID, in.Name, in.Email)
	return httpx.Reply(w, http.StatusCreated, m, err)
}

func (s *Service) DeleteHousehold(w http.ResponseWriter, r *http.Request, v Viewer) error {
	uid, err := httpx.PathID(r, "user_id")
	if err != nil {
		return err
	}
	m, err := s.mine(r.Context(), v)
	if err != nil {
		return err
	}
	m, err = s.RemoveHousehold(r.Context(), v.ID, m.ID, uid)
	return httpx.Reply(w, http.StatusOK, m, err)
}

var receiptPage = template.Must(template.New("receipt").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt {{.R.Number}}</title>
<style>body{font-family:serif;max-width:40em;margin:2em auto}td{padding:.2em 1em .2em 0}</style></head>
<body><h1>{{.Society}}</h1><h2>Receipt {{.R.Number}}</h2>
<table>
<tr><td>Membership</td><td>{{.M.Number}} ({{.M.Plan.Name}})</td></tr>
<tr><td>Received</td><td>{{.R.PaidAt.Format "2 January 2006"}}</td></tr>
<tr><td>Amount</td><td>{{.Amount}} {{.R.Currency}}</td></tr>
<tr><td>Paid by</td><td>{{.R.Method}}</td></tr>
{{with .R.CoversUntil}}<tr><td>Paid until</td><td>{{.Format "2 January 2006"}}</td></tr>{{end}}
{{if .R.RefundedMinor}}<tr><td>Refunded</td><td>{{.Refunded}} {{.R.Currency}}</td></tr>{{end}}
{{with .GiftAid}}<tr><td>Gift Aid</td><td>{{.}}</td></tr>{{end}}
</table></body></html>
`))

// formatMinor writes minor units as major.minor (two decimals, as GBP and most
// currencies have).
func formatMinor(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	return sign + strconv.FormatInt(n/100, 10) + "." + strconv.FormatInt(n%100/10, 10) + strconv.FormatInt(n%10, 10)
}

func (s *Service) GetReceipt(w http.ResponseWriter, r *http.Request, v Viewer) error {
	m, err := s.mine(r.Context(), v)
	if err != nil {
		return err
	}
	receipts, err := s.Receipts(r.Context(), m.ID)
	if err != nil {
		return err
	}
	for _, rc := range receipts {
		if rc.Number == r.PathValue("number") {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			giftAid, err := s.giftAidStatement(r.Context(), m, rc) // giftaid.go
			if err != nil {
				return err
			}
			return receiptPage.Execute(w, map[string]any{"Society": s.opt.SocietyName, "R": rc, "M": m,
				"Amount": formatMinor(rc.AmountMinor), "Refunded": formatMinor(rc.RefundedMinor), "GiftAid": giftAid})
		}
	}
	return errNotFound
}

func (s *Service) AdminList(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	q := r.URL.Query()
	status := q.Get("status")
	if status != "" && !validStatus(status) {
		return invalid("status", "The status must be one of pending, active, grace, lapsed, cancelled, complimentary, lifetime.")
	}
	page, _ := strconv.Atoi(q.Get("page"))
	res, err := s.Search(r.Context(), q.Get("q"), status, page)
	return httpx.Reply(w, http.StatusOK, res, err)
}

func validStatus(s string) bool {
	switch s {
	case StatusPending, StatusActive, StatusGrace, StatusLapsed, StatusCancelled, StatusComplimentary, StatusLifetime:
		return true
	}
	return false
}

// Detail is one membership with its history and payments, for admins.
type Detail struct {
	*Membership
	History  []HistoryRow `json:"history"`
	Payments []Receipt    `json:"payments"`
}

// Detail returns membership id with its history and payments.
func (s *Service) Detail(ctx context.Context, id int64) (*Detail, error) {
	m, err := s.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	d := &Detail{Membership: m}
	if d.History, err = s.History(ctx, id); err != nil {
		return nil, err
	}
	if d.Payments, err = s.Receipts(ctx, id); err != nil {
		return nil, err
	}
	return d, nil
}

func (s *Service) AdminGet(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	d, err := s.Detail(r.Context(), id)
	return httpx.Reply(w, http.StatusOK, d, err)
}

// dateInput accepts "2026-05-01" or an RFC 3339 time.
func dateInput(field, s string, fe *httpx.FieldErrors) *time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	for _, layout := range []string{time.DateOnly, time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			t = t.UTC()
			return &t
		}
	}
	fe.Add(field, "The %s must be a date such as 2026-05-01.", strings.ReplaceAll(field, "_", " "))
	return nil
}

func (s *Service) AdminPayment(w http.ResponseWriter, r *http.Request, v Viewer) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	var in struct {
		AmountMinor any    `json:"amount_minor"`
		Currency    string `json:"currency"`
		Method      string `json:"method"`
		Note        string `json:"note"`
		PaidUntil   string `json:"paid_until"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	var fe httpx.FieldErrors
	amount, ok := wholeNumber(in.AmountMinor)
	if !ok {
		fe.Add("amount_minor", "The amount must be a whole number of minor units (pence), such as 2400 for £24.00.")
	}
	until := dateInput("paid_until", in.PaidUntil, &fe)
	if err := fe.Err(); err != nil {
		return err
	}
	if _, err := s.ByID(r.Context(), id); err != nil {
		return err
	}
	m, err := s.RecordPayment(r.Context(), v.ID, id, ManualPayment{AmountMinor: amount, Currency: in.Currency, Method: in.Method, Note: in.Note, PaidUntil: until})
	return httpx.Reply(w, http.StatusCreated, m, err)
}

// wholeNumber accepts a JSON number without a fraction, or such a number in a string
// (forms); floats are refused, as money is never a float.
func wholeNumber(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		if x != float64(int64(x)) {
			return 0, false
		}
		return int64(x), true
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return n, err == nil
	}
	return 0, false
}

func (s *Service) AdminComplimentary(w http.ResponseWriter, r *http.Request, v Viewer) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	var in struct{ Plan, Until, Why string }
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	var fe httpx.FieldErrors
	until := dateInput("until", in.Until, &fe)
	if err := fe.Err(); err != nil {
		return err
	}
	m, err := s.GrantComplimentaryTo(r.Context(), v.ID, id, in.Plan, until, in.Why)
	return httpx.Reply(w, http.StatusOK, m, err)
}

func (s *Service) AdminPlan(w http.ResponseWriter, r *http.Request, v Viewer) error {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return err
	}
	var in struct{ Plan, Why string }
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if _, err := s.ByID(r.Context(), id); err != nil {
		return err
	}
	m, err := s.ChangePlan(r.Context(), v.ID, id, in.Plan, in.Why)
	return httpx.Reply(w, http.StatusOK, m, err)
}

func (s *Service) AdminPlans(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	plans, err := s.Plans(r.Context(), false)
	return httpx.Reply(w, http.StatusOK, map[string]any{"plans": plans}, err)
}

func (s *Service) AdminSavePlan(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	var p Plan
	if err := decodeJSON(w, r, &p); err != nil {
		return err
	}
	status := http.StatusCreated
	if slug := r.PathValue("slug"); slug != "" {
		if _, err := s.PlanBySlug(r.Context(), slug); err != nil {
			return err
		}
		p.Slug, status = slug, http.StatusOK
	} else if _, err := s.PlanBySlug(r.Context(), p.Slug); err == nil {
		return invalid("slug", "A plan with the slug %s exists already.", p.Slug)
	}
	p, err := s.SavePlan(r.Context(), p)
	return httpx.Reply(w, status, p, err)
}

func (s *Service) AdminExport(w http.ResponseWriter, r *http.Request, _ Viewer) error {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="members.csv"`)
	return s.ExportCSV(r.Context(), w)
}

func (s *Service) AdminImport(w http.ResponseWriter, r *http.Request, v Viewer) error {
	dry := r.URL.Query().Get("dry_run")
	r.Body = http.MaxBytesReader(w, r.Body, maxCSV)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &httpx.Error{Code: httpx.ETOOLARGE, Message: "A members CSV may be at most 8 MiB."}
		}
		return err
	}
	rep, err := s.ImportCSV(r.Context(), v.ID, strings.NewReader(string(body)), dry == "1" || dry == "true")
	if err != nil {
		return err
	}
	status := http.StatusOK
	if len(rep.Errors) > 0 {
		status = http.StatusUnprocessableEntity
	}
	httpx.JSON(w, status, rep)
	return nil
}
