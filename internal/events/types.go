package events

import (
	"time"
)

// Booking statuses.
const (
	StatusHeld       = "held"
	StatusConfirmed  = "confirmed"
	StatusWaitlisted = "waitlisted"
	StatusCancelled  = "cancelled"
	StatusRefunded   = "refunded"
	StatusAttended   = "attended"
)

// What a held booking waits for.
const (
	AwaitPayment = "payment"
	AwaitEmail   = "email"
)

// Why a booking was cancelled.
const (
	ReasonBooker         = "booker"
	ReasonEventCancelled = "event_cancelled"
	ReasonHoldExpired    = "hold_expired"
	ReasonOfferExpired   = "offer_expired"
	ReasonUnconfirmed    = "unconfirmed"
)

// Modes of attending; a booking is for one.
const (
	ModeInPerson = "in_person"
	ModeOnline   = "online"
)

// Event booking states as the event page shows them.
const (
	StateOpen        = "open"
	StateWaitlist    = "waitlist"
	StateFull        = "full"
	StateClosed      = "closed"
	StateNotBookable = "not_bookable"
	StatePast        = "past"
	StateNotOffered  = "not_offered" // a mode with no capacity
)

// Durations of the rules (docs/events.md).
const (
	PaymentHold  = 15 * time.Minute // a paid booking's places, unpaid
	EmailHold    = time.Hour        // a visitor's booking, until they confirm their address
	OfferWindow  = 48 * time.Hour   // a waiting-list offer
	JoiningAhead = 24 * time.Hour   // joining instructions go this long before the start
)

// Limits of the settings an editor keeps.
const (
	MaxCapacity       = 100000
	MaxPerBookingMax  = 50
	MaxTicketTypes    = 20
	MaxPrice          = 1000000
	MaxRefundHours    = 8760
	MaxInstructions   = 5000
	MaxNameLen        = 200
	MaxLabelLen       = 100
	MaxMessageText    = 20000
	MaxMessageSubject = 200
	MaxUnconfirmed    = 3 // a visitor's requests awaiting email confirmation, per address and hour
)

// Currency is the society's, for every ticket.
const Currency = "GBP"

// ScopeMember is the scope a members' price requires (auth.ScopeMember).
const ScopeMember = "member"

// Event is what the content service says about an event document.
type Event struct {
	UID      string
	Title    string
	Start    time.Time // zero: the document has no start
	End      time.Time
	Location string
}

// TicketType is one kind of ticket of an event.
type TicketType struct {
	Key             string     `json:"key"`
	Label           string     `json:"label"`
	Price           int64      `json:"price"`
	RequiresScope   string     `json:"requires_scope"`
	EarlyBirdPrice  *int64     `json:"early_bird_price"`
	EarlyBirdEndsAt *time.Time `json:"early_bird_ends_at"`
}

// PriceAt is the type's price at t: the early-bird price until its end.
func (tt TicketType) PriceAt(t time.Time) (int64, bool) {
	if tt.EarlyBirdPrice != nil && tt.EarlyBirdEndsAt != nil && t.Before(*tt.EarlyBirdEndsAt) {
		return *tt.EarlyBirdPrice, true
	}
	return tt.Price, false
}

// Settings are the booking settings of one event: what editors set (SettingsInput,
// whose fields the JSON answer has in their place), and what the room keeps.
type Settings struct {
	UID    string `json:"uid"`
	Exists bool   `json:"exists"`
	SettingsInput
	CancelledAt *time.Time `json:"cancelled_at"`
	Taken       Places     `json:"taken"`
}

// Places counts places per mode.
type Places struct {
	InPerson int `json:"in_person"`
	Online   int `json:"online"`
}

func (p Places) of(mode string) int {
	if mode == ModeOnline {
		return p.Online
	}
	return p.InPerson
}

func (s *Settings) capacity(mode string) int {
	if mode == ModeOnline {
		return s.CapacityOnline
	}
	return s.CapacityInPerson
}

func (s *Settings) ticketType(key string) (TicketType, bool) {
	for _, t := range s.TicketTypes {
		if t.Key == key {
			return t, true
		}
	}
	return TicketType{}, false
}

// Ticket is one place of a booking, for one attendee.
type Ticket struct {
	Type  string `json:"type"`
	Label string `json:"label"`
	Name  string `json:"name"`
	Price int64  `json:"price"`
}

// Joining is what an online booking's holder is told.
type Joining struct {
	Link         string `json:"link"`
	Instructions string `json:"instructions"`
}

// Booking is one booking, as the API answers it.
type Booking struct {
	ID                int64      `json:"-"`
	UserID            *int64     `json:"-"`
	Ref               string     `json:"ref"`
	EventUID          string     `json:"event_uid"`
	EventTitle        string     `json:"event_title"`
	EventStartsAt     *time.Time `json:"event_starts_at"`
	EventEndsAt       *time.Time `json:"event_ends_at"`
	EventLocation     string     `json:"event_location"`
	Status            string     `json:"status"`
	Awaiting          *string    `json:"awaiting"`
	HoldExpiresAt     *time.Time `json:"hold_expires_at"`
	OfferExpiresAt    *time.Time `json:"offer_expires_at"`
	WaitlistPosition  *int       `json:"waitlist_position"`
	CancelReason      *string    `json:"cancel_reason"`
	Mode              string     `json:"mode"`
	Name              string     `json:"name"`
	Email             string     `json:"email"`
	EmailConfirmed    bool       `json:"email_confirmed"`
	Tickets           []Ticket   `json:"tickets"`
	Places            int        `json:"-"`
	Total             int64      `json:"total"`
	Currency          string     `json:"currency"`
	Paid              bool       `json:"paid"`
	PaidMinor         int64      `json:"-"`
	RefundedAmount    int64      `json:"refunded_amount"`
	RefundPending     bool       `json:"refund_pending"`
	CanCancel         bool       `json:"can_cancel"`
	RefundIfCancelled bool       `json:"refund_if_cancelled"`
	Joining           *Joining   `json:"joining"`
	ICSURL            string     `json:"ics_url"`
	CheckoutURL       string     `json:"-"`
	Sequence          int        `json:"-"`
	WaitlistedAt      *time.Time `json:"-"`
	CreatedAt         time.Time  `json:"created_at"`
	UpdatedAt         time.Time  `json:"updated_at"`
	CheckedInAt       *time.Time `json:"checked_in_at"`
}

// Active reports whether a booking with this status (and offer) holds places.
func active(status string, offer *time.Time) bool {
	switch status {
	case StatusHeld, StatusConfirmed, StatusAttended:
		return true
	case StatusWaitlisted:
		return offer != nil
	}
	return false
}

// Viewer is who makes a request, as the auth room knows them (cmd/lineage adapts it).
type Viewer struct {
	ID       int64 // 0: nobody signed in
	Name     string
	Email    string
	Verified bool
	Scope    []string
	Staff    bool // an editor or an admin
}

func (v Viewer) has(scope string) bool {
	for _, s := range v.Scope {
		if s == scope {
			return true
		}
	}
	return false
}
