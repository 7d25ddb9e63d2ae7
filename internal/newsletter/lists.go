package newsletter

import (
	"context"
	"database/sql"
	"errors"
	"regexp"

	"lineage/internal/httpx"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// List is a mailing list.
type List struct {
	ID          int64  `json:"-"`
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Audience    string `json:"audience"` // public or members
	Scope       string `json:"scope"`    // what a members' list needs
	Subscribed  *bool  `json:"subscribed,omitempty"`
	Subscribers *int   `json:"subscribers,omitempty"`
}

// open reports whether v may subscribe to the list.
func (l *List) open(v Viewer) bool {
	return l.Audience == "public" || (v.ID != 0 && v.has(l.Scope))
}

var errNotFound = &httpx.Error{Code: httpx.ENOTFOUND, Message: "Not Found"}

const listCols = `id, slug, name, description, audience, scope`

func scanList(r store.Row) (*List, error) {
	l := &List{}
	return l, r.Scan(&l.ID, &l.Slug, &l.Name, &l.Description, &l.Audience, &l.Scope)
}

// Lists returns every list in a stable order.
func (s *Service) Lists(ctx context.Context) ([]*List, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+listCols+` FROM newsletter_lists ORDER BY id`)
	return store.Collect(rows, err, scanList)
}

// List returns the list with slug, or errNotFound.
func (s *Service) List(ctx context.Context, slug string) (*List, error) {
	l, err := scanList(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+listCols+` FROM newsletter_lists WHERE slug = ?`), slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	return l, err
}

var slugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,49}$`)

// ListInput is what an admin sets on a list.
type ListInput struct {
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Audience    string `json:"audience"`
	Scope       string `json:"scope"`
}

func (in *ListInput) check(withSlug bool) error {
	var fe httpx.FieldErrors
	if withSlug && !slugPattern.MatchString(in.Slug) {
		fe.Add("slug", "The slug must be 1 to 50 lower-case letters, digits and hyphens.")
	}
	var err error
	if in.Name, err = textfield.SingleLine(in.Name, 100); err != nil || in.Name == "" {
		fe.Add("name", "The name is required: one line of at most 100 characters.")
	}
	if in.Description, err = textfield.SingleLine(in.Description, 500); err != nil {
		fe.Add("description", "The description must be one line of at most 500 characters.")
	}
	switch in.Audience {
	case "", "public":
		in.Audience, in.Scope = "public", ""
	case "members":
		if in.Scope == "" {
			in.Scope = "member"
		}
		if !slugPattern.MatchString(in.Scope) {
			fe.Add("scope", "The scope must be a scope name such as member.")
		}
	default:
		fe.Add("audience", "The audience must be public or members.")
	}
	return fe.Err()
}

// SaveList creates (create) or updates the list in.Slug.
func (s *Service) SaveList(ctx context.Context, in ListInput, create bool) (*List, error) {
	if err := in.check(create); err != nil {
		return nil, err
	}
	now := s.now().Unix()
	if create {
		_, err := s.db.ExecContext(ctx, s.db.Rebind(
			`INSERT INTO newsletter_lists (slug, name, description, audience, scope, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
			in.Slug, in.Name, in.Description, in.Audience, in.Scope, now, now)
		if err != nil {
			if store.IsUniqueViolation(err) {
				return nil, httpx.Invalid("slug", "A list with this slug exists already.")
			}
			return nil, err
		}
	} else {
		res, err := s.db.ExecContext(ctx, s.db.Rebind(
			`UPDATE newsletter_lists SET name = ?, description = ?, audience = ?, scope = ?, updated_at = ? WHERE slug = ?`),
			in.Name, in.Description, in.Audience, in.Scope, now, in.Slug)
		if err := store.Changed(res, err, errNotFound); err != nil {
			return nil, err
		}
	}
	return s.List(ctx, in.Slug)
}

// subscriberCounts counts the confirmed, unsuppressed subscribers of each list.
func (s *Service) subscriberCounts(ctx context.Context) (map[int64]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT x.list_id, COUNT(*) FROM newsletter_subscriptions x
		JOIN newsletter_subscribers s ON s.id = x.subscriber_id
		WHERE x.status = 'subscribed' AND s.confirmed_at > 0 AND s.suppressed_at = 0 GROUP BY x.list_id`)
	return store.CollectMap(rows, err, store.Pair[int64, int])
}
