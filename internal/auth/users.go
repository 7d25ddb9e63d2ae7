package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"lineage/internal/store"
	"lineage/internal/textfield"
)

// Roles, from least to most trusted. A registered account is a free one: being a
// member is a membership's doing (internal/membership), not a role.
const (
	RoleRegistered = "registered"
	RoleEditor     = "editor"
	RoleAdmin      = "admin"
)

// ScopeMember is the scope of members-only content. Staff hold it by their role;
// everyone else through a membership (the ScopeSource).
const ScopeMember = "member"

// Roles lists the valid roles in order.
var Roles = []string{RoleRegistered, RoleEditor, RoleAdmin}

// User is an account, and the JSON object GET /api/user returns.
type User struct {
	ID              int64      `json:"id"`
	Name            string     `json:"name"`
	Email           string     `json:"email"`
	EmailVerifiedAt *time.Time `json:"email_verified_at"`
	Role            string     `json:"role"`
	// Scope is what the web app's permission checks read (seed-spec §6): "registered"
	// for every account, the scopes of a membership while it grants them (the
	// ScopeSource), and staff's own, e.g. ["registered","member","editor"] for an editor.
	Scope       []string  `json:"scope"`
	HasPassword bool      `json:"has_password"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
	// DisabledAt is when staff disabled the account (nil: it may sign in).
	DisabledAt *time.Time `json:"-"`

	passwordHash string
}

// Verified reports whether the email address has been confirmed.
func (u *User) Verified() bool { return u.EmailVerifiedAt != nil }

// scopeOf is what a role grants by itself (seed-spec §6): every account is
// "registered"; staff also hold "member" and their own role and those below it.
func scopeOf(role string) []string {
	switch role {
	case RoleRegistered:
		return []string{RoleRegistered}
	case RoleEditor:
		return []string{RoleRegistered, ScopeMember, RoleEditor}
	case RoleAdmin:
		return []string{RoleRegistered, ScopeMember, RoleEditor, RoleAdmin}
	}
	return []string{}
}

// ScopeSource returns the scopes a user holds through another room (a membership's
// plan); SetScopeSource installs it.
type ScopeSource func(ctx context.Context, userID int64) ([]string, error)

// SetScopeSource makes every user loaded by id or email carry the source's scopes
// besides their role's. Call it before serving.
func (s *Service) SetScopeSource(f ScopeSource) { s.scopeSource = f }

// addScopes adds the scope source's scopes to u.Scope.
func (s *Service) addScopes(ctx context.Context, u *User, err error) (*User, error) {
	if err != nil || s.scopeSource == nil {
		return u, err
	}
	more, err := s.scopeSource(ctx, u.ID)
	if err != nil {
		return nil, fmt.Errorf("auth: scopes of user %d: %w", u.ID, err)
	}
	for _, sc := range more {
		if !slices.Contains(u.Scope, sc) {
			u.Scope = append(u.Scope, sc)
		}
	}
	return u, nil
}

// ValidRole reports whether r is one of Roles.
func ValidRole(r string) bool {
	for _, x := range Roles {
		if x == r {
			return true
		}
	}
	return false
}

// normalizeEmail lower-cases and trims an address; addresses are compared that way.
func normalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

var ErrNotFound = errors.New("auth: not found")

const userColumns = `id, email, name, password_hash, role, email_verified_at, created_at, updated_at, disabled_at`

func scanUser(row store.Row) (*User, error) {
	var u User
	var verified, disabled sql.NullInt64
	var created, updated int64
	if err := row.Scan(&u.ID, &u.Email, &u.Name, &u.passwordHash, &u.Role, &verified, &created, &updated, &disabled); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	u.EmailVerifiedAt, u.DisabledAt = store.TimeOrNil(verified), store.TimeOrNil(disabled)
	u.CreatedAt, u.UpdatedAt = store.Time(created), store.Time(updated)
	u.Scope = scopeOf(u.Role)
	u.HasPassword = u.passwordHash != ""
	return &u, nil
}

// UserByID returns the user, or ErrNotFound.
func (s *Service) UserByID(ctx context.Context, id int64) (*User, error) {
	u, err := scanUser(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+userColumns+` FROM users WHERE id = ?`), id))
	return s.addScopes(ctx, u, err)
}

// UserByEmail returns the user with this address (any case), or ErrNotFound.
func (s *Service) UserByEmail(ctx context.Context, email string) (*User, error) {
	u, err := scanUser(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+userColumns+` FROM users WHERE email = ?`), normalizeEmail(email)))
	return s.addScopes(ctx, u, err)
}

// ListUsers returns every user by id.
func (s *Service) ListUsers(ctx context.Context) ([]*User, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+userColumns+` FROM users ORDER BY id`)
	return store.Collect(rows, err, scanUser)
}

// NewUser describes an account to create.
type NewUser struct {
	Email    string
	Name     string
	Password string // empty: no password (external sign-in only)
	Role     string // empty: registered
	Verified bool   // the address is known to work (created by an operator or a trusted provider)
}

// ErrEmailTaken is returned when another account has the address.
var ErrEmailTaken = errors.New("auth: email already taken")

// CreateUser adds an account. Callers validate input for users; this checks only what
// the database must never hold.
func (s *Service) CreateUser(ctx context.Context, nu NewUser) (*User, error) {
	email := normalizeEmail(nu.Email)
	if !textfield.Email(email) {
		return nil, fmt.Errorf("auth: %q is not a valid email address", nu.Email)
	}
	name, err := textfield.SingleLine(nu.Name, MaxNameLen)
	if err != nil {
		return nil, fmt.Errorf("auth: the name %q must be one line of at most %d characters without control characters", textfield.Escape(nu.Name), MaxNameLen)
	}
	role := nu.Role
	if role == "" {
		role = RoleRegistered
	}
	if !ValidRole(role) {
		return nil, fmt.Errorf("auth: unknown role %q (want one of %s)", role, strings.Join(Roles, ", "))
	}
	hash := ""
	if nu.Password != "" {
		var err error
		if hash, err = HashPassword(nu.Password, s.opt.Password); err != nil {
			return nil, err
		}
	}
	now := s.now().Unix()
	var verified any
	if nu.Verified {
		verified = now
	}
	var id int64
	err = s.db.QueryRowContext(ctx, s.db.Rebind(
		`INSERT INTO users (email, name, password_hash, role, email_verified_at, created_at, updated_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		email, name, hash, role, verified, now, now).Scan(&id)
	if err != nil {
		if store.IsUniqueViolation(err) {
			return nil, ErrEmailTaken
		}
		return nil, fmt.Errorf("auth: create user: %w", err)
	}
	return s.UserByID(ctx, id)
}

