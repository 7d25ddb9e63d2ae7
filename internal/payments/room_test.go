package payments_test

import (
	"net/http"

	"lineage/internal/httpx"
	"lineage/internal/payments"
)

// handler serves the webhook and the portal route as cmd/lineage's route table does,
// without the accounts middleware (the tests' Owner says who asks).
func handler(svc *payments.Service) http.Handler {
	return httpx.Serve(httpx.Room{Name: "payments", Routes: []httpx.Route{
		{Pattern: "POST /api/stripe/webhook", Handler: svc.Webhook},
		{Pattern: "POST /api/membership/portal", Handler: svc.OpenPortal},
	}})
}
