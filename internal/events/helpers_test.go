package events_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"lineage/internal/auth"
	"lineage/internal/auth/authtest"
	"lineage/internal/clocktest"
	"lineage/internal/content"
	"lineage/internal/events"
	"lineage/internal/events/eventstest"
	"lineage/internal/httpx"
	"lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/membership"
	"lineage/internal/payments"
	"lineage/internal/payments/stripetest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func fatal(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// start is the tests' "now": a month before the talk.
var (
	start     = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	talkStart = time.Date(2026, 12, 2, 19, 0, 0, 0, time.UTC)
	talkEnd   = talkStart.Add(90 * time.Minute)
)

const (
	talk          = "dna-talk"
	webhookSecret = "whsec_events_test"
	publicURL     = "https://lineage.test"
)

// env is one store with the real rooms the events room works with: content (the event
// documents), auth and membership (who asks, members' scope), the mail outbox sending
// to an in-process SMTP server, and with a stripe-mock the payments room and its
// webhook; all served as cmd/lineage's table does.
type env struct {
	db     *store.DB
	clock  *clocktest.Clock
	auth   *auth.Service
	ms     *membership.Service
	ct     *content.Service
	smtp   *mailtest.Server
	outbox *mail.Outbox
	pay    *payments.Service
	ev     *events.Service
	srv    *httptest.Server
	plan   bool
	// purges counts the room's PagesChanged calls (pagegen.Raise in cmd/lineage).
	purges atomic.Int32
}

func newEnv(t *testing.T, db *store.DB, mock *stripetest.Server) *env {
	t.Helper()
	e := &env{db: db, clock: clocktest.New(start)}
	e.auth = auth.New(db, auth.Options{Password: auth.TestPasswordParams})
	e.ms = membership.New(db, membership.Options{SocietyName: "Test Society", Log: quiet})
	e.ms.Now = e.clock.Now
	e.auth.SetScopeSource(e.ms.ScopesFor)
	e.ct = content.New(db, content.Options{PublicURL: publicURL, DataDir: t.TempDir(), Now: e.clock.Now, RefCheckInterval: -1})
	e.smtp = mailtest.Start(t, "", "")
	e.outbox = mail.NewOutbox(db, e.smtp.Sender("no-reply@lineage.test"), quiet)
	e.outbox.Now = e.clock.Now
	e.pay = payments.New(db, payments.Options{Config: payments.Config{WebhookSecret: webhookSecret}, Log: quiet, Now: e.clock.Now})
	if mock != nil {
		e.pay = payments.New(db, payments.Options{Config: payments.Config{SecretKey: stripetest.Key, APIBase: mock.URL,
			WebhookSecret: webhookSecret}, Log: quiet, Now: e.clock.Now})
	}
	e.ev = e.newRoom(db)
	e.pay.Handle(events.PaymentKind, e.ev.Fulfiller())
	e.publish(t, talk, "An introduction to DNA", talkStart, talkEnd, "Online")
	e.srv = httptest.NewServer(httpx.Serve(authtest.AuthRoom(e.auth, quiet), eventstest.Room(e.ev, e.auth.Middleware, quiet),
		httpx.Room{Log: quiet, Routes: []httpx.Route{{Pattern: "POST /api/stripe/webhook", Handler: e.pay.Webhook, Access: httpx.Stripe}}}))
	t.Cleanup(e.srv.Close)
	return e
}

// newRoom is the events room on db, as cmd/lineage builds it (a second instance when
// db is another handle on the same database).
func (e *env) newRoom(db *store.DB) *events.Service {
	opt := events.Options{Viewer: viewer, Event: events.FromContent(e.ct), Mailer: e.outbox, PublicURL: publicURL,
		SocietyName: "Test Society", Log: quiet, PagesChanged: func(context.Context) { e.purges.Add(1) }}
	if e.pay.CardPayments() {
		opt.Payments = events.Stripe{P: e.pay}
	}
	ev := events.New(db, opt)
	ev.Now = e.clock.Now
	return ev
}

func viewer(r *http.Request) events.Viewer {
	u := auth.UserFrom(r.Context())
	if u == nil {
		return events.Viewer{}
	}
	return events.Viewer{ID: u.ID, Name: u.Name, Email: u.Email, Verified: u.Verified(), Scope: u.Scope,
		Staff: u.Role == auth.RoleEditor || u.Role == auth.RoleAdmin}
}

