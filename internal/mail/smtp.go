package mail

import (
	"context"
	"errors"
	"fmt"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// TLS modes of an SMTP connection.
const (
	TLSStartTLS      = "starttls"      // STARTTLS required (port 587)
	TLSImplicit      = "tls"           // TLS from the first byte (port 465)
	TLSOpportunistic = "opportunistic" // STARTTLS when offered, plain otherwise
	TLSNone          = "none"          // plain text: only for a relay on the same host or in tests
)

// SMTPSender delivers through one SMTP server (a relay or a provider's submission
// port), opening a connection per message: the site sends a few mails an hour, not a
// stream.
type SMTPSender struct {
	Host     string
	Port     int
	Username string // empty: no authentication
	Password string
	TLS      string // one of the TLS* modes; empty means TLSStartTLS
	Auth     string // SMTP AUTH mechanism (plain, login, cram-md5, scram-sha-256 …); empty: the best the server offers over TLS
	From     string
	Timeout  time.Duration // per message; default 30 s
}

func (s *SMTPSender) Send(ctx context.Context, m Message) error {
	msg, err := build(s.From, m, time.Now().UTC())
	if err != nil {
		return err
	}
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	opts := []gomail.Option{gomail.WithPort(s.Port), gomail.WithTimeout(timeout)}
	switch s.TLS {
	case TLSImplicit:
		opts = append(opts, gomail.WithSSL())
	case TLSOpportunistic:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case TLSStartTLS, "":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	default:
		return fmt.Errorf("mail: unknown TLS mode %q", s.TLS)
	}
	if s.Username != "" {
		mech := gomail.SMTPAuthAutoDiscover
		if s.Auth != "" {
			if err := mech.UnmarshalString(s.Auth); err != nil {
				return fmt.Errorf("mail: SMTP auth mechanism %q: %w", s.Auth, err)
			}
		}
		opts = append(opts, gomail.WithSMTPAuth(mech),
			gomail.WithUsername(s.Username), gomail.WithPassword(s.Password))
	}
	c, err := gomail.NewClient(s.Host, opts...)
	if err != nil {
		return fmt.Errorf("mail: smtp client: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		var se *gomail.SendError
		if errors.As(err, &se) && se.ErrorCode() >= 500 && se.ErrorCode() < 600 {
			// A 5xx answer is the server's final word on this message (RFC 5321 §4.2.1).
			return fmt.Errorf("mail: send to %s via %s:%d: %w: %w", m.To, s.Host, s.Port, ErrRejected, err)
		}
		return fmt.Errorf("mail: send to %s via %s:%d: %w", m.To, s.Host, s.Port, err)
	}
	return nil
}