// SetRole changes a user's role.
func (s *Service) SetRole(ctx context.Context, id int64, role string) error {
	if !ValidRole(role) {
		return fmt.Errorf("auth: unknown role %q (want one of %s)", role, strings.Join(Roles, ", "))
	}
	return s.updateUser(ctx, `role = ?`, id, role)
}

// SetPassword replaces a user's password and signs them out everywhere else: every
// session but keep (a session id hash, or "") and every API token end.
func (s *Service) SetPassword(ctx context.Context, id int64, password, keepSession string) error {
	hash, err := HashPassword(password, s.opt.Password)
	if err != nil {
		return err
	}
	if err := s.updateUser(ctx, `password_hash = ?`, id, hash); err != nil {
		return err
	}
	return s.endSessions(ctx, id, keepSession)
}

// DeleteUser removes an account and, through the schema's cascades, everything it owns.
// Its sessions go first, in code: on SQLite they are in another file (store.DB.SignIn),
// which no cascade reaches. Should the account's deletion then fail, it is only signed
// out.
func (s *Service) DeleteUser(ctx context.Context, id int64) error {
	if _, err := s.sdb.ExecContext(ctx, s.sdb.Rebind(`DELETE FROM sessions WHERE user_id = ?`), id); err != nil {
		return fmt.Errorf("auth: delete user's sessions: %w", err)
	}
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM users WHERE id = ?`), id)
	if err != nil {
		return fmt.Errorf("auth: delete user: %w", err)
	}
	return store.Changed(res, nil, ErrNotFound)
}

func (s *Service) updateUser(ctx context.Context, set string, id int64, args ...any) error {
	args = append(args, s.now().Unix(), id)
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE users SET `+set+`, updated_at = ? WHERE id = ?`), args...)
	if err != nil {
		if store.IsUniqueViolation(err) {
			return ErrEmailTaken
		}
		return fmt.Errorf("auth: update user: %w", err)
	}
	return store.Changed(res, nil, ErrNotFound)
}

// endSessions signs a user out of every session except keep, and revokes their tokens.
func (s *Service) endSessions(ctx context.Context, userID int64, keep string) error {
	if _, err := s.sdb.ExecContext(ctx, s.sdb.Rebind(`DELETE FROM sessions WHERE user_id = ? AND id <> ?`), userID, keep); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM api_tokens WHERE user_id = ?`), userID)
	return err
}

// verifyPassword checks a password against a user (or a dummy hash when u is nil, so
// that unknown addresses take as long as known ones), and upgrades an old hash.
func (s *Service) verifyPassword(ctx context.Context, u *User, password string) bool {
	if u == nil || u.passwordHash == "" {
		s.dummyOnce.Do(func() { s.dummyHash, _ = HashPassword("not a password", s.opt.Password) })
		CheckPassword(password, s.dummyHash)
		return false
	}
	if !CheckPassword(password, u.passwordHash) {
		return false
	}
	if needsRehash(u.passwordHash, s.opt.Password) {
		if h, err := HashPassword(password, s.opt.Password); err == nil {
			s.db.ExecContext(ctx, s.db.Rebind(`UPDATE users SET password_hash = ? WHERE id = ?`), h, u.ID)
		}
	}
	return true
}
