package payments_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"lineage/internal/auth/authtest"
	"lineage/internal/payments"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

const secret = "whsec_lineage_test"

// quiet drops logs of rejected webhooks, which these tests provoke on purpose.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// recorder is a small real Fulfiller: it writes each call into the store through the
// event's transaction, so a test sees exactly what committed. Reference "missing"
// answers ErrUnknownRef; reference "fail" writes and then fails, which must undo the
// write and the event record together.
type recorder struct{ db *store.DB }

func newRecorder(t *testing.T, db *store.DB) *recorder {
	t.Helper()
	if _, err := db.Exec(`CREATE TABLE test_fulfilments (call TEXT NOT NULL, ref TEXT NOT NULL, detail TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return &recorder{db}
}

func (r *recorder) write(ctx context.Context, tx *sql.Tx, call string, ref payments.Ref, v any) error {
	b, _ := json.Marshal(v)
	if _, err := tx.ExecContext(ctx, r.db.Rebind(`INSERT INTO test_fulfilments (call, ref, detail) VALUES (?, ?, ?)`),
		call, ref.Kind+":"+ref.ID, string(b)); err != nil {
		return err
	}
	switch ref.ID {
	case "missing":
		return fmt.Errorf("membership %s: %w", ref.ID, payments.ErrUnknownRef)
	case "fail":
		return errors.New("the membership room failed")
	}
	return nil
}

func (r *recorder) CheckoutCompleted(ctx context.Context, tx *sql.Tx, c payments.Checkout) error {
	return r.write(ctx, tx, "checkout", c.Ref, c)
}
func (r *recorder) Paid(ctx context.Context, tx *sql.Tx, p payments.Payment) error {
	return r.write(ctx, tx, "paid", p.Ref, p)
}
func (r *recorder) PaymentFailed(ctx context.Context, tx *sql.Tx, f payments.Failure) error {
	return r.write(ctx, tx, "failed", f.Ref, f)
}
func (r *recorder) SubscriptionChanged(ctx context.Context, tx *sql.Tx, s payments.Subscription) error {
	return r.write(ctx, tx, "subscription", s.Ref, s)
}
func (r *recorder) Refunded(ctx context.Context, tx *sql.Tx, rf payments.Refund) error {
	return r.write(ctx, tx, "refunded", rf.Ref, rf)
}

type call struct {
	Call, Ref string
	Detail    map[string]any
}

func (r *recorder) calls(t *testing.T) []call {
	t.Helper()
	rows, err := r.db.Query(`SELECT call, ref, detail FROM test_fulfilments`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []call
	for rows.Next() {
		var c call
		var d string
		if err := rows.Scan(&c.Call, &c.Ref, &d); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal([]byte(d), &c.Detail)
		out = append(out, c)
	}
	return out
}

// webhookService is a Service that only receives webhooks (no secret key: no calls out).
func webhookService(t *testing.T, db *store.DB) (*payments.Service, *recorder, *httptest.Server) {
	t.Helper()
	svc := payments.New(db, payments.Options{Config: payments.Config{WebhookSecret: secret}, Log: quiet})
	rec := newRecorder(t, db)
	svc.Handle("membership", rec)
	srv := httptest.NewServer(handler(svc))
	t.Cleanup(srv.Close)
	return svc, rec, srv
}

// event is a Stripe event body on the API version stripe-go reads.
func event(id, typ string, created int64, object map[string]any) []byte {
	b, err := json.Marshal(map[string]any{
		"id": id, "object": "event", "type": typ, "created": created, "api_version": stripe.APIVersion,
		"livemode": false, "pending_webhooks": 1, "data": map[string]any{"object": object},
	})
	if err != nil {
		panic(err)
	}
	return b
}

// sign makes a Stripe-Signature header for body at time ts with the secret.
func sign(body []byte, ts time.Time, key string) string {
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: key, Timestamp: ts})
	return sp.Header
}

// deliver posts body with header and returns the status and answer.
func deliver(t *testing.T, url string, body []byte, header string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/api/stripe/webhook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if header != "" {
		req.Header.Set("Stripe-Signature", header)
	}
	code, b, _ := authtest.Send(t, req)
	return code, strings.TrimSpace(string(b))
}

// send signs body now with the right secret and posts it, failing unless Stripe would
// see want.
func send(t *testing.T, url string, body []byte, want int) string {
	t.Helper()
	code, answer := deliver(t, url, body, sign(body, time.Now(), secret))
	if code != want {
		t.Fatalf("status %d, want %d: %s", code, want, answer)
	}
	return answer
}

func count(t *testing.T, db *store.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(db.Rebind(q), args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func outcome(t *testing.T, db *store.DB, id string) string {
	t.Helper()
	var o string
	if err := db.QueryRow(db.Rebind(`SELECT outcome FROM payment_events WHERE event_id = ?`), id).Scan(&o); err != nil {
		t.Fatalf("event %s: %v", id, err)
	}
	return o
}

var meta = map[string]any{"kind": "membership", "membership_id": "42"}

func checkoutObject(mode, status string, metadata map[string]any) map[string]any {
	o := map[string]any{
		"id": "cs_test_1", "object": "checkout.session", "mode": mode, "payment_status": status,
		"status": "complete", "client_reference_id": "42", "metadata": metadata,
		"amount_total": 3000, "currency": "gbp", "customer": "cus_1",
		"customer_details": map[string]any{"email": "ada@example.org"},
	}
	if mode == "payment" {
		o["payment_intent"] = "pi_1"
	} else {
		o["subscription"] = "sub_1"
	}
	return o
}

func invoiceObject(id string, metadata map[string]any, periodEnd int64) map[string]any {
	return map[string]any{
		"id": id, "object": "invoice", "customer": "cus_1", "status": "paid", "billing_reason": "subscription_cycle",
		"amount_paid": 3000, "amount_due": 3000, "currency": "gbp",
		"parent": map[string]any{"type": "subscription_details", "subscription_details": map[string]any{
			"subscription": "sub_1", "metadata": metadata}},
		"lines": map[string]any{"object": "list", "data": []any{map[string]any{
			"id": "il_1", "object": "line_item", "amount": 3000,
			"period": map[string]any{"start": periodEnd - 365*86400, "end": periodEnd}}}},
	}
}

func subscriptionObject(status string, cancelAtEnd bool, periodEnd int64) map[string]any {
	return map[string]any{
		"id": "sub_1", "object": "subscription", "customer": "cus_1", "status": status,
		"cancel_at_period_end": cancelAtEnd, "metadata": meta,
		"items": map[string]any{"object": "list", "data": []any{map[string]any{
			"id": "si_1", "object": "subscription_item", "current_period_end": periodEnd}}},
	}
}
