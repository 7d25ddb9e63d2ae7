package payments

import (
	"errors"
	"fmt"
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

// OpenPortal serves POST /api/membership/portal: {"url"} of a Customer Portal session
// for the requester's Stripe customer ("Manage payment").
func (s *Service) OpenPortal(w http.ResponseWriter, r *http.Request) error {
	s.mu.RLock()
	owner := s.owner
	s.mu.RUnlock()
	if owner == nil {
		return httpx.ErrNotFound
	}
	kind, ref, err := owner.OwnedRef(r)
	switch {
	case errors.Is(err, ErrSignedOut):
		return httpx.ErrUnauthenticated
	case errors.Is(err, ErrNoRef):
		return &httpx.Error{Code: httpx.ENOTFOUND, Message: "You have no membership."}
	case err != nil:
		return fmt.Errorf("portal: %w", err)
	}
	if !s.CardPayments() {
		return &httpx.Error{Code: httpx.ENOTFOUND, Message: "Card payments are not taken on this site."}
	}
	customer, err := s.Customer(r.Context(), kind, ref)
	if err != nil {
		return fmt.Errorf("portal: %w", err)
	}
	if customer == "" {
		return &httpx.Error{Code: httpx.ECONFLICT, Message: "No card payment has been made for this membership yet, so there is nothing to manage."}
	}
	url, err := s.Portal(r.Context(), customer, s.pub+"/user-account/membership")
	if err != nil {
		s.log.Error("payments: portal", "err", err)
		return &httpx.Error{Code: httpx.EBADGATEWAY, Message: "Stripe could not open the payment portal; please try again."}
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"url": url})
	return nil
}
