package payments_test

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lineage/internal/payments"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestWebhookSignature: only a fresh event signed with this endpoint's secret is
// taken; every other is refused with 400 and leaves nothing behind.
func TestWebhookSignature(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, rec, srv := webhookService(t, db)
		now := time.Now()
		body := event("evt_sig", "invoice.paid", now.Unix(), invoiceObject("in_sig", meta, now.Unix()+86400))
		other := event("evt_other", "invoice.paid", now.Unix(), invoiceObject("in_other", meta, now.Unix()+86400))
		wrongVersion := []byte(strings.Replace(string(body), `"api_version":"2025-08-27.basil"`, `"api_version":"2024-06-20.acacia"`, 1))
		for _, tc := range []struct {
			name, header string
			body         []byte
			want         string
		}{
			{"missing", "", body, "missing Stripe-Signature"},
			{"wrong secret", sign(body, now, "whsec_someone_else"), body, "wrong Stripe-Signature"},
			{"signature of another body", sign(other, now, secret), body, "wrong Stripe-Signature"},
			{"stale", sign(body, now.Add(-10*time.Minute), secret), body, "stale Stripe-Signature"},
			{"no v1", "t=" + strconv.FormatInt(now.Unix(), 10) + ",v0=abc", body, "Stripe-Signature"},
			{"garbage header", "not a signature", body, "malformed Stripe-Signature"},
			{"wrong API version", sign(wrongVersion, now, secret), wrongVersion, "release train"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, answer := deliver(t, srv.URL, tc.body, tc.header)
				if code != 400 || !strings.Contains(answer, tc.want) {
					t.Fatalf("got %d %s, want 400 naming %q", code, answer, tc.want)
				}
			})
		}
		if n := count(t, db, `SELECT COUNT(*) FROM payment_events`); n != 0 {
			t.Fatalf("%d events recorded from rejected deliveries", n)
		}
		if c := rec.calls(t); len(c) != 0 {
			t.Fatalf("rejected deliveries reached the fulfiller: %v", c)
		}
		// A signature among several (secret rolling) is enough.
		h := sign(body, now, secret) + ",v1=" + strings.Repeat("0", 64)
		if code, answer := deliver(t, srv.URL, body, h); code != 200 {
			t.Fatalf("good signature: %d %s", code, answer)
		}
		if outcome(t, db, "evt_sig") != "applied" {
			t.Fatal("good event not applied")
		}
	})
}

