package trees

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"lineage/internal/access"
	"lineage/internal/httpx"
	"lineage/internal/names"
	"lineage/internal/store"
)

// Viewer is who is reading: ID 0 for nobody signed in; Role "member", "editor" or
// "admin" (internal/auth's roles).
type Viewer struct {
	ID   int64
	Name string
	Role string
	// Scope is the account's scope (auth.User.Scope), which a tree's access level
	// opens or not; nil for a visitor.
	Scope []string
}

// staff reports whether the viewer is an editor or an admin.
func (v Viewer) staff() bool { return v.Role == "editor" || v.Role == "admin" }

// Options configure a Service.
type Options struct {
	// Viewer tells who is signed in on a request's context (after the accounts
	// middleware). Nil: nobody ever is.
	Viewer func(ctx context.Context) Viewer
	// OwnerName gives the display name of a user id for Tree.owner; nil leaves it "".
	Log *slog.Logger
	// SurnameVariants, GivenNames: nil means the shipped ones (as research).
	SurnameVariants *names.SurnameVariants
	GivenNames      *names.GivenNames
	// Limits bound uploads and answers; fields left 0 take DefaultLimits.
	Limits Limits
}

// Service is the family-trees room.
type Service struct {
	db       *store.DB
	viewer   func(ctx context.Context) Viewer
	log      *slog.Logger
	variants *names.SurnameVariants
	given    *names.GivenNames
	limits   Limits
	// Now is the clock (the living rule and timestamps); tests replace it.
	Now func() time.Time
}

// New builds the room on an open, migrated store.
func New(db *store.DB, opts Options) *Service {
	s := &Service{db: db, viewer: opts.Viewer, log: opts.Log, variants: opts.SurnameVariants, given: opts.GivenNames, Now: time.Now,
		limits: opts.Limits.withDefaults()}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.variants == nil {
		s.variants = names.DefaultSurnameVariants()
	}
	if s.given == nil {
		s.given = names.DefaultGivenNames()
	}
	return s
}

func (s *Service) viewerOf(ctx context.Context) Viewer {
	if s.viewer == nil {
		return Viewer{}
	}
	return s.viewer(ctx)
}

// ErrNotFound is a tree or person that does not exist or that the reader may not see.
var ErrNotFound = errors.New("trees: not found")

// ErrRestricted is a tree's people asked for by a reader whose scope does not open the
// tree's access level (401).
var ErrRestricted = errors.New("trees: restricted")

// Tree is a tree as the API shows it (docs/trees.md).
type Tree struct {
	ID            int64      `json:"-"`
	Slug          string     `json:"slug"`
	Title         string     `json:"title"`
	Description   string     `json:"description"`
	Published     bool       `json:"published"`
	Owner         *Owner     `json:"owner"`
	OwnerID       int64      `json:"-"`
	SourceFile    string     `json:"source_file"`
	GedcomVersion string     `json:"gedcom_version"`
	Counts        Counts     `json:"counts"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	PublishedAt   *time.Time `json:"published_at"`
	CanManage     bool       `json:"can_manage"`
	// Access is the tree's access.Level; Allowed whether the reader may see its people
	// (the level opens for their scope, or they manage the tree).
	Access  string `json:"access"`
	Allowed bool   `json:"allowed"`
	level   access.Level
	header  string
}

// Owner is a tree's owner.
type Owner struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Counts are a tree's numbers of things.
type Counts struct {
	People   int64 `json:"people"`
	Families int64 `json:"families"`
	Events   int64 `json:"events"`
	Sources  int64 `json:"sources"`
	Notes    int64 `json:"notes"`
	Media    int64 `json:"media"`
}

// privileged reports whether v sees the tree's living people and may see it unpublished.
func (t *Tree) privileged(v Viewer) bool {
	return v.staff() || (v.ID != 0 && t.OwnerID == v.ID)
}

const treeCols = `t.id, t.slug, t.title, t.description, t.published, COALESCE(t.owner_id, 0), COALESCE(u.name, ''),
	t.source_file, t.gedcom_version, t.header, t.n_people, t.n_families, t.n_events, t.n_sources, t.n_notes, t.n_media,
	t.created_at, t.updated_at, t.published_at, t.access_level`

// treeFrom reads the ready trees only: the hidden ones (an import's staging tree, a
// tree being deleted; staging.go) are no reader's business.
const treeFrom = ` FROM trees t LEFT JOIN users u ON u.id = t.owner_id WHERE t.state = 'ready'`

func scanTree(r store.Row) (*Tree, error) {
	t := &Tree{}
	var pub int64
	var ownerName string
	var created, updated int64
	var published sql.NullInt64
	var level string
	if err := r.Scan(&t.ID, &t.Slug, &t.Title, &t.Description, &pub, &t.OwnerID, &ownerName,
		&t.SourceFile, &t.GedcomVersion, &t.header, &t.Counts.People, &t.Counts.Families, &t.Counts.Events,
		&t.Counts.Sources, &t.Counts.Notes, &t.Counts.Media, &created, &updated, &published, &level); err != nil {
		return nil, err
	}
	var err error
	if t.level, err = access.Parse(level); err != nil {
		return nil, fmt.Errorf("tree %s: %w", t.Slug, err)
	}
	t.Access = t.level.String()
	t.Published = pub != 0
	if t.OwnerID != 0 {
		t.Owner = &Owner{ID: t.OwnerID, Name: ownerName}
	}
	t.CreatedAt, t.UpdatedAt = store.Time(created), store.Time(updated)
	t.PublishedAt = store.TimeOrNil(published)
	return t, nil
}

// treeBySlug reads a ready tree whatever its visibility.
func (s *Service) treeBySlug(ctx context.Context, q store.Querier, slug string) (*Tree, error) {
	t, err := scanTree(q.QueryRowContext(ctx, s.db.Rebind(`SELECT `+treeCols+treeFrom+` AND t.slug = ?`), slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return t, err
}

// visibleTree reads a tree the viewer may see (ErrNotFound otherwise) and sets CanManage.
func (s *Service) visibleTree(ctx context.Context, slug string, v Viewer) (*Tree, error) {
	t, err := s.treeBySlug(ctx, s.db, slug)
	if err != nil {
		return nil, err
	}
	t.setViewer(v)
	if !t.Published && !t.CanManage {
		return nil, ErrNotFound
	}
	return t, nil
}

// setViewer sets what the viewer may do with the tree.
func (t *Tree) setViewer(v Viewer) {
	t.CanManage = t.privileged(v)
	t.Allowed = t.CanManage || t.level.Opens(v.Scope)
}

// openTree is visibleTree for reading the tree's people: ErrRestricted when the
// viewer's scope does not open its access level.
func (s *Service) openTree(ctx context.Context, slug string, v Viewer) (*Tree, error) {
	t, err := s.visibleTree(ctx, slug, v)
	if err == nil && !t.Allowed {
		return nil, ErrRestricted
	}
	return t, err
}

// SetAccess sets a tree's access level (the caller checks the role): the text of an
// access.Level, refused with the list of levels when invalid.
func (s *Service) SetAccess(ctx context.Context, slug, level string) error {
	l, err := access.Parse(level)
	if err != nil {
		return httpx.Invalid("access", "%s", err.Error())
	}
	text := ""
	if !l.IsPublic() {
		text = l.String()
	}
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE trees SET access_level = ?, updated_at = ? WHERE slug = ? AND state = 'ready'`), text, s.Now().Unix(), slug)
	return store.Changed(res, err, ErrNotFound)
}

