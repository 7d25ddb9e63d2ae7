package events

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"time"

	"lineage/internal/store"
)

// Purposes of one-time links.
const (
	purposeConfirm = "confirm"
	purposeOffer   = "offer"
)

func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// key returns the installation's key for the room's links, creating it on first use.
// It lives in the settings table so that every instance shares it. q is the pool, or
// inside a transaction the transaction (a webhook's): on SQLite its connection is the
// one that may write. A key read in a transaction is not kept: if that transaction
// rolls back, a key it made was never stored, and links signed with it would stop
// working once the key is read again.
func (s *Service) key(ctx context.Context, q store.Querier) ([]byte, error) {
	return s.secret.Get(ctx, s.db, q, "events.link_secret")
}

func (s *Service) sign(ctx context.Context, q store.Querier, purpose, value string) (string, error) {
	k, err := s.key(ctx, q)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, k)
	m.Write([]byte(purpose + "\x00" + value))
	return hex.EncodeToString(m.Sum(nil)), nil
}

// AccessKey is the key in a visitor's links to their booking (?key=): a signature of
// the reference, so it needs no row and cannot be guessed.
func (s *Service) AccessKey(ctx context.Context, ref string) (string, error) {
	return s.accessKey(ctx, s.db, ref)
}

// accessKey is AccessKey on q: the pool, or the transaction a mail is written in.
func (s *Service) accessKey(ctx context.Context, q store.Querier, ref string) (string, error) {
	sig, err := s.sign(ctx, q, "access", ref)
	if err != nil {
		return "", err
	}
	return sig[:32], nil
}

func (s *Service) keyOK(ctx context.Context, ref, key string) bool {
	want, err := s.AccessKey(ctx, ref)
	return err == nil && key != "" && hmac.Equal([]byte(want), []byte(key))
}

// newToken stores a one-time link token for a booking and returns it; only its
// signature is kept. Older unused tokens of the purpose stop working.
func (s *Service) newToken(ctx context.Context, tx *sql.Tx, booking int64, purpose string, expires time.Time) (string, error) {
	token := randomToken(32)
	sig, err := s.sign(ctx, tx, purpose, token)
	if err != nil {
		return "", err
	}
	now := s.now().Unix()
	if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE booking_tokens SET used_at = ? WHERE booking_id = ? AND purpose = ?
		AND used_at IS NULL`), now, booking, purpose); err != nil {
		return "", err
	}
	_, err = tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO booking_tokens (token_hash, booking_id, purpose, expires_at) VALUES (?, ?, ?, ?)`),
		sig, booking, purpose, expires.Unix())
	return token, err
}

// tokenState is what a presented token is.
type tokenState int

const (
	tokenInvalid tokenState = iota
	tokenExpired
	tokenUsed
	tokenFresh
)

// useToken marks a token used and returns its booking's reference; a token used
// before, or expired, says so with the reference.
func (s *Service) useToken(ctx context.Context, tx *sql.Tx, purpose, token string) (string, tokenState, error) {
	if token == "" || len(token) > 200 {
		return "", tokenInvalid, nil
	}
	sig, err := s.sign(ctx, tx, purpose, token)
	if err != nil {
		return "", tokenInvalid, err
	}
	var ref string
	var expires int64
	var used sql.NullInt64
	err = tx.QueryRowContext(ctx, s.db.Rebind(`SELECT b.ref, t.expires_at, t.used_at FROM booking_tokens t
		JOIN bookings b ON b.id = t.booking_id WHERE t.token_hash = ? AND t.purpose = ?`+s.db.ForUpdate()), sig, purpose).Scan(&ref, &expires, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return "", tokenInvalid, nil
	}
	if err != nil {
		return "", tokenInvalid, err
	}
	now := s.now()
	switch {
	case used.Valid:
		return ref, tokenUsed, nil
	case !now.Before(store.Time(expires)):
		return ref, tokenExpired, nil
	}
	_, err = tx.ExecContext(ctx, s.db.Rebind(`UPDATE booking_tokens SET used_at = ? WHERE token_hash = ?`), now.Unix(), sig)
	return ref, tokenFresh, err
}
