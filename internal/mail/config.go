package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"path/filepath"
	"strconv"

	"lineage/internal/blob"
)

// FromEnv chooses the Sender from LINEAGE_SMTP_* settings (read through getenv):
//
//	LINEAGE_SMTP_HOST      mail server; empty = write mail to <dataDir>/mail and log it
//	LINEAGE_SMTP_PORT      default 587, or 465 with LINEAGE_SMTP_TLS=tls
//	LINEAGE_SMTP_USERNAME  and LINEAGE_SMTP_PASSWORD, when the server wants them
//	LINEAGE_SMTP_TLS       starttls (default), tls, opportunistic or none
//	LINEAGE_SMTP_AUTH      plain, login, cram-md5, scram-sha-256 …; default: the best offered
//	LINEAGE_MAIL_FROM      sender, default "Lineage <no-reply@HOST of the public URL>"
//
// Without a mail server and with LINEAGE_STORAGE_URL set, mail is written to the bucket
// (mail/ under its prefix; blob.Open) rather than to <dataDir>/mail, so that several
// instances keep one spool.
func FromEnv(getenv func(string) string, dataDir, publicURL string, log *slog.Logger) (Sender, error) {
	from := getenv("LINEAGE_MAIL_FROM")
	if from == "" {
		host := "localhost"
		if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" {
			host = u.Hostname()
		}
		from = "Lineage <no-reply@" + host + ">"
	}
	if _, err := mail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("LINEAGE_MAIL_FROM %q is not a mail address: %v", from, err)
	}
	host := getenv("LINEAGE_SMTP_HOST")
	if host == "" {
		d := &DirSender{Dir: filepath.Join(dataDir, "mail"), From: from, Log: log}
		if raw := getenv("LINEAGE_STORAGE_URL"); raw != "" {
			st, err := blob.Open(context.Background(), raw, dataDir, getenv)
			if err != nil {
				return nil, err
			}
			d.Blobs = st
		}
		return d, nil
	}
	s := &SMTPSender{
		Host:     host,
		Username: getenv("LINEAGE_SMTP_USERNAME"),
		Password: getenv("LINEAGE_SMTP_PASSWORD"),
		TLS:      getenv("LINEAGE_SMTP_TLS"),
		Auth:     getenv("LINEAGE_SMTP_AUTH"),
		From:     from,
	}
	switch s.TLS {
	case "":
		s.TLS = TLSStartTLS
	case TLSStartTLS, TLSImplicit, TLSOpportunistic, TLSNone:
	default:
		return nil, fmt.Errorf("LINEAGE_SMTP_TLS must be starttls, tls, opportunistic or none, got %q", s.TLS)
	}
	s.Port = 587
	if s.TLS == TLSImplicit {
		s.Port = 465
	}
	if p := getenv("LINEAGE_SMTP_PORT"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("LINEAGE_SMTP_PORT must be a port number, got %q", p)
		}
		s.Port = n
	}
	return s, nil
}
