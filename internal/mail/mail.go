package mail

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"lineage/internal/textfield"
)

// Message is one plain-text mail to one recipient.
type Message struct {
	ID      int64 // outbox id; set by the outbox, used for the Message-ID and file name
	To      string
	Subject string
	Text    string
}

// ErrBadMessage: a message's recipient or subject is not a single line of text, or
// the recipient is not one bare address. Headers are built from these two fields, so a
// line break in either could add headers (Bcc:) or recipients; such a message is
// refused when enqueued and never retried.
var ErrBadMessage = errors.New("mail: bad message")

// check refuses a message whose headers could carry more than the caller meant.
func (m Message) check() error {
	if !textfield.Valid(m.Subject) {
		return fmt.Errorf("%w: the subject %q is not a single line of text", ErrBadMessage, textfield.Escape(m.Subject))
	}
	a, err := mail.ParseAddress(m.To)
	if !textfield.Valid(m.To) || err != nil || a.Address != m.To {
		return fmt.Errorf("%w: the recipient %q is not one bare address", ErrBadMessage, textfield.Escape(m.To))
	}
	return nil
}

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
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	return msg, nil
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
