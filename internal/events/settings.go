package events

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// SettingsInput is the body of PUT /api/admin/events/{uid}/booking-settings.
type SettingsInput struct {
	Enabled            bool         `json:"enabled"`
	OpensAt            *time.Time   `json:"opens_at"`
	ClosesAt           *time.Time   `json:"closes_at"`
	CapacityInPerson   int          `json:"capacity_in_person"`
	CapacityOnline     int          `json:"capacity_online"`
	MaxPerBooking      int          `json:"max_per_booking"`
	Waitlist           bool         `json:"waitlist"`
	RefundCutoffHours  int          `json:"refund_cutoff_hours"`
	TicketTypes        []TicketType `json:"ticket_types"`
	OnlineLink         string       `json:"online_link"`
	OnlineInstructions string       `json:"online_instructions"`
}

var keyRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// validate checks in and returns it cleaned, or a 422 naming every bad field.
func (in SettingsInput) validate(taken Places) (SettingsInput, error) {
	var fe httpx.FieldErrors
	if in.OpensAt != nil && in.ClosesAt != nil && !in.ClosesAt.After(*in.OpensAt) {
		fe.Add("closes_at", "Bookings must close after they open.")
	}
	for _, c := range []struct {
		field string
		v     int
		taken int
	}{{"capacity_in_person", in.CapacityInPerson, taken.InPerson}, {"capacity_online", in.CapacityOnline, taken.Online}} {
		switch {
		case c.v < 0 || c.v > MaxCapacity:
			fe.Add(c.field, "The capacity must be a whole number from 0 to %d.", MaxCapacity)
		case c.v < c.taken:
			fe.Add(c.field, "%d places are already taken.", c.taken)
		}
	}
	if in.Enabled && in.CapacityInPerson == 0 && in.CapacityOnline == 0 && !fe.Has("capacity_in_person") {
		fe.Add("capacity_in_person", "Give a capacity in person, online, or both.")
	}
	if in.MaxPerBooking < 1 || in.MaxPerBooking > MaxPerBookingMax {
		fe.Add("max_per_booking", "The limit per booking must be from 1 to %d.", MaxPerBookingMax)
	}
	if in.RefundCutoffHours < 0 || in.RefundCutoffHours > MaxRefundHours {
		fe.Add("refund_cutoff_hours", "The refund cut-off must be from 0 to %d hours.", MaxRefundHours)
	}
	if in.TicketTypes == nil {
		in.TicketTypes = []TicketType{}
	}
	switch {
	case in.Enabled && len(in.TicketTypes) == 0:
		fe.Add("ticket_types", "Add at least one ticket type.")
	case len(in.TicketTypes) > MaxTicketTypes:
		fe.Add("ticket_types", "An event may have at most %d ticket types.", MaxTicketTypes)
	}
	seen := map[string]bool{}
	for i, t := range in.TicketTypes {
		f := "ticket_types." + strconv.Itoa(i) + "."
		if !keyRe.MatchString(t.Key) {
			fe.Add(f+"key", "The key must be lower-case letters, digits and hyphens (at most 40).")
		} else if seen[t.Key] {
			fe.Add(f+"key", "Two ticket types have the key %s.", t.Key)
		}
		seen[t.Key] = true
		label, err := textfield.SingleLine(t.Label, MaxLabelLen)
		if err != nil || label == "" {
			fe.Add(f+"label", "Give the ticket type a name of at most %d characters.", MaxLabelLen)
		}
		in.TicketTypes[i].Label = label
		if t.Price < 0 || t.Price > MaxPrice {
			fe.Add(f+"price", "The price must be from 0 to %d pence.", MaxPrice)
		}
		if t.RequiresScope != "" && t.RequiresScope != ScopeMember {
			fe.Add(f+"requires_scope", "A ticket type may require membership (member) or nothing.")
		}
		if t.EarlyBirdPrice != nil {
			if *t.EarlyBirdPrice < 0 || *t.EarlyBirdPrice >= t.Price {
				fe.Add(f+"early_bird_price", "The early-bird price must be less than the price.")
			}
			if t.EarlyBirdEndsAt == nil {
				fe.Add(f+"early_bird_ends_at", "Give the date the early-bird price ends.")
			}
		} else {
			in.TicketTypes[i].EarlyBirdEndsAt = nil
		}
	}
	if in.OnlineLink != "" {
		u, err := url.Parse(in.OnlineLink)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(in.OnlineLink) > 2000 {
			fe.Add("online_link", "The joining link must be a web address starting with https://.")
		}
	}
	instr, err := textfield.MultiLine(in.OnlineInstructions, MaxInstructions)
	if err != nil {
		fe.Add("online_instructions", "The instructions may be at most %d characters of text.", MaxInstructions)
	}
	in.OnlineInstructions = instr
	return in, fe.Err()
}

// SaveSettings validates and stores an event's booking settings; the places already
// taken stay as they are.
func (s *Service) SaveSettings(ctx context.Context, uid string, in SettingsInput, editor int64) (*Settings, error) {
	ev, err := s.event(ctx, uid)
	if err != nil {
		return nil, err
	}
	types, _ := json.Marshal([]TicketType{})
	err = s.tx(ctx, func(tx *sql.Tx) error {
		cur, err := s.settings(ctx, tx, uid, true)
		if err != nil {
			return err
		}
		if in, err = in.validate(cur.Taken); err != nil {
			return err
		}
		types, _ = json.Marshal(in.TicketTypes)
		var start, end any
		if !ev.Start.IsZero() {
			start = ev.Start.Unix()
		}
		if !ev.End.IsZero() {
			end = ev.End.Unix()
		}
		var ed any
		if editor != 0 {
			ed = editor
		}
		// known_start is set once: later changes of the document's date are the
		// scheduler's to notice (change notices).
		_, err = tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO event_settings (uid, enabled, opens_at, closes_at, capacity_in_person,
			capacity_online, max_per_booking, waitlist, refund_cutoff_hours, ticket_types, online_link, online_instructions,
			known_start, known_end, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (uid) DO UPDATE SET enabled = excluded.enabled, opens_at = excluded.opens_at, closes_at = excluded.closes_at,
			capacity_in_person = excluded.capacity_in_person, capacity_online = excluded.capacity_online,
			max_per_booking = excluded.max_per_booking, waitlist = excluded.waitlist, refund_cutoff_hours = excluded.refund_cutoff_hours,
			ticket_types = excluded.ticket_types, online_link = excluded.online_link, online_instructions = excluded.online_instructions,
			known_start = COALESCE(event_settings.known_start, excluded.known_start),
			known_end = COALESCE(event_settings.known_end, excluded.known_end),
			updated_at = excluded.updated_at, updated_by = excluded.updated_by`),
			uid, in.Enabled, store.UnixOrNil(in.OpensAt), store.UnixOrNil(in.ClosesAt), in.CapacityInPerson, in.CapacityOnline, in.MaxPerBooking,
			in.Waitlist, in.RefundCutoffHours, string(types), in.OnlineLink, in.OnlineInstructions, start, end, s.now().Unix(), ed)
		if err != nil {
			return fmt.Errorf("events: save settings: %w", err)
		}
		// More capacity may let the waiting list in.
		return s.offerFreed(ctx, tx, uid)
	})
	if err != nil {
		return nil, err
	}
	s.opt.Mailer.Wake()
	return s.settings(ctx, s.db, uid, false)
}