// Tree returns the tree the viewer on ctx may see.
func (s *Service) Tree(ctx context.Context, slug string) (*Tree, error) {
	return s.visibleTree(ctx, slug, s.viewerOf(ctx))
}

// Trees lists the trees the viewer may see, by title.
func (s *Service) Trees(ctx context.Context) ([]*Tree, error) {
	v := s.viewerOf(ctx)
	q := `SELECT ` + treeCols + treeFrom
	var args []any
	switch {
	case v.staff():
	case v.ID != 0:
		q += ` AND (t.published = 1 OR t.owner_id = ?)`
		args = append(args, v.ID)
	default:
		q += ` AND t.published = 1`
	}
	return s.listTrees(ctx, q+` ORDER BY t.title, t.slug`, v, args...)
}

// OwnTrees lists the trees the viewer owns, newest first.
func (s *Service) OwnTrees(ctx context.Context, v Viewer) ([]*Tree, error) {
	return s.listTrees(ctx, `SELECT `+treeCols+treeFrom+` AND t.owner_id = ? ORDER BY t.created_at DESC, t.id DESC`, v, v.ID)
}

func (s *Service) listTrees(ctx context.Context, q string, v Viewer, args ...any) ([]*Tree, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(q), args...)
	return store.Collect(rows, err, func(row store.Row) (*Tree, error) {
		t, err := scanTree(row)
		if err != nil {
			return nil, err
		}
		t.setViewer(v)
		return t, nil
	})
}

// SetPublished publishes or unpublishes a tree (the caller checks the role).
func (s *Service) SetPublished(ctx context.Context, slug string, published bool) error {
	now := s.Now().Unix()
	var res sql.Result
	var err error
	if published {
		res, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE trees SET published = 1, published_at = ?, updated_at = ? WHERE slug = ? AND state = 'ready'`), now, now, slug)
	} else {
		res, err = s.db.ExecContext(ctx, s.db.Rebind(`UPDATE trees SET published = 0, published_at = NULL, updated_at = ? WHERE slug = ? AND state = 'ready'`), now, slug)
	}
	return store.Changed(res, err, ErrNotFound)
}

// Delete removes a tree and everything in it: one short transaction hides it from
// every reader, then its rows go in short transactions (removeTree), so that other
// writers never wait long. If the removal stops part way, the tree stays hidden and
// the next import or delete finishes it.
func (s *Service) Delete(ctx context.Context, slug string) error {
	var id int64
	err := s.db.InTx(ctx, func(tx *sql.Tx) error {
		t, err := s.treeBySlug(ctx, tx, slug)
		if err != nil {
			return err
		}
		id = t.ID
		return hideTree(ctx, s.db, tx, id)
	})
	if err != nil {
		return err
	}
	// The tree is gone for everyone now; a client that stops waiting does not stop
	// the removal.
	return s.removeHidden(context.WithoutCancel(ctx))
}

// cleanText is s with each NUL as U+FFFD, as bulk.Writer stores texts.
func cleanText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		return strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return s
}
