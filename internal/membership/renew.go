package membership

import (
	"net/http"
	"time"

	"lineage/internal/httpx"
)

// Renewing early: a member whose plan does not renew by itself (a fixed-date plan, or
// an annual or monthly one paid by hand) may pay the next period while active or in
// grace. The payment extends paid_until from the current paid_until, not from the day
// of paying (pay), so paying early loses nothing and paying in grace does not give
// the grace days twice. By card it is a one-off Checkout payment (cmd/lineage's
// startCheckout uses a one-off price for a member who is active or in grace), and the
// payment reaches Paid through the webhook; an admin's manual payment extends the same way.

// renewable answers whether m's holder may pay its next period now, as a 409 saying why not.
func renewable(m *Membership, userID int64, now time.Time) error {
	conflict := func(msg string) error { return &httpx.Error{Code: httpx.ECONFLICT, Message: msg} }
	if m.UserID == nil || *m.UserID != userID {
		return conflict("Only the holder of membership " + m.Number + " can renew it.")
	}
	status := effectiveStatus(m.Status, m.PaidUntil, m.GraceDays, now)
	switch {
	case status == StatusLifetime || m.Plan.Period == PeriodLifetime:
		return conflict("A lifetime membership never lapses: there is nothing to renew.")
	case status == StatusComplimentary:
		return conflict("Your membership is complimentary: the society renews it.")
	case m.Method == MethodStripe && m.AutoRenew && (status == StatusActive || status == StatusGrace):
		return conflict("Your membership renews automatically by card: there is nothing to pay now. Use \"Manage payment\" to change the card.")
	case status != StatusActive && status != StatusGrace:
		return conflict("Your membership is " + status + ": join again at /subscribe/" + m.Plan.Slug + ".")
	}
	return nil
}

// postRenew is POST /api/membership/renew {"return_to"?} → {"membership", "checkout_url"}:
// the Checkout of the next period (null when the plan costs nothing).
func (s *Service) PostRenew(w http.ResponseWriter, r *http.Request, v Viewer) error {
	var in struct {
		ReturnTo string `json:"return_to"`
	}
	if r.ContentLength != 0 {
		if err := decodeJSON(w, r, &in); err != nil {
			return err
		}
	}
	if in.ReturnTo != "" && !validReturnTo(in.ReturnTo) {
		return invalid("return_to", "The return path must be a path on this site, starting with one /.")
	}
	m, err := s.mine(r.Context(), v)
	if err != nil {
		return err
	}
	if err := renewable(m, v.ID, s.Now()); err != nil {
		return err
	}
	if s.opt.Checkout == nil {
		msg := "Card payments are not taken here, so a membership is renewed by paying the society another way."
		if s.opt.OtherWays != "" {
			msg += " " + s.opt.OtherWays
		}
		return &httpx.Error{Code: httpx.ECONFLICT, Message: msg}
	}
	url, err := s.opt.Checkout(r.Context(), m, in.ReturnTo)
	if err != nil {
		return err
	}
	var checkout any
	if url != "" {
		checkout = url
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"membership": m, "checkout_url": checkout})
	return nil
}
