package mail_test

import (
	"context"
	"errors"
	"mime"
	"net/mail"
	"strings"
	"testing"

	lmail "lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

// TestEnqueueRefusesHeaderInjection: a recipient or subject that could add headers or
// recipients is refused before anything is stored.
func TestEnqueueRefusesHeaderInjection(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ob := lmail.NewOutbox(db, &lmail.DirSender{Dir: t.TempDir(), From: "no-reply@lineage.test", Log: quiet}, quiet)
		ctx := context.Background()
		for _, m := range []lmail.Message{
			{To: "ada@example.org", Subject: "Hello\r\nBcc: evil@evil.com", Text: "x"},
			{To: "ada@example.org", Subject: "Hello\nBcc: evil@evil.com", Text: "x"},
			{To: "ada@example.org\r\nBcc: evil@evil.com", Subject: "Hello", Text: "x"},
			{To: "ada@example.org, evil@evil.com", Subject: "Hello", Text: "x"},
			{To: "Ada <ada@example.org>", Subject: "Hello", Text: "x"},
			{To: "ada@example.org", Subject: "Hello\x00", Text: "x"},
		} {
			if err := ob.Enqueue(ctx, m); !errors.Is(err, lmail.ErrBadMessage) {
				t.Errorf("Enqueue(%q, %q) = %v, want ErrBadMessage", m.To, m.Subject, err)
			}
		}
		if st, err := ob.List(ctx, 10); err != nil || len(st) != 0 {
			t.Fatalf("outbox holds %d messages (%v), want none", len(st), err)
		}
	})
}

// TestStoredInjectedHeaderNeverSent: a row written before the check existed (or by
// another program) is given up at its first attempt, and nothing reaches the server.
func TestStoredInjectedHeaderNeverSent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, "", "")
		ob := lmail.NewOutbox(db, srv.Sender("no-reply@lineage.test"), quiet)
		ctx := context.Background()
		if _, err := db.ExecContext(ctx, db.Rebind(
			`INSERT INTO mail_outbox (to_addr, subject, body_text, next_attempt_at, created_at) VALUES (?, ?, ?, 0, 0)`),
			"ada@example.org", "Hello\r\nBcc: evil@evil.com", "text"); err != nil {
			t.Fatal(err)
		}
		if sent, err := ob.DeliverDue(ctx); sent != 0 || err != nil {
			t.Fatalf("DeliverDue = %d, %v; want 0, nil", sent, err)
		}
		st, _ := ob.List(ctx, 1)
		if len(st) != 1 || st[0].Status != "failed" || st[0].Attempts != 1 || !strings.Contains(st[0].LastError, "subject") {
			t.Fatalf("status %+v, want failed after one attempt", st)
		}
		if got := srv.Messages(); len(got) != 0 {
			t.Fatalf("server received %d messages: %q", len(got), got[0].Raw)
		}
	})
}

// TestFromDisplayNameEncoded: the configured From may carry a display name with
// non-ASCII letters; it arrives as one From header holding the one address.
func TestFromDisplayNameEncoded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, "", "")
		ob := lmail.NewOutbox(db, srv.Sender(`"Société Généalogique, Kent" <no-reply@lineage.test>`), quiet)
		ctx := context.Background()
		if err := ob.Enqueue(ctx, lmail.Message{To: "ada@example.org", Subject: "Vérifiez", Text: "x"}); err != nil {
			t.Fatal(err)
		}
		if sent, err := ob.DeliverDue(ctx); sent != 1 || err != nil {
			t.Fatalf("DeliverDue = %d, %v", sent, err)
		}
		m, err := mail.ReadMessage(strings.NewReader(srv.Messages()[0].Raw))
		if err != nil {
			t.Fatal(err)
		}
		from, err := m.Header.AddressList("From")
		if err != nil || len(from) != 1 || from[0].Address != "no-reply@lineage.test" || from[0].Name != "Société Généalogique, Kent" {
			t.Fatalf("From %q parses as %v, %v", m.Header.Get("From"), from, err)
		}
		if subj, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject")); subj != "Vérifiez" {
			t.Fatalf("Subject %q decodes as %q", m.Header.Get("Subject"), subj)
		}
	})
}
