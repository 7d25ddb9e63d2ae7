package events_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"lineage/internal/events"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// A member books a member-priced ticket: held for payment with a Checkout URL from
// stripe-mock; the signed webhook confirms it, and the same event delivered again (or
// a second event for the same payment) changes nothing more: one payment, one
// confirmation.
func TestPaidBookingWebhookOnce(t *testing.T) {
	eachPaid(t, 5, func(t *testing.T, e *env) {
		m := e.member(t, "mem@example.org")
		_, view := e.do(t, "GET", "/api/events/"+talk+"/booking", m.token, "")
		tt := view["ticket_types"].([]any)[0].(map[string]any)
		if tt["key"] != "member" || tt["eligible"] != true || view["card_payments"] != true {
			t.Fatalf("member's view: %v", view)
		}
		out := e.book(t, m.token, tickets("member:Mem"), 201)
		r := ref(out)
		b := booking(out)
		if b["status"] != "held" || b["awaiting"] != "payment" || b["total"] != 300.0 || !strings.HasPrefix(fmt.Sprint(out["checkout_url"]), "http") {
			t.Fatalf("paid booking: %v", out)
		}
		body, sig := stripeEvent("evt_paid_1", r, 300)
		e.webhook(t, body, sig)
		e.webhook(t, body, sig) // the same event again
		if e.status(t, r) != "confirmed" {
			t.Fatalf("after the webhook: %s", e.status(t, r))
		}
		bk, _ := e.ev.BookingByRef(context.Background(), r)
		if bk.PaidMinor != 300 {
			t.Errorf("paid %d", bk.PaidMinor)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM payments WHERE kind = 'booking' AND ref = ?`, r); n != 1 {
			t.Errorf("%d payment rows", n)
		}
		if n := len(to(e.mails(t, 1), "mem@example.org", "Booking confirmed")); n != 1 {
			t.Errorf("%d confirmations", n)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM mail_outbox`); n != 1 {
			t.Errorf("%d mails", n)
		}
		// A registered account may not take the members' price.
		reg := e.user(t, "reg@example.org", "")
		if code, out := e.do(t, "POST", "/api/events/"+talk+"/bookings", reg.token, tickets("member:Reg")); code != 422 {
			t.Errorf("members' price for a non-member: %d %v", code, out)
		}
	})
}

// A paid hold lapses after 15 minutes (fake clock): the places go back. The rule for a
// payment that arrives afterwards (docs/events.md): confirmed when the places can be
// taken again, else refunded through Stripe — never a place beyond the capacity.
func TestLatePaymentRule(t *testing.T) {
	eachPaid(t, 1, func(t *testing.T, e *env) {
		ctx := context.Background()
		a := e.user(t, "a@example.org", "")
		ra := ref(e.book(t, a.token, tickets("visitor:A"), 201))
		if e.taken(t) != 1 {
			t.Fatal("not held")
		}
		e.clock.Add(events.PaymentHold - time.Second)
		if rep, _ := e.ev.RunDue(ctx, e.clock.Now()); rep.Expired != 0 {
			t.Fatal("expired early")
		}
		e.clock.Add(2 * time.Second)
		rep, err := e.ev.RunDue(ctx, e.clock.Now())
		fatal(t, err)
		if rep.Expired != 1 || e.status(t, ra) != "cancelled" || e.taken(t) != 0 {
			t.Fatalf("after 15 min: %+v %s taken %d", rep, e.status(t, ra), e.taken(t))
		}
		if e.purges.Load() != 1 {
			t.Errorf("places freed by the job: %d page cache purges, want 1", e.purges.Load())
		}
		// Paid late, the place still free: confirmed.
		e.checkoutPaid(t, "evt_late_1", ra, 800)
		if e.status(t, ra) != "confirmed" || e.taken(t) != 1 {
			t.Fatalf("late payment with a free place: %s taken %d", e.status(t, ra), e.taken(t))
		}

		// B's hold lapses, C takes the place, B's payment arrives: refunded.
		e.settings(t, talk, paid(2))
		b := e.user(t, "b@example.org", "")
		rb := ref(e.book(t, b.token, tickets("visitor:B"), 201))
		e.clock.Add(events.PaymentHold + time.Second)
		_, err = e.ev.RunDue(ctx, e.clock.Now())
		fatal(t, err)
		c := e.user(t, "c@example.org", "")
		rc := ref(e.book(t, c.token, tickets("visitor:C"), 201))
		if e.status(t, rb) != "cancelled" || e.status(t, rc) != "held" || e.taken(t) != 2 {
			t.Fatalf("b %s c %s taken %d", e.status(t, rb), e.status(t, rc), e.taken(t))
		}
		e.checkoutPaid(t, "evt_late_2", rb, 800)
		bk, _ := e.ev.BookingByRef(ctx, rb)
		if bk.Status != "refunded" || e.taken(t) != 2 {
			t.Fatalf("late payment with no place: %s taken %d", bk.Status, e.taken(t))
		}
		if n := e.ev.RefundDue(ctx); n != 1 {
			t.Errorf("refunds made: %d", n)
		}
		bk, _ = e.ev.BookingByRef(ctx, rb)
		if bk.RefundPending || bk.RefundedAmount != 800 {
			t.Errorf("after the refund: %+v", bk)
		}
		if n := len(to(e.mails(t, 2), "b@example.org", "Payment refunded")); n != 1 {
			t.Errorf("%d refund mails to b", n)
		}
	})
}

