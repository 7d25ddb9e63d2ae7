package index

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"unicode"

	"lineage/internal/names"
	"lineage/internal/store"
)

// recordTypeAliases are the spellings transcribers use for the common record types.
var recordTypeAliases = map[string]string{
	"bap": "baptism", "bapt": "baptism", "baptisms": "baptism", "baptised": "baptism", "baptized": "baptism",
	"christening": "baptism", "chr": "baptism", "chris": "baptism", "baptismus": "baptism",
	"mar": "marriage", "marr": "marriage", "marriages": "marriage", "married": "marriage", "matrimonium": "marriage",
	"bur": "burial", "burials": "burial", "buried": "burial", "sepultura": "burial",
	"wills": "will", "testament": "will", "probate": "will",
	"apprentice": "apprenticeship", "apprenticeships": "apprenticeship", "indenture": "apprenticeship",
	"memorial": "memorial_card", "memorial_cards": "memorial_card", "mortuary_card": "memorial_card",
	"birth_briefs": "birth_brief", "censuses": "census",
}

// RecordTypeLabels are the labels of the types the hub knows; others are labelled as
// first written.
var RecordTypeLabels = map[string]string{
	"baptism": "Baptism", "marriage": "Marriage", "burial": "Burial", "will": "Will",
	"apprenticeship": "Apprenticeship", "census": "Census", "memorial_card": "Memorial card",
	"birth_brief": "Birth brief", "birth": "Birth", "death": "Death", "banns": "Banns",
}

// VocabSlug normalises a record type or role as written: lower case, accents folded,
// words joined by underscores ("Memorial Card" → memorial_card).
func VocabSlug(s string) string {
	if slug, ok := asciiSlug(s); ok {
		return slug
	}
	return foldedSlug(s)
}

// foldedSlug is VocabSlug letter by letter, through names.Fold.
func foldedSlug(s string) string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsDigit(r) && r < 128:
			w.WriteRune(r)
		case unicode.IsLetter(r):
			w.WriteString(strings.ReplaceAll(names.Fold(string(r)), " ", ""))
		case r == '\'' || r == '’':
		default:
			flush()
		}
	}
	flush()
	return strings.Join(words, "_")
}

// asciiSlug is VocabSlug of a text in ASCII, the common case, without folding each
// letter: digits and letters (lower-cased) make words, apostrophes vanish, anything
// else separates words. ok is false for any other text.
func asciiSlug(s string) (slug string, ok bool) {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return "", false
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z':
			b = append(b, c)
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c == '\'':
		case len(b) > 0 && b[len(b)-1] != '_':
			b = append(b, '_')
		}
	}
	if len(b) > 0 && b[len(b)-1] == '_' {
		b = b[:len(b)-1]
	}
	return string(b), true
}

// NormaliseRecordType maps a record type as written to its slug.
func NormaliseRecordType(s string) string {
	slug := VocabSlug(s)
	if a, ok := recordTypeAliases[slug]; ok {
		return a
	}
	return slug
}

// NormaliseRole maps a role as written to its slug; empty is principal.
func NormaliseRole(s string) string {
	slug := VocabSlug(s)
	if slug == "" {
		return RolePrincipal
	}
	return slug
}

func vocabLabel(slug, written string, known map[string]string) string {
	if l, ok := known[slug]; ok {
		return l
	}
	w := strings.TrimSpace(written)
	if w == "" {
		w = strings.ReplaceAll(slug, "_", " ")
	}
	r := []rune(strings.ToLower(w))
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// Vocab is a small table of slugs (record_types, person_roles) with a process-wide
// cache: rows are only ever added, so a cached id never goes stale.
type Vocab struct {
	table string
	known map[string]string
	mu    sync.RWMutex
	ids   map[string]int64
	slugs map[int64]string
	label map[int64]string
}

func NewVocab(table string, known map[string]string) *Vocab {
	return &Vocab{table: table, known: known, ids: map[string]int64{}, slugs: map[int64]string{}, label: map[int64]string{}}
}

// Load reads the whole table (it is small).
func (v *Vocab) Load(ctx context.Context, q Queryer) error {
	rows, err := q.QueryContext(ctx, `SELECT id, slug, label FROM `+v.table)
	if err != nil {
		return err
	}
	defer rows.Close()
	v.mu.Lock()
	defer v.mu.Unlock()
	for rows.Next() {
		var id int64
		var slug, label string
		if err := rows.Scan(&id, &slug, &label); err != nil {
			return err
		}
		v.ids[slug], v.slugs[id], v.label[id] = id, slug, label
	}
	return rows.Err()
}

// ID returns the ID of a slug, 0 when the table does not have it.
func (v *Vocab) ID(ctx context.Context, db *store.DB, slug string) (int64, error) {
	v.mu.RLock()
	id, ok := v.ids[slug]
	v.mu.RUnlock()
	if ok {
		return id, nil
	}
	if err := v.Load(ctx, db); err != nil {
		return 0, err
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.ids[slug], nil
}

// Ensure returns the id of a slug, adding it inside tx when it is new. New ids are
// cached only by remember after the transaction commits.
func (v *Vocab) Ensure(ctx context.Context, db *store.DB, tx *sql.Tx, slug, written string, pending map[string]int64) (int64, error) {
	v.mu.RLock()
	id, ok := v.ids[slug]
	v.mu.RUnlock()
	if ok {
		return id, nil
	}
	if id, ok := pending[slug]; ok {
		return id, nil
	}
	err := tx.QueryRowContext(ctx, db.Rebind(`INSERT INTO `+v.table+` (slug, label) VALUES (?, ?)
		ON CONFLICT (slug) DO NOTHING RETURNING id`), slug, vocabLabel(slug, written, v.known)).Scan(&id)
	if err == sql.ErrNoRows {
		err = tx.QueryRowContext(ctx, db.Rebind(`SELECT id FROM `+v.table+` WHERE slug = ?`), slug).Scan(&id)
	}
	if err != nil {
		return 0, err
	}
	pending[slug] = id
	return id, nil
}

// Remember caches ids added by a committed transaction.
func (v *Vocab) Remember(ctx context.Context, db *store.DB, pending map[string]int64) error {
	if len(pending) == 0 {
		return nil
	}
	return v.Load(ctx, db)
}

// Slug and labelOf name an id (loading the table when it is unknown).
func (v *Vocab) Slug(ctx context.Context, db *store.DB, id int64) string {
	v.mu.RLock()
	s, ok := v.slugs[id]
	v.mu.RUnlock()
	if !ok && id != 0 {
		if v.Load(ctx, db) == nil {
			v.mu.RLock()
			s = v.slugs[id]
			v.mu.RUnlock()
		}
	}
	return s
}

func (v *Vocab) LabelOf(ctx context.Context, db *store.DB, id int64) string {
	v.Slug(ctx, db, id)
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.label[id]
}
