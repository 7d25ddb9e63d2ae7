package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/textfield"
)

// Cookie names (docs/auth.md).
const (
	SessionCookie = "lineage_session" // HttpOnly; the session id
	XSRFCookie    = "XSRF-TOKEN"      // readable by scripts; the session's CSRF token
)

// session is one row of the sessions table. id is the hash stored in the table;
// cookie is the value the browser holds, known only when the session was made or
// renewed in this request.
type session struct {
	id         string
	cookie     string
	userID     int64
	csrf       string
	remember   bool
	createdAt  int64
	lastSeenAt int64
	expiresAt  int64
}

// randomToken returns n random bytes as unpadded URL-safe base64: safe in cookies,
// headers and URLs without escaping.
func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("auth: no randomness: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// idleLimit is how long a session may go unused.
func (s *Service) idleLimit(remember bool) time.Duration {
	if remember {
		return s.opt.RememberFor
	}
	return s.opt.SessionIdle
}

// newSession stores a fresh session. csrf "" draws a new CSRF token.
func (s *Service) newSession(ctx context.Context, r *http.Request, userID int64, csrf string, remember bool) (*session, error) {
	if csrf == "" {
		csrf = randomToken(30)
	}
	cookie := randomToken(32)
	now := s.now().Unix()
	life := s.opt.SessionAbsolute
	if remember {
		life = s.opt.RememberFor
	}
	se := &session{id: sha256Hex(cookie), cookie: cookie, userID: userID, csrf: csrf, remember: remember,
		createdAt: now, lastSeenAt: now, expiresAt: now + int64(life/time.Second)}
	var uid any
	if userID != 0 {
		uid = userID
	}
	// The header is the client's to choose: invalid UTF-8, which PostgreSQL refuses,
	// and control characters are escaped, and the cut falls between characters.
	ua := textfield.Escape(r.UserAgent())
	if len(ua) > 300 {
		ua = strings.ToValidUTF8(ua[:300], "")
	}
	_, err := s.sdb.ExecContext(ctx, s.sdb.Rebind(
		`INSERT INTO sessions (id, user_id, csrf_token, remember, created_at, last_seen_at, expires_at, ip, user_agent)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		se.id, uid, se.csrf, se.remember, now, now, se.expiresAt, clientIP(r), ua)
	if err != nil {
		return nil, fmt.Errorf("auth: create session: %w", err)
	}
	return se, nil
}

// loadSession finds the live session for a cookie value, or returns nil. It renews
// last_seen_at at most once a minute, to keep reads cheap.
func (s *Service) loadSession(ctx context.Context, cookie string) (*session, error) {
	if len(cookie) < 20 || len(cookie) > 100 {
		return nil, nil
	}
	se := &session{id: sha256Hex(cookie), cookie: cookie}
	var uid sql.NullInt64
	err := s.sdb.QueryRowContext(ctx, s.sdb.Rebind(
		`SELECT user_id, csrf_token, remember, created_at, last_seen_at, expires_at FROM sessions WHERE id = ?`), se.id).
		Scan(&uid, &se.csrf, &se.remember, &se.createdAt, &se.lastSeenAt, &se.expiresAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("auth: load session: %w", err)
	}
	se.userID = uid.Int64
	now := s.now().Unix()
	if now >= se.expiresAt || now >= se.lastSeenAt+int64(s.idleLimit(se.remember)/time.Second) {
		s.sdb.ExecContext(ctx, s.sdb.Rebind(`DELETE FROM sessions WHERE id = ?`), se.id)
		return nil, nil
	}
	if now-se.lastSeenAt >= 60 {
		if _, err := s.sdb.ExecContext(ctx, s.sdb.Rebind(`UPDATE sessions SET last_seen_at = ? WHERE id = ?`), now, se.id); err != nil {
			return nil, fmt.Errorf("auth: touch session: %w", err)
		}
		se.lastSeenAt = now
	}
	return se, nil
}

func (s *Service) deleteSession(ctx context.Context, id string) error {
	_, err := s.sdb.ExecContext(ctx, s.sdb.Rebind(`DELETE FROM sessions WHERE id = ?`), id)
	return err
}

// cookies returns the session and XSRF-TOKEN cookies for se. Both live as long as the
// session may stay idle; both are SameSite=Lax and Secure behind https.
func (s *Service) cookies(se *session) []*http.Cookie {
	maxAge := int(s.idleLimit(se.remember) / time.Second)
	if left := int(se.expiresAt - s.now().Unix()); left < maxAge {
		maxAge = left
	}
	exp := s.now().Add(time.Duration(maxAge) * time.Second)
	return []*http.Cookie{
		{Name: SessionCookie, Value: se.cookie, Path: "/", MaxAge: maxAge, Expires: exp,
			HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode},
		{Name: XSRFCookie, Value: se.csrf, Path: "/", MaxAge: maxAge, Expires: exp,
			HttpOnly: false, Secure: s.secure, SameSite: http.SameSiteLaxMode},
	}
}

// clientIP is the visitor's address (httpx.ClientIP: X-Forwarded-For only from a
// loopback peer).
func clientIP(r *http.Request) string { return httpx.ClientIP(r) }
