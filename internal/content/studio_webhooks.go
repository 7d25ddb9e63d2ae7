package content

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// Outgoing webhooks in Prismic's body shape (protocols.md §7), so a site built on hosted
// Prismic's tooling (a static build hook, a cache purge) keeps working: every publish,
// unpublish and release queues one delivery per configured webhook in the same
// transaction as the change; RunReleases sends them. A reply other than 2xx (or no
// reply) is retried every 10 minutes, 5 times, as Prismic does; then the delivery is
// marked failed.

// Webhook is an address told of publishes, and the secret put in each body for the
// receiver to compare.
type Webhook struct {
	URL    string
	Secret string
}

const (
	webhookRetryEvery = 10 * time.Minute
	webhookAttempts   = 6 // the first, then 5 retries
	webhookClaim      = 2 * time.Minute
	webhookBatch      = 50
	maxWebhookErr     = 500
)

// WebhooksFromEnv reads LINEAGE_CONTENT_WEBHOOK_URL (one or several addresses separated
// by spaces or commas) and LINEAGE_CONTENT_WEBHOOK_SECRET.
func WebhooksFromEnv(getenv func(string) string) ([]Webhook, error) {
	var out []Webhook
	for _, u := range strings.FieldsFunc(getenv("LINEAGE_CONTENT_WEBHOOK_URL"), func(r rune) bool { return r == ',' || r == ' ' }) {
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return nil, fmt.Errorf("LINEAGE_CONTENT_WEBHOOK_URL: %q is not an http(s) address", u)
		}
		out = append(out, Webhook{URL: u, Secret: getenv("LINEAGE_CONTENT_WEBHOOK_SECRET")})
	}
	return out, nil
}

// webhookRelease is a release in the body: {id, ref, label, documents}.
type webhookRelease struct {
	ID        string   `json:"id"`
	Ref       string   `json:"ref"`
	Label     string   `json:"label"`
	Documents []string `json:"documents"`
}

// webhookBody is Prismic's api-update body, less the secret (added when sent, so that
// no secret is stored).
func (s *Service) webhookBody(masterRef string, docs []string, rel *Release) ([]byte, error) {
	origin := s.opts.PublicURL
	domain := origin
	if u, err := url.Parse(origin); err == nil && u.Host != "" {
		domain = u.Hostname()
	}
	releases := map[string]any{}
	if rel != nil {
		ids := make([]string, 0, len(rel.Documents))
		for _, d := range rel.Documents {
			ids = append(ids, d.ID)
		}
		releases["deletion"] = []webhookRelease{{ID: rel.ID, Ref: masterRef, Label: rel.Label, Documents: ids}}
	}
	if docs == nil {
		docs = []string{}
	}
	return json.Marshal(map[string]any{
		"type": "api-update", "domain": domain, "apiUrl": origin + "/content/api",
		"masterRef": masterRef, "releases": releases, "masks": map[string]any{}, "tags": map[string]any{},
		"experiments": map[string]any{}, "documents": docs,
	})
}

// queueWebhooks queues one delivery per configured webhook, in the change's transaction.
func (s *Service) queueWebhooks(ctx context.Context, tx *sql.Tx, masterRef string, docs []string, rel *Release, now time.Time) error {
	if len(s.opts.Webhooks) == 0 {
		return nil
	}
	body, err := s.webhookBody(masterRef, docs, rel)
	if err != nil {
		return err
	}
	for _, w := range s.opts.Webhooks {
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO content_webhook_deliveries (url, body, status, attempts, next_at, created_at)
			VALUES (?, ?, 'pending', 0, ?, ?)`), w.URL, string(body), now.UnixMilli(), now.UnixMilli()); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) kickWebhooks() {
	select {
	case s.webhookKick <- struct{}{}:
	default:
	}
}

// DeliverWebhooks sends the deliveries due by now. Each is claimed first (next_at moved
// on by a conditional UPDATE), so two instances never send the same one at once. It
// returns how many were delivered.
func (s *Service) DeliverWebhooks(ctx context.Context, now time.Time) (int, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id, url, body, attempts, next_at FROM content_webhook_deliveries
		WHERE status = 'pending' AND next_at <= ? ORDER BY next_at, id LIMIT `+fmt.Sprint(webhookBatch)), now.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("content: due webhooks: %w", err)
	}
	type due struct {
		id        int64
		url, body string
		attempts  int
		next      int64
	}
	list, err := store.Collect(rows, nil, func(row store.Row) (d due, err error) {
		err = row.Scan(&d.id, &d.url, &d.body, &d.attempts, &d.next)
		return d, err
	})
	if err != nil {
		return 0, err
	}
	client := s.opts.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	delivered := 0
	for _, d := range list {
		res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE content_webhook_deliveries SET next_at = ? WHERE id = ? AND status = 'pending' AND next_at = ?`),
			now.Add(webhookClaim).UnixMilli(), d.id, d.next)
		if err != nil {
			return delivered, err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			continue
		}
		sendErr := s.sendWebhook(ctx, client, d.url, d.body)
		attempts := d.attempts + 1
		switch {
		case sendErr == nil:
			_, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE content_webhook_deliveries SET status = 'delivered', attempts = ?, last_error = '' WHERE id = ?`), attempts, d.id)
			delivered++
		case attempts >= webhookAttempts:
			_, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE content_webhook_deliveries SET status = 'failed', attempts = ?, last_error = ? WHERE id = ?`), attempts, errText(sendErr), d.id)
		default:
			_, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE content_webhook_deliveries SET attempts = ?, next_at = ?, last_error = ? WHERE id = ?`),
				attempts, now.Add(webhookRetryEvery).UnixMilli(), errText(sendErr), d.id)
		}
		if err != nil {
			return delivered, err
		}
	}
	return delivered, nil
}

