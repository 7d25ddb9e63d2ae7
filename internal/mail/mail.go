package mail

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"lineage/internal/textfield"
)

// Message is one mail to one recipient: a plain-text body, and optionally an HTML
// alternative of the same words, a calendar invitation and list headers.
type Message struct {
	ID      int64 // outbox id; set by the outbox, used for the Message-ID and file name
	To      string
	Subject string
	Text    string
	// HTML, when set, is sent as the text/html alternative of Text; mail readers show
	// the one they prefer, so both say the same.
	HTML string
	// Calendar, when set, is an iCalendar object (RFC 5545) sent as a text/calendar
	// alternative with its METHOD (RFC 6047 §2.4), and as an invite.ics attachment for
	// readers that show only attachments.
	Calendar *Calendar
	// Headers are extra header fields, limited to those in allowedHeaders.
	Headers []Header
}

// Calendar is an iCalendar object and the iTIP method its METHOD property names.
type Calendar struct {
	Method string // REQUEST, CANCEL, PUBLISH …
	Data   string // the whole VCALENDAR, CRLF line ends
}

// Header is one extra header field.
type Header struct {
	Name  string
	Value string
}

// allowedHeaders are the extra fields a Message may carry: list mail's (RFC 2369,
// RFC 2919, RFC 8058) and automatic mail's (RFC 3834). Nothing that routes mail (To,
// Cc, Bcc, From, Reply-To) can be added this way.
var allowedHeaders = map[string]bool{
	"List-Unsubscribe":      true,
	"List-Unsubscribe-Post": true,
	"List-Id":               true,
	"List-Archive":          true,
	"Auto-Submitted":        true,
	"Precedence":            true,
}

// ErrBadMessage: a message's recipient or subject is not a single line of text, or
// the recipient is not one bare address. Headers are built from these two fields, so a
// line break in either could add headers (Bcc:) or recipients; such a message is
// refused when enqueued and never retried.
var ErrBadMessage = errors.New("mail: bad message")

// ErrRejected: the mail server refused the message for good (a permanent, 5xx, answer),
// typically because the address does not exist. Such a message is not retried.
var ErrRejected = errors.New("mail: refused by the mail server")

// check refuses a message whose headers could carry more than the caller meant.
func (m Message) check() error {
	if !textfield.Valid(m.Subject) {
		return fmt.Errorf("%w: the subject %q is not a single line of text", ErrBadMessage, textfield.Escape(m.Subject))
	}
	a, err := mail.ParseAddress(m.To)
	if !textfield.Valid(m.To) || err != nil || a.Address != m.To {
		return fmt.Errorf("%w: the recipient %q is not one bare address", ErrBadMessage, textfield.Escape(m.To))
	}
	for _, h := range m.Headers {
		if !allowedHeaders[h.Name] {
			return fmt.Errorf("%w: the header %q is not one a message may add", ErrBadMessage, textfield.Escape(h.Name))
		}
		if !textfield.Valid(h.Value) {
			return fmt.Errorf("%w: the %s header %q is not a single line of text", ErrBadMessage, h.Name, textfield.Escape(h.Value))
		}
	}
	if c := m.Calendar; c != nil {
		if !calendarMethod.MatchString(c.Method) || !strings.HasPrefix(c.Data, "BEGIN:VCALENDAR") {
			return fmt.Errorf("%w: the calendar part is not an iCalendar object with a method", ErrBadMessage)
		}
	}
	return nil
}

var calendarMethod = regexp.MustCompile(`^[A-Z]{3,16}$`)

// Sender delivers one message now. An error means "try again later"; the outbox decides
// how often.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// build turns m into a go-mail message from the given address. Both senders use it, so
// a file in <data>/mail/ is byte for byte what SMTP would have carried.
func build(from string, m Message, now time.Time) (*gomail.Msg, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	msg := gomail.NewMsg(gomail.WithEncoding(gomail.NoEncoding)) // 8bit: links stay readable in .eml files
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("mail: from address %q: %w", from, err)
	}
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("mail: to address %q: %w", m.To, err)
	}
	msg.Subject(m.Subject)
	msg.SetDateWithValue(now)
	if m.ID > 0 {
		msg.SetMessageIDWithValue(fmt.Sprintf("lineage-%d-%d@%s", m.ID, now.Unix(), domainOf(from)))
	} else {
		msg.SetMessageID()
	}
	for _, h := range m.Headers {
		msg.SetGenHeader(gomail.Header(h.Name), h.Value)
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text, partEncoding(m.Text)...)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML, partEncoding(m.HTML)...)
	}
	if c := m.Calendar; c != nil {
		calType := gomail.ContentType("text/calendar; method=" + c.Method)
		msg.AddAlternativeString(calType, c.Data, partEncoding(c.Data)...)
		if err := msg.AttachReader("invite.ics", strings.NewReader(c.Data), gomail.WithFileContentType(calType)); err != nil {
			return nil, fmt.Errorf("mail: attach the invitation: %w", err)
		}
	}
	return msg, nil
}

// maxLine is SMTP's limit on a line, CRLF excluded (RFC 5321 §4.5.3.1.6).
const maxLine = 998

// partEncoding keeps a part 8bit, readable in .eml files, unless a line of it is longer
// than SMTP carries; such a part goes quoted-printable, which folds its lines.
func partEncoding(body string) []gomail.PartOption {
	for line := range strings.Lines(body) {
		if len(strings.TrimRight(line, "\r\n")) > maxLine {
			return []gomail.PartOption{gomail.WithPartEncoding(gomail.EncodingQP)}
		}
	}
	return nil
}

func domainOf(addr string) string {
	if a, err := mail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	if i := strings.LastIndex(addr, "@"); i >= 0 {
		return addr[i+1:]
	}
	return "localhost"
}
