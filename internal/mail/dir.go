package mail

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"
)

// DirSender writes each message to Dir as an .eml file and logs it with its text, so
// that the links in it can be followed on an installation without a mail server. It is
// the default; it never fails except on a full or read-only disk.
type DirSender struct {
	Dir  string
	From string
	Log  *slog.Logger
}

func (d *DirSender) Send(ctx context.Context, m Message) error {
	now := time.Now().UTC()
	msg, err := build(d.From, m, now)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(d.Dir, 0o750); err != nil {
		return fmt.Errorf("mail: create %s: %w", d.Dir, err)
	}
	name := fmt.Sprintf("%s-%06d.eml", now.Format("20060102T150405Z"), m.ID)
	path := filepath.Join(d.Dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	if _, err := msg.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("mail: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("mail: write %s: %w", path, err)
	}
	log := d.Log
	if log == nil {
		log = slog.Default()
	}
	log.Info("mail written to file (no SMTP server configured)", "to", m.To, "subject", m.Subject, "file", path, "text", m.Text)
	return nil
}