// publish publishes (or moves) an event document.
func (e *env) publish(t *testing.T, uid, title string, from, to time.Time, where string) {
	t.Helper()
	data, _ := json.Marshal(map[string]any{
		"title":    []any{map[string]any{"type": "heading1", "text": title, "spans": []any{}}},
		"start":    from.Format("2006-01-02T15:04:05-0700"),
		"end":      to.Format("2006-01-02T15:04:05-0700"),
		"location": where,
	})
	_, err := e.ct.Publish(context.Background(), content.Document{ID: "ev-" + uid, UID: uid, Type: "event", Lang: "en-gb",
		Tags: []string{"events"}, Data: data})
	fatal(t, err)
}

// settings saves booking settings for the talk.
func (e *env) settings(t *testing.T, uid string, in events.SettingsInput) {
	t.Helper()
	_, err := e.ev.SaveSettings(context.Background(), uid, in, 0)
	fatal(t, err)
}

// free is a free talk online with capacity n.
func free(n int) events.SettingsInput {
	return events.SettingsInput{Enabled: true, CapacityOnline: n, MaxPerBooking: 4, Waitlist: true, RefundCutoffHours: 48,
		TicketTypes: []events.TicketType{{Key: "free", Label: "Free", Price: 0}},
		OnlineLink:  "https://meet.example.org/dna", OnlineInstructions: "Passcode 1234."}
}

// paid is a paid talk online with capacity n: members £3, visitors £8.
func paid(n int) events.SettingsInput {
	in := free(n)
	in.TicketTypes = []events.TicketType{
		{Key: "member", Label: "Member", Price: 300, RequiresScope: "member"},
		{Key: "visitor", Label: "Visitor", Price: 800},
	}
	return in
}

// eachPaid runs fn on both stores (storetest.Each) with card payments through a
// stripe-mock and the talk on sale with places places at paid's prices.
func eachPaid(t *testing.T, places int, fn func(t *testing.T, e *env)) {
	t.Helper()
	mock := stripetest.Start(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, mock)
		e.settings(t, talk, paid(places))
		fn(t, e)
	})
}

type user struct {
	id    int64
	token string
	email string
}

// user makes a verified account and a bearer token for it.
func (e *env) user(t *testing.T, email, role string) user {
	t.Helper()
	id, token := authtest.User(t, e.auth, email, role)
	return user{id, token, email}
}

// member makes an account with a paid membership: the "member" scope.
func (e *env) member(t *testing.T, email string) user {
	t.Helper()
	ctx := context.Background()
	if !e.plan {
		_, err := e.ms.SavePlan(ctx, membership.Plan{Slug: "individual", Name: "Individual", PriceMinor: 2400,
			Period: membership.PeriodAnnual, OnSale: true})
		fatal(t, err)
		e.plan = true
	}
	u := e.user(t, email, "")
	m, err := e.ms.Join(ctx, u.id, "individual", "")
	fatal(t, err)
	_, err = e.ms.RecordPayment(ctx, 0, m.ID, membership.ManualPayment{AmountMinor: 2400, Note: "cheque"})
	fatal(t, err)
	return u
}

func (e *env) do(t *testing.T, method, path, token, body string) (int, map[string]any) {
	t.Helper()
	return authtest.CallJSON(t, e.srv.URL, method, path, token, body)
}

func (e *env) raw(t *testing.T, method, path, token, body string) (int, []byte, http.Header) {
	t.Helper()
	return authtest.Call(t, e.srv.URL, method, path, token, body)
}

// book posts a booking and fails unless the answer has status want.
func (e *env) book(t *testing.T, token, body string, want int) map[string]any {
	t.Helper()
	code, out := e.do(t, "POST", "/api/events/"+talk+"/bookings", token, body)
	if code != want {
		t.Fatalf("POST bookings %s: %d %v, want %d", body, code, out, want)
	}
	return out
}

func booking(out map[string]any) map[string]any { b, _ := out["booking"].(map[string]any); return b }

func ref(out map[string]any) string { return booking(out)["ref"].(string) }

// status is a booking's status in the store.
func (e *env) status(t *testing.T, ref string) string {
	t.Helper()
	b, err := e.ev.BookingByRef(context.Background(), ref)
	fatal(t, err)
	return b.Status
}

