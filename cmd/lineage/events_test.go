package main

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/content"
	"lineage/internal/events"
	"lineage/internal/mail"
)

// lineage events run-due sends the joining instructions of an event starting within a
// day once (the second run finds them sent) and delivers them; the event's title, date
// and place come from the published content document.
func TestEventsRunDueCommand(t *testing.T) {
	ctx, data, db := jobData(t)
	cfg := config.Config{DataDir: data, PublicURL: "https://lineage.test"}
	ct := content.New(db, content.Options{PublicURL: cfg.PublicURL, DataDir: data})
	soon := time.Now().UTC().Add(12 * time.Hour).Truncate(time.Second)
	doc, _ := json.Marshal(map[string]any{
		"title": []any{map[string]any{"type": "heading1", "text": "Palaeography clinic", "spans": []any{}}},
		"start": soon.Format("2006-01-02T15:04:05-0700"), "end": soon.Add(time.Hour).Format("2006-01-02T15:04:05-0700"),
		"location": "Lineage House",
	})
	if _, err := ct.Publish(ctx, content.Document{ID: "ev1", UID: "clinic", Type: "event", Lang: "en-gb", Data: doc}); err != nil {
		t.Fatal(err)
	}
	sender, err := mail.FromEnv(os.Getenv, data, cfg.PublicURL, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	outbox := mail.NewOutbox(db, sender, slog.Default())
	ev := newEvents(db, cfg, ct, outbox, nil)
	if _, err := ev.SaveSettings(ctx, "clinic", events.SettingsInput{Enabled: true, CapacityInPerson: 10, MaxPerBooking: 2,
		TicketTypes: []events.TicketType{{Key: "free", Label: "Free"}}}, 0); err != nil {
		t.Fatal(err)
	}
	u, err := auth.New(db, auth.Options{}).CreateUser(ctx, auth.NewUser{Email: "pat@example.org", Name: "Pat", Verified: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := ev.Book(ctx, "clinic", events.BookingInput{Mode: events.ModeInPerson, Tickets: []events.TicketInput{{Type: "free", Name: "Pat"}}},
		events.Viewer{ID: u.ID, Name: "Pat", Email: "pat@example.org", Verified: true})
	if err != nil || b.Status != events.StatusConfirmed || b.EventTitle != "Palaeography clinic" || !b.EventStartsAt.Equal(soon) {
		t.Fatalf("booking: %+v %v", b, err)
	}
	db.Close()

	run := func() (string, error) { return runJob(ctx, data, runEventsRunDue) }
	out, err := run()
	if err != nil || out != "0 booking(s) expired; 0 change notice(s), 1 joining instruction(s) put in the outbox; 0 refund(s) made\n2 mail(s) sent\n" {
		t.Fatalf("run-due: %q %v", out, err)
	}
	if out, err := run(); err != nil || !strings.Contains(out, ", 0 joining instruction(s)") {
		t.Errorf("run-due again: %q %v", out, err)
	}
	eml, _ := filepath.Glob(filepath.Join(data, "mail", "*.eml"))
	if len(eml) != 2 {
		t.Fatalf("mail files %v, want the confirmation and the reminder", eml)
	}
	var all string
	for _, f := range eml {
		b, _ := os.ReadFile(f)
		all += string(b)
	}
	if !strings.Contains(all, "Subject: Tomorrow: Palaeography clinic") || !strings.Contains(all, "Where: Lineage House") {
		t.Errorf("reminder mail:\n%s", all)
	}
}
