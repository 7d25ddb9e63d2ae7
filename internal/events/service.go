package events

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/mail"
	"lineage/internal/store"
)

// Mailer is the mail outbox as the room uses it (mail.Outbox): every mail is stored in
// the transaction of the change it tells about.
type Mailer interface {
	EnqueueTx(ctx context.Context, tx *sql.Tx, m mail.Message) (int64, error)
	Wake()
}

// Payments is the card payment layer as the room uses it (the payments room, adapted
// in cmd/lineage). Nil: card payments are off and paid tickets cannot be booked.
type Payments interface {
	// Checkout starts a Stripe Checkout for booking ref and returns the URL to send
	// the browser to.
	Checkout(ctx context.Context, b *Booking, successURL, cancelURL string) (string, error)
	// Refund refunds amount (minor units) of what was paid for booking ref; a second
	// call for the same booking refunds nothing more.
	Refund(ctx context.Context, ref string, amount int64) error
}

// Options configure a Service.
type Options struct {
	// Viewer tells who is signed in on a request that passed the accounts middleware.
	Viewer func(r *http.Request) Viewer
	// Event reads an event document from the content service; ErrNoEvent when no
	// event document has the uid.
	Event    func(ctx context.Context, uid string) (Event, error)
	Mailer   Mailer
	Payments Payments
	// PublicURL is the site's address, for links in mails and Checkout's return.
	PublicURL   string
	SocietyName string
	// PagesChanged, when set, tells every server that anonymous pages are stale
	// (pagegen): called when the job or a late payment changes places left, which no
	// route's answer does then.
	PagesChanged func(ctx context.Context)
	// Organizer is the address invitations name as their organiser; default
	// events@ the public URL's host.
	Organizer string
	Log       *slog.Logger
}

// ErrNoEvent is what Options.Event returns for a uid that names no event document.
var ErrNoEvent = errors.New("events: no such event")

// Service is the event bookings room.
type Service struct {
	db  *store.DB
	opt Options
	log *slog.Logger
	Now func() time.Time // the clock; tests replace it

	secret store.KeptSecret
	kick   chan struct{}
	dirty  atomic.Bool // places changed outside a route (a late payment): the job raises PagesChanged
}

// New builds the room on an open, migrated store.
func New(db *store.DB, opt Options) *Service {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Viewer == nil { // a room without accounts (tests): nobody is signed in
		opt.Viewer = func(*http.Request) Viewer { return Viewer{} }
	}
	if opt.SocietyName == "" {
		opt.SocietyName = "Lineage"
	}
	opt.PublicURL = strings.TrimRight(opt.PublicURL, "/")
	return &Service{db: db, opt: opt, log: opt.Log, Now: time.Now, kick: make(chan struct{}, 1)}
}

// CardPayments reports whether paid tickets can be booked.
func (s *Service) CardPayments() bool { return s.opt.Payments != nil }

func (s *Service) now() time.Time { return s.Now().UTC().Truncate(time.Second) }

// tx runs fn in a transaction of its own (on SQLite an immediate one, holding the write
// lock from the start). Work inside a caller's transaction (the payments room's,
// through Fulfiller) is given that transaction as an argument instead.
func (s *Service) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	// The links' key is read (or made) first, on the pool: on SQLite a second
	// connection cannot write while the transaction holds the lock.
	if _, err := s.key(ctx, s.db); err != nil {
		return err
	}
	return s.db.InTx(ctx, fn)
}

// The room answers in the API's one error contract (httpx, decision 013).
var errNotFound = &httpx.Error{Code: httpx.ENOTFOUND, Message: "Not Found"}

// event reads the event document, as a 404 when there is none.
func (s *Service) event(ctx context.Context, uid string) (Event, error) {
	if s.opt.Event == nil {
		return Event{}, errNotFound
	}
	ev, err := s.opt.Event(ctx, uid)
	if errors.Is(err, ErrNoEvent) {
		return Event{}, errNotFound
	}
	return ev, err
}

