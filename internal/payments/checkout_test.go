package payments_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth/authtest"
	"lineage/internal/payments"
	"lineage/internal/payments/stripetest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// stripeService is a Service talking to a real stripe-mock.
func stripeService(t *testing.T, db *store.DB, mock *stripetest.Server) *payments.Service {
	t.Helper()
	cfg, err := payments.ConfigFromEnv(func(k string) string {
		return map[string]string{
			"LINEAGE_STRIPE_SECRET_KEY":     stripetest.Key,
			"LINEAGE_STRIPE_WEBHOOK_SECRET": secret,
			"LINEAGE_STRIPE_API":            mock.URL,
		}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	return payments.New(db, payments.Options{Config: cfg, Log: quiet})
}

// TestCheckout: sessions for a renewing plan (subscription) and a one-off plan
// (payment) are accepted by Stripe's API description; the plan's Price is made once.
func TestCheckout(t *testing.T) {
	mock := stripetest.Start(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		svc := stripeService(t, db, mock)
		ctx := context.Background()
		if !svc.CardPayments() {
			t.Fatal("card payments off with a key")
		}
		for _, tc := range []struct {
			period, concession string
			amount             int64
		}{
			{"annual", "", 3000},
			{"annual", "student", 1500},
			{"monthly", "", 300},
			{"lifetime", "", 50000},
			{"fixed", "", 2500},
		} {
			req := payments.CheckoutRequest{
				Kind: "membership", RefID: "42", Name: "Individual",
				Price:      payments.PriceKey{Plan: "individual-" + tc.period, Concession: tc.concession, AmountMinor: tc.amount, Currency: "GBP", Period: tc.period},
				Email:      "ada@example.org",
				SuccessURL: "https://society.example/user-account/membership?session={CHECKOUT_SESSION_ID}",
				CancelURL:  "https://society.example/subscribe/individual",
			}
			cs, err := svc.Checkout(ctx, req)
			if err != nil {
				t.Fatalf("%s: %v", tc.period, err)
			}
			if cs.ID == "" || !strings.HasPrefix(cs.URL, "http") {
				t.Fatalf("%s: session %+v", tc.period, cs)
			}
			// A known customer instead of an email.
			req.Customer, req.Email = "cus_1", ""
			if _, err := svc.Checkout(ctx, req); err != nil {
				t.Fatalf("%s with a customer: %v", tc.period, err)
			}
		}
		if n := count(t, db, `SELECT COUNT(*) FROM payment_prices`); n != 5 {
			t.Fatalf("%d prices kept, want one per plan and concession", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM payment_prices WHERE recurring = 'year'`); n != 2 {
			t.Fatalf("%d yearly prices", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM payment_products`); n != 4 {
			t.Fatalf("%d products, want one per plan", n)
		}
		// Bad prices are refused before Stripe is asked.
		for _, k := range []payments.PriceKey{
			{Plan: "p", AmountMinor: 0, Currency: "GBP", Period: "annual"},
			{Plan: "p", AmountMinor: 100, Currency: "gbp", Period: "annual"},
			{Plan: "p", AmountMinor: 100, Currency: "GBP", Period: "weekly"},
			{Plan: "", AmountMinor: 100, Currency: "GBP", Period: "annual"},
		} {
			if _, err := svc.Checkout(ctx, payments.CheckoutRequest{Kind: "membership", RefID: "1", Price: k, SuccessURL: "https://x.example/"}); err == nil {
				t.Errorf("price %+v accepted", k)
			}
		}
		url, err := svc.Portal(ctx, "cus_1", "https://society.example/user-account/membership")
		if err != nil || !strings.HasPrefix(url, "http") {
			t.Fatalf("portal: %q %v", url, err)
		}
	})
}

// TestCardPaymentsOff: without a key nothing calls Stripe and the calls say why.
func TestCardPaymentsOff(t *testing.T) {
	db := storetest.SQLite(t)
	svc := payments.New(db, payments.Options{Log: quiet})
	ctx := context.Background()
	if svc.CardPayments() {
		t.Fatal("card payments on without a key")
	}
	if _, err := svc.Checkout(ctx, payments.CheckoutRequest{}); !errors.Is(err, payments.ErrOff) {
		t.Fatalf("checkout: %v", err)
	}
	if _, err := svc.Portal(ctx, "cus_1", ""); !errors.Is(err, payments.ErrOff) {
		t.Fatalf("portal: %v", err)
	}
	if _, err := svc.SyncPrices(ctx, plans(nil)); !errors.Is(err, payments.ErrOff) {
		t.Fatalf("sync: %v", err)
	}
}

// plans is a PlanSource over a fixed list, standing in for the membership room's plans.
type plans []payments.SyncPlan

func (p plans) PlansForSync(context.Context) ([]payments.SyncPlan, error) { return p, nil }

// TestSyncPrices: sync-stripe creates what Stripe lacks and nothing twice.
func TestSyncPrices(t *testing.T) {
	mock := stripetest.Start(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		svc := stripeService(t, db, mock)
		ctx := context.Background()
		src := plans{
			{Slug: "individual", Name: "Individual", PriceMinor: 3000, Currency: "GBP", Period: "annual",
				Concessions: []payments.SyncConcession{{Slug: "student", Name: "Student", PriceMinor: 1500}}},
			{Slug: "life", Name: "Life", PriceMinor: 50000, Currency: "GBP", Period: "lifetime"},
			{Slug: "honorary", Name: "Honorary", PriceMinor: 0, Currency: "GBP", Period: "lifetime"},
		}
		res, err := svc.SyncPrices(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 3 {
			t.Fatalf("results %+v", res)
		}
		for _, r := range res {
			if !r.Created || r.PriceID == "" {
				t.Fatalf("first sync: %+v", r)
			}
		}
		res, err = svc.SyncPrices(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Created {
				t.Fatalf("second sync created %+v", r)
			}
		}
		// A new price for a plan is a new Stripe Price; the old one stays for its subscribers.
		src[0].PriceMinor = 3500
		res, err = svc.SyncPrices(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		if !res[0].Created || res[1].Created {
			t.Fatalf("after a price change: %+v", res)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM payment_prices WHERE plan = 'individual'`); n != 3 {
			t.Fatalf("%d prices for the plan", n)
		}
		// A plan with a bad currency is named in the error.
		if _, err := svc.SyncPrices(ctx, plans{{Slug: "odd", Name: "Odd", PriceMinor: 100, Currency: "pounds", Period: "annual"}}); err == nil || !strings.Contains(err.Error(), `"odd"`) {
			t.Fatalf("bad currency: %v", err)
		}
	})
}

// TestConfigFromEnv: settings are checked at start-up with messages naming them.
func TestConfigFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string // "" = valid
	}{
		{"none", nil, ""},
		{"webhook only", map[string]string{"LINEAGE_STRIPE_WEBHOOK_SECRET": "whsec_1"}, ""},
		{"full", map[string]string{"LINEAGE_STRIPE_SECRET_KEY": "sk_test_1", "LINEAGE_STRIPE_WEBHOOK_SECRET": "whsec_1", "LINEAGE_STRIPE_API": "http://127.0.0.1:12111"}, ""},
		{"key without webhook secret", map[string]string{"LINEAGE_STRIPE_SECRET_KEY": "sk_test_1"}, "LINEAGE_STRIPE_WEBHOOK_SECRET must be set"},
		{"publishable key", map[string]string{"LINEAGE_STRIPE_SECRET_KEY": "pk_test_1", "LINEAGE_STRIPE_WEBHOOK_SECRET": "whsec_1"}, "LINEAGE_STRIPE_SECRET_KEY"},
		{"webhook secret shape", map[string]string{"LINEAGE_STRIPE_WEBHOOK_SECRET": "secret"}, "whsec_"},
		{"api not a URL", map[string]string{"LINEAGE_STRIPE_WEBHOOK_SECRET": "whsec_1", "LINEAGE_STRIPE_API": "localhost:12111"}, "LINEAGE_STRIPE_API"},
		{"max bytes", map[string]string{"LINEAGE_STRIPE_WEBHOOK_MAX_BYTES": "12"}, "LINEAGE_STRIPE_WEBHOOK_MAX_BYTES"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := payments.ConfigFromEnv(func(k string) string { return tc.env[k] })
			if tc.want == "" && err != nil {
				t.Fatal(err)
			}
			if tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("err %v, want one naming %q", err, tc.want)
			}
		})
	}
}

// owner answers the portal's question from a request header, standing in for the
// membership room (which reads the signed-in user).
type owner struct{}

func (owner) OwnedRef(r *http.Request) (string, string, error) {
	switch ref := r.Header.Get("X-Ref"); ref {
	case "":
		return "", "", payments.ErrSignedOut
	case "none":
		return "", "", payments.ErrNoRef
	default:
		return "membership", ref, nil
	}
}

// TestPortalRoute: "Manage payment" opens the Customer Portal of the customer who paid
// for the requester's membership, and says clearly when there is none.
func TestPortalRoute(t *testing.T) {
	mock := stripetest.Start(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		cfg := payments.Config{SecretKey: stripetest.Key, WebhookSecret: secret, APIBase: mock.URL}
		svc := payments.New(db, payments.Options{Config: cfg, Log: quiet, PublicURL: "https://society.example", Owner: owner{}})
		svc.Handle("membership", newRecorder(t, db))
		srv := httptest.NewServer(handler(svc))
		defer srv.Close()
		post := func(ref string) (int, string) {
			req, _ := http.NewRequest("POST", srv.URL+"/api/membership/portal", nil)
			if ref != "" {
				req.Header.Set("X-Ref", ref)
			}
			code, b, _ := authtest.Send(t, req)
			return code, string(b)
		}
		for _, tc := range []struct {
			ref  string
			code int
			want string
		}{
			{"", 401, "Unauthenticated"},
			{"none", 404, "no membership"},
			{"42", 409, "No card payment"},
		} {
			if code, body := post(tc.ref); code != tc.code || !strings.Contains(body, tc.want) {
				t.Fatalf("ref %q: %d %s", tc.ref, code, body)
			}
		}
		send(t, srv.URL, event("evt_cs", "checkout.session.completed", time.Now().Unix(), checkoutObject("payment", "paid", meta)), 200)
		code, body := post("42")
		if code != 200 || !strings.Contains(body, `"url":"http`) {
			t.Fatalf("portal: %d %s", code, body)
		}
	})
}