// The booker cancels a paid booking before the cut-off: refunded through Stripe; the
// editor cancels the whole event: everyone told (METHOD:CANCEL for those with an
// invitation), paid tickets refunded, and the event no longer bookable.
func TestRefundsAndEventCancellation(t *testing.T) {
	eachPaid(t, 3, func(t *testing.T, e *env) {
		ctx := context.Background()
		a := e.user(t, "a@example.org", "")
		ra := ref(e.book(t, a.token, tickets("visitor:A"), 201))
		e.checkoutPaid(t, "evt_a", ra, 800)
		code, out := e.do(t, "POST", "/api/bookings/"+ra+"/cancel", a.token, "{}")
		if code != 200 || booking(out)["status"] != "refunded" || booking(out)["refund_pending"] != false || booking(out)["refunded_amount"] != 800.0 {
			t.Fatalf("cancel a paid booking: %d %v", code, out)
		}

		b, c, w := e.user(t, "b@example.org", ""), e.user(t, "c@example.org", ""), e.user(t, "w@example.org", "")
		rb := ref(e.book(t, b.token, tickets("visitor:B"), 201))
		e.checkoutPaid(t, "evt_b", rb, 800)
		e.settings(t, talk, func() events.SettingsInput {
			in := paid(2)
			in.TicketTypes = append(in.TicketTypes, events.TicketType{Key: "free", Label: "Free"})
			return in
		}())
		rc := ref(e.book(t, c.token, tickets("free:C"), 201))
		rw := ref(e.book(t, w.token, tickets("free:W"), 201))
		if e.status(t, rw) != "waitlisted" {
			t.Fatalf("w: %s", e.status(t, rw))
		}
		ed := e.user(t, "ed@example.org", "editor")
		code, out = e.do(t, "POST", "/api/admin/events/"+talk+"/cancel", ed.token, `{"message":"The speaker is ill."}`)
		if code != 200 || out["refunded"] != 1.0 || out["cancelled"] != 2.0 {
			t.Fatalf("cancel the event: %d %v", code, out)
		}
		for r, want := range map[string]string{rb: "refunded", rc: "cancelled", rw: "cancelled"} {
			if got := e.status(t, r); got != want {
				t.Errorf("%s: %s, want %s", r, got, want)
			}
		}
		bk, _ := e.ev.BookingByRef(ctx, rb)
		if bk.RefundPending || bk.RefundedAmount != 800 {
			t.Errorf("b not refunded: %+v", bk)
		}
		all := e.mails(t, 8) // a: confirmed, cancelled; b: confirmed; c: confirmed; w: waitlisted; b, c, w: event cancelled
		for _, addr := range []string{"b@example.org", "c@example.org", "w@example.org"} {
			ms := to(all, addr, "Event cancelled")
			if len(ms) != 1 || !strings.Contains(ms[0].Parts["text/plain"].Body, "The speaker is ill.") {
				t.Errorf("%s: %d cancellation mails", addr, len(ms))
			}
		}
		if method, ve := invite(t, to(all, "c@example.org", "Event cancelled")[0]); method != "CANCEL" || ve.Id() != e.ev.CalendarUID(rc) {
			t.Errorf("c's cancellation: %s %s", method, ve.Id())
		}
		_, view := e.do(t, "GET", "/api/events/"+talk+"/booking", "", "")
		if view["state"] != "not_bookable" || view["cancelled"] != true || e.taken(t) != 0 {
			t.Errorf("view after cancelling: %v taken %d", view, e.taken(t))
		}
		if code, _ := e.do(t, "POST", "/api/events/"+talk+"/bookings", a.token, tickets("free:A")); code != 422 {
			t.Errorf("booking a cancelled event: %d", code)
		}
	})
}

