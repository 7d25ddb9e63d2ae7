package newsletter

import (
	"context"
	"time"

	"lineage/internal/store"
)

// ExportUserData is this room's part of "download my data" (auth.Exporter): the
// account's subscriptions and every consent it gave or withdrew, and its alerts.
func (s *Service) ExportUserData(ctx context.Context, userID int64) (map[string]any, error) {
	type sub struct {
		List      string    `json:"list"`
		Email     string    `json:"email"`
		Status    string    `json:"status"`
		CreatedAt time.Time `json:"created_at"`
		UpdatedAt time.Time `json:"updated_at"`
	}
	type consent struct {
		List      string    `json:"list"`
		Email     string    `json:"email"`
		Action    string    `json:"action"`
		Source    string    `json:"source"`
		Wording   string    `json:"wording"`
		CreatedAt time.Time `json:"created_at"`
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT l.slug, s.email, x.status, x.created_at, x.updated_at FROM newsletter_subscriptions x
		JOIN newsletter_subscribers s ON s.id = x.subscriber_id JOIN newsletter_lists l ON l.id = x.list_id WHERE s.user_id = ? OR s.email = (SELECT email FROM users WHERE id = ?) ORDER BY l.id`), userID, userID)
	subs, err := store.Collect(rows, err, func(row store.Row) (x sub, err error) {
		var c, u int64
		err = row.Scan(&x.List, &x.Email, &x.Status, &c, &u)
		x.CreatedAt, x.UpdatedAt = store.Time(c), store.Time(u)
		return x, err
	})
	if err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, s.db.Rebind(`SELECT l.slug, s.email, c.action, c.source, c.wording, c.created_at FROM newsletter_consents c
		JOIN newsletter_subscribers s ON s.id = c.subscriber_id JOIN newsletter_lists l ON l.id = c.list_id WHERE s.user_id = ? OR s.email = (SELECT email FROM users WHERE id = ?) ORDER BY c.id`), userID, userID)
	consents, err := store.Collect(rows, err, func(row store.Row) (x consent, err error) {
		var c int64
		err = row.Scan(&x.List, &x.Email, &x.Action, &x.Source, &x.Wording, &c)
		x.CreatedAt = store.Time(c)
		return x, err
	})
	if err != nil {
		return nil, err
	}
	alerts, err := s.Alerts(ctx, userID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"newsletter_subscriptions": subs, "newsletter_consents": consents, "alerts": alerts}, nil
}
