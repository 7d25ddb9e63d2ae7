package events

import (
	"context"
	"time"
)

// DemoSettings are the booking settings `serve --demo` gives the demo events (demo/
// content): a paid online talk with a members' price and an early bird, a small free
// day that fills up (the waiting list), and a large free open day.
func DemoSettings() map[string]SettingsInput {
	early := int64(200)
	earlyEnd := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	return map[string]SettingsInput{
		"dna-introduction-december-2026": {
			Enabled: true, CapacityOnline: 5, MaxPerBooking: 2, Waitlist: true, RefundCutoffHours: 48,
			TicketTypes: []TicketType{
				{Key: "member", Label: "Member", Price: 300, RequiresScope: ScopeMember, EarlyBirdPrice: &early, EarlyBirdEndsAt: &earlyEnd},
				{Key: "visitor", Label: "Visitor", Price: 800},
			},
			OnlineLink:         "https://meet.example.org/lineage-dna",
			OnlineInstructions: "Join ten minutes early to test your sound. The meeting opens at 18:50; the passcode is DNA2026.",
		},
		"researching-london-ancestors-february-2027": {
			Enabled: true, CapacityInPerson: 2, MaxPerBooking: 2, Waitlist: true, RefundCutoffHours: 48,
			TicketTypes: []TicketType{{Key: "free", Label: "Free admission", Price: 0}},
		},
		"family-history-open-day-may-2027": {
			Enabled: true, CapacityInPerson: 50, MaxPerBooking: 6, Waitlist: true, RefundCutoffHours: 0,
			TicketTypes: []TicketType{{Key: "free", Label: "Free admission", Price: 0}},
		},
	}
}

// LoadDemo saves DemoSettings into a store without booking settings; it reports
// whether it did. An event the content lacks is left out.
func (s *Service) LoadDemo(ctx context.Context) (bool, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM event_settings`).Scan(&n); err != nil || n > 0 {
		return false, err
	}
	loaded := false
	for uid, in := range DemoSettings() {
		if _, err := s.event(ctx, uid); err == errNotFound {
			continue
		}
		if _, err := s.SaveSettings(ctx, uid, in, 0); err != nil {
			return false, err
		}
		loaded = true
	}
	return loaded, nil
}
