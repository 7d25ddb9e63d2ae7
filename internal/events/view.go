package events

import (
	"context"
	"sort"
	"strconv"
	"time"

	"lineage/internal/store"
)

// ModeView is one mode's places as the event page shows them.
type ModeView struct {
	Capacity int    `json:"capacity"`
	Left     int    `json:"left"`
	State    string `json:"state"`
}

// TicketView is a ticket type with the price for the one asking.
type TicketView struct {
	Key             string     `json:"key"`
	Label           string     `json:"label"`
	Price           int64      `json:"price"`
	RegularPrice    int64      `json:"regular_price"`
	EarlyBird       bool       `json:"early_bird"`
	EarlyBirdEndsAt *time.Time `json:"early_bird_ends_at"`
	RequiresScope   string     `json:"requires_scope"`
	Eligible        bool       `json:"eligible"`
	Note            string     `json:"note"`
}

// EventView is GET /api/events/{uid}/booking.
type EventView struct {
	UID               string              `json:"uid"`
	Title             string              `json:"title"`
	StartsAt          *time.Time          `json:"starts_at"`
	EndsAt            *time.Time          `json:"ends_at"`
	Location          string              `json:"location"`
	State             string              `json:"state"`
	Cancelled         bool                `json:"cancelled"`
	OpensAt           *time.Time          `json:"opens_at"`
	ClosesAt          *time.Time          `json:"closes_at"`
	Waitlist          bool                `json:"waitlist"`
	MaxPerBooking     int                 `json:"max_per_booking"`
	RefundRule        string              `json:"refund_rule"`
	RefundCutoffHours int                 `json:"refund_cutoff_hours"`
	Modes             map[string]ModeView `json:"modes"`
	TicketTypes       []TicketView        `json:"ticket_types"`
	Currency          string              `json:"currency"`
	CardPayments      bool                `json:"card_payments"`
	MyBookings        []*Booking          `json:"my_bookings"`
}

// state is an event's booking state at now, with each mode's.
func state(st *Settings, ev Event, now time.Time) (string, map[string]ModeView) {
	modes := map[string]ModeView{}
	anyOpen, anyMode := false, false
	for _, m := range []string{ModeInPerson, ModeOnline} {
		c := st.capacity(m)
		left := max(c-st.Taken.of(m), 0)
		mv := ModeView{Capacity: c, Left: left}
		switch {
		case c == 0:
			mv.State = StateNotOffered
		case left > 0:
			mv.State, anyOpen, anyMode = StateOpen, true, true
		case st.Waitlist:
			mv.State, anyMode = StateWaitlist, true
		default:
			mv.State, anyMode = StateFull, true
		}
		modes[m] = mv
	}
	switch {
	case !st.Exists || !st.Enabled || st.CancelledAt != nil || ev.Start.IsZero() || !anyMode:
		return StateNotBookable, modes
	case !now.Before(ev.Start):
		return StatePast, modes
	case st.OpensAt != nil && now.Before(*st.OpensAt), st.ClosesAt != nil && !now.Before(*st.ClosesAt):
		return StateClosed, modes
	case anyOpen:
		return StateOpen, modes
	case st.Waitlist:
		return StateWaitlist, modes
	}
	return StateFull, modes
}

func refundRule(st *Settings) string {
	switch h := st.RefundCutoffHours; {
	case h == 0:
		return "Full refund if you cancel before the event starts."
	case h%24 == 0:
		d := h / 24
		if d == 1 {
			return "Full refund if you cancel at least 24 hours before the event starts."
		}
		return "Full refund if you cancel at least " + strconv.Itoa(d) + " days before the event starts."
	default:
		return "Full refund if you cancel at least " + strconv.Itoa(h) + " hours before the event starts."
	}
}

// View is an event's booking state for the one asking.
func (s *Service) View(ctx context.Context, uid string, v Viewer) (*EventView, error) {
	ev, st, err := s.eventWithSettings(ctx, uid)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := &EventView{UID: uid, Title: ev.Title, Location: ev.Location, Cancelled: st.CancelledAt != nil,
		OpensAt: st.OpensAt, ClosesAt: st.ClosesAt, Waitlist: st.Waitlist, MaxPerBooking: st.MaxPerBooking,
		RefundRule: refundRule(st), RefundCutoffHours: st.RefundCutoffHours, Currency: Currency,
		CardPayments: s.CardPayments(), TicketTypes: []TicketView{}, MyBookings: []*Booking{}}
	if !ev.Start.IsZero() {
		out.StartsAt = &ev.Start
	}
	if !ev.End.IsZero() {
		out.EndsAt = &ev.End
	}
	out.State, out.Modes = state(st, ev, now)
	for _, t := range st.TicketTypes {
		price, early := t.PriceAt(now)
		tv := TicketView{Key: t.Key, Label: t.Label, Price: price, RegularPrice: t.Price, EarlyBird: early,
			RequiresScope: t.RequiresScope, Eligible: true}
		if early {
			tv.EarlyBirdEndsAt = t.EarlyBirdEndsAt
		}
		if t.RequiresScope != "" && !v.has(t.RequiresScope) {
			tv.Eligible = false
			if v.ID == 0 {
				tv.Note = "Members' price: sign in as a member to choose it."
			} else {
				tv.Note = "Members' price: needs an active membership."
			}
		}
		out.TicketTypes = append(out.TicketTypes, tv)
	}
	if v.ID != 0 {
		mine, err := s.listMine(ctx, v.ID, uid)
		if err != nil {
			return nil, err
		}
		for _, b := range mine {
			s.fill(b, ev, st)
			if err := s.complete(ctx, b); err != nil {
				return nil, err
			}
		}
		sort.SliceStable(mine, func(i, j int) bool {
			return active(mine[i].Status, mine[i].OfferExpiresAt) && !active(mine[j].Status, mine[j].OfferExpiresAt)
		})
		out.MyBookings = mine
	}
	return out, nil
}