// TestWebhookReplay: the same event delivered again changes nothing and answers 200.
func TestWebhookReplay(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, rec, srv := webhookService(t, db)
		now := time.Now().Unix()
		body := event("evt_replay", "checkout.session.completed", now, checkoutObject("payment", "paid", meta))
		send(t, srv.URL, body, 200)
		if answer := send(t, srv.URL, body, 200); !strings.Contains(answer, `"duplicate":true`) {
			t.Fatalf("replay answered %s", answer)
		}
		if c := rec.calls(t); len(c) != 2 { // checkout + paid, once
			t.Fatalf("calls after a replay: %v", c)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM payments`); n != 1 {
			t.Fatalf("%d payment rows after a replay", n)
		}
	})
}

// TestWebhookConcurrentDuplicates: one event delivered at once many times, to two
// Service instances on one database (two servers behind a load balancer), takes effect
// exactly once.
func TestWebhookConcurrentDuplicates(t *testing.T) {
	run := func(t *testing.T, a, b *store.DB) {
		_, rec, srvA := webhookService(t, a)
		svcB := payments.New(b, payments.Options{Config: payments.Config{WebhookSecret: secret}, Log: quiet})
		svcB.Handle("membership", &recorder{b})
		srvB := httptest.NewServer(handler(svcB))
		defer srvB.Close()
		now := time.Now().Unix()
		// A subscription's state, since nothing but the event id tells a duplicate of it
		// from a second change at the same second.
		body := event("evt_dup", "customer.subscription.updated", now, subscriptionObject("active", false, now+86400))
		header := sign(body, time.Now(), secret)
		var wg sync.WaitGroup
		codes := make([]int, 8)
		for i := range codes {
			url := srvA.URL
			if i%2 == 1 {
				url = srvB.URL
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i], _ = deliver(t, url, body, header)
			}()
		}
		wg.Wait()
		for i, c := range codes {
			if c != 200 {
				t.Errorf("delivery %d: %d", i, c)
			}
		}
		if c := rec.calls(t); len(c) != 1 {
			t.Fatalf("fulfilled %d times: %v", len(c), c)
		}
		if n := count(t, a, `SELECT COUNT(*) FROM payment_events`); n != 1 {
			t.Fatalf("%d event rows", n)
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		a := open(t, store.Options{DataDir: dir})
		b := open(t, store.Options{DataDir: dir})
		run(t, a, b)
	})
	t.Run("postgres", func(t *testing.T) {
		url, err := storetest.NewPostgresDatabase()
		if err != nil {
			t.Fatal(err)
		}
		a := open(t, store.Options{DatabaseURL: url})
		b := open(t, store.Options{DatabaseURL: url})
		run(t, a, b)
	})
}

func open(t *testing.T, o store.Options) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestWebhookUnknownType: an event type this room does not act on is recorded and
// answered 200, so Stripe stops sending it.
func TestWebhookUnknownType(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, rec, srv := webhookService(t, db)
		send(t, srv.URL, event("evt_unknown", "customer.created", time.Now().Unix(), map[string]any{"id": "cus_9", "object": "customer"}), 200)
		if o := outcome(t, db, "evt_unknown"); o != "unhandled" {
			t.Fatalf("outcome %q", o)
		}
		if c := rec.calls(t); len(c) != 0 {
			t.Fatalf("calls: %v", c)
		}
	})
}

// TestWebhookStoreDown: when the event cannot be recorded the answer is 5xx, so
// Stripe delivers it again later.
func TestWebhookStoreDown(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, _, srv := webhookService(t, db)
		db.Close()
		body := event("evt_down", "invoice.paid", time.Now().Unix(), invoiceObject("in_down", meta, time.Now().Unix()))
		code, answer := deliver(t, srv.URL, body, sign(body, time.Now(), secret))
		if code != 500 {
			t.Fatalf("store down answered %d %s", code, answer)
		}
	})
}

// TestWebhookFulfillerFails: a failing fulfiller undoes its own writes and the event
// record together and answers 500; Stripe's retry then takes effect once.
func TestWebhookFulfillerFails(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, rec, srv := webhookService(t, db)
		now := time.Now().Unix()
		failing := map[string]any{"kind": "membership", "membership_id": "fail"}
		body := event("evt_fail", "invoice.paid", now, invoiceObject("in_fail", failing, now+86400))
		send(t, srv.URL, body, 500)
		if n := count(t, db, `SELECT COUNT(*) FROM payment_events`); n != 0 {
			t.Fatalf("failed event recorded (%d rows): a retry would be taken for a duplicate", n)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM payments`); n != 0 {
			t.Fatalf("payment row kept from a failed event")
		}
		if c := rec.calls(t); len(c) != 0 {
			t.Fatalf("fulfiller's writes kept: %v", c)
		}
		// The unknown reference is final: recorded, 200.
		missing := map[string]any{"kind": "membership", "membership_id": "missing"}
		send(t, srv.URL, event("evt_missing", "invoice.paid", now, invoiceObject("in_missing", missing, now+86400)), 200)
		if o := outcome(t, db, "evt_missing"); o != "unknown_ref" {
			t.Fatalf("outcome %q", o)
		}
		// The fulfiller's write before it said "unknown" is undone; the money received
		// is still on the books.
		if c := rec.calls(t); len(c) != 0 {
			t.Fatalf("writes of a fulfiller that did not know the reference kept: %v", c)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM payments WHERE ref = 'missing'`); n != 1 {
			t.Fatalf("%d payment rows for money received for an unknown reference", n)
		}
	})
}

// TestWebhookEvents: each handled event type reaches the fulfiller with its data.
func TestWebhookEvents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		svc, rec, srv := webhookService(t, db)
		ctx := context.Background()
		now := time.Now().Unix()
		periodEnd := now + 365*86400

		send(t, srv.URL, event("evt_cs_pay", "checkout.session.completed", now, checkoutObject("payment", "paid", meta)), 200)
		send(t, srv.URL, event("evt_cs_sub", "checkout.session.completed", now, func() map[string]any {
			o := checkoutObject("subscription", "paid", meta)
			o["id"] = "cs_test_2"
			return o
		}()), 200)
		send(t, srv.URL, event("evt_inv", "invoice.paid", now, invoiceObject("in_1", meta, periodEnd)), 200)
		send(t, srv.URL, event("evt_fail", "invoice.payment_failed", now, invoiceObject("in_2", meta, periodEnd)), 200)
		send(t, srv.URL, event("evt_sub", "customer.subscription.updated", now, subscriptionObject("past_due", true, periodEnd)), 200)
		send(t, srv.URL, event("evt_del", "customer.subscription.deleted", now+1, subscriptionObject("canceled", false, periodEnd)), 200)
		send(t, srv.URL, event("evt_refund", "charge.refunded", now+2, map[string]any{
			"id": "ch_1", "object": "charge", "amount": 3000, "amount_refunded": 3000, "refunded": true,
			"currency": "gbp", "payment_intent": "pi_1", "customer": "cus_1"}), 200)
		send(t, srv.URL, event("evt_theirs", "checkout.session.completed", now, checkoutObject("payment", "paid", map[string]any{"shop": "x"})), 200)

		calls := rec.calls(t)
		want := []string{"checkout", "paid", "checkout", "paid", "failed", "subscription", "subscription", "refunded"}
		if len(calls) != len(want) {
			t.Fatalf("calls %v, want %v", calls, want)
		}
		for i, c := range calls {
			if c.Call != want[i] || c.Ref != "membership:42" {
				t.Fatalf("call %d = %s %s, want %s membership:42", i, c.Call, c.Ref, want[i])
			}
		}
		d := func(i int, k string) any { return calls[i].Detail[k] }
		// One-off Checkout: the session is the payment.
		if d(0, "Mode") != "payment" || d(0, "Email") != "ada@example.org" || d(0, "Customer") != "cus_1" {
			t.Errorf("checkout: %v", calls[0].Detail)
		}
		if d(1, "AmountMinor") != 3000.0 || d(1, "Currency") != "GBP" || d(1, "ExternalID") != "cs_test_1" || d(1, "PaymentID") == 0.0 {
			t.Errorf("one-off paid: %v", calls[1].Detail)
		}
		// Subscription Checkout: no payment of its own (the invoice pays).
		if d(2, "Mode") != "subscription" || d(2, "Subscription") != "sub_1" {
			t.Errorf("subscription checkout: %v", calls[2].Detail)
		}
		if d(3, "ExternalID") != "in_1" || d(3, "Subscription") != "sub_1" || d(3, "BillingReason") != "subscription_cycle" ||
			d(3, "PeriodEnd") != time.Unix(periodEnd, 0).UTC().Format(time.RFC3339) {
			t.Errorf("invoice paid: %v", calls[3].Detail)
		}
		if d(4, "Invoice") != "in_2" || d(4, "AmountMinor") != 3000.0 {
			t.Errorf("failed: %v", calls[4].Detail)
		}
		if d(5, "Status") != "past_due" || d(5, "CancelAtPeriodEnd") != true || d(5, "Deleted") != false ||
			d(5, "CurrentPeriodEnd") != time.Unix(periodEnd, 0).UTC().Format(time.RFC3339) {
			t.Errorf("updated: %v", calls[5].Detail)
		}
		if d(6, "Status") != "canceled" || d(6, "Deleted") != true {
			t.Errorf("deleted: %v", calls[6].Detail)
		}
		if d(7, "Charge") != "ch_1" || d(7, "RefundedMinor") != 3000.0 || d(7, "Full") != true || d(7, "PaymentID") != d(1, "PaymentID") {
			t.Errorf("refunded: %v", calls[7].Detail)
		}
		if o := outcome(t, db, "evt_theirs"); o != "not_ours" {
			t.Errorf("a session without Lineage's metadata: outcome %q", o)
		}
		rows, err := svc.Payments(ctx, "membership", "42")
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || rows[0].Status != "refunded" || rows[0].RefundedMinor != 3000 || rows[1].ExternalID != "in_1" ||
			rows[1].PeriodEnd == nil || rows[1].PeriodEnd.Unix() != periodEnd {
			t.Fatalf("payment rows: %+v", rows)
		}
		if c, err := svc.Customer(ctx, "membership", "42"); err != nil || c != "cus_1" {
			t.Fatalf("customer %q %v", c, err)
		}
	})
}

// TestWebhookOutOfOrder: Stripe's events can arrive in any order; the state converges.
func TestWebhookOutOfOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, rec, srv := webhookService(t, db)
		now := time.Now().Unix()
		end := now + 30*86400
		// The invoice and the subscription's update come before the Checkout's
		// completion: the subscription's metadata names the membership anyway.
		send(t, srv.URL, event("evt_3", "customer.subscription.updated", now+20, subscriptionObject("past_due", false, end)), 200)
		send(t, srv.URL, event("evt_2", "invoice.paid", now+10, invoiceObject("in_1", meta, end)), 200)
		// An older state of the subscription, delivered late, is recorded but not applied.
		send(t, srv.URL, event("evt_1", "customer.subscription.updated", now+5, subscriptionObject("active", false, end)), 200)
		send(t, srv.URL, event("evt_0", "checkout.session.completed", now, checkoutObject("subscription", "paid", meta)), 200)
		if o := outcome(t, db, "evt_1"); o != "stale" {
			t.Fatalf("older subscription state: outcome %q", o)
		}
		// Deleted is final: a later "updated" cannot bring it back.
		send(t, srv.URL, event("evt_4", "customer.subscription.deleted", now+30, subscriptionObject("canceled", false, end)), 200)
		send(t, srv.URL, event("evt_5", "customer.subscription.updated", now+40, subscriptionObject("active", false, end)), 200)
		if o := outcome(t, db, "evt_5"); o != "stale" {
			t.Fatalf("update after deletion: outcome %q", o)
		}
		var subs []string
		for _, c := range rec.calls(t) {
			if c.Call == "subscription" {
				subs = append(subs, c.Detail["Status"].(string))
			}
		}
		if strings.Join(subs, ",") != "past_due,canceled" {
			t.Fatalf("subscription states applied: %v", subs)
		}
		var status string
		if err := db.QueryRow(`SELECT status FROM payment_subscriptions WHERE subscription_id = 'sub_1'`).Scan(&status); err != nil || status != "canceled" {
			t.Fatalf("kept state %q %v", status, err)
		}
		// A partial refund reported after the full one does not undo it.
		send(t, srv.URL, event("evt_cs", "checkout.session.completed", now, func() map[string]any {
			o := checkoutObject("payment", "paid", meta)
			o["id"], o["payment_intent"] = "cs_once", "pi_once"
			return o
		}()), 200)
		charge := func(refunded int64) map[string]any {
			return map[string]any{"id": "ch_once", "object": "charge", "amount": 3000, "amount_refunded": refunded,
				"refunded": refunded == 3000, "currency": "gbp", "payment_intent": "pi_once"}
		}
		send(t, srv.URL, event("evt_r2", "charge.refunded", now+60, charge(3000)), 200)
		send(t, srv.URL, event("evt_r1", "charge.refunded", now+50, charge(1000)), 200)
		var refunded int64
		if err := db.QueryRow(`SELECT refunded_minor, status FROM payments WHERE external_id = 'cs_once'`).Scan(&refunded, &status); err != nil ||
			refunded != 3000 || status != "refunded" {
			t.Fatalf("after refunds out of order: %d %s %v", refunded, status, err)
		}
	})
}

// TestWebhookBadBodies: signed bodies that are not what they claim, and bodies over the
// limit.
func TestWebhookBadBodies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		_, rec, srv := webhookService(t, db)
		now := time.Now().Unix()
		for _, tc := range []struct {
			name string
			body string
			code int
		}{
			{"empty", ``, 400},
			{"not JSON", `{"id": `, 400},
			{"JSON array", `[1,2]`, 400},
			{"no id", `{"type":"invoice.paid","api_version":"2025-08-27.basil"}`, 400},
			{"no type", `{"id":"evt_x","api_version":"2025-08-27.basil"}`, 400},
			{"no version", `{"id":"evt_x","type":"invoice.paid"}`, 400},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, answer := deliver(t, srv.URL, []byte(tc.body), sign([]byte(tc.body), time.Now(), secret))
				if code != tc.code {
					t.Fatalf("%d %s, want %d", code, answer, tc.code)
				}
			})
		}
		// Signed by Stripe, but the object is not the type's: recorded as unreadable.
		for i, obj := range []string{`"a string"`, `{"id":"in_x","amount_paid":"thirty"}`, `null`} {
			body := []byte(`{"id":"evt_bad` + strconv.Itoa(i) + `","type":"invoice.paid","created":` + strconv.FormatInt(now, 10) +
				`,"api_version":"2025-08-27.basil","data":{"object":` + obj + `}}`)
			code, answer := deliver(t, srv.URL, body, sign(body, time.Now(), secret))
			if code == 200 {
				if o := outcome(t, db, "evt_bad"+strconv.Itoa(i)); o != "unreadable" {
					t.Fatalf("%s: outcome %q", obj, o)
				}
			} else if code != 400 {
				t.Fatalf("%s: %d %s", obj, code, answer)
			}
		}
		if c := rec.calls(t); len(c) != 0 {
			t.Fatalf("bad bodies reached the fulfiller: %v", c)
		}
		big := make([]byte, payments.DefaultWebhookMaxBytes+1)
		code, answer := deliver(t, srv.URL, big, "t=1,v1=00")
		if code != 413 || !strings.Contains(answer, "at most 1048576 bytes") {
			t.Fatalf("oversized body: %d %s", code, answer)
		}
	})
}

// TestWebhookNotConfigured: without a webhook secret the endpoint refuses with 503
// (Stripe retries) rather than trusting unsigned bodies.
func TestWebhookNotConfigured(t *testing.T) {
	db := storetest.SQLite(t)
	svc := payments.New(db, payments.Options{Log: quiet})
	srv := httptest.NewServer(handler(svc))
	defer srv.Close()
	body := event("evt_nc", "invoice.paid", time.Now().Unix(), invoiceObject("in_nc", meta, 0))
	if code, _ := deliver(t, srv.URL, body, sign(body, time.Now(), secret)); code != 503 {
		t.Fatalf("got %d", code)
	}
	if svc.CardPayments() {
		t.Fatal("card payments on without a key")
	}
}
