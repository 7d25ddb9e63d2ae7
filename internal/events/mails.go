package events

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"

	"lineage/internal/mail"
	"lineage/internal/textfield"
)

// Kinds of mail the room sends.
const (
	mailConfirmEmail   = "confirm-email"   // a visitor's link to confirm their address
	mailConfirmed      = "confirmed"       // with a METHOD:REQUEST invitation
	mailWaitlisted     = "waitlisted"      // on the waiting list
	mailOffer          = "offer"           // a place from the waiting list, 48 h to take it
	mailCancelled      = "cancelled"       // with METHOD:CANCEL when there was an invitation
	mailEventCancelled = "event-cancelled" // the whole event, METHOD:CANCEL
	mailChanged        = "changed"         // the event moved: METHOD:REQUEST with SEQUENCE bumped
	mailJoining        = "joining"         // the day before
	mailLateRefund     = "late-refund"     // a payment for a lapsed hold that found no place
)

// ukLocation is where the society's dates are read.
var ukLocation = func() *time.Location {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		panic(err)
	}
	return loc
}()

func ukTime(t time.Time) string {
	if t.IsZero() {
		return "a date to be announced"
	}
	return t.In(ukLocation).Format("Monday 2 January 2006 at 15:04")
}

func money(minor int64) string {
	if minor == 0 {
		return "free"
	}
	return fmt.Sprintf("£%d.%02d", minor/100, minor%100)
}

