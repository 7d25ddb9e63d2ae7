// Command newsbench measures an edition's send rate on SQLite: an edition sent to N
// subscribers through the mail outbox to the in-process SMTP server, interleaved with
// a reference run of the outbox alone sending as many messages of the same size.
// Alert matching, which needs cmd/lineage's finders, is BenchmarkAlertMatching there.
// Used by `make bench-newsletter`; not part of the product.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"lineage/internal/mail"
	"lineage/internal/mail/mailtest"
	"lineage/internal/newsletter"
	"lineage/internal/store"
	"lineage/tools/internal/loadavg"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func main() {
	subscribers := flag.Int("subscribers", 10000, "subscribers of the edition")
	rounds := flag.Int("rounds", 2, "interleaved rounds of each measurement and its reference")
	flag.Parse()
	if err := benchEdition(context.Background(), *subscribers, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "newsbench:", err)
		os.Exit(1)
	}
}

// withSMTP runs fn with the project's in-process SMTP server (mailtest) outside a
// test: testing.Benchmark lends it a *testing.B for as long as fn runs. fn runs once
// (a run of over a second is not repeated; the flag guards shorter ones).
func withSMTP(fn func(*mailtest.Server)) {
	done := false
	testing.Benchmark(func(b *testing.B) {
		if done {
			return
		}
		done = true
		fn(mailtest.Start(b, "", ""))
	})
}

func openStore(ctx context.Context) (*store.DB, func(), error) {
	dir, err := os.MkdirTemp("", "newsbench-")
	if err != nil {
		return nil, nil, err
	}
	db, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		return nil, nil, err
	}
	return db, func() { db.Close(); os.RemoveAll(dir) }, nil
}

// bodyDocs is an edition of about the size of a real one: a page of text.
type bodyDocs struct{}

func (bodyDocs) NewsletterDocuments(ctx context.Context) ([]newsletter.DocumentInfo, error) {
	return []newsletter.DocumentInfo{{UID: "bench", Title: "Bench"}}, nil
}

func (bodyDocs) NewsletterDocument(ctx context.Context, uid string) (*newsletter.Document, error) {
	var blocks []any
	for i := range 12 {
		blocks = append(blocks, map[string]any{"type": "heading2", "text": "Section " + strconv.Itoa(i+1), "spans": []any{}},
			map[string]any{"type": "paragraph", "text": strings.Repeat("The society's volunteers transcribed another parish register this month. ", 4), "spans": []any{}})
	}
	return &newsletter.Document{UID: uid, Title: "Bench", Data: map[string]any{
		"body": []any{map[string]any{"primary": map[string]any{"content": blocks}}}}}, nil
}

func (bodyDocs) Section(ctx context.Context, kind string, since, now time.Time) ([]newsletter.Item, error) {
	return nil, nil
}

func benchEdition(ctx context.Context, n, rounds int) error {
	fmt.Printf("## Edition to %d subscribers (SQLite, in-process SMTP)\n\n", n)
	fmt.Println("| round | run | messages | seconds | messages/s | load average |")
	fmt.Println("|---|---|---|---|---|---|")
	var nlTotal, refTotal time.Duration
	for r := 1; r <= rounds; r++ {
		d, err := runFresh(ctx, n, outboxOnly)
		if err != nil {
			return err
		}
		refTotal += d
		fmt.Printf("| %d | reference: outbox alone | %d | %.1f | %.0f | %s |\n", r, n, d.Seconds(), float64(n)/d.Seconds(), loadavg.Read(3))
		d, err = runFresh(ctx, n, edition)
		if err != nil {
			return err
		}
		nlTotal += d
		fmt.Printf("| %d | edition (claim + enqueue + send) | %d | %.1f | %.0f | %s |\n", r, n, d.Seconds(), float64(n)/d.Seconds(), loadavg.Read(3))
	}
	fmt.Printf("\nEdition time / outbox-alone time: **%.2f**\n\n", nlTotal.Seconds()/refTotal.Seconds())
	return nil
}

