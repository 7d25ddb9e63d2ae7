package payments

import (
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82/webhook"
)

// FuzzWebhookParse feeds the webhook's reading of a body and its Stripe-Signature
// header: verify must refuse anything unsigned without panicking, and a signed body
// of any shape must either be refused or decode without panicking.
func FuzzWebhookParse(f *testing.F) {
	f.Add([]byte(`{"id":"evt_1","type":"invoice.paid","created":1,"api_version":"2025-08-27.basil","data":{"object":{"id":"in_1","parent":{"subscription_details":{"metadata":{"kind":"membership","membership_id":"1"}}},"lines":{"data":[{"period":{"end":5}}]}}}}`), "t=1,v1=00")
	f.Add([]byte(`{"id":"evt_2","type":"customer.subscription.updated","api_version":"2025-08-27.basil","data":{"object":{"id":"sub_1","items":{"data":[null,{"current_period_end":9}]},"metadata":{"kind":"membership"}}}}`), "")
	f.Add([]byte(`{"id":"evt_3","type":"charge.refunded","api_version":"x.basil","data":{"object":{"payment_intent":{"id":"pi"},"customer":"cus"}}}`), "t=,v1=")
	f.Add([]byte(`{"id":"evt_4","type":"checkout.session.completed","api_version":"2025-08-27.basil","data":{"object":null}}`), "v1=zz,t=99999999999")
	f.Add([]byte(`[]`), ",,,=")
	const secret = "whsec_fuzz"
	s := &Service{cfg: Config{WebhookSecret: secret}}
	now := time.Now()
	f.Fuzz(func(t *testing.T, body []byte, header string) {
		s.verify(body, header) // any header: refused or accepted, never a panic
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: now})
		ev, err := s.verify(body, signed.Header)
		if err != nil {
			return
		}
		if ev.ID == "" || ev.Type == "" {
			t.Fatalf("accepted an event without id or type: %q", body)
		}
		a, err := decode(ev)
		if err != nil || a == nil {
			return
		}
		switch {
		case a.checkout != nil:
			refOf(a.checkout.Metadata)
			idOf(a.checkout.Customer)
			idOf(a.checkout.PaymentIntent)
		case a.invoice != nil:
			if sd := subscriptionDetails(a.invoice); sd != nil {
				refOf(sd.Metadata)
				idOf(sd.Subscription)
			}
			periodEnd(a.invoice)
		case a.sub != nil:
			subscriptionPeriodEnd(a.sub)
		case a.charge != nil:
			idOf(a.charge.PaymentIntent)
			idOf(a.charge.Customer)
			refOf(a.charge.Metadata)
		}
	})
}

func TestSameReleaseTrain(t *testing.T) {
	for _, tc := range []struct {
		event string
		want  bool
	}{
		{"2025-08-27.basil", true},
		{"2025-03-31.basil", true},
		{"2024-06-20.acacia", false},
		{"2025-09-30.clover", false},
		{"2022-11-15", false},
		{"", false},
		{".basil", true},
	} {
		if got := sameReleaseTrain(tc.event, "2025-08-27.basil"); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.event, got, tc.want)
		}
	}
}
