package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// Purposes of one-time links.
const (
	purposeVerify = "verify-email"
	purposeReset  = "reset-password"
	purposeChange = "change-email"
)

// installationSecret returns the key that signs link tokens, creating it on first use.
// It lives in the settings table so that every instance shares it.
func (s *Service) installationSecret(ctx context.Context) ([]byte, error) {
	return s.secret.Get(ctx, s.db, s.db, "auth.link_secret")
}

// signToken is the value stored for a link token: an HMAC under the installation
// secret, bound to the purpose, so neither a copy of the table nor a token of one
// purpose can be used for another.
func (s *Service) signToken(ctx context.Context, purpose, token string) (string, error) {
	key, err := s.installationSecret(ctx)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(purpose + "\x00" + token))
	return hex.EncodeToString(m.Sum(nil)), nil
}

// newLink stores a one-time link for userID and returns its token. Older unused links
// of the same purpose stop working.
func (s *Service) newLink(ctx context.Context, userID int64, purpose, newEmail string, ttl time.Duration) (string, error) {
	token := randomToken(32)
	sig, err := s.signToken(ctx, purpose, token)
	if err != nil {
		return "", err
	}
	now := s.now()
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(
		`UPDATE auth_links SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL`), now.Unix(), userID, purpose); err != nil {
		return "", err
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(
		`INSERT INTO auth_links (user_id, purpose, token_hash, new_email, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`),
		userID, purpose, sig, newEmail, now.Unix(), now.Add(ttl).Unix())
	if err != nil {
		return "", fmt.Errorf("auth: store link: %w", err)
	}
	return token, nil
}

// link is a consumed one-time link.
type link struct {
	userID   int64
	purpose  string
	newEmail string
}

// errBadLink is the answer to an unknown, used or expired link; which of the three is
// not told.
var errBadLink = errors.New("auth: invalid link")

// useLink consumes the link for token if it has one of purposes and is unused and
// unexpired. Consuming is a conditional UPDATE, so a link works once even when two
// requests race.
func (s *Service) useLink(ctx context.Context, token string, purposes ...string) (*link, error) {
	if token == "" || len(token) > 100 {
		return nil, errBadLink
	}
	now := s.now().Unix()
	for _, p := range purposes {
		sig, err := s.signToken(ctx, p, token)
		if err != nil {
			return nil, err
		}
		var id int64
		l := &link{purpose: p}
		var exp int64
		var used sql.NullInt64
		err = s.db.QueryRowContext(ctx, s.db.Rebind(
			`SELECT id, user_id, new_email, expires_at, used_at FROM auth_links WHERE token_hash = ? AND purpose = ?`), sig, p).
			Scan(&id, &l.userID, &l.newEmail, &exp, &used)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if used.Valid || now >= exp {
			return nil, errBadLink
		}
		res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE auth_links SET used_at = ? WHERE id = ? AND used_at IS NULL`), now, id)
		if err != nil {
			return nil, err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil, errBadLink
		}
		return l, nil
	}
	return nil, errBadLink
}
