package auth

import (
	"context"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"lineage/internal/jobs"
	"lineage/internal/mail"
	"lineage/internal/store"
)

// Mailer queues a message for delivery; *mail.Outbox is the real one.
type Mailer interface {
	Enqueue(ctx context.Context, m mail.Message) error
}

// Exporter contributes one room's data of a user to "download my data". Exporters are
// called by the auth room, which owns the account, through this interface it declares.
type Exporter interface {
	// ExportUserData returns named parts (for example "bookmarks") of userID's data.
	ExportUserData(ctx context.Context, userID int64) (map[string]any, error)
}

// Options configure a Service. Zero durations take the defaults named beside them.
type Options struct {
	PublicURL string // https:// makes cookies Secure; links in mail start with it
	Mailer    Mailer
	Log       *slog.Logger
	Password  PasswordParams // zero: DefaultPasswordParams

	SessionIdle     time.Duration // 2 h (Laravel's SESSION_LIFETIME of 120 min)
	SessionAbsolute time.Duration // 24 h: a session ends this long after sign-in however active
	RememberFor     time.Duration // 30 d: idle and absolute lifetime with "remember me"
	AccessTokenTTL  time.Duration // 1800 s (seed-spec §9)
	RefreshTokenTTL time.Duration // 30 d
	VerifyLinkTTL   time.Duration // 24 h
	ResetLinkTTL    time.Duration // 60 min (Laravel's default)

	OIDC *OIDCConfig // nil: external sign-in is off

	Now func() time.Time // clock; tests move it
}

// Service is the auth room: its store methods, middleware and HTTP handlers.
type Service struct {
	db        *store.DB
	sdb       *store.DB // sessions, rate_limits, oidc_flows: db.SignIn()
	opt       Options
	log       *slog.Logger
	secure    bool
	exporters []Exporter

	secret store.KeptSecret

	dummyOnce sync.Once
	dummyHash string

	oidc *oidcClient

	scopeSource ScopeSource
}

// New builds the service on an open, migrated store.
func New(db *store.DB, opt Options) *Service {
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.Password == (PasswordParams{}) {
		opt.Password = DefaultPasswordParams
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&opt.SessionIdle, 2*time.Hour)
	def(&opt.SessionAbsolute, 24*time.Hour)
	def(&opt.RememberFor, 30*24*time.Hour)
	def(&opt.AccessTokenTTL, 1800*time.Second)
	def(&opt.RefreshTokenTTL, 30*24*time.Hour)
	def(&opt.VerifyLinkTTL, 24*time.Hour)
	def(&opt.ResetLinkTTL, time.Hour)
	if opt.Now == nil {
		opt.Now = time.Now
	}
	opt.PublicURL = strings.TrimRight(opt.PublicURL, "/")
	s := &Service{db: db, sdb: db.SignIn(), opt: opt, log: opt.Log}
	if u, err := url.Parse(opt.PublicURL); err == nil && u.Scheme == "https" {
		s.secure = true
	}
	if opt.OIDC != nil {
		s.oidc = newOIDCClient(*opt.OIDC, opt.PublicURL)
	}
	return s
}

// AddExporter registers a room's part of "download my data".
func (s *Service) AddExporter(e Exporter) { s.exporters = append(s.exporters, e) }

func (s *Service) now() time.Time { return s.opt.Now() }

// Sweep deletes what has expired: sessions, tokens past their refresh lifetime (after
// a week, so a late refresh still gets the "both expired" answer), used or stale
// links, throttle counters and abandoned external sign-ins.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.now().Unix()
	idle := int64(s.opt.SessionIdle / time.Second)
	remember := int64(s.opt.RememberFor / time.Second)
	stmts := []struct {
		db   *store.DB
		q    string
		args []any
	}{
		{s.sdb, `DELETE FROM sessions WHERE expires_at <= ? OR (remember = ? AND last_seen_at <= ?) OR last_seen_at <= ?`,
			[]any{now, false, now - idle, now - remember}},
		{s.db, `DELETE FROM api_tokens WHERE refresh_expires_at <= ?`, []any{now - 7*24*3600}},
		{s.db, `DELETE FROM auth_links WHERE expires_at <= ? OR used_at IS NOT NULL`, []any{now - 24*3600}},
		{s.sdb, `DELETE FROM rate_limits WHERE reset_at <= ?`, []any{now}},
		{s.sdb, `DELETE FROM oidc_flows WHERE expires_at <= ?`, []any{now}},
	}
	for _, st := range stmts {
		if _, err := st.db.ExecContext(ctx, st.db.Rebind(st.q), st.args...); err != nil {
			return err
		}
	}
	return nil
}

// RunSweeper calls Sweep every interval until ctx ends.
func (s *Service) RunSweeper(ctx context.Context, every time.Duration) {
	jobs.Repeat(ctx, every, nil, func(ctx context.Context) {
		if err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("auth: sweep", "err", err)
		}
	})
}
