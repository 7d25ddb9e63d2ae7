package mail_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestOutboxDeliversOverSMTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, "lineage", "s3cret")
		sender := &mail.SMTPSender{Host: srv.Host, Port: srv.Port, Username: "lineage", Password: "s3cret",
			TLS: mail.TLSNone, Auth: "plain", From: "Lineage <no-reply@lineage.test>"}
		ob := mail.NewOutbox(db, sender, quiet)
		ctx := context.Background()
		if err := ob.Enqueue(ctx, mail.Message{To: "ada@example.org", Subject: "Verify your email address",
			Text: "Follow this link: https://lineage.test/verify-email?token=abc\n"}); err != nil {
			t.Fatal(err)
		}
		sent, err := ob.DeliverDue(ctx)
		if err != nil || sent != 1 {
			st, _ := ob.List(ctx, 1)
			t.Fatalf("DeliverDue = %d, %v; want 1, nil (%+v)", sent, err, st)
		}
		got := srv.Messages()
		if len(got) != 1 {
			t.Fatalf("server got %d messages", len(got))
		}
		m := got[0]
		if m.From != "no-reply@lineage.test" || len(m.To) != 1 || m.To[0] != "ada@example.org" {
			t.Errorf("envelope from %q to %v", m.From, m.To)
		}
		if m.Subject != "Verify your email address" || !strings.Contains(m.Body, "https://lineage.test/verify-email?token=abc") {
			t.Errorf("subject %q body %q", m.Subject, m.Body)
		}
		st, _ := ob.List(ctx, 10)
		if st[0].Status != "sent" || st[0].Attempts != 1 {
			t.Errorf("status %+v", st[0])
		}
		// Nothing is sent twice.
		if sent, _ := ob.DeliverDue(ctx); sent != 0 {
			t.Errorf("second DeliverDue sent %d", sent)
		}
	})
}

func TestOutboxRetriesThenGivesUp(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, "", "")
		sender := srv.Sender("no-reply@lineage.test")
		ob := mail.NewOutbox(db, sender, quiet)
		now := time.Unix(1_800_000_000, 0)
		ob.Now = func() time.Time { return now }
		ob.Backoff = []time.Duration{time.Minute, time.Hour}
		ctx := context.Background()
		ob.Enqueue(ctx, mail.Message{To: "bob@example.org", Subject: "One", Text: "one"})

		srv.FailNext(2)
		if sent, err := ob.DeliverDue(ctx); sent != 0 || err != nil {
			t.Fatalf("first attempt: %d, %v", sent, err)
		}
		st, _ := ob.List(ctx, 1)
		if st[0].Status != "pending" || st[0].Attempts != 1 || !strings.Contains(st[0].LastError, "451") {
			t.Fatalf("after a temporary failure: %+v", st[0])
		}
		// Not due again before the backoff has passed.
		if sent, _ := ob.DeliverDue(ctx); sent != 0 {
			t.Fatal("retried before the backoff")
		}
		now = now.Add(time.Minute)
		ob.DeliverDue(ctx) // second failure
		now = now.Add(time.Hour)
		if sent, _ := ob.DeliverDue(ctx); sent != 1 {
			t.Fatal("third attempt should succeed")
		}
		if len(srv.Messages()) != 1 {
			t.Fatalf("server has %d messages", len(srv.Messages()))
		}

		// A message that never gets through is given up after len(Backoff)+1 attempts.
		ob.Enqueue(ctx, mail.Message{To: "carol@example.org", Subject: "Two", Text: "two"})
		srv.FailNext(100)
		for i := 0; i < 5; i++ {
			ob.DeliverDue(ctx)
			now = now.Add(2 * time.Hour)
		}
		st, _ = ob.List(ctx, 1)
		if st[0].Status != "failed" || st[0].Attempts != 3 {
			t.Fatalf("after repeated failures: %+v", st[0])
		}
	})
}

func TestOutboxUnreachableServer(t *testing.T) {
	db := storetest.SQLite(t)
	sender := &mail.SMTPSender{Host: "127.0.0.1", Port: 1, TLS: mail.TLSNone, From: "no-reply@lineage.test", Timeout: 2 * time.Second}
	ob := mail.NewOutbox(db, sender, quiet)
	ob.Enqueue(context.Background(), mail.Message{To: "dan@example.org", Subject: "x", Text: "x"})
	if _, err := ob.DeliverDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	st, _ := ob.List(context.Background(), 1)
	if st[0].Status != "pending" || st[0].LastError == "" {
		t.Fatalf("%+v", st[0])
	}
}

