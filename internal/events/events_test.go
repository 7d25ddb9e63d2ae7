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

	"lineage/internal/auth"
	"lineage/internal/events"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// A free booking by an account: confirmed at once, with an invitation (METHOD:REQUEST,
// UID of the booking, SEQUENCE 0) that golang-ical reads back; the booker cancels:
// METHOD:CANCEL with the same UID and SEQUENCE 1, the place given back, each change a
// history row; the .ics download has the same UID.
func TestFreeBookingConfirmCancel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		e.settings(t, talk, free(5))
		ada := e.user(t, "ada@example.org", "")
		out := e.book(t, ada.token, tickets("free:Ada", "free:Bob"), 201)
		b := booking(out)
		r := ref(out)
		if b["status"] != "confirmed" || out["checkout_url"] != nil || e.taken(t) != 2 {
			t.Fatalf("booked: %v, taken %d", out, e.taken(t))
		}
		if j, _ := b["joining"].(map[string]any); j["link"] != "https://meet.example.org/dna" {
			t.Errorf("joining details of an online booking: %v", b["joining"])
		}
		all := e.mails(t, 1)
		conf := to(all, "ada@example.org", "Booking confirmed")
		if len(conf) != 1 {
			t.Fatalf("confirmation mails: %d", len(conf))
		}
		method, ve := invite(t, conf[0])
		uid := e.ev.CalendarUID(r)
		if method != "REQUEST" || ve.Id() != uid || prop(ve, ics.ComponentPropertySequence) != "0" {
			t.Errorf("invitation: method %s uid %s seq %s", method, ve.Id(), prop(ve, ics.ComponentPropertySequence))
		}
		if st, err := ve.GetStartAt(); err != nil || !st.Equal(talkStart) {
			t.Errorf("DTSTART %v %v", st, err)
		}
		if prop(ve, ics.ComponentPropertyOrganizer) == "" {
			t.Error("a REQUEST needs an ORGANIZER (RFC 5546)")
		}

		// The .ics download: the same UID.
		code, body, h := e.raw(t, "GET", "/api/bookings/"+r+"/ics", ada.token, "")
		if code != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/calendar") || !strings.Contains(string(body), "UID:"+uid) {
			t.Errorf("ics: %d %s %s", code, h.Get("Content-Type"), body)
		}
		// Someone else's booking is not found.
		eve := e.user(t, "eve@example.org", "")
		if code, _ := e.do(t, "GET", "/api/bookings/"+r, eve.token, ""); code != 404 {
			t.Errorf("another account sees the booking: %d", code)
		}

		code, c := e.do(t, "POST", "/api/bookings/"+r+"/cancel", ada.token, "{}")
		if code != 200 || booking(c)["status"] != "cancelled" || e.taken(t) != 0 {
			t.Fatalf("cancel: %d %v taken %d", code, c, e.taken(t))
		}
		if code, c := e.do(t, "POST", "/api/bookings/"+r+"/cancel", ada.token, "{}"); code != 422 || c["errors"] == nil {
			t.Errorf("cancel twice: %d %v", code, c)
		}
		all = e.mails(t, 2)
		cancel := to(all, "ada@example.org", "Booking cancelled")
		if len(cancel) != 1 {
			t.Fatalf("cancellation mails: %d", len(cancel))
		}
		method, ve = invite(t, cancel[0])
		if method != "CANCEL" || ve.Id() != uid || prop(ve, ics.ComponentPropertySequence) != "1" ||
			prop(ve, ics.ComponentPropertyStatus) != "CANCELLED" {
			t.Errorf("cancellation: %s %s seq %s status %s", method, ve.Id(), prop(ve, ics.ComponentPropertySequence), prop(ve, ics.ComponentPropertyStatus))
		}
		h2, err := e.ev.History(context.Background(), r)
		fatal(t, err)
		if len(h2) != 2 || h2[0].To != "confirmed" || h2[1].From != "confirmed" || h2[1].To != "cancelled" || h2[1].Note != "booker" {
			t.Errorf("history %+v", h2)
		}
	})
}

