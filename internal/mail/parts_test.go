package mail_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

const invite = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Lineage//test//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:booking-1@lineage.test\r\nDTSTAMP:20261125T120000Z\r\nDTSTART:20261201T190000Z\r\nSUMMARY:Talk\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

// A message with an HTML alternative, a calendar invitation and list headers arrives
// with each part and header intact, after a round trip through the outbox's table.
func TestOutboxSendsEveryPart(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, "", "")
		ob := mail.NewOutbox(db, srv.Sender("no-reply@lineage.test"), quiet)
		ctx := context.Background()
		err := ob.Enqueue(ctx, mail.Message{
			To: "ada@example.org", Subject: "Your booking", Text: "Plain words.\n", HTML: "<p>Plain <b>words</b>.</p>",
			Calendar: &mail.Calendar{Method: "REQUEST", Data: invite},
			Headers: []mail.Header{{Name: "List-Unsubscribe", Value: "<https://lineage.test/u/abc>"},
				{Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if sent, err := ob.DeliverDue(ctx); sent != 1 || err != nil {
			t.Fatalf("DeliverDue = %d, %v", sent, err)
		}
		m := srv.Messages()[0]
		if got := m.Header.Get("List-Unsubscribe"); got != "<https://lineage.test/u/abc>" {
			t.Errorf("List-Unsubscribe %q", got)
		}
		if got := m.Header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
			t.Errorf("List-Unsubscribe-Post %q", got)
		}
		if p := m.Parts["text/plain"]; strings.ReplaceAll(p.Body, "\r\n", "\n") != "Plain words.\n" {
			t.Errorf("text part %q", p.Body)
		}
		if p := m.Parts["text/html"]; p.Body != "<p>Plain <b>words</b>.</p>" {
			t.Errorf("html part %q", p.Body)
		}
		cal, ok := m.Parts["text/calendar"]
		if !ok || strings.ReplaceAll(cal.Body, "\r\n", "\n") != strings.ReplaceAll(invite, "\r\n", "\n") {
			t.Errorf("calendar part %q", cal.Body)
		}
		if ct := cal.Header.Get("Content-Type"); !strings.Contains(ct, "method=REQUEST") {
			t.Errorf("calendar Content-Type %q", ct)
		}
		if !strings.Contains(m.Raw, `filename="invite.ics"`) {
			t.Error("no invite.ics attachment")
		}
	})
}

func TestEnqueueRefusesHeadersAndCalendarsItMayNotCarry(t *testing.T) {
	db := storetest.SQLite(t)
	ob := mail.NewOutbox(db, &mail.DirSender{Dir: t.TempDir(), From: "no-reply@lineage.test", Log: quiet}, quiet)
	for name, m := range map[string]mail.Message{
		"Bcc header":         {Headers: []mail.Header{{Name: "Bcc", Value: "eve@example.org"}}},
		"Reply-To header":    {Headers: []mail.Header{{Name: "Reply-To", Value: "eve@example.org"}}},
		"two-line value":     {Headers: []mail.Header{{Name: "List-Id", Value: "a\r\nBcc: eve@example.org"}}},
		"calendar method":    {Calendar: &mail.Calendar{Method: "REQUEST\r\nX", Data: invite}},
		"calendar no VCAL":   {Calendar: &mail.Calendar{Method: "REQUEST", Data: "hello"}},
		"calendar no method": {Calendar: &mail.Calendar{Data: invite}},
	} {
		m.To, m.Subject, m.Text = "ada@example.org", "x", "x"
		if err := ob.Enqueue(context.Background(), m); !errors.Is(err, mail.ErrBadMessage) {
			t.Errorf("%s: %v, want ErrBadMessage", name, err)
		}
	}
	if st, _ := ob.List(context.Background(), 10); len(st) != 0 {
		t.Errorf("%d messages stored", len(st))
	}
}

