// Package access is the one vocabulary and the one rule for who may see what the
// society restricts: research collections and records, scan items (docs/research.md,
// "Paywall"; docs/iiif.md, "Access").
//
// A Level is written as text, where it is stored and wherever it is typed:
//
//	public                      everyone
//	registered                  any signed-in account (scope "registered")
//	members                     scope "member" (the level stored before scopes existed)
//	scopes:member:overseas,…    any one of the listed scopes
//
// A requester's scope is auth.User.Scope (GET /api/user's "scope"); an anonymous
// requester has none.
package access

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Scopes the levels name.
const (
	ScopeRegistered = "registered"
	ScopeMember     = "member"
)

// Textual forms.
const (
	Public       = "public"
	Registered   = "registered"
	Members      = "members"
	scopesPrefix = "scopes:"
)

// Limits of a level's text: it is typed by staff and stored in a column.
const (
	maxScopes   = 16
	maxScopeLen = 64
)

// Level is who may open something. The zero Level is public.
type Level struct {
	registered bool
	// scopes, when not empty, are the scopes any one of which opens it (sorted, no
	// duplicates).
	scopes []string
}

// Parse reads a level's textual form; "" is public. Case and surrounding spaces of
// the keywords are ignored; scope names are kept as written, without spaces.
func Parse(s string) (Level, error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "", Public:
		return Level{}, nil
	case Registered:
		return Level{registered: true}, nil
	case Members:
		return Level{scopes: []string{ScopeMember}}, nil
	}
	if len(t) < len(scopesPrefix) || !strings.EqualFold(t[:len(scopesPrefix)], scopesPrefix) {
		return Level{}, fmt.Errorf("access %q: use public, registered, members or scopes:<scope>,<scope>…", s)
	}
	parts := strings.Split(t[len(scopesPrefix):], ",")
	if len(parts) > maxScopes {
		return Level{}, fmt.Errorf("access %q: at most %d scopes", s, maxScopes)
	}
	var scopes []string
	for _, sc := range parts {
		sc = strings.TrimSpace(sc)
		if err := validScope(sc); err != nil {
			return Level{}, fmt.Errorf("access %q: %w", s, err)
		}
		if !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	slices.Sort(scopes)
	return Level{scopes: scopes}, nil
}

func validScope(sc string) error {
	if sc == "" {
		return errors.New("a scope is empty")
	}
	if len(sc) > maxScopeLen {
		return fmt.Errorf("a scope may be at most %d characters", maxScopeLen)
	}
	for _, r := range sc {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(":_.-", r)) {
			return fmt.Errorf("scope %q: use letters, digits and : _ . -", sc)
		}
	}
	return nil
}

// MustParse is Parse for constants.
func MustParse(s string) Level {
	l, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return l
}

// String is the level's textual form; Parse(l.String()) == l.
func (l Level) String() string {
	switch {
	case len(l.scopes) == 1 && l.scopes[0] == ScopeMember:
		return Members
	case len(l.scopes) > 0:
		return scopesPrefix + strings.Join(l.scopes, ",")
	case l.registered:
		return Registered
	}
	return Public
}

// IsPublic reports whether everyone may open it.
func (l Level) IsPublic() bool { return !l.registered && len(l.scopes) == 0 }

// Scopes are the scopes any one of which opens it (nil unless a scope list).
func (l Level) Scopes() []string { return slices.Clone(l.scopes) }

// Opens reports whether a requester holding scope may open what l protects.
func (l Level) Opens(scope []string) bool {
	if len(l.scopes) > 0 {
		for _, sc := range l.scopes {
			if slices.Contains(scope, sc) {
				return true
			}
		}
		return false
	}
	return !l.registered || slices.Contains(scope, ScopeRegistered)
}

// Equal reports whether two levels are the same.
func (l Level) Equal(o Level) bool {
	return l.registered == o.registered && slices.Equal(l.scopes, o.scopes)
}

// Within is the level of something marked inner kept in something marked outer,
// where inner is public or members (a record's own mark): a members-only record of a
// public or registered collection needs scope member; in a collection of scopes it
// follows its collection.
func Within(outer, inner Level) Level {
	if len(outer.scopes) == 0 && len(inner.scopes) > 0 {
		return inner
	}
	if outer.IsPublic() {
		return inner
	}
	return outer
}
