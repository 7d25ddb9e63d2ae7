package auth

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Limits on attempts, kept in the database so that every instance sees them.
const (
	loginMaxAttempts = 5           // failed sign-ins per email and address …
	loginDecay       = time.Minute // … per minute (Laravel Breeze's LoginRequest)
	mailDecay        = time.Minute // one verification or reset mail per address per minute
	registerMax      = 10          // accounts registered per client address …
	registerDecay    = time.Hour   // … per hour
)

// hit counts one event against key in a window of decay and returns the new count.
func (s *Service) hit(ctx context.Context, key string, decay time.Duration) (int, error) {
	now := s.now().Unix()
	reset := now + int64(decay/time.Second)
	var hits int
	err := s.sdb.QueryRowContext(ctx, s.sdb.Rebind(
		`INSERT INTO rate_limits (key, hits, reset_at) VALUES (?, 1, ?)
		 ON CONFLICT (key) DO UPDATE SET
		   hits = CASE WHEN rate_limits.reset_at <= ? THEN 1 ELSE rate_limits.hits + 1 END,
		   reset_at = CASE WHEN rate_limits.reset_at <= ? THEN excluded.reset_at ELSE rate_limits.reset_at END
		 RETURNING hits`), key, reset, now, now).Scan(&hits)
	return hits, err
}

// tooMany reports whether key has reached max in its current window, and how long
// until the window ends.
func (s *Service) tooMany(ctx context.Context, key string, max int) (bool, time.Duration, error) {
	var hits int
	var reset int64
	err := s.sdb.QueryRowContext(ctx, s.sdb.Rebind(`SELECT hits, reset_at FROM rate_limits WHERE key = ?`), key).Scan(&hits, &reset)
	if errors.Is(err, sql.ErrNoRows) {
		return false, 0, nil
	}
	if err != nil {
		return false, 0, err
	}
	now := s.now().Unix()
	if reset <= now || hits < max {
		return false, 0, nil
	}
	return true, time.Duration(reset-now) * time.Second, nil
}

func (s *Service) clearHits(ctx context.Context, key string) error {
	_, err := s.sdb.ExecContext(ctx, s.sdb.Rebind(`DELETE FROM rate_limits WHERE key = ?`), key)
	return err
}

func loginKey(email, ip string) string { return "login:" + normalizeEmail(email) + "|" + ip }
