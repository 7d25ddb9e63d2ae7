package mail

import (
	"context"
	"fmt"
	"net/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Message is one plain-text mail to one recipient.
type Message struct {
	ID      int64 // outbox id; set by the outbox, used for the Message-ID and file name
	To      string
	Subject string
	Text    string
}

// Sender delivers one message now. An error means "try again later"; the outbox decides
// how often.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// build turns m into a go-mail message from the given address. Both senders use it, so
// a file in <data>/mail/ is byte for byte what SMTP would have carried.
func build(from string, m Message, now time.Time) (*gomail.Msg, error) {
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
