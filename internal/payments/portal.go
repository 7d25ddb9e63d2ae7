package payments

import (
	"errors"
	"net/http"

	"lineage/internal/httpx"
)

// Owner is what the portal route asks the membership room: the reference (membership
// id) the signed-in requester's card payments are kept under.
type Owner interface {
	// OwnedRef returns the kind and reference of the requester's membership;
	// ErrSignedOut when no one is signed in, ErrNoRef when they have none.
	OwnedRef(r *http.Request) (kind, ref string, err error)
}

// Errors an Owner returns.
var (
	ErrSignedOut = errors.New("payments: not signed in")
	ErrNoRef     = errors.New("payments: nothing to manage")
)

// PortalHandler serves PortalPatterns.
func (s *Service) PortalHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/membership/portal", s.portal)
	return mux
}

// portal serves POST /api/membership/portal: {"url"} of a Customer Portal session for
// the requester's Stripe customer ("Manage payment").
func (s *Service) portal(w http.ResponseWriter, r *http.Request) {
	msg := func(status int, m string) { httpx.JSON(w, status, map[string]any{"message": m}) }
	s.mu.RLock()
	owner := s.owner
	s.mu.RUnlock()
	if owner == nil {
		msg(http.StatusNotFound, "Not Found")
		return
	}
	kind, ref, err := owner.OwnedRef(r)
	switch {
	case errors.Is(err, ErrSignedOut):
		msg(http.StatusUnauthorized, "Unauthenticated.")
		return
	case errors.Is(err, ErrNoRef):
		msg(http.StatusNotFound, "You have no membership.")
		return
	case err != nil:
		s.log.Error("payments: portal", "err", err)
		msg(http.StatusInternalServerError, "Server Error")
		return
	}
	if !s.CardPayments() {
		msg(http.StatusNotFound, "Card payments are not taken on this site.")
		return
	}
	customer, err := s.Customer(r.Context(), kind, ref)
	if err != nil {
		s.log.Error("payments: portal", "err", err)
		msg(http.StatusInternalServerError, "Server Error")
		return
	}
	if customer == "" {
		msg(http.StatusConflict, "No card payment has been made for this membership yet, so there is nothing to manage.")
		return
	}
	url, err := s.Portal(r.Context(), customer, s.pub+"/user-account/membership")
	if err != nil {
		s.log.Error("payments: portal", "err", err)
		msg(http.StatusBadGateway, "Stripe could not open the payment portal; please try again.")
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"url": url})
}
