package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// TokenPair is what POST /api/tokens and POST /api/tokens/refresh return. token
// repeats access_token for clients configured the way the spec's auth module is
// (it reads "token" by default).
type TokenPair struct {
	TokenType        string    `json:"token_type"`
	AccessToken      string    `json:"access_token"`
	Token            string    `json:"token"`
	ExpiresIn        int64     `json:"expires_in"`
	ExpiresAt        time.Time `json:"expires_at"`
	RefreshToken     string    `json:"refresh_token"`
	RefreshExpiresIn int64     `json:"refresh_expires_in"`
	RefreshExpiresAt time.Time `json:"refresh_expires_at"`
}

func (s *Service) pair(access, refresh string, now time.Time) *TokenPair {
	return &TokenPair{
		TokenType: "Bearer", AccessToken: access, Token: access,
		ExpiresIn: int64(s.opt.AccessTokenTTL / time.Second), ExpiresAt: now.Add(s.opt.AccessTokenTTL).UTC(),
		RefreshToken: refresh, RefreshExpiresIn: int64(s.opt.RefreshTokenTTL / time.Second),
		RefreshExpiresAt: now.Add(s.opt.RefreshTokenTTL).UTC(),
	}
}

// IssueTokens creates an access and refresh token for a user.
func (s *Service) IssueTokens(ctx context.Context, userID int64, name string) (*TokenPair, error) {
	now := s.now()
	access, refresh := "lat_"+randomToken(32), "lrt_"+randomToken(32)
	_, err := s.db.ExecContext(ctx, s.db.Rebind(
		`INSERT INTO api_tokens (user_id, name, access_hash, refresh_hash, access_expires_at, refresh_expires_at, created_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?)`),
		userID, name, sha256Hex(access), sha256Hex(refresh),
		now.Add(s.opt.AccessTokenTTL).Unix(), now.Add(s.opt.RefreshTokenTTL).Unix(), now.Unix())
	if err != nil {
		return nil, fmt.Errorf("auth: issue token: %w", err)
	}
	return s.pair(access, refresh, now), nil
}

// RefreshTokens replaces the pair that refresh belongs to with a new one: the old
// access and refresh tokens stop working. An expired refresh token is the spec's
// "both expired" case.
func (s *Service) RefreshTokens(ctx context.Context, refresh string) (*TokenPair, error) {
	var id int64
	var refreshExp int64
	err := s.db.QueryRowContext(ctx, s.db.Rebind(
		`SELECT id, refresh_expires_at FROM api_tokens WHERE refresh_hash = ?`), sha256Hex(refresh)).Scan(&id, &refreshExp)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errUnauthenticated()
	}
	if err != nil {
		return nil, err
	}
	now := s.now()
	if now.Unix() >= refreshExp {
		return nil, &httpx.Error{Code: httpx.EUNAUTHORIZED, Message: msgBothExpired}
	}
	access, newRefresh := "lat_"+randomToken(32), "lrt_"+randomToken(32)
	res, err := s.db.ExecContext(ctx, s.db.Rebind(
		`UPDATE api_tokens SET access_hash = ?, refresh_hash = ?, access_expires_at = ?, refresh_expires_at = ?, last_used_at = ?
		 WHERE id = ? AND refresh_hash = ?`),
		sha256Hex(access), sha256Hex(newRefresh), now.Add(s.opt.AccessTokenTTL).Unix(), now.Add(s.opt.RefreshTokenTTL).Unix(),
		now.Unix(), id, sha256Hex(refresh))
	if err != nil {
		return nil, fmt.Errorf("auth: refresh token: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil, errUnauthenticated() // refreshed concurrently: the other request won
	}
	return s.pair(access, newRefresh, now), nil
}

// userByAccessToken returns the user an access token belongs to, with the token id;
// expired reports a known token whose access lifetime is over.
func (s *Service) userByAccessToken(ctx context.Context, access string) (u *User, id int64, expired bool, err error) {
	var userID, exp int64
	var lastUsed sql.NullInt64
	err = s.db.QueryRowContext(ctx, s.db.Rebind(
		`SELECT id, user_id, access_expires_at, last_used_at FROM api_tokens WHERE access_hash = ?`), sha256Hex(access)).
		Scan(&id, &userID, &exp, &lastUsed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	now := s.now().Unix()
	if now >= exp {
		return nil, 0, true, nil
	}
	if !lastUsed.Valid || now-lastUsed.Int64 >= 60 {
		s.db.ExecContext(ctx, s.db.Rebind(`UPDATE api_tokens SET last_used_at = ? WHERE id = ?`), now, id)
	}
	u, err = s.UserByID(ctx, userID)
	if err == ErrNotFound {
		return nil, 0, false, nil
	}
	return u, id, false, err
}

// RevokeToken deletes one token of a user.
func (s *Service) RevokeToken(ctx context.Context, userID, id int64) error {
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM api_tokens WHERE id = ? AND user_id = ?`), id, userID)
	return store.Changed(res, err, ErrNotFound)
}