// listMine lists an account's bookings, of one event when uid is not "".
func (s *Service) listMine(ctx context.Context, user int64, uid string) ([]*Booking, error) {
	q := `SELECT ` + bookingColumns + ` FROM bookings b WHERE b.user_id = ?`
	args := []any{user}
	if uid != "" {
		q += ` AND b.event_uid = ?`
		args = append(args, uid)
	}
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(q+` ORDER BY b.created_at DESC, b.id DESC`), args...)
	return store.Collect(rs, err, scanBooking)
}

// Mine is GET /api/bookings: an account's bookings, upcoming (soonest first) and past.
func (s *Service) Mine(ctx context.Context, user int64) (upcoming, past []*Booking, err error) {
	list, err := s.listMine(ctx, user, "")
	if err != nil {
		return nil, nil, err
	}
	now := s.now()
	upcoming, past = []*Booking{}, []*Booking{}
	for _, b := range list {
		if err := s.complete(ctx, b); err != nil {
			return nil, nil, err
		}
		ended := b.EventEndsAt != nil && !now.Before(*b.EventEndsAt) ||
			b.EventEndsAt == nil && b.EventStartsAt != nil && !now.Before(*b.EventStartsAt)
		if ended || b.Status == StatusCancelled || b.Status == StatusRefunded {
			past = append(past, b)
		} else {
			upcoming = append(upcoming, b)
		}
	}
	sort.SliceStable(upcoming, func(i, j int) bool {
		a, b := upcoming[i].EventStartsAt, upcoming[j].EventStartsAt
		return a != nil && (b == nil || a.Before(*b))
	})
	return upcoming, past, nil
}

// Summary is one event of GET /api/events/booking-states.
type Summary struct {
	UID       string     `json:"uid"`
	Title     string     `json:"title"`
	StartsAt  *time.Time `json:"starts_at"`
	State     string     `json:"state"`
	Cancelled bool       `json:"cancelled"`
	Left      Places     `json:"left"`
	FromPrice int64      `json:"from_price"`
	Currency  string     `json:"currency"`
}

// States lists the events taking bookings (or cancelled) that have not started,
// soonest first.
func (s *Service) States(ctx context.Context) ([]Summary, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT `+settingsColumns+` FROM event_settings WHERE enabled = ? ORDER BY uid`), true)
	list, err := store.Collect(rs, err, scanSettings)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := []Summary{}
	for _, st := range list {
		ev, err := s.event(ctx, st.UID)
		if err == errNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if ev.Start.IsZero() || !now.Before(ev.Start) {
			continue
		}
		state, modes := state(st, ev, now)
		sum := Summary{UID: st.UID, Title: ev.Title, StartsAt: &ev.Start, State: state, Cancelled: st.CancelledAt != nil,
			Left: Places{InPerson: modes[ModeInPerson].Left, Online: modes[ModeOnline].Left}, Currency: Currency, FromPrice: -1}
		for _, t := range st.TicketTypes {
			if t.RequiresScope == "" && (sum.FromPrice < 0 || t.Price < sum.FromPrice) {
				sum.FromPrice = t.Price
			}
		}
		if sum.FromPrice < 0 {
			sum.FromPrice = 0
		}
		out = append(out, sum)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].StartsAt.Before(*out[j].StartsAt) })
	return out, nil
}

// Attendees is GET /api/admin/events/{uid}/attendees.
type Attendees struct {
	Event    map[string]any `json:"event"`
	Counts   map[string]any `json:"counts"`
	Bookings []*Booking     `json:"bookings"`
}

// AttendeeList lists an event's bookings for editors, active first.
func (s *Service) AttendeeList(ctx context.Context, uid, status string) (*Attendees, error) {
	ev, st, err := s.eventWithSettings(ctx, uid)
	if err != nil {
		return nil, err
	}
	var list []*Booking
	if status != "" {
		list, err = s.listBookings(ctx, s.db, uid, status)
	} else {
		list, err = s.listBookings(ctx, s.db, uid)
	}
	if err != nil {
		return nil, err
	}
	counts := map[string]any{}
	for _, k := range []string{StatusHeld, StatusConfirmed, StatusWaitlisted, StatusAttended, StatusCancelled, StatusRefunded} {
		counts[k] = 0
	}
	for _, b := range list {
		counts[b.Status] = counts[b.Status].(int) + 1
		s.fill(b, ev, st)
	}
	counts["places_taken"] = st.Taken
	sort.SliceStable(list, func(i, j int) bool {
		return active(list[i].Status, list[i].OfferExpiresAt) && !active(list[j].Status, list[j].OfferExpiresAt)
	})
	stateNow, _ := state(st, ev, s.now())
	var start any
	if !ev.Start.IsZero() {
		start = ev.Start
	}
	return &Attendees{Event: map[string]any{"uid": uid, "title": ev.Title, "starts_at": start, "state": stateNow},
		Counts: counts, Bookings: list}, nil
}
