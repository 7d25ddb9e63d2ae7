package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/httpx"
	"lineage/internal/membership"
	"lineage/internal/payments/stripetest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

const testWebhookSecret = "whsec_lineage_cmd"

func setStripeEnv(t *testing.T, mock *stripetest.Server) {
	t.Setenv("LINEAGE_STRIPE_SECRET_KEY", stripetest.Key)
	t.Setenv("LINEAGE_STRIPE_WEBHOOK_SECRET", testWebhookSecret)
	t.Setenv("LINEAGE_STRIPE_API", mock.URL)
}

// payingApp wires accounts, the payment layer (on stripe-mock, see setStripeEnv) and
// the membership room as serve does.
func payingApp(t *testing.T, db *store.DB) (context.Context, config.Config, *app) {
	t.Helper()
	ctx := context.Background()
	cfg := config.Config{PublicURL: "https://society.example"}
	a := &app{accounts: auth.New(db, auth.Options{})}
	if err := a.addPayments(cfg, db); err != nil {
		t.Fatal(err)
	}
	if err := a.addMembership(ctx, cfg, db); err != nil {
		t.Fatal(err)
	}
	a.connectPayments()
	return ctx, cfg, a
}

// joinedAda loads the demo plans into a payingApp and makes Ada's account, which joins
// the individual plan with concession ("" for none).
func joinedAda(t *testing.T, ctx context.Context, a *app, concession string) *membership.Membership {
	t.Helper()
	if _, err := a.membership.LoadDemoPlans(ctx); err != nil {
		t.Fatal(err)
	}
	u, err := a.accounts.CreateUser(ctx, auth.NewUser{Email: "ada@example.org", Name: "Ada", Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := a.membership.Join(ctx, u.ID, "individual", concession)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// signedPost delivers a Stripe event, signed with the endpoint secret, to the webhook.
func signedPost(t *testing.T, url, id, typ string, created int64, object map[string]any) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"id": id, "object": "event", "type": typ, "created": created,
		"api_version": stripe.APIVersion, "data": map[string]any{"object": object}})
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: testWebhookSecret, Timestamp: time.Now()})
	req, _ := http.NewRequest("POST", url+"/api/stripe/webhook", bytes.NewReader(body))
	req.Header.Set("Stripe-Signature", sp.Header)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestCardPaymentJourney wires the payment layer to the real membership room as serve
// does and follows one member: join, checkout (stripe-mock), the first invoice paid
// (active until the period's end), a replay, renewal switched off in the portal, a
// refund (back to lapsed), and an event for a membership that does not exist.
func TestCardPaymentJourney(t *testing.T) {
	mock := stripetest.Start(t)
	setStripeEnv(t, mock)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx, cfg, a := payingApp(t, db)
		if !a.membership.CardPayments() {
			t.Fatal("the membership room does not offer card payment with a key set")
		}
		m := joinedAda(t, ctx, a, "student")
		url, err := startCheckout(ctx, a.payments, cfg.PublicURL, m, "/records/1")
		if err != nil || !strings.HasPrefix(url, "http") {
			t.Fatalf("checkout: %q %v", url, err)
		}
		srv := httptest.NewServer(httpx.Serve(a.routes()...))
		defer srv.Close()

		now := time.Now().Unix()
		end := time.Now().AddDate(1, 0, 0).Truncate(time.Second).UTC()
		meta := map[string]any{"kind": "membership", "membership_id": strconv.FormatInt(m.ID, 10)}
		invoice := map[string]any{"id": "in_1", "object": "invoice", "customer": "cus_1", "status": "paid",
			"billing_reason": "subscription_create", "amount_paid": 1200, "currency": "gbp",
			"parent": map[string]any{"subscription_details": map[string]any{"subscription": "sub_1", "metadata": meta}},
			"lines":  map[string]any{"data": []any{map[string]any{"id": "il_1", "period": map[string]any{"start": now, "end": end.Unix()}}}}}
		for _, id := range []string{"evt_paid", "evt_paid"} { // the second is a replay
			if code, body := signedPost(t, srv.URL, id, "invoice.paid", now, invoice); code != 200 {
				t.Fatalf("invoice.paid: %d %s", code, body)
			}
		}
		got, err := a.membership.ByID(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != membership.StatusActive || got.PaidUntil == nil || !got.PaidUntil.Equal(end) {
			t.Fatalf("after invoice.paid: %s until %v, want active until %v", got.Status, got.PaidUntil, end)
		}
		receipts, err := a.membership.Receipts(ctx, m.ID)
		if err != nil || len(receipts) != 1 || receipts[0].AmountMinor != 1200 {
			t.Fatalf("receipts after a replay: %+v %v", receipts, err)
		}

		sub := map[string]any{"id": "sub_1", "object": "subscription", "customer": "cus_1", "status": "active",
			"cancel_at_period_end": true, "metadata": meta,
			"items": map[string]any{"data": []any{map[string]any{"id": "si_1", "current_period_end": end.Unix()}}}}
		if code, body := signedPost(t, srv.URL, "evt_sub", "customer.subscription.updated", now+1, sub); code != 200 {
			t.Fatalf("subscription.updated: %d %s", code, body)
		}
		if got, _ = a.membership.ByID(ctx, m.ID); got.AutoRenew {
			t.Fatal("renewal still on after cancel_at_period_end")
		}

		charge := map[string]any{"id": "ch_1", "object": "charge", "amount": 1200, "amount_refunded": 1200,
			"refunded": true, "currency": "gbp", "customer": "cus_1"}
		if code, body := signedPost(t, srv.URL, "evt_refund", "charge.refunded", now+2, charge); code != 200 {
			t.Fatalf("charge.refunded: %d %s", code, body)
		}
		if got, _ = a.membership.ByID(ctx, m.ID); got.Status != membership.StatusLapsed {
			t.Fatalf("after a full refund: %s", got.Status)
		}

		// A membership that does not exist: recorded, answered 200 (a retry cannot help).
		ghost := map[string]any{"kind": "membership", "membership_id": "999999"}
		invoice["id"] = "in_ghost"
		invoice["parent"] = map[string]any{"subscription_details": map[string]any{"subscription": "sub_9", "metadata": ghost}}
		if code, body := signedPost(t, srv.URL, "evt_ghost", "invoice.paid", now, invoice); code != 200 {
			t.Fatalf("unknown membership: %d %s", code, body)
		}
		var outcome string
		if err := db.QueryRow(db.Rebind(`SELECT outcome FROM payment_events WHERE event_id = ?`), "evt_ghost").Scan(&outcome); err != nil || outcome != "unknown_ref" {
			t.Fatalf("unknown membership: outcome %q %v", outcome, err)
		}
	})
}

