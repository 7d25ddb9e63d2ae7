// Package eventstest serves the events room as cmd/lineage's route table does, for
// tests of other packages and of the room itself (cmd/lineage's TestTestRoomsAreTheTable
// holds it to the table).
package eventstest

import (
	"log/slog"
	"net/http"

	"lineage/internal/events"
	"lineage/internal/httpx"
)

// Room is the events room of the route table on ev, behind session.
func Room(ev *events.Service, session func(http.Handler) http.Handler, log *slog.Logger) httpx.Room {
	return httpx.Room{
		Log:      log,
		Name:     "events",
		Session:  session,
		Fallback: []string{"/api/events/", "/api/bookings", "/api/bookings/", "/api/admin/events/"},
		Routes: []httpx.Route{
			{Pattern: "GET /api/events/booking-states", Handler: ev.Public(ev.GetStates), Access: httpx.Public},
			{Pattern: "GET /api/events/{uid}/booking", Handler: ev.Public(ev.GetEventBooking), Access: httpx.Public},
			{Pattern: "POST /api/events/{uid}/bookings", Handler: ev.Public(ev.PostBooking), Access: httpx.Public, ChangesPages: true},
			{Pattern: "POST /api/bookings/confirm", Handler: ev.Public(ev.PostConfirm), Access: httpx.Public, ChangesPages: true},
			{Pattern: "POST /api/bookings/offers/accept", Handler: ev.Public(ev.PostAcceptOffer), Access: httpx.Public, ChangesPages: true},
			{Pattern: "GET /api/bookings", Handler: ev.SignedIn(ev.GetMine), Access: httpx.SignedIn},
			// The booking's account, staff, or a visitor with the booking's key (?key=).
			{Pattern: "GET /api/bookings/{ref}", Handler: ev.Public(ev.GetBooking), Access: httpx.Public},
			{Pattern: "POST /api/bookings/{ref}/cancel", Handler: ev.Public(ev.PostCancel), Access: httpx.Public, ChangesPages: true},
			{Pattern: "GET /api/bookings/{ref}/ics", Handler: ev.Public(ev.GetICS), Access: httpx.Public},

			{Pattern: "GET /api/admin/events/{uid}/booking-settings", Handler: ev.Staff(ev.AdminGetSettings), Access: httpx.Staff},
			{Pattern: "PUT /api/admin/events/{uid}/booking-settings", Handler: ev.Staff(ev.AdminPutSettings), Access: httpx.Staff, ChangesPages: true},
			{Pattern: "GET /api/admin/events/{uid}/attendees", Handler: ev.Staff(ev.AdminAttendees), Access: httpx.Staff},
			{Pattern: "GET /api/admin/events/{uid}/attendees.csv", Handler: ev.Staff(ev.AdminAttendeesCSV), Access: httpx.Staff},
			{Pattern: "POST /api/admin/events/{uid}/attendees/{ref}/check-in", Handler: ev.Staff(ev.AdminCheckIn), Access: httpx.Staff},
			{Pattern: "POST /api/admin/events/{uid}/message", Handler: ev.Staff(ev.AdminMessage), Access: httpx.Staff},
			{Pattern: "POST /api/admin/events/{uid}/cancel", Handler: ev.Staff(ev.AdminCancel), Access: httpx.Staff, ChangesPages: true},
		},
	}
}