// A visitor books with name and email: the places are held while they confirm by the
// emailed link; the link confirms once (a second click answers the same booking), and
// a made-up or lapsed link is a 422. An unconfirmed request lapses after an hour and
// gives its places back.
func TestVisitorConfirmsByEmail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		e.settings(t, talk, free(3))
		body := `{"mode":"online","tickets":[{"type":"free","name":"Vera"}],"name":"Vera Visitor","email":"Vera@Example.org"}`
		out := e.book(t, "", body, 201)
		b := booking(out)
		if b["status"] != "held" || b["awaiting"] != "email" || e.taken(t) != 1 || !strings.Contains(b["ics_url"].(string), "?key=") {
			t.Fatalf("visitor booking: %v", b)
		}
		m := to(e.mails(t, 1), "vera@example.org", "Confirm your booking")
		if len(m) != 1 {
			t.Fatal("no confirmation link mailed")
		}
		tok := token(t, m[0])
		if code, c := e.do(t, "POST", "/api/bookings/confirm", "", `{"token":"nonsense"}`); code != 422 || c["errors"].(map[string]any)["token"] == nil {
			t.Errorf("made-up token: %d %v", code, c)
		}
		code, c := e.do(t, "POST", "/api/bookings/confirm", "", `{"token":"`+tok+`"}`)
		if code != 200 || booking(c)["status"] != "confirmed" {
			t.Fatalf("confirm: %d %v", code, c)
		}
		if code, c := e.do(t, "POST", "/api/bookings/confirm", "", `{"token":"`+tok+`"}`); code != 200 || booking(c)["status"] != "confirmed" {
			t.Errorf("confirm again: %d %v", code, c)
		}
		if n := len(to(e.mails(t, 2), "vera@example.org", "Booking confirmed")); n != 1 {
			t.Errorf("%d confirmations", n)
		}
		// The visitor's link to their booking works with its key, not without.
		r := ref(out)
		key, _ := e.ev.AccessKey(context.Background(), r)
		if code, _ := e.do(t, "GET", "/api/bookings/"+r, "", ""); code != 404 {
			t.Errorf("without the key: %d", code)
		}
		if code, _ := e.do(t, "GET", "/api/bookings/"+r+"?key="+key, "", ""); code != 200 {
			t.Errorf("with the key: %d", code)
		}
		_, view := e.do(t, "GET", "/api/events/"+talk+"/booking?booking="+r+"&key="+key, "", "")
		if mine := view["my_bookings"].([]any); len(mine) != 1 || mine[0].(map[string]any)["ref"] != r {
			t.Errorf("the event for the visitor with their key: %v", view["my_bookings"])
		}
		_, view = e.do(t, "GET", "/api/events/"+talk+"/booking?booking="+r+"&key=wrong", "", "")
		if mine := view["my_bookings"].([]any); len(mine) != 0 {
			t.Errorf("a wrong key shows %v", mine)
		}

		// A second visitor never confirms: an hour later the job lets the places go,
		// and the link has lapsed.
		out2 := e.book(t, "", strings.Replace(body, "Vera@Example.org", "walt@example.org", 1), 201)
		tok2 := token(t, to(e.mails(t, 3), "walt@example.org", "Confirm")[0])
		if e.taken(t) != 2 {
			t.Fatalf("taken %d", e.taken(t))
		}
		e.clock.Add(events.EmailHold + time.Second)
		rep, err := e.ev.RunDue(context.Background(), e.clock.Now())
		fatal(t, err)
		if rep.Expired != 1 || e.taken(t) != 1 || e.status(t, ref(out2)) != "cancelled" {
			t.Errorf("after an hour: %+v taken %d status %s", rep, e.taken(t), e.status(t, ref(out2)))
		}
		if code, c := e.do(t, "POST", "/api/bookings/confirm", "", `{"token":"`+tok2+`"}`); code != 422 {
			t.Errorf("lapsed link: %d %v", code, c)
		}

		// At most three requests wait for one address: a fourth is a 429.
		flood := strings.Replace(body, "Vera@Example.org", "flood@example.org", 1)
		for range events.MaxUnconfirmed {
			e.book(t, "", flood, 201)
		}
		if code, out := e.do(t, "POST", "/api/events/"+talk+"/bookings", "", flood); code != 429 {
			t.Errorf("a fourth unconfirmed request: %d %v", code, out)
		}
	})
}