const settingsColumns = `uid, enabled, opens_at, closes_at, capacity_in_person, capacity_online, taken_in_person, taken_online,
	max_per_booking, waitlist, refund_cutoff_hours, ticket_types, online_link, online_instructions, cancelled_at`

func scanSettings(row store.Row) (*Settings, error) {
	st := &Settings{Exists: true}
	var opens, closes, cancelled sql.NullInt64
	var types string
	err := row.Scan(&st.UID, &st.Enabled, &opens, &closes, &st.CapacityInPerson, &st.CapacityOnline, &st.Taken.InPerson,
		&st.Taken.Online, &st.MaxPerBooking, &st.Waitlist, &st.RefundCutoffHours, &types, &st.OnlineLink,
		&st.OnlineInstructions, &cancelled)
	if err != nil {
		return nil, err
	}
	st.OpensAt, st.ClosesAt, st.CancelledAt = store.TimeOrNil(opens), store.TimeOrNil(closes), store.TimeOrNil(cancelled)
	if err := json.Unmarshal([]byte(types), &st.TicketTypes); err != nil {
		return nil, err
	}
	if st.TicketTypes == nil {
		st.TicketTypes = []TicketType{}
	}
	return st, nil
}

// settings reads an event's settings; defaults (Exists false) when it has none.
func (s *Service) settings(ctx context.Context, q store.Querier, uid string, lock bool) (*Settings, error) {
	qs := `SELECT ` + settingsColumns + ` FROM event_settings WHERE uid = ?`
	if lock {
		qs += s.db.ForUpdate()
	}
	st, err := scanSettings(q.QueryRowContext(ctx, s.db.Rebind(qs), uid))
	if errors.Is(err, sql.ErrNoRows) {
		return defaultSettings(uid), nil
	}
	return st, err
}

func defaultSettings(uid string) *Settings {
	return &Settings{UID: uid, SettingsInput: SettingsInput{MaxPerBooking: 4, Waitlist: true, RefundCutoffHours: 48, TicketTypes: []TicketType{}}}
}

// Settings returns an event's booking settings (editors).
func (s *Service) Settings(ctx context.Context, uid string) (*Settings, error) {
	_, st, err := s.eventWithSettings(ctx, uid)
	return st, err
}

// eventWithSettings reads an event document, as a 404 when there is none, and its
// settings as they are (eventAndSettings is the locked read inside a transaction).
func (s *Service) eventWithSettings(ctx context.Context, uid string) (Event, *Settings, error) {
	ev, err := s.event(ctx, uid)
	if err != nil {
		return Event{}, nil, err
	}
	st, err := s.settings(ctx, s.db, uid, false)
	return ev, st, err
}

// history appends a status change of a booking.
func (s *Service) history(ctx context.Context, tx *sql.Tx, id int64, from, to, actor, note string) error {
	_, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO booking_history (booking_id, at, from_status, to_status, actor, note)
		VALUES (?, ?, ?, ?, ?, ?)`), id, s.now().Unix(), from, to, actor, note)
	return err
}

// HistoryRow is one recorded change of a booking's status.
type HistoryRow struct {
	At    time.Time `json:"at"`
	From  string    `json:"from"`
	To    string    `json:"to"`
	Actor string    `json:"actor"`
	Note  string    `json:"note"`
}

// History lists a booking's status changes, oldest first.
func (s *Service) History(ctx context.Context, ref string) ([]HistoryRow, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT h.at, h.from_status, h.to_status, h.actor, h.note
		FROM booking_history h JOIN bookings b ON b.id = h.booking_id WHERE b.ref = ? ORDER BY h.id`), ref)
	return store.Collect(rs, err, func(row store.Row) (HistoryRow, error) {
		var h HistoryRow
		var at int64
		err := row.Scan(&at, &h.From, &h.To, &h.Actor, &h.Note)
		h.At = store.Time(at)
		return h, err
	})
}