// sendAll has the outbox deliver everything due.
func sendAll(ctx context.Context, ob *mail.Outbox) error {
	for {
		n, err := ob.DeliverDue(ctx)
		if err != nil || n == 0 {
			return err
		}
	}
}

func newOutbox(db *store.DB, srv *mailtest.Server) *mail.Outbox {
	return mail.NewOutbox(db, &mail.SMTPSender{Host: srv.Host, Port: srv.Port, TLS: mail.TLSNone, From: "no-reply@lineage.test"}, quiet)
}

// runFresh gives one measured run of n messages a store and an outbox of its own,
// sending to the in-process SMTP server, so neither run inherits the other's rows.
func runFresh(ctx context.Context, n int, run func(context.Context, *store.DB, *mail.Outbox, int) (time.Duration, error)) (d time.Duration, err error) {
	withSMTP(func(srv *mailtest.Server) {
		var db *store.DB
		var done func()
		if db, done, err = openStore(ctx); err != nil {
			return
		}
		defer done()
		d, err = run(ctx, db, newOutbox(db, srv), n)
	})
	return d, err
}

func outboxOnly(ctx context.Context, db *store.DB, ob *mail.Outbox, n int) (time.Duration, error) {
	html := "<!doctype html><p>" + strings.Repeat("The society's volunteers transcribed another parish register this month. ", 60) + "</p>"
	text := strings.Repeat("The society's volunteers transcribed another parish register this month.\n", 60)
	start := time.Now()
	for i := 0; i < n; i += 100 {
		err := db.InTx(ctx, func(tx *sql.Tx) error {
			for j := i; j < min(i+100, n); j++ {
				if _, err := ob.EnqueueTx(ctx, tx, mail.Message{To: "member" + strconv.Itoa(j) + "@example.org", Subject: "News", Text: text, HTML: html,
					Headers: []mail.Header{{Name: "List-Unsubscribe", Value: "<https://lineage.test/api/newsletter/one-click?token=1.x&list=news>"}}}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	err := sendAll(ctx, ob)
	return time.Since(start), err
}

func edition(ctx context.Context, db *store.DB, ob *mail.Outbox, n int) (time.Duration, error) {
	svc := newsletter.New(db, newsletter.Options{Outbox: ob, PublicURL: "https://lineage.test", Content: bodyDocs{}, Log: quiet, Rate: 1 << 30})
	// Confirmed subscribers, as a year of sign-ups leaves them.
	err := db.InTx(ctx, func(tx *sql.Tx) error {
		for i := range n {
			if _, err := tx.ExecContext(ctx, `INSERT INTO newsletter_subscribers (id, email, confirmed_at, created_at) VALUES (?, ?, 1, 1)`, i+1, "member"+strconv.Itoa(i)+"@example.org"); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO newsletter_subscriptions (subscriber_id, list_id, status, created_at, updated_at) SELECT ?, id, 'subscribed', 1, 1 FROM newsletter_lists WHERE slug = 'news'`, i+1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	list, docUID, subject := "news", "bench", "News"
	ed, err := svc.SaveEdition(ctx, newsletter.Viewer{}, 0, newsletter.EditionInput{List: &list, Document: &docUID, Subject: &subject})
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if _, err := svc.Send(ctx, ed.ID, time.Time{}); err != nil {
		return 0, err
	}
	for {
		k, more, err := svc.SendDue(ctx, 1000)
		if err != nil {
			return 0, err
		}
		if err := sendAll(ctx, ob); err != nil {
			return 0, err
		}
		if k == 0 && !more {
			break
		}
	}
	d := time.Since(start)
	got, _ := svc.Edition(ctx, ed.ID)
	if got.Counts.Sent != n {
		return 0, fmt.Errorf("edition: %d sent of %d (%+v)", got.Counts.Sent, n, got.Counts)
	}
	return d, nil
}
