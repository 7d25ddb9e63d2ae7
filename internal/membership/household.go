package membership

import (
	"context"
	"database/sql"
	"errors"
	"net/mail"
	"strings"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// MaxHouseholdNameLen bounds a household member's name.
const MaxHouseholdNameLen = 100

func (s *Service) household(ctx context.Context, q store.Querier, id int64) ([]HouseholdMember, error) {
	rs, err := q.QueryContext(ctx, s.db.Rebind(`SELECT h.user_id, COALESCE(u.name, h.name), COALESCE(u.email, h.email),
		(SELECT x.id FROM users x WHERE h.user_id IS NULL AND h.email <> '' AND x.email = h.email)
		FROM membership_household h LEFT JOIN users u ON u.id = h.user_id
		WHERE h.membership_id = ? AND h.removed_at IS NULL AND NOT (h.user_id IS NULL AND h.email = '') ORDER BY h.id`), id)
	return store.Collect(rs, err, func(r store.Row) (HouseholdMember, error) {
		var h HouseholdMember
		var uid, byEmail sql.NullInt64
		err := r.Scan(&uid, &h.Name, &h.Email, &byEmail)
		h.Status = "invited"
		if uid.Valid {
			h.UserID, h.Status = &uid.Int64, "joined"
		} else if byEmail.Valid {
			h.UserID, h.Status = &byEmail.Int64, "joined"
		}
		return h, err
	})
}

// AddHousehold invites one more person to share membership id: by name and email;
// a person with an account is linked to it (and their name and email are not copied).
func (s *Service) AddHousehold(ctx context.Context, by, id int64, name, email string) (*Membership, error) {
	var fe httpx.FieldErrors
	n, err := textfield.SingleLine(name, MaxHouseholdNameLen)
	n = strings.TrimSpace(n)
	if err != nil || n == "" {
		fe.Add("name", "The name must be one line of 1 to %d characters.", MaxHouseholdNameLen)
	}
	email = strings.ToLower(strings.TrimSpace(email))
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 254 || !strings.Contains(email, "@") {
		fe.Add("email", "The email must be a valid email address.")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return s.updateLocked(ctx, id, func(tx *sql.Tx, raw rawMembership) error {
		plan, err := s.planByID(ctx, tx, raw.planID)
		if err != nil {
			return err
		}
		if raw.Email == email {
			return invalid("email", "The holder of the membership is in the household already.")
		}
		var count, same int
		if err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN h.email = ? OR u.email = ? THEN 1 ELSE 0 END), 0)
			FROM membership_household h LEFT JOIN users u ON u.id = h.user_id
			WHERE h.membership_id = ? AND h.removed_at IS NULL AND NOT (h.user_id IS NULL AND h.email = '')`), email, email, id).Scan(&count, &same); err != nil {
			return err
		}
		if same > 0 {
			return invalid("email", "%s is in the household already.", email)
		}
		if count+1 >= plan.HouseholdSize {
			return invalid("email", "The plan %s is for at most %d people, and the household is full.", plan.Name, plan.HouseholdSize)
		}
		var uid sql.NullInt64
		err = tx.QueryRowContext(ctx, s.db.Rebind(`SELECT id FROM users WHERE email = ?`), email).Scan(&uid)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		hn, he := n, email
		var u any
		if uid.Valid {
			u, hn, he = uid.Int64, "", ""
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO membership_household (membership_id, user_id, name, email, created_at)
			VALUES (?, ?, ?, ?, ?)`), id, u, hn, he, s.Now().Unix()); err != nil {
			return err
		}
		return s.addHistory(ctx, tx, id, by, raw.Status, raw.Status, "household member added", s.Now())
	})
}

// RemoveHousehold takes the household member with this account (userID) out of
// membership id; the row stays, marked removed.
func (s *Service) RemoveHousehold(ctx context.Context, by, id, userID int64) (*Membership, error) {
	return s.updateLocked(ctx, id, func(tx *sql.Tx, raw rawMembership) error {
		res, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE membership_household SET removed_at = ?
			WHERE membership_id = ? AND removed_at IS NULL AND (user_id = ? OR (user_id IS NULL AND email = (SELECT email FROM users WHERE id = ?)))`),
			s.Now().Unix(), id, userID, userID)
		if err := store.Changed(res, err, errNotFound); err != nil {
			return err
		}
		return s.addHistory(ctx, tx, id, by, raw.Status, raw.Status, "household member removed", s.Now())
	})
}