// An address the server refuses for good is given up at the first attempt, marked
// rejected and counted; other mail still goes.
func TestRejectedAddressIsGivenUpAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, "", "")
		srv.Reject("gone@example.org")
		ob := mail.NewOutbox(db, srv.Sender("no-reply@lineage.test"), quiet)
		ctx := context.Background()
		ob.Enqueue(ctx, mail.Message{To: "gone@example.org", Subject: "One", Text: "x"})
		ob.Enqueue(ctx, mail.Message{To: "here@example.org", Subject: "Two", Text: "x"})
		if sent, err := ob.DeliverDue(ctx); sent != 1 || err != nil {
			t.Fatalf("DeliverDue = %d, %v", sent, err)
		}
		st, _ := ob.List(ctx, 10)
		byTo := map[string]mail.Status{}
		for _, s := range st {
			byTo[s.To] = s
		}
		if g := byTo["gone@example.org"]; g.Status != "failed" || !g.Rejected || g.Attempts != 1 || !strings.Contains(g.LastError, "550") {
			t.Errorf("refused message: %+v", g)
		}
		if h := byTo["here@example.org"]; h.Status != "sent" || h.Rejected {
			t.Errorf("other message: %+v", h)
		}
		if n, err := ob.Rejections(ctx, "gone@example.org"); n != 1 || err != nil {
			t.Errorf("Rejections = %d, %v", n, err)
		}
		if n, _ := ob.Rejections(ctx, "here@example.org"); n != 0 {
			t.Errorf("Rejections of a delivered address = %d", n)
		}
	})
}

// The mail server going down mid-send loses nothing and sends nothing twice: what
// was sent stays sent, the rest waits for its backoff and goes once the server is back.
func TestServerDownMidSend(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := mailtest.Start(t, "", "")
		ob := mail.NewOutbox(db, &mail.SMTPSender{Host: srv.Host, Port: srv.Port, TLS: mail.TLSNone, From: "no-reply@lineage.test", Timeout: 5 * time.Second}, quiet)
		now := time.Unix(1_800_000_000, 0)
		ob.Now = func() time.Time { return now }
		ob.Backoff = []time.Duration{time.Minute, time.Hour}
		ctx := context.Background()
		for i := range 5 {
			ob.Enqueue(ctx, mail.Message{To: "reader@example.org", Subject: "Part " + string(rune('A'+i)), Text: "x"})
		}
		// Some go, then the worker is stopped mid-run and the server goes down.
		sentBefore := deliverSome(ob, srv, 2)
		srv.Stop()
		if sent, err := ob.DeliverDue(ctx); sent != 0 || err != nil {
			t.Fatalf("with the server down: %d, %v", sent, err)
		}
		srv.Restart(t)
		now = now.Add(time.Minute)
		if sent, err := ob.DeliverDue(ctx); sent != 5-sentBefore || err != nil {
			t.Fatalf("after the restart: %d, %v", sent, err)
		}
		seen := map[string]int{}
		for _, m := range srv.Messages() {
			seen[m.Subject]++
		}
		if len(seen) != 5 {
			t.Errorf("subjects received: %v", seen)
		}
		for s, c := range seen {
			if c != 1 {
				t.Errorf("%s received %d times", s, c)
			}
		}
	})
}

// deliverSome runs the worker until the server has at least n messages, then cancels
// it mid-run, and returns how many the server got.
func deliverSome(ob *mail.Outbox, srv *mailtest.Server, n int) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for len(srv.Messages()) < n {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	ob.DeliverDue(ctx)
	return len(srv.Messages())
}

// A part with a line longer than SMTP carries goes quoted-printable and arrives whole;
// the others stay 8bit.
func TestLongLinesArriveWhole(t *testing.T) {
	db := storetest.SQLite(t)
	srv := mailtest.Start(t, "", "")
	ob := mail.NewOutbox(db, srv.Sender("no-reply@lineage.test"), quiet)
	ctx := context.Background()
	long := "<p>" + strings.Repeat("Parish registers of St Mary’s, ", 200) + "</p>"
	if err := ob.Enqueue(ctx, mail.Message{To: "ada@example.org", Subject: "Long", Text: "Short text.\n", HTML: long}); err != nil {
		t.Fatal(err)
	}
	if sent, err := ob.DeliverDue(ctx); sent != 1 || err != nil {
		st, _ := ob.List(ctx, 1)
		t.Fatalf("DeliverDue = %d, %v (%+v)", sent, err, st)
	}
	m := srv.Messages()[0]
	for _, line := range strings.Split(m.Raw, "\r\n") {
		if len(line) > 998 {
			t.Fatalf("a line of %d bytes went over the wire", len(line))
		}
	}
	if got := m.Parts["text/html"]; got.Body != long || got.Header.Get("Content-Transfer-Encoding") != "quoted-printable" {
		t.Errorf("html part (%s) %.80q…", got.Header.Get("Content-Transfer-Encoding"), got.Body)
	}
	if got := m.Parts["text/plain"]; got.Header.Get("Content-Transfer-Encoding") != "8bit" {
		t.Errorf("text part went %s", got.Header.Get("Content-Transfer-Encoding"))
	}
}