func (e *env) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	fatal(t, e.db.QueryRow(e.db.Rebind(q), args...).Scan(&n))
	return n
}

// taken is the places the talk's settings count as taken online.
func (e *env) taken(t *testing.T) int {
	t.Helper()
	st, err := e.ev.Settings(context.Background(), talk)
	fatal(t, err)
	return st.Taken.Online
}

// mails delivers the outbox and returns the messages the SMTP server has had, waiting
// for n in all.
func (e *env) mails(t *testing.T, n int) []mailtest.Received {
	t.Helper()
	_, err := e.outbox.DeliverDue(context.Background())
	fatal(t, err)
	return e.smtp.Wait(t, n, 10*time.Second)
}

// to lists the mails to addr whose subject contains s.
func to(all []mailtest.Received, addr, s string) []mailtest.Received {
	var out []mailtest.Received
	for _, m := range all {
		if len(m.To) > 0 && m.To[0] == addr && strings.Contains(m.Subject, s) {
			out = append(out, m)
		}
	}
	return out
}

// invite parses a mail's text/calendar part with golang-ical and returns its method
// and only event.
func invite(t *testing.T, m mailtest.Received) (string, *ics.VEvent) {
	t.Helper()
	p, ok := m.Parts["text/calendar"]
	if !ok {
		t.Fatalf("mail %q has no text/calendar part; parts %v", m.Subject, keys(m.Parts))
	}
	cal, err := ics.ParseCalendar(strings.NewReader(p.Body))
	fatal(t, err)
	method := ""
	for _, cp := range cal.CalendarProperties {
		if cp.IANAToken == string(ics.PropertyMethod) {
			method = cp.Value
		}
	}
	evs := cal.Events()
	if len(evs) != 1 {
		t.Fatalf("%d events in the invitation", len(evs))
	}
	return method, evs[0]
}

func prop(e *ics.VEvent, p ics.ComponentProperty) string {
	if v := e.GetProperty(p); v != nil {
		return v.Value
	}
	return ""
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

var linkRe = regexp.MustCompile(`token=([A-Za-z0-9_-]+)`)

// token is the link token in a mail.
func token(t *testing.T, m mailtest.Received) string {
	t.Helper()
	got := linkRe.FindStringSubmatch(m.Parts["text/plain"].Body)
	if got == nil {
		t.Fatalf("no link in %q:\n%s", m.Subject, m.Parts["text/plain"].Body)
	}
	return got[1]
}

// stripeEvent is a signed checkout.session.completed for a booking, as Stripe sends it.
func stripeEvent(id, bookingRef string, amount int64) ([]byte, string) {
	body, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "type": "checkout.session.completed", "created": time.Now().Unix(),
		"api_version": stripe.APIVersion, "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": map[string]any{
			"id": "cs_" + id, "object": "checkout.session", "mode": "payment", "payment_status": "paid", "status": "complete",
			"client_reference_id": bookingRef, "metadata": map[string]any{"kind": "booking", "booking_id": bookingRef},
			"amount_total": amount, "currency": "gbp", "customer": "cus_1", "payment_intent": "pi_" + id,
			"customer_details": map[string]any{"email": "payer@example.org"},
		}},
	})
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: webhookSecret, Timestamp: time.Now()})
	return body, sp.Header
}

// checkoutPaid tells the room, through the signed webhook, that the Checkout for the
// booking bookingRef was paid.
func (e *env) checkoutPaid(t *testing.T, id, bookingRef string, amount int64) {
	t.Helper()
	body, sig := stripeEvent(id, bookingRef, amount)
	e.webhook(t, body, sig)
}

// webhook delivers a signed Stripe event through the payments room.
func (e *env) webhook(t *testing.T, body []byte, sig string) {
	t.Helper()
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/stripe/webhook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", sig)
	if code, b, _ := authtest.Send(t, req); code != 200 {
		t.Fatalf("webhook: %d %s", code, b)
	}
}

func tickets(names ...string) string {
	var parts []string
	for _, n := range names {
		typ, name, _ := strings.Cut(n, ":")
		parts = append(parts, fmt.Sprintf(`{"type":%q,"name":%q}`, typ, name))
	}
	return `{"mode":"online","tickets":[` + strings.Join(parts, ",") + `]}`
}
