package newsletter

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"lineage/internal/mail"
	"lineage/internal/store"
)

// Viewer is who makes a request, as the newsletter room needs to know: the account's
// id (0 anonymous), its address, whether that address is verified, its scope, and
// whether it may edit editions (staff) and lists (admin).
type Viewer struct {
	ID       int64
	Email    string
	Verified bool
	Scope    []string
	Staff    bool
	Admin    bool
}

func (v Viewer) has(scope string) bool {
	for _, s := range v.Scope {
		if s == scope {
			return true
		}
	}
	return false
}

// Accounts finds an account off the request path (alert digests are written for
// each member's access).
type Accounts interface {
	Account(ctx context.Context, id int64) (Viewer, error)
}

// Options configure the room.
type Options struct {
	Outbox    *mail.Outbox
	PublicURL string // absolute links in mail: https://example.org
	Viewer    func(*http.Request) Viewer
	Accounts  Accounts
	Content   Content  // newsletter documents and the automatic sections; nil: none
	Finders   []Finder // the saved-search kinds alerts can follow
	Log       *slog.Logger
	// Rate is how many edition messages are enqueued per minute (LINEAGE_NEWSLETTER_RATE).
	Rate int
	// Bounces is how many refusals (5xx) suppress an address (LINEAGE_NEWSLETTER_BOUNCES).
	Bounces     int
	SocietyName string
	Now         func() time.Time
	// PagesChanged is told when a scheduled edition starts going out, which puts it in
	// the public archive (the routes that start one say so in the route table).
	PagesChanged func(context.Context) error
}

// Defaults of Options.
const (
	DefaultRate    = 600
	DefaultBounces = 3
)

// Service is the newsletter room.
type Service struct {
	db  *store.DB
	opt Options
	log *slog.Logger

	secret store.KeptSecret
}

// New makes the room on db.
func New(db *store.DB, opt Options) *Service {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Rate <= 0 {
		opt.Rate = DefaultRate
	}
	if opt.Bounces <= 0 {
		opt.Bounces = DefaultBounces
	}
	if opt.SocietyName == "" {
		opt.SocietyName = "Lineage"
	}
	if opt.Viewer == nil {
		opt.Viewer = func(*http.Request) Viewer { return Viewer{} }
	}
	opt.PublicURL = strings.TrimRight(opt.PublicURL, "/")
	return &Service{db: db, opt: opt, log: opt.Log}
}

func (s *Service) now() time.Time { return s.opt.Now() }

// abs makes a site path an absolute URL for mail.
func (s *Service) abs(path string) string { return s.opt.PublicURL + path }

func (s *Service) host() string {
	if u, err := url.Parse(s.opt.PublicURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "localhost"
}

// installationSecret signs the room's tokens. It lives in the settings table so that
// every instance shares it, created on first use.
func (s *Service) installationSecret(ctx context.Context) ([]byte, error) {
	return s.secret.Get(ctx, s.db, s.db, "newsletter.secret")
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *Service) exec(ctx context.Context, q queryer, query string, args ...any) (sql.Result, error) {
	return q.ExecContext(ctx, s.db.Rebind(query), args...)
}

func ts(n int64) *time.Time {
	if n == 0 {
		return nil
	}
	t := time.Unix(n, 0).UTC()
	return &t
}