// Bad input is a 422 naming the field, and nothing is written: no booking, no place
// taken, no mail.
func TestBadInputWritesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		in := paid(5)
		in.MaxPerBooking = 2
		e.settings(t, talk, in)
		reg := e.user(t, "reg@example.org", "")
		ctx := context.Background()
		unverified, err := e.auth.CreateUser(ctx, authNewUser("new@example.org"))
		fatal(t, err)
		tok, err := e.auth.IssueTokens(ctx, unverified.ID, "test")
		fatal(t, err)
		for _, tc := range []struct {
			name, token, body, field string
		}{
			{"no tickets", reg.token, `{"mode":"online","tickets":[]}`, "tickets"},
			{"too many", reg.token, tickets("visitor:A", "visitor:B", "visitor:C"), "tickets"},
			{"unknown type", reg.token, tickets("vip:A"), "tickets.0.type"},
			{"members' price without membership", reg.token, tickets("member:A"), "tickets.0.type"},
			{"no attendee name", reg.token, tickets("visitor:"), "tickets.0.name"},
			{"mode not offered", reg.token, `{"mode":"in_person","tickets":[{"type":"visitor","name":"A"}]}`, "mode"},
			{"bad mode", reg.token, `{"mode":"moon","tickets":[{"type":"visitor","name":"A"}]}`, "mode"},
			{"visitor without email", "", `{"mode":"online","tickets":[{"type":"visitor","name":"A"}],"name":"A","email":"not an address"}`, "email"},
			{"unverified account", tok.AccessToken, tickets("visitor:A"), "email"},
			{"not JSON", reg.token, `{"mode":`, ""},
		} {
			code, out := e.do(t, "POST", "/api/events/"+talk+"/bookings", tc.token, tc.body)
			errs, _ := out["errors"].(map[string]any)
			if code != 422 || (tc.field != "" && errs[tc.field] == nil) {
				t.Errorf("%s: %d %v, want 422 on %s", tc.name, code, out, tc.field)
			}
		}
		// Closed, past and switched-off events.
		closes := start.Add(-time.Hour)
		in.ClosesAt = &closes
		e.settings(t, talk, in)
		if code, out := e.do(t, "POST", "/api/events/"+talk+"/bookings", reg.token, tickets("visitor:A")); code != 422 || !strings.Contains(fmt.Sprint(out["errors"]), "closed") {
			t.Errorf("closed: %d %v", code, out)
		}
		e.publish(t, "old-talk", "Old talk", start.Add(-48*time.Hour), start.Add(-47*time.Hour), "Online")
		fatal(t, func() error { _, err := e.ev.SaveSettings(ctx, "old-talk", free(5), 0); return err }())
		if code, out := e.do(t, "POST", "/api/events/old-talk/bookings", reg.token, tickets("free:A")); code != 422 || !strings.Contains(fmt.Sprint(out["errors"]), "already started") {
			t.Errorf("past: %d %v", code, out)
		}
		if code, out := e.do(t, "POST", "/api/events/no-such-event/bookings", reg.token, tickets("free:A")); code != 404 {
			t.Errorf("unknown event: %d %v", code, out)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM bookings`); n != 0 || e.taken(t) != 0 {
			t.Errorf("%d bookings written, %d taken", n, e.taken(t))
		}
		if n := e.count(t, `SELECT COUNT(*) FROM mail_outbox`); n != 0 {
			t.Errorf("%d mails queued", n)
		}
	})
}

// Fifty accounts book ten places at once, through two handles on the database (two
// instances of the site): exactly ten are confirmed, forty wait, none is lost, and the
// count of places taken is ten.
func TestCapacityRace(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		e.settings(t, talk, free(10))
		// A second handle on the same database: a second instance of the site.
		opts := store.Options{DataDir: filepath.Dir(db.Where)}
		if db.Dialect == store.Postgres {
			opts = store.Options{DatabaseURL: db.Where}
		}
		second, err := store.Open(context.Background(), opts)
		fatal(t, err)
		t.Cleanup(func() { second.Close() })
		rooms := []*events.Service{e.ev, e.newRoom(second)}
		ctx := context.Background()
		const n = 50
		var viewers []events.Viewer
		for i := range n {
			u := e.user(t, fmt.Sprintf("p%02d@example.org", i), "")
			viewers = append(viewers, events.Viewer{ID: u.id, Name: fmt.Sprintf("P %d", i), Email: u.email, Verified: true})
		}
		var wg sync.WaitGroup
		got := make([]string, n)
		gate := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-gate
				in := events.BookingInput{Mode: events.ModeOnline, Tickets: []events.TicketInput{{Type: "free", Name: "A"}}}
				b, _, err := rooms[i%len(rooms)].Book(ctx, talk, in, viewers[i])
				if err != nil {
					t.Errorf("booking %d: %v", i, err)
					return
				}
				got[i] = b.Status
			}()
		}
		close(gate)
		wg.Wait()
		count := map[string]int{}
		for _, s := range got {
			count[s]++
		}
		if count["confirmed"] != 10 || count["waitlisted"] != 40 {
			t.Errorf("answers: %v", count)
		}
		if c, w := e.count(t, `SELECT COUNT(*) FROM bookings WHERE status = 'confirmed'`), e.count(t, `SELECT COUNT(*) FROM bookings WHERE status = 'waitlisted'`); c != 10 || w != 40 {
			t.Errorf("stored: %d confirmed, %d waitlisted", c, w)
		}
		if e.taken(t) != 10 {
			t.Errorf("taken %d", e.taken(t))
		}
	})
}

// The waiting list: a cancellation offers the place to the first in line by email; an
// offer not taken in 48 hours lapses (fake clock) and goes to the next, who takes it
// and is confirmed. The place is never counted twice.
func TestWaitingListPromotion(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		e.settings(t, talk, free(1))
		a, b, c := e.user(t, "a@example.org", ""), e.user(t, "b@example.org", ""), e.user(t, "c@example.org", "")
		ra := ref(e.book(t, a.token, tickets("free:A"), 201))
		ob := e.book(t, b.token, tickets("free:B"), 201)
		e.clock.Add(time.Second)
		oc := e.book(t, c.token, tickets("free:C"), 201)
		if booking(ob)["status"] != "waitlisted" || booking(oc)["status"] != "waitlisted" {
			t.Fatalf("b %v c %v", booking(ob)["status"], booking(oc)["status"])
		}
		_, view := e.do(t, "GET", "/api/events/"+talk+"/booking", c.token, "")
		if view["state"] != "waitlist" || booking(map[string]any{"booking": view["my_bookings"].([]any)[0]})["waitlist_position"] != 2.0 {
			t.Errorf("view for c: %v", view)
		}
		if code, _ := e.do(t, "POST", "/api/bookings/"+ra+"/cancel", a.token, "{}"); code != 200 {
			t.Fatal("cancel")
		}
		all := e.mails(t, 5) // a confirmed, b and c waitlisted, a cancelled, b offered
		offers := to(all, "b@example.org", "A place is free")
		if len(offers) != 1 || len(to(all, "c@example.org", "A place is free")) != 0 {
			t.Fatalf("offers: b %d", len(offers))
		}
		if e.taken(t) != 1 {
			t.Errorf("the offer holds the place: taken %d", e.taken(t))
		}
		tokB := token(t, offers[0])

		// B lets it lapse; the place goes to C.
		e.clock.Add(events.OfferWindow + time.Minute)
		rep, err := e.ev.RunDue(context.Background(), e.clock.Now())
		fatal(t, err)
		if rep.Expired != 1 || e.status(t, ref(ob)) != "cancelled" {
			t.Fatalf("after 48 h: %+v, b %s", rep, e.status(t, ref(ob)))
		}
		if code, _ := e.do(t, "POST", "/api/bookings/offers/accept", "", `{"token":"`+tokB+`"}`); code != 422 {
			t.Errorf("lapsed offer accepted: %d", code)
		}
		offersC := to(e.mails(t, 6), "c@example.org", "A place is free")
		if len(offersC) != 1 {
			t.Fatal("c got no offer")
		}
		code, out := e.do(t, "POST", "/api/bookings/offers/accept", "", `{"token":"`+token(t, offersC[0])+`"}`)
		if code != 200 || booking(out)["status"] != "confirmed" || e.taken(t) != 1 {
			t.Fatalf("c accepts: %d %v taken %d", code, out, e.taken(t))
		}
		h, _ := e.ev.History(context.Background(), ref(oc))
		var steps []string
		for _, r := range h {
			steps = append(steps, r.From+">"+r.To+"("+r.Note+")")
		}
		if strings.Join(steps, " ") != ">waitlisted() waitlisted>waitlisted(place offered) waitlisted>confirmed(offer accepted)" {
			t.Errorf("history of c: %v", steps)
		}
	})
}

func TestEditorsSettingsAndAccess(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		ed := e.user(t, "ed@example.org", "editor")
		reg := e.user(t, "reg@example.org", "")
		path := "/api/admin/events/" + talk + "/booking-settings"
		if code, _ := e.do(t, "GET", path, "", ""); code != 401 {
			t.Errorf("anonymous: %d", code)
		}
		if code, _ := e.do(t, "GET", path, reg.token, ""); code != 403 {
			t.Errorf("registered: %d", code)
		}
		code, st := e.do(t, "GET", path, ed.token, "")
		if code != 200 || st["exists"] != false || st["enabled"] != false {
			t.Fatalf("defaults: %d %v", code, st)
		}
		bad := `{"enabled":true,"capacity_online":-1,"max_per_booking":0,"ticket_types":[{"key":"A B","label":"","price":-5,
			"early_bird_price":900}],"online_link":"javascript:alert(1)"}`
		code, out := e.do(t, "PUT", path, ed.token, bad)
		errs, _ := out["errors"].(map[string]any)
		for _, f := range []string{"capacity_online", "max_per_booking", "ticket_types.0.key", "ticket_types.0.label",
			"ticket_types.0.price", "ticket_types.0.early_bird_price", "ticket_types.0.early_bird_ends_at", "online_link"} {
			if errs[f] == nil {
				t.Errorf("no error on %s: %v", f, errs)
			}
		}
		if code != 422 || e.count(t, `SELECT COUNT(*) FROM event_settings`) != 0 {
			t.Errorf("bad settings: %d", code)
		}
		code, st = e.do(t, "PUT", path, ed.token, `{"enabled":true,"capacity_online":2,"max_per_booking":2,"waitlist":true,
			"refund_cutoff_hours":24,"ticket_types":[{"key":"free","label":"Free","price":0}]}`)
		if code != 200 || st["exists"] != true {
			t.Fatalf("save: %d %v", code, st)
		}
		r := ref(e.book(t, reg.token, tickets("free:Reg", "free:Friend"), 201))
		// Capacity below the places taken is refused.
		if code, out := e.do(t, "PUT", path, ed.token, `{"enabled":true,"capacity_online":1,"max_per_booking":2,"ticket_types":[{"key":"free","label":"Free","price":0}]}`); code != 422 || !strings.Contains(fmt.Sprint(out), "already taken") {
			t.Errorf("capacity below taken: %d %v", code, out)
		}
		code, att := e.do(t, "GET", "/api/admin/events/"+talk+"/attendees", ed.token, "")
		if code != 200 || len(att["bookings"].([]any)) != 1 {
			t.Fatalf("attendees: %d %v", code, att)
		}
		code, csvBody, h := e.raw(t, "GET", "/api/admin/events/"+talk+"/attendees.csv", ed.token, "")
		if code != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/csv") || strings.Count(string(csvBody), r) != 2 {
			t.Errorf("csv: %d %s", code, csvBody)
		}
		code, ci := e.do(t, "POST", "/api/admin/events/"+talk+"/attendees/"+r+"/check-in", ed.token, `{"attended":true}`)
		if code != 200 || booking(ci)["status"] != "attended" {
			t.Errorf("check-in: %d %v", code, ci)
		}
		code, ci = e.do(t, "POST", "/api/admin/events/"+talk+"/attendees/"+r+"/check-in", ed.token, `{"attended":false}`)
		if code != 200 || booking(ci)["status"] != "confirmed" {
			t.Errorf("undo check-in: %d %v", code, ci)
		}
		if code, _ := e.do(t, "POST", "/api/admin/events/"+talk+"/message", ed.token, `{"subject":"","text":""}`); code != 422 {
			t.Errorf("empty message: %d", code)
		}
		code, msg := e.do(t, "POST", "/api/admin/events/"+talk+"/message", ed.token, `{"subject":"Room change","text":"We meet in room 2."}`)
		if code != 200 || msg["sent"] != 1.0 {
			t.Errorf("message: %d %v", code, msg)
		}
		if m := to(e.mails(t, 2), "reg@example.org", "Room change"); len(m) != 1 || !strings.Contains(m[0].Parts["text/plain"].Body, "room 2") {
			t.Errorf("message mail: %v", m)
		}
	})
}

func authNewUser(email string) auth.NewUser { return auth.NewUser{Email: email, Name: "New"} }

// A visitor on the waiting list is offered a place only once their address is
// confirmed: a place freed before that waits for them; confirming then offers it at
// once. More capacity from an editor offers places to the list too.
func TestVisitorWaitingListAndMoreCapacity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, nil)
		e.settings(t, talk, free(1))
		a := e.user(t, "a@example.org", "")
		ra := ref(e.book(t, a.token, tickets("free:A"), 201))
		ov := e.book(t, "", `{"mode":"online","tickets":[{"type":"free","name":"Vi"}],"name":"Vi","email":"vi@example.org"}`, 201)
		if booking(ov)["status"] != "waitlisted" || booking(ov)["awaiting"] != "email" {
			t.Fatalf("visitor: %v", booking(ov))
		}
		confirm := to(e.mails(t, 2), "vi@example.org", "Confirm")
		if len(confirm) != 1 || !strings.Contains(confirm[0].Parts["text/plain"].Body, "waiting list") {
			t.Fatalf("confirm mail: %v", confirm)
		}
		if code, _ := e.do(t, "POST", "/api/bookings/"+ra+"/cancel", a.token, "{}"); code != 200 {
			t.Fatal("cancel")
		}
		if e.taken(t) != 0 {
			t.Errorf("an unconfirmed visitor was offered the place: taken %d", e.taken(t))
		}
		code, out := e.do(t, "POST", "/api/bookings/confirm", "", `{"token":"`+token(t, confirm[0])+`"}`)
		if code != 200 || booking(out)["status"] != "waitlisted" || booking(out)["offer_expires_at"] == nil || e.taken(t) != 1 {
			t.Fatalf("confirmed: %d %v taken %d", code, out, e.taken(t))
		}
		offer := to(e.mails(t, 5), "vi@example.org", "A place is free")
		code, out = e.do(t, "POST", "/api/bookings/offers/accept", "", `{"token":"`+token(t, offer[0])+`"}`)
		if code != 200 || booking(out)["status"] != "confirmed" {
			t.Fatalf("accept: %d %v", code, out)
		}

		// Two more on the list; the editor adds a place: the first is offered it.
		b, c := e.user(t, "b@example.org", ""), e.user(t, "c@example.org", "")
		rb := ref(e.book(t, b.token, tickets("free:B"), 201))
		e.clock.Add(time.Second)
		rc := ref(e.book(t, c.token, tickets("free:C"), 201))
		e.settings(t, talk, free(2))
		bb, _ := e.ev.BookingByRef(context.Background(), rb)
		cb, _ := e.ev.BookingByRef(context.Background(), rc)
		if bb.OfferExpiresAt == nil || cb.OfferExpiresAt != nil || e.taken(t) != 2 {
			t.Errorf("more capacity: b offer %v, c offer %v, taken %d", bb.OfferExpiresAt, cb.OfferExpiresAt, e.taken(t))
		}
	})
}
