package membership

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// MarketingWording is the consent a person gives to the society's news by email, word
// for word as the join form and the account page show it; each consent row keeps the
// words of its day.
const MarketingWording = "Email me news of the society’s events, publications and appeals (you can stop these at any time)"

// maxConsentSource bounds the page path kept with a consent.
const maxConsentSource = 200

// MarketingConsent is one answer of an account to MarketingWording: given or withdrawn,
// when, the words shown and the page it was given on. The newest is the account's
// answer; the older ones stay as the record of what it agreed to when.
type MarketingConsent struct {
	Given   bool      `json:"given"`
	At      time.Time `json:"at"`
	Wording string    `json:"wording"`
	Source  string    `json:"source"`
}

// SetMarketingConsent records userID's answer, from the page source (a path on this
// site). Consent is kept apart from any membership: it may be given with none.
func (s *Service) SetMarketingConsent(ctx context.Context, userID int64, given bool, source string) (*MarketingConsent, error) {
	source = strings.TrimSpace(source)
	if !strings.HasPrefix(source, "/") || strings.HasPrefix(source, "//") || len(source) > maxConsentSource ||
		strings.ContainsFunc(source, func(r rune) bool { return r < ' ' || r == '\\' }) {
		return nil, invalid("source", "The source must be a path on this site, starting with one /, of at most %d characters.", maxConsentSource)
	}
	c := &MarketingConsent{Given: given, At: s.Now().UTC().Truncate(time.Second), Wording: MarketingWording, Source: source}
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO marketing_consents (user_id, given, at, wording, source)
		VALUES (?, ?, ?, ?, ?)`), userID, given, c.At.Unix(), c.Wording, c.Source)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// MarketingConsents returns userID's answers, newest first.
func (s *Service) MarketingConsents(ctx context.Context, userID int64) ([]*MarketingConsent, error) {
	rs, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT given, at, wording, source FROM marketing_consents
		WHERE user_id = ? ORDER BY at DESC, id DESC`), userID)
	return store.Collect(rs, err, scanConsent)
}

// MarketingConsentOf returns userID's newest answer, or nil when it never gave one.
func (s *Service) MarketingConsentOf(ctx context.Context, userID int64) (*MarketingConsent, error) {
	c, err := scanConsent(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT given, at, wording, source FROM marketing_consents
		WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT 1`), userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return c, err
}

func scanConsent(row store.Row) (*MarketingConsent, error) {
	var c MarketingConsent
	var at int64
	if err := row.Scan(&c.Given, &at, &c.Wording, &c.Source); err != nil {
		return nil, err
	}
	c.At = store.Time(at)
	return &c, nil
}

// postMarketingConsent is POST /api/membership/marketing-consent {"given", "source"?}.
func (s *Service) PostMarketingConsent(w http.ResponseWriter, r *http.Request, v Viewer) error {
	var in struct {
		Given  *bool  `json:"given"`
		Source string `json:"source"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Given == nil {
		return invalid("given", "Say whether you give consent: true or false.")
	}
	if in.Source == "" {
		in.Source = "/user-account/membership"
	}
	c, err := s.SetMarketingConsent(r.Context(), v.ID, *in.Given, in.Source)
	return httpx.Reply(w, http.StatusOK, map[string]any{"marketing_consent": c}, err)
}

// ConsentExporter is the marketing-consent part of "download my data" (the auth
// room's Exporter): every answer with its words, date and page.
type ConsentExporter struct{ Service *Service }

// ExportUserData implements auth.Exporter.
func (x ConsentExporter) ExportUserData(ctx context.Context, userID int64) (map[string]any, error) {
	return exportPart(ctx, userID, "marketing_consents", x.Service.MarketingConsents)
}

// exportPart is a part of "download my data" that is one list: what list reads for
// userID, under name.
func exportPart[T any](ctx context.Context, userID int64, name string, list func(context.Context, int64) ([]T, error)) (map[string]any, error) {
	l, err := list(ctx, userID)
	if err != nil {
		return nil, err
	}
	return map[string]any{name: l}, nil
}