// host is the public URL's host, the domain of calendar UIDs.
func (s *Service) host() string {
	if u, err := url.Parse(s.opt.PublicURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "lineage.invalid"
}

// CalendarUID is a booking's iCalendar UID: stable for the booking's life, so that each
// update or cancellation replaces the invitation in the attendee's calendar.
func (s *Service) CalendarUID(ref string) string { return strings.ToLower(ref) + "@" + s.host() }

// calendar writes a booking's event as an iCalendar object with method (REQUEST,
// CANCEL, PUBLISH), RFC 5545/5546.
func (s *Service) calendar(b *Booking, ev Event, st *Settings, method ics.Method) string {
	cal := ics.NewCalendarFor(textfield.LineOr(s.opt.SocietyName, 100, "Lineage"))
	cal.SetProductId("-//" + textfield.LineOr(s.opt.SocietyName, 100, "Lineage") + "//Events//EN")
	cal.SetMethod(method)
	e := cal.AddEvent(s.CalendarUID(b.Ref))
	e.SetDtStampTime(s.now())
	e.SetSequence(b.Sequence)
	if !ev.Start.IsZero() {
		e.SetStartAt(ev.Start)
		end := ev.End
		if end.IsZero() || !end.After(ev.Start) {
			end = ev.Start.Add(time.Hour)
		}
		e.SetEndAt(end)
	}
	e.SetSummary(textfield.LineOr(ev.Title, 300, "Event"))
	loc := textfield.LineOr(ev.Location, 300, "")
	if b.Mode == ModeOnline && st.OnlineLink != "" && method != ics.MethodCancel {
		loc = st.OnlineLink
	}
	if loc != "" {
		e.SetLocation(loc)
	}
	e.SetURL(s.opt.PublicURL + "/sog-events/" + b.EventUID)
	desc := "Booking " + b.Ref + ": " + ticketLine(b)
	e.SetDescription(desc)
	e.SetOrganizer("mailto:"+s.organizer(), ics.WithCN(textfield.LineOr(s.opt.SocietyName, 100, "Lineage")))
	role := ics.ParticipationStatusAccepted
	if method == ics.MethodCancel {
		role = ics.ParticipationStatusDeclined
	}
	e.AddAttendee("mailto:"+b.Email, ics.WithCN(textfield.LineOr(b.Name, 200, b.Email)), role, ics.WithRSVP(false))
	if method == ics.MethodCancel {
		e.SetStatus(ics.ObjectStatusCancelled)
	} else {
		e.SetStatus(ics.ObjectStatusConfirmed)
	}
	return cal.Serialize(ics.WithNewLineWindows)
}

// organizer is the address invitations come from.
func (s *Service) organizer() string {
	if s.opt.Organizer != "" {
		return s.opt.Organizer
	}
	return "events@" + s.host()
}

func ticketLine(b *Booking) string {
	n := len(b.Tickets)
	word := "tickets"
	if n == 1 {
		word = "ticket"
	}
	mode := "in person"
	if b.Mode == ModeOnline {
		mode = "online"
	}
	return fmt.Sprintf("%d %s (%s), %s", n, word, mode, money(b.Total))
}

// ICS is a booking's calendar file (METHOD:PUBLISH) for download.
func (s *Service) ICS(ctx context.Context, b *Booking) (string, error) {
	ev, err := s.event(ctx, b.EventUID)
	if err != nil && err != errNotFound {
		return "", err
	}
	st, err := s.settings(ctx, s.db, b.EventUID, false)
	if err != nil {
		return "", err
	}
	method := ics.MethodPublish
	c := s.calendar(b, ev, st, method)
	if b.Status == StatusCancelled || b.Status == StatusRefunded {
		c = strings.Replace(c, "STATUS:CONFIRMED", "STATUS:CANCELLED", 1)
	}
	return c, nil
}

// manageLink is where the booker sees their booking: the account area, or for a
// visitor the booking's page with its access key (read on tx, the mail's transaction).
func (s *Service) manageLink(ctx context.Context, tx *sql.Tx, b *Booking) string {
	if b.UserID != nil {
		return s.opt.PublicURL + "/user-account/bookings"
	}
	key, err := s.accessKey(ctx, tx, b.Ref)
	if err != nil {
		return s.opt.PublicURL + "/sog-events/" + b.EventUID
	}
	return s.opt.PublicURL + "/sog-events/bookings/" + b.Ref + "?key=" + key
}

// mail puts one of the room's mails about b in the outbox, inside tx.
func (s *Service) mail(ctx context.Context, tx *sql.Tx, b *Booking, ev Event, st *Settings, kind, token string) error {
	title := textfield.LineOr(ev.Title, 300, "our event")
	name := textfield.LineOr(b.Name, MaxNameLen, "")
	greeting := "Hello,"
	if name != "" {
		greeting = "Hello " + name + ","
	}
	when := ukTime(ev.Start)
	where := textfield.LineOr(ev.Location, 300, "")
	if b.Mode == ModeOnline {
		where = "online"
	}
	manage := s.manageLink(ctx, tx, b)
	society := textfield.LineOr(s.opt.SocietyName, 200, "Lineage")
	m := mail.Message{To: b.Email}
	var body []string
	switch kind {
	case mailConfirmEmail:
		link := s.opt.PublicURL + "/sog-events/bookings/confirm?token=" + token
		m.Subject = "Confirm your booking for " + title
		what := "to complete your booking " + b.Ref
		if b.Status == StatusWaitlisted {
			what = "to join the waiting list (booking " + b.Ref + ") — the event is fully booked"
		}
		body = []string{greeting, "",
			"Please confirm your email address " + what + " for " + title + " (" + when + "):", "",
			link, "",
			"The link works for one hour. If you did not ask for this booking, ignore this email and nothing will happen."}
	case mailConfirmed:
		m.Subject = "Booking confirmed: " + title + " (" + b.Ref + ")"
		body = []string{greeting, "",
			"Your booking " + b.Ref + " for " + title + " is confirmed.", "",
			"When: " + when, "Where: " + where, "Tickets: " + ticketLine(b)}
		for _, t := range b.Tickets {
			body = append(body, "  - "+textfield.LineOr(t.Name, MaxNameLen, "attendee")+" ("+textfield.LineOr(t.Label, MaxLabelLen, t.Type)+")")
		}
		body = append(body, "", "The invitation attached adds the event to your calendar.",
			"See or cancel your booking: "+manage)
		if b.Mode == ModeOnline {
			body = append(body, "", "We will email the joining details the day before.")
		}
		m.Calendar = &mail.Calendar{Method: string(ics.MethodRequest), Data: s.calendar(b, ev, st, ics.MethodRequest)}
	case mailWaitlisted:
		m.Subject = "On the waiting list: " + title + " (" + b.Ref + ")"
		body = []string{greeting, "",
			title + " (" + when + ") is fully booked, so your booking " + b.Ref + " is on the waiting list.",
			"If a place comes free we will email you, and you will have 48 hours to take it.", "",
			"Leave the waiting list: " + manage}
	case mailOffer:
		link := s.opt.PublicURL + "/sog-events/bookings/offer?token=" + token
		until := ukTime(*b.OfferExpiresAt)
		m.Subject = "A place is free for you: " + title
		body = []string{greeting, "",
			"A place has come free at " + title + " (" + when + ") for your waiting-list booking " + b.Ref + ".",
			"Take it by " + until + ":", "", link, ""}
		if b.Total > 0 {
			body = append(body, "You will be asked to pay "+money(b.Total)+" by card.")
		}
		body = append(body, "After that the place goes to the next person on the list.")
	case mailCancelled:
		m.Subject = "Booking cancelled: " + title + " (" + b.Ref + ")"
		body = []string{greeting, "", "Your booking " + b.Ref + " for " + title + " (" + when + ") is cancelled."}
		if b.Status == StatusRefunded {
			body = append(body, "We are refunding "+money(b.PaidMinor-b.RefundedAmount)+" to your card.")
		}
		if b.CancelReason != nil && *b.CancelReason == ReasonHoldExpired {
			body = append(body, "Payment was not completed in time.")
		}
		m.Calendar = &mail.Calendar{Method: string(ics.MethodCancel), Data: s.calendar(b, ev, st, ics.MethodCancel)}
	case mailEventCancelled:
		m.Subject = "Event cancelled: " + title
		body = []string{greeting, "", "We are sorry: " + title + " (" + when + ") has been cancelled, and your booking " + b.Ref + " with it."}
		if note, err := textfield.MultiLine(st.OnlineInstructions, MaxInstructions); err == nil && note != "" {
			body = append(body, "", note)
		}
		if b.Status == StatusRefunded {
			body = append(body, "", "We are refunding "+money(b.PaidMinor-b.RefundedAmount)+" to your card.")
		}
		m.Calendar = &mail.Calendar{Method: string(ics.MethodCancel), Data: s.calendar(b, ev, st, ics.MethodCancel)}
	case mailChanged:
		m.Subject = "Event moved: " + title + " is now on " + when
		body = []string{greeting, "",
			title + " has moved. It is now on " + when + ".",
			"Your booking " + b.Ref + " stands; the invitation attached updates your calendar.", "",
			"If you can no longer come, cancel your booking: " + manage}
		m.Calendar = &mail.Calendar{Method: string(ics.MethodRequest), Data: s.calendar(b, ev, st, ics.MethodRequest)}
	case mailJoining:
		m.Subject = "Tomorrow: " + title
		body = []string{greeting, "", "A reminder that " + title + " is on " + when + "."}
		if b.Mode == ModeOnline {
			body = append(body, "", "How to join:")
			if st.OnlineLink != "" {
				body = append(body, st.OnlineLink)
			}
			if instr, err := textfield.MultiLine(st.OnlineInstructions, MaxInstructions); err == nil && instr != "" {
				body = append(body, "", instr)
			}
		} else if where != "" {
			body = append(body, "Where: "+where)
		}
		body = append(body, "", "Your booking: "+b.Ref+" — "+manage)
	case mailLateRefund:
		m.Subject = "Payment refunded: " + title + " (" + b.Ref + ")"
		body = []string{greeting, "",
			"Your payment for booking " + b.Ref + " arrived after the places we held for you had been released, and " + title + " is now full.",
			"We are refunding " + money(b.PaidMinor) + " to your card. We are sorry."}
	default:
		return fmt.Errorf("events: unknown mail %q", kind)
	}
	body = append(body, "", society)
	m.Text = strings.Join(body, "\n") + "\n"
	m.Headers = []mail.Header{{Name: "Auto-Submitted", Value: "auto-generated"}}
	_, err := s.opt.Mailer.EnqueueTx(ctx, tx, m)
	return err
}

// mailMessage sends an editor's message to a booker.
func (s *Service) mailMessage(ctx context.Context, tx *sql.Tx, b *Booking, ev Event, st *Settings, subject, text string) error {
	name := textfield.LineOr(b.Name, MaxNameLen, "")
	greeting := "Hello,"
	if name != "" {
		greeting = "Hello " + name + ","
	}
	m := mail.Message{To: b.Email, Subject: subject,
		Text: greeting + "\n\n" + text + "\n\n" + "About your booking " + b.Ref + " for " + textfield.LineOr(ev.Title, 300, "our event") +
			": " + s.manageLink(ctx, tx, b) + "\n\n" + textfield.LineOr(s.opt.SocietyName, 200, "Lineage") + "\n"}
	_, err := s.opt.Mailer.EnqueueTx(ctx, tx, m)
	return err
}