func errText(err error) string {
	s := err.Error()
	if len(s) > maxWebhookErr {
		s = s[:maxWebhookErr]
	}
	return s
}

// sendWebhook posts one body with the secret of its address.
func (s *Service) sendWebhook(ctx context.Context, client *http.Client, to, body string) error {
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		return err
	}
	m["secret"] = nil
	for _, w := range s.opts.Webhooks {
		if w.URL == to && w.Secret != "" {
			m["secret"] = w.Secret
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, to, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Lineage content webhooks")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("the receiver answered %s", resp.Status)
	}
	return nil
}

// WebhookDelivery is a queued, delivered or failed webhook, as admins see it.
type WebhookDelivery struct {
	ID        int64   `json:"id"`
	URL       string  `json:"url"`
	Status    string  `json:"status"`
	Attempts  int     `json:"attempts"`
	NextAt    *string `json:"next_at"`
	LastError string  `json:"last_error"`
	CreatedAt *string `json:"created_at"`
}

// WebhookStatus lists the configured webhook addresses (not their secrets) and the
// latest deliveries, newest first.
func (s *Service) WebhookStatus(ctx context.Context, limit int) ([]string, []WebhookDelivery, error) {
	urls := []string{}
	for _, w := range s.opts.Webhooks {
		urls = append(urls, w.URL)
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id, url, status, attempts, next_at, last_error, created_at
		FROM content_webhook_deliveries ORDER BY id DESC LIMIT `+fmt.Sprint(limit)))
	if err != nil {
		return nil, nil, fmt.Errorf("content: webhook deliveries: %w", err)
	}
	out, err := store.Collect(rows, nil, func(row store.Row) (d WebhookDelivery, err error) {
		var next, created sql.NullInt64
		if err := row.Scan(&d.ID, &d.URL, &d.Status, &d.Attempts, &next, &d.LastError, &created); err != nil {
			return d, err
		}
		if d.Status == "pending" {
			d.NextAt = msString(next)
		}
		d.CreatedAt = msString(created)
		return d, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return urls, out, nil
}

// GetWebhooks is GET /api/studio/content/webhooks (admins): the configured addresses
// and the latest 100 deliveries.
func (s *Service) GetWebhooks(w http.ResponseWriter, r *http.Request, ed Editor) error {
	urls, list, err := s.WebhookStatus(r.Context(), 100)
	return httpx.Reply(w, http.StatusOK, map[string]any{"urls": urls, "deliveries": list}, err)
}

// TestWebhooks queues Prismic's test-trigger body for every configured address, as
// Prismic's "Trigger it" button does, so an admin can check a receiver. It returns how
// many were queued.
func (s *Service) TestWebhooks(ctx context.Context, ed Editor) (int, error) {
	origin := s.opts.PublicURL
	domain := origin
	if u, err := url.Parse(origin); err == nil && u.Host != "" {
		domain = u.Hostname()
	}
	body, err := json.Marshal(map[string]any{"type": "test-trigger", "domain": domain, "apiUrl": origin + "/content/api"})
	if err != nil {
		return 0, err
	}
	now := s.now()
	for _, w := range s.opts.Webhooks {
		if _, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO content_webhook_deliveries (url, body, status, attempts, next_at, created_at)
			VALUES (?, ?, 'pending', 0, ?, ?)`), w.URL, string(body), now.UnixMilli(), now.UnixMilli()); err != nil {
			return 0, fmt.Errorf("content: test webhooks: %w", err)
		}
	}
	s.kickWebhooks()
	s.audit(ctx, ed, "content.webhooks.test", "content_webhooks", nil, map[string]any{"queued": len(s.opts.Webhooks)})
	return len(s.opts.Webhooks), nil
}

// PostTestWebhooks is POST /api/studio/content/webhooks/test (admins): {"queued": n}.
func (s *Service) PostTestWebhooks(w http.ResponseWriter, r *http.Request, ed Editor) error {
	if len(s.opts.Webhooks) == 0 {
		return &httpx.Error{Code: httpx.ECONFLICT, Message: "No webhook is configured (LINEAGE_CONTENT_WEBHOOK_URL)."}
	}
	n, err := s.TestWebhooks(r.Context(), ed)
	return httpx.Reply(w, http.StatusAccepted, map[string]any{"queued": n}, err)
}
