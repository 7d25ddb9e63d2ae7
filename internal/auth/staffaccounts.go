package auth

import (
	"context"
	"errors"
	"strings"
	"time"

	"lineage/internal/store"
)

// What staff do to other people's accounts (internal/staff answers the requests and
// keeps the audit log; the rules about accounts stay here).

// msgDisabled is what a disabled account's sign-in answers.
const msgDisabled = "This account has been disabled. Please ask the society's office."

// ErrMailTooSoon: a mail of the same kind went to the address less than a minute ago.
var ErrMailTooSoon = errors.New("auth: a mail of this kind was sent to the address a moment ago")

// UserQuery filters SearchUsers.
type UserQuery struct {
	Text     string // part of the name or the address, any case
	Role     string // "" any
	Disabled *bool  // nil any
	Offset   int
	Limit    int // 1..200
}

// SearchUsers lists accounts matching q by name then id, and how many match in all.
func (s *Service) SearchUsers(ctx context.Context, q UserQuery) ([]*User, int, error) {
	where := []string{"1 = 1"}
	var args []any
	if t := strings.TrimSpace(q.Text); t != "" {
		like := "%" + escapeLike(strings.ToLower(t)) + "%"
		where = append(where, `(LOWER(name) LIKE ? ESCAPE '\' OR email LIKE ? ESCAPE '\')`)
		args = append(args, like, like)
	}
	if q.Role != "" {
		where = append(where, `role = ?`)
		args = append(args, q.Role)
	}
	if q.Disabled != nil {
		if *q.Disabled {
			where = append(where, `disabled_at IS NOT NULL`)
		} else {
			where = append(where, `disabled_at IS NULL`)
		}
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM users WHERE `+cond), args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	limit := min(max(q.Limit, 1), 200)
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT `+userColumns+` FROM users WHERE `+cond+` ORDER BY LOWER(name), id LIMIT ? OFFSET ?`),
		append(args, limit, max(q.Offset, 0))...)
	out, err := store.Collect(rows, err, scanUser)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// escapeLike makes s match itself in a LIKE pattern with ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// LastSeen is when each account last used a session, for those that have one.
func (s *Service) LastSeen(ctx context.Context, ids []int64) (map[int64]time.Time, error) {
	out := map[int64]time.Time{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.sdb.QueryContext(ctx, s.sdb.Rebind(`SELECT user_id, MAX(last_seen_at) FROM sessions WHERE user_id IN (`+store.Placeholders(len(ids))+`) GROUP BY user_id`), args...)
	return store.CollectMap(rows, err, func(r store.Row) (id int64, at time.Time, err error) {
		var unix int64
		err = r.Scan(&id, &unix)
		return id, store.Time(unix), err
	})
}

// SetDisabled disables or enables an account. Disabling signs it out of every session
// and revokes its API tokens; it cannot sign in again until enabled.
func (s *Service) SetDisabled(ctx context.Context, id int64, disabled bool) error {
	if !disabled {
		return s.updateUser(ctx, `disabled_at = NULL`, id)
	}
	if err := s.updateUser(ctx, `disabled_at = ?`, id, s.now().Unix()); err != nil {
		return err
	}
	return s.endSessions(ctx, id, "")
}

// SendPasswordReset mails the account the link "forgot password" sends, on a staff
// member's request: ErrMailTooSoon when one went less than a minute ago.
func (s *Service) SendPasswordReset(ctx context.Context, u *User) error {
	ok, err := s.mailAllowed(ctx, "reset", u.Email)
	if err != nil {
		return err
	}
	if !ok {
		return ErrMailTooSoon
	}
	token, err := s.newLink(ctx, u.ID, purposeReset, "", s.opt.ResetLinkTTL)
	if err != nil {
		return err
	}
	link := s.opt.PublicURL + ResetPasswordPage + "?token=" + token + "&email=" + urlQueryEscape(u.Email)
	return s.enqueue(ctx, u.Email, "Reset your password", resetText(u.Name, link, s.opt.ResetLinkTTL))
}
