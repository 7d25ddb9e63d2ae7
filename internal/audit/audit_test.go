package audit_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"lineage/internal/audit"
	"lineage/internal/store"
	"lineage/internal/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// clock is a fake clock a test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func addUser(t *testing.T, db *store.DB, name, email string) int64 {
	t.Helper()
	var id int64
	err := db.QueryRowContext(context.Background(), db.Rebind(`INSERT INTO users (email, name, password_hash, role, created_at, updated_at)
		VALUES (?, ?, '', 'admin', 0, 0) RETURNING id`), email, name).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestLogListsAndFilters: every field is kept, entries come newest first, page by
// page, and each filter narrows them; the actor of a deleted account keeps the name
// and address they had, marked deleted.
func TestLogListsAndFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := &clock{t: time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)}
		log := audit.New(db, c.now)
		ann := addUser(t, db, "Ann", "ann@example.org")
		bob := addUser(t, db, "Bob", "bob@example.org")
		add := func(actor int64, name, action, subject string, before, after any) {
			t.Helper()
			if err := log.Add(ctx, audit.Record{Actor: audit.Actor{ID: actor, Name: name, Email: strings.ToLower(name) + "@example.org"},
				Action: action, Subject: subject, Summary: "s " + subject, Before: before, After: after}); err != nil {
				t.Fatal(err)
			}
			c.t = c.t.Add(time.Hour)
		}
		add(ann, "Ann", "user.role", "user:9", map[string]string{"role": "registered"}, map[string]string{"role": "editor"})
		add(bob, "Bob", "tree.publish", "tree:smith", map[string]bool{"published": false}, map[string]bool{"published": true})
		add(ann, "Ann", "user.disable", "user:9", nil, map[string]bool{"disabled": true})
		c.t = time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
		add(ann, "Ann", "records.import", "collection:parish", nil, map[string]int{"added": 3})

		all, next, err := log.List(ctx, audit.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 4 || next != 0 {
			t.Fatalf("got %d entries, next %d", len(all), next)
		}
		if all[0].Action != "records.import" || all[3].Action != "user.role" {
			t.Errorf("order: %s … %s", all[0].Action, all[3].Action)
		}
		first := all[3]
		if first.Actor == nil || first.Actor.Name != "Ann" || first.Subject != "user:9" || first.Summary != "s user:9" ||
			!first.At.Equal(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)) {
			t.Errorf("entry: %+v", first)
		}
		if string(first.Before) != `{"role":"registered"}` || string(first.After) != `{"role":"editor"}` {
			t.Errorf("before/after: %s %s", first.Before, first.After)
		}
		if string(all[1].Before) != "null" {
			t.Errorf("nil before stored as %s", all[1].Before)
		}

		page, next, err := log.List(ctx, audit.Filter{Limit: 3})
		if err != nil || len(page) != 3 || next != page[2].ID {
			t.Fatalf("page 1: %d entries, next %d, %v", len(page), next, err)
		}
		page2, next2, err := log.List(ctx, audit.Filter{Limit: 3, Before: next})
		if err != nil || len(page2) != 1 || next2 != 0 || page2[0].Action != "user.role" {
			t.Fatalf("page 2: %+v next %d %v", page2, next2, err)
		}

		count := func(f audit.Filter) int {
			t.Helper()
			es, _, err := log.List(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			return len(es)
		}
		for name, c := range map[string]struct {
			f    audit.Filter
			want int
		}{
			"actor":         {audit.Filter{ActorID: bob}, 1},
			"action":        {audit.Filter{Action: "user.role"}, 1},
			"action prefix": {audit.Filter{Action: "user."}, 2},
			"prefix no dot": {audit.Filter{Action: "user"}, 0},
			"subject":       {audit.Filter{Subject: "user:9"}, 2},
			"from":          {audit.Filter{From: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)}, 1},
			"to":            {audit.Filter{To: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)}, 1},
			"combined":      {audit.Filter{ActorID: ann, Action: "user."}, 2},
		} {
			if got := count(c.f); got != c.want {
				t.Errorf("%s: %d entries, want %d", name, got, c.want)
			}
		}

		acts, err := log.Actions(ctx)
		if err != nil || strings.Join(acts, ",") != "records.import,tree.publish,user.disable,user.role" {
			t.Errorf("actions %v %v", acts, err)
		}

		if _, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM users WHERE id = ?`), bob); err != nil {
			t.Fatal(err)
		}
		es, _, err := log.List(ctx, audit.Filter{ActorID: bob})
		if err != nil || len(es) != 1 || es[0].Actor == nil || !es[0].Actor.Deleted || es[0].Actor.Name != "Bob" || es[0].ActorID == nil || *es[0].ActorID != bob {
			t.Errorf("deleted actor: %+v %v", es, err)
		}
		if all[0].Actor.Deleted {
			t.Error("a live actor is marked deleted")
		}
		if err := log.Add(ctx, audit.Record{Actor: audit.Actor{Name: "command line"}, Action: "user.add", Subject: "user:1"}); err != nil {
			t.Fatal(err)
		}
		es, _, _ = log.List(ctx, audit.Filter{Action: "user.add"})
		if len(es) != 1 || es[0].ActorID != nil || es[0].Actor == nil || es[0].Actor.Name != "command line" || es[0].Actor.ID != 0 {
			t.Errorf("command line actor: %+v", es)
		}
	})
}

// TestByIDAndTx: ByID (through Hook, content's shape) finds the actor's name; AddTx's
// entry goes with its transaction.
func TestByIDAndTx(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		log := audit.New(db, nil)
		ann := addUser(t, db, "Ann", "ann@example.org")
		log.Hook(slog.Default())(ctx, ann, "content.publish", "document:news-1", nil, map[string]string{"status": "published"})
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := log.AddTx(ctx, tx, audit.Record{Action: "lost", Subject: "x"}); err != nil {
			t.Fatal(err)
		}
		tx.Rollback()
		es, _, err := log.List(ctx, audit.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != 1 || es[0].Actor == nil || es[0].Actor.Email != "ann@example.org" || es[0].Action != "content.publish" {
			t.Errorf("entries: %+v", es)
		}
		if err := log.Add(ctx, audit.Record{}); err == nil {
			t.Error("an entry without an action was written")
		}
		big := strings.Repeat("é", audit.MaxStateBytes)
		if err := log.Add(ctx, audit.Record{Action: "big", Subject: strings.Repeat("s", 2*audit.MaxTextLen), After: big}); err != nil {
			t.Fatal(err)
		}
		es, _, _ = log.List(ctx, audit.Filter{Action: "big"})
		if len(es) != 1 || string(es[0].After) != `{"truncated":true}` || len(es[0].Subject) != audit.MaxTextLen {
			t.Errorf("limits: after %s, subject %d bytes", es[0].After, len(es[0].Subject))
		}
	})
}

// TestWriteCSV: the export has the header, one row per entry, JSON states, and cells a
// spreadsheet would run as formulas made harmless.
func TestWriteCSV(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		log := audit.New(db, func() time.Time { return time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC) })
		ann := addUser(t, db, "=cmd|' /C calc'!A0", "ann@example.org")
		if err := log.Add(ctx, audit.Record{Actor: audit.Actor{ID: ann, Name: "=cmd|' /C calc'!A0", Email: "ann@example.org"},
			Action: "user.role", Subject: "user:2", Before: map[string]string{"role": "registered"}, After: map[string]string{"role": "admin"}}); err != nil {
			t.Fatal(err)
		}
		if err := log.Add(ctx, audit.Record{Action: "tree.publish", Subject: "tree:x"}); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		n, err := log.WriteCSV(ctx, &buf, audit.Filter{Action: "user."})
		if err != nil || n != 1 {
			t.Fatalf("wrote %d, %v", n, err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || strings.Join(rows[0], ",") != strings.Join(audit.CSVHeader, ",") {
			t.Fatalf("rows %q", rows)
		}
		r := rows[1]
		if r[1] != "2026-11-05T12:00:00Z" || r[3] != "'=cmd|' /C calc'!A0" || r[5] != "user.role" {
			t.Errorf("row %q", r)
		}
		var after map[string]string
		if err := json.Unmarshal([]byte(r[9]), &after); err != nil || after["role"] != "admin" {
			t.Errorf("after %q: %v", r[9], err)
		}
	})
}