func dirOf(db *store.DB) string { return filepath.Dir(db.Where) }

// The scheduler, run by two instances at once and again: joining instructions go once
// per booking the day before; when an editor moves the event in the CMS, each booker
// gets one change notice with the invitation's SEQUENCE bumped.
func TestSchedulerSendsOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		e.settings(t, talk, free(5))
		ctx := context.Background()
		var refs []string
		for i := range 3 {
			u := e.user(t, fmt.Sprintf("u%d@example.org", i), "")
			refs = append(refs, ref(e.book(t, u.token, tickets("free:U"), 201)))
		}
		opts := store.Options{DataDir: dirOf(db)}
		if db.Dialect == store.Postgres {
			opts = store.Options{DatabaseURL: db.Where}
		}
		second, err := store.Open(ctx, opts)
		fatal(t, err)
		t.Cleanup(func() { second.Close() })
		rooms := []*events.Service{e.ev, e.newRoom(second)}
		runBoth := func() events.DueReport {
			var wg sync.WaitGroup
			reps := make([]events.DueReport, 2)
			for i, r := range rooms {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var err error
					if reps[i], err = r.RunDue(ctx, e.clock.Now()); err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			return events.DueReport{Moved: reps[0].Moved + reps[1].Moved, Joining: reps[0].Joining + reps[1].Joining}
		}

		// The editor moves the talk a day later.
		newStart := talkStart.Add(24 * time.Hour)
		e.publish(t, talk, "An introduction to DNA", newStart, newStart.Add(90*time.Minute), "Online")
		if rep := runBoth(); rep.Moved != 3 {
			t.Errorf("change notices: %d", rep.Moved)
		}
		if rep := runBoth(); rep.Moved != 0 {
			t.Errorf("change notices again: %d", rep.Moved)
		}
		all := e.mails(t, 6)
		for i, r := range refs {
			ms := to(all, fmt.Sprintf("u%d@example.org", i), "Event moved")
			if len(ms) != 1 {
				t.Fatalf("u%d: %d change notices", i, len(ms))
			}
			method, ve := invite(t, ms[0])
			st, _ := ve.GetStartAt()
			if method != "REQUEST" || ve.Id() != e.ev.CalendarUID(r) || prop(ve, ics.ComponentPropertySequence) != "1" || !st.Equal(newStart) {
				t.Errorf("u%d's update: %s %s seq %s start %v", i, method, ve.Id(), prop(ve, ics.ComponentPropertySequence), st)
			}
		}

		// The day before: joining instructions, once each.
		e.clock.Add(newStart.Sub(e.clock.Now()) - 23*time.Hour)
		if rep := runBoth(); rep.Joining != 3 {
			t.Errorf("joining instructions: %d", rep.Joining)
		}
		e.clock.Add(time.Hour)
		if rep := runBoth(); rep.Joining != 0 {
			t.Errorf("joining instructions again: %d", rep.Joining)
		}
		all = e.mails(t, 9)
		for i := range refs {
			ms := to(all, fmt.Sprintf("u%d@example.org", i), "Tomorrow")
			if len(ms) != 1 || !strings.Contains(ms[0].Parts["text/plain"].Body, "https://meet.example.org/dna") {
				t.Errorf("u%d: %d joining mails", i, len(ms))
			}
		}
	})
}