func TestRunWakesOnEnqueue(t *testing.T) {
	db := storetest.SQLite(t)
	srv := mailtest.Start(t, "", "")
	ob := mail.NewOutbox(db, srv.Sender("no-reply@lineage.test"), quiet)
	ob.Poll = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ob.Run(ctx)
	ob.Enqueue(ctx, mail.Message{To: "eve@example.org", Subject: "Hello", Text: "hello"})
	srv.Wait(t, 1, 10*time.Second)
}

func TestDirSenderIsTheDefault(t *testing.T) {
	dir := t.TempDir()
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	sender, err := mail.FromEnv(func(string) string { return "" }, dir, "https://lineage.example.org", log)
	if err != nil {
		t.Fatal(err)
	}
	db := storetest.SQLite(t)
	ob := mail.NewOutbox(db, sender, log)
	ob.Enqueue(context.Background(), mail.Message{To: "fay@example.org", Subject: "Reset your password",
		Text: "https://lineage.example.org/reset-password?token=xyz"})
	if sent, err := ob.DeliverDue(context.Background()); sent != 1 || err != nil {
		t.Fatalf("%d %v", sent, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "mail", "*.eml"))
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	b, _ := os.ReadFile(files[0])
	for _, want := range []string{"To: <fay@example.org>", "From: \"Lineage\" <no-reply@lineage.example.org>", "Subject: Reset your password", "reset-password?token=xyz"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("file lacks %q:\n%s", want, b)
		}
	}
	if !strings.Contains(logged.String(), "reset-password?token=xyz") {
		t.Errorf("log lacks the link: %s", logged.String())
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{"LINEAGE_SMTP_HOST": "smtp.example.org", "LINEAGE_SMTP_TLS": "tls", "LINEAGE_MAIL_FROM": "Society <office@example.org>"}
	s, err := mail.FromEnv(func(k string) string { return env[k] }, "data", "http://localhost:8080", quiet)
	if err != nil {
		t.Fatal(err)
	}
	smtp, ok := s.(*mail.SMTPSender)
	if !ok || smtp.Port != 465 || smtp.Host != "smtp.example.org" || smtp.From != "Society <office@example.org>" {
		t.Fatalf("%#v", s)
	}
	env["LINEAGE_SMTP_TLS"] = "maybe"
	if _, err := mail.FromEnv(func(k string) string { return env[k] }, "data", "http://localhost:8080", quiet); err == nil {
		t.Error("unknown TLS mode accepted")
	}
	env["LINEAGE_SMTP_TLS"], env["LINEAGE_SMTP_PORT"] = "", "x"
	if _, err := mail.FromEnv(func(k string) string { return env[k] }, "data", "http://localhost:8080", quiet); err == nil {
		t.Error("bad port accepted")
	}
}

// EnqueueTx's message exists only if the caller's transaction commits: a rolled-back
// one leaves nothing to send, a committed one is delivered.
func TestEnqueueTxFollowsTheTransaction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, "", "")
		ob := mail.NewOutbox(db, srv.Sender("no-reply@lineage.test"), quiet)
		ctx := context.Background()
		for _, commit := range []bool{false, true} {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ob.EnqueueTx(ctx, tx, mail.Message{To: "eve@example.org", Subject: fmt.Sprintf("commit %v", commit), Text: "hello"}); err != nil {
				t.Fatal(err)
			}
			if commit {
				err = tx.Commit()
			} else {
				err = tx.Rollback()
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if _, err := ob.EnqueueTx(ctx, nil, mail.Message{To: "a@b.example\nBcc: x@y.example", Subject: "x", Text: "x"}); !errors.Is(err, mail.ErrBadMessage) {
			t.Errorf("a bad recipient: %v, want ErrBadMessage", err)
		}
		if sent, err := ob.DeliverDue(ctx); sent != 1 || err != nil {
			t.Fatalf("DeliverDue = %d, %v; want 1", sent, err)
		}
		if got := srv.Messages(); len(got) != 1 || got[0].Subject != "commit true" {
			t.Errorf("delivered %+v", got)
		}
	})
}
