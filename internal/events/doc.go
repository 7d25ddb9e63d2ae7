// Package events is the room for booking places at the society's events: booking
// settings kept per event content document (by its uid; the date, time and place stay
// the content service's), bookings with tickets by type, the waiting list, card
// payment through the payments room (kind "booking"), calendar invitations by mail,
// and the editors' attendee list, check-in, messages and cancellation.
//
// Capacity is counted in event_settings (taken_in_person, taken_online) and changed
// only by conditional UPDATEs of that row inside the transaction that writes the
// booking, so no event is ever oversold, on SQLite or on PostgreSQL with several
// instances (docs/decisions/017-event-capacity.md). Places are held by held bookings
// (payment: 15 minutes; a visitor's email confirmation: an hour), confirmed and
// attended ones, and waiting-list bookings with an open offer (48 hours).
//
// Every change of a booking's status is an append-only history row. Times come from
// the clock passed in (Service.Now, or the now given to RunDue), so tests move time by
// hand. Every mail goes through the outbox in the transaction of the change it tells
// about; the scheduled ones (joining instructions, change notices) are claimed by a
// unique row in that transaction, so two runs, or two instances, send each once.
// docs/events.md describes the rules, late payments included.
package events