// TestSyncStripeCommand: `lineage membership sync-stripe` creates each plan's prices in
// Stripe once.
func TestSyncStripeCommand(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	db := openData(t, data)
	if _, err := newMembership(db, auth.New(db, auth.Options{})).LoadDemoPlans(ctx); err != nil {
		t.Fatal(err)
	}
	db.Close()

	var out bytes.Buffer
	err := runSyncStripe(ctx, []string{"--data", data}, &out)
	if err == nil || !strings.Contains(err.Error(), "LINEAGE_STRIPE_SECRET_KEY is not set") {
		t.Fatalf("without a key: %v", err)
	}
	setStripeEnv(t, stripetest.Start(t))
	out.Reset()
	if err := runSyncStripe(ctx, []string{"--data", data}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "individual  student") || strings.Contains(out.String(), " 0 price(s) created") ||
		strings.Contains(out.String(), "honorary") {
		t.Fatalf("first sync:\n%s", out.String())
	}
	out.Reset()
	if err := runSyncStripe(ctx, []string{"--data", data}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.Split(strings.TrimSpace(out.String()), "\n")[len(strings.Split(strings.TrimSpace(out.String()), "\n"))-1], "0 price(s) created") {
		t.Fatalf("second sync created prices:\n%s", out.String())
	}
}

// TestPaymentsThroughFrontDoor: serve's routes for payments sit beside the membership
// room's. Without Stripe settings the plans say card payment is off and the webhook
// refuses (503, so Stripe retries once it is configured); with them, a signed event is
// taken and the portal asks for a sign-in.
func TestPaymentsThroughFrontDoor(t *testing.T) {
	for _, k := range []string{"LINEAGE_STRIPE_SECRET_KEY", "LINEAGE_STRIPE_WEBHOOK_SECRET", "LINEAGE_STRIPE_API"} {
		t.Setenv(k, "")
	}
	_, _, _, _, srv := startSite(t, t.TempDir())
	var plans struct {
		CardPayments bool `json:"card_payments"`
	}
	if err := json.Unmarshal(getOK(t, srv.URL+"/api/membership/plans", ""), &plans); err != nil || plans.CardPayments {
		t.Fatalf("plans without a key: %+v %v", plans, err)
	}
	if code, body := signedPost(t, srv.URL, "evt_1", "customer.created", time.Now().Unix(), map[string]any{"id": "cus_1"}); code != 503 {
		t.Fatalf("webhook without a secret: %d %s", code, body)
	}

	setStripeEnv(t, stripetest.Start(t))
	_, _, _, _, srv = startSite(t, t.TempDir())
	if err := json.Unmarshal(getOK(t, srv.URL+"/api/membership/plans", ""), &plans); err != nil || !plans.CardPayments {
		t.Fatalf("plans with a key: %+v %v", plans, err)
	}
	if code, body := signedPost(t, srv.URL, "evt_1", "customer.created", time.Now().Unix(), map[string]any{"id": "cus_1"}); code != 200 {
		t.Fatalf("webhook: %d %s", code, body)
	}
	resp, err := http.Post(srv.URL+"/api/membership/portal", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("portal signed out: %d", resp.StatusCode)
	}
}
