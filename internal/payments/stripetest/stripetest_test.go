package stripetest_test

import (
	"net/http"
	"testing"

	"lineage/internal/payments/stripetest"
)

// TestStartAnswers: the harness builds the pinned stripe-mock, starts it on a free port
// and the mock answers an authenticated API call; two at once do not collide.
func TestStartAnswers(t *testing.T) {
	a := stripetest.Start(t)
	b := stripetest.Start(t)
	if a.URL == b.URL {
		t.Fatalf("two mocks on one address %s", a.URL)
	}
	for _, s := range []*stripetest.Server{a, b} {
		req, _ := http.NewRequest("GET", s.URL+"/v1/customers/cus_1", nil)
		req.Header.Set("Authorization", "Bearer "+stripetest.Key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %s", s.URL, resp.Status)
		}
	}
}
