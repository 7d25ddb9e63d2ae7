package events

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"lineage/internal/httpx"
)

// FuzzBookingBody: whatever a visitor posts as a booking, the parser and the checks
// answer a booking request or a client error (never a panic, never a 500), and what
// passes has tickets within the limit, each of a known type with a name.
func FuzzBookingBody(f *testing.F) {
	f.Add(`{"mode":"online","tickets":[{"type":"free","name":"Ada"}],"name":"Ada","email":"ada@example.org"}`)
	f.Add(`{"mode":"in_person","tickets":[{"type":"member","name":"A"},{"type":"visitor","name":"B"}]}`)
	f.Add(`{"mode":"online","tickets":null}`)
	f.Add(`{"tickets":[{}],"email":"a@b"}`)
	f.Add(`[]`)
	f.Add(`{"mode":"online","tickets":[{"type":"free","name":"\u0000"}]}`)
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	ev := Event{UID: "talk", Title: "Talk", Start: now.Add(48 * time.Hour)}
	st := &Settings{UID: "talk", Exists: true, SettingsInput: SettingsInput{Enabled: true, CapacityOnline: 5, CapacityInPerson: 5, MaxPerBooking: 3,
		Waitlist: true, TicketTypes: []TicketType{{Key: "free", Label: "Free"}, {Key: "member", Label: "Member", Price: 300, RequiresScope: ScopeMember}}}}
	s := &Service{}
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest("POST", "/api/events/talk/bookings", strings.NewReader(body))
		w := httptest.NewRecorder()
		in, err := DecodeBooking(w, r)
		if err != nil {
			if httpx.Status(err.(*httpx.Error).Code) >= 500 {
				t.Fatalf("decode: %v", err)
			}
			return
		}
		for _, v := range []Viewer{{}, {ID: 1, Name: "M", Email: "m@example.org", Verified: true, Scope: []string{"member"}}} {
			p, err := s.check(st, ev, in, v, now)
			if err != nil {
				e, ok := err.(*httpx.Error)
				if !ok || e.Code != httpx.EINVALID || len(e.Fields) == 0 {
					t.Fatalf("check: %v", err)
				}
				continue
			}
			if len(p.tickets) == 0 || len(p.tickets) > st.MaxPerBooking || p.email == "" {
				t.Fatalf("accepted %+v", p)
			}
			for _, tk := range p.tickets {
				if _, ok := st.ticketType(tk.Type); !ok || tk.Name == "" || strings.ContainsAny(tk.Name, "\r\n") {
					t.Fatalf("accepted ticket %+v", tk)
				}
			}
		}
	})
}

// FuzzSettingsBody: an editor's settings body is decoded and validated into settings
// within their limits or a 422.
func FuzzSettingsBody(f *testing.F) {
	f.Add(`{"enabled":true,"capacity_online":5,"max_per_booking":2,"ticket_types":[{"key":"free","label":"Free","price":0}]}`)
	f.Add(`{"enabled":true,"capacity_in_person":-1,"ticket_types":[{"key":"A","label":"","price":-1,"early_bird_price":5}]}`)
	f.Add(`{"online_link":"javascript:x","opens_at":"2026-01-01T00:00:00Z","closes_at":"2025-01-01T00:00:00Z"}`)
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest("PUT", "/api/admin/events/talk/booking-settings", strings.NewReader(body))
		in, err := DecodeSettings(httptest.NewRecorder(), r)
		if err != nil {
			return
		}
		out, err := in.validate(Places{})
		if err != nil {
			if e, ok := err.(*httpx.Error); !ok || e.Code != httpx.EINVALID {
				t.Fatalf("validate: %v", err)
			}
			return
		}
		if out.CapacityOnline < 0 || out.CapacityInPerson < 0 || out.MaxPerBooking < 1 || len(out.TicketTypes) > MaxTicketTypes {
			t.Fatalf("accepted %+v", out)
		}
		for _, tt := range out.TicketTypes {
			if tt.Price < 0 || tt.Label == "" || !keyRe.MatchString(tt.Key) {
				t.Fatalf("accepted type %+v", tt)
			}
		}
	})
}
