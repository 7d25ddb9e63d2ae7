package mail

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"lineage/internal/blob"
)

// DirSender writes each message to Dir as an .eml file and logs it with its text, so
// that the links in it can be followed on an installation without a mail server. It is
// the default; it never fails except on a full or read-only disk. With Blobs set it
// writes mail/<name>.eml there instead (several instances on one bucket keep one
// spool).
type DirSender struct {
	Dir   string
	Blobs blob.Store
	From  string
	Log   *slog.Logger
}

// mailPrefix is where DirSender writes in a store.
const mailPrefix = "mail/"

func (d *DirSender) Send(ctx context.Context, m Message) error {
	now := time.Now().UTC()
	msg, err := build(d.From, m, now)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("%s-%06d.eml", now.Format("20060102T150405Z"), m.ID)
	where, err := d.write(ctx, name, msg)
	if err != nil {
		return err
	}
	log := d.Log
	if log == nil {
		log = slog.Default()
	}
	log.Info("mail written to file (no SMTP server configured)", "to", m.To, "subject", m.Subject, "file", where, "text", m.Text)
	return nil
}

// write stores the message and returns where, for the log.
func (d *DirSender) write(ctx context.Context, name string, msg io.WriterTo) (string, error) {
	if d.Blobs != nil {
		var b bytes.Buffer
		if _, err := msg.WriteTo(&b); err != nil {
			return "", fmt.Errorf("mail: %w", err)
		}
		if _, err := d.Blobs.Put(ctx, mailPrefix+name, &b, blob.PutOptions{ContentType: "message/rfc822"}); err != nil {
			return "", fmt.Errorf("mail: %w", err)
		}
		return d.Blobs.String() + " " + mailPrefix + name, nil
	}
	if err := os.MkdirAll(d.Dir, 0o750); err != nil {
		return "", fmt.Errorf("mail: create %s: %w", d.Dir, err)
	}
	path := filepath.Join(d.Dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return "", fmt.Errorf("mail: %w", err)
	}
	if _, err := msg.WriteTo(f); err != nil {
		f.Close()
		return "", fmt.Errorf("mail: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("mail: write %s: %w", path, err)
	}
	return path, nil
}