// A paid event's waiting list: the place a refunded cancellation frees is offered to
// the next; accepting holds it for payment with a Checkout URL, and the webhook
// confirms it. The account's list and the events' states show each step.
func TestPaidOfferAcceptedAndPaid(t *testing.T) {
	eachPaid(t, 1, func(t *testing.T, e *env) {
		a, b := e.user(t, "a@example.org", ""), e.user(t, "b@example.org", "")
		ra := ref(e.book(t, a.token, tickets("visitor:A"), 201))
		e.checkoutPaid(t, "evt_offer_a", ra, 800)
		ob := e.book(t, b.token, tickets("visitor:B"), 201)
		rb := ref(ob)
		if booking(ob)["status"] != "waitlisted" || ob["checkout_url"] != nil {
			t.Fatalf("b: %v", ob)
		}
		_, states := e.do(t, "GET", "/api/events/booking-states", "", "")
		if ev := states["events"].([]any)[0].(map[string]any); ev["uid"] != talk || ev["state"] != "waitlist" || ev["from_price"] != 800.0 {
			t.Errorf("states: %v", states)
		}
		if code, _ := e.do(t, "POST", "/api/bookings/"+ra+"/cancel", a.token, "{}"); code != 200 || e.status(t, ra) != "refunded" {
			t.Fatalf("a cancels: %d %s", code, e.status(t, ra))
		}
		offer := to(e.mails(t, 4), "b@example.org", "A place is free") // a confirmed, b waitlisted, a cancelled, b offered
		if len(offer) != 1 || !strings.Contains(offer[0].Parts["text/plain"].Body, "£8.00") {
			t.Fatalf("offer: %v", offer)
		}
		code, out := e.do(t, "POST", "/api/bookings/offers/accept", "", `{"token":"`+token(t, offer[0])+`"}`)
		if code != 200 || booking(out)["status"] != "held" || booking(out)["awaiting"] != "payment" || !strings.HasPrefix(fmt.Sprint(out["checkout_url"]), "http") {
			t.Fatalf("accept: %d %v", code, out)
		}
		if e.taken(t) != 1 {
			t.Errorf("taken %d", e.taken(t))
		}
		e.checkoutPaid(t, "evt_offer_b", rb, 800)
		if e.status(t, rb) != "confirmed" || e.taken(t) != 1 {
			t.Fatalf("b paid: %s taken %d", e.status(t, rb), e.taken(t))
		}
		code, mine := e.do(t, "GET", "/api/bookings", b.token, "")
		if up := mine["upcoming"].([]any); code != 200 || len(up) != 1 || up[0].(map[string]any)["ref"] != rb {
			t.Errorf("b's bookings: %d %v", code, mine)
		}
		code, mine = e.do(t, "GET", "/api/bookings", a.token, "")
		if past := mine["past"].([]any); code != 200 || len(past) != 1 || past[0].(map[string]any)["status"] != "refunded" {
			t.Errorf("a's bookings: %d %v", code, mine)
		}
		if code, _ := e.do(t, "GET", "/api/bookings", "", ""); code != 401 {
			t.Errorf("anonymous GET /api/bookings: %d", code)
		}
	})
}

// A payment that reaches a server which has not used the links' key yet (restarted, or
// a second instance): the key is read on the webhook's own transaction, which on
// SQLite holds the one write lock, and the visitor's confirmation carries the link to
// their booking with its key.
func TestWebhookReadsTheLinkKeyOnItsTransaction(t *testing.T) {
	eachPaid(t, 2, func(t *testing.T, e *env) {
		out := e.book(t, "", `{"mode":"online","tickets":[{"type":"visitor","name":"Vi"}],"name":"Vi Visitor","email":"vi@example.org"}`, 201)
		r := ref(out)
		link := to(e.mails(t, 1), "vi@example.org", "Confirm your booking")
		if len(link) != 1 {
			t.Fatal("no confirmation link mailed")
		}
		if code, c := e.do(t, "POST", "/api/bookings/confirm", "", `{"token":"`+token(t, link[0])+`"}`); code != 200 || booking(c)["awaiting"] != "payment" {
			t.Fatalf("confirm: %d %v", code, c)
		}
		restarted := e.newRoom(e.db)
		e.pay.Handle(events.PaymentKind, restarted.Fulfiller())
		e.checkoutPaid(t, "evt_first_key", r, 800)
		if e.status(t, r) != "confirmed" {
			t.Fatalf("after the webhook: %s", e.status(t, r))
		}
		key, err := e.ev.AccessKey(context.Background(), r)
		fatal(t, err)
		want := publicURL + "/sog-events/bookings/" + r + "?key=" + key
		done := to(e.mails(t, 2), "vi@example.org", "Booking confirmed")
		if len(done) != 1 || !strings.Contains(done[0].Parts["text/plain"].Body, want) {
			t.Fatalf("%d confirmations; want one with %s:\n%v", len(done), want, done)
		}
	})
}
