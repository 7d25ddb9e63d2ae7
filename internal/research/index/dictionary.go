package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"lineage/internal/names"
	"lineage/internal/store"
	"lineage/internal/store/bulk"
)

// NameDict assigns dictionary ids to surnames and given names during an import,
// remembering them so that each distinct name costs one lookup per import.
type NameDict struct {
	db       *store.DB
	variants *names.SurnameVariants
	given    *names.GivenNames
	Surnames map[string]int64 // surname key → id
	Givens   map[string]int64 // folded given names → id
}

func NewNameDict(db *store.DB, v *names.SurnameVariants, g *names.GivenNames) *NameDict {
	return &NameDict{db: db, variants: v, given: g, Surnames: map[string]int64{}, Givens: map[string]int64{}}
}

// SurnameKey is the dictionary key of a surname as written ("" when it has no letters).
func SurnameKey(s string) string { return names.SurnameKey(s) }

// GivenKey is the dictionary key of given names as written: folded, one space between
// names ("" when there are none).
func GivenKey(s string) string { return names.Fold(s) }

// GivenInits returns the letters a first given name answers to as an initial: its own
// first letter and the first letters of its groups' keys (Betty answers to B and E).
func GivenInits(g *names.GivenNames, first string) string {
	if first == "" {
		return ""
	}
	letters := []byte{first[0]}
	if len(first) > 1 {
		for _, k := range g.Groups(first) {
			if k != "" && !slices.Contains(letters, k[0]) {
				letters = append(letters, k[0])
			}
		}
	}
	slices.Sort(letters)
	return string(letters)
}

// Resolve fills the ids of the given surname and given-name keys, adding the ones the
// dictionary lacks (with their phonetic codes).
func (d *NameDict) Resolve(ctx context.Context, w bulk.Writer, tx *sql.Tx, surnameKeys, givenKeys []string) error {
	if err := d.resolveSurnames(ctx, w, tx, surnameKeys); err != nil {
		return err
	}
	return d.resolveGivens(ctx, w, tx, givenKeys)
}

func missing(keys []string, have map[string]int64) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range keys {
		if _, ok := have[k]; ok || k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, k)
	}
	return out
}

// lookup reads the ids of keys from a dictionary table in chunks.
func (d *NameDict) lookup(ctx context.Context, tx *sql.Tx, table string, keys []string, into map[string]int64) error {
	return store.ReadIDs(ctx, tx, keys, 500, func(chunk []string) (string, []any) {
		return `SELECT folded, id FROM ` + table + ` WHERE ` + InStrings("folded", chunk), nil
	}, into)
}

// unknown reads the ids of keys that ids lacks from table, and returns the keys that
// table lacks too: those to add.
func (d *NameDict) unknown(ctx context.Context, tx *sql.Tx, table string, keys []string, ids map[string]int64) ([]string, error) {
	need := missing(keys, ids)
	if len(need) == 0 {
		return nil, nil
	}
	if err := d.lookup(ctx, tx, table, need, ids); err != nil {
		return nil, err
	}
	return missing(need, ids), nil
}

// add inserts the rows of new keys into a dictionary table together, then reads their
// ids.
func (d *NameDict) add(ctx context.Context, w bulk.Writer, tx *sql.Tx, t bulk.Table, rows [][]any, keys []string, ids map[string]int64) error {
	if err := w.Insert(ctx, tx, t, rows); err != nil {
		return err
	}
	return d.lookup(ctx, tx, t.Name, keys, ids)
}

func (d *NameDict) resolveSurnames(ctx context.Context, w bulk.Writer, tx *sql.Tx, keys []string) error {
	add, err := d.unknown(ctx, tx, "surnames", keys, d.Surnames)
	if err != nil || len(add) == 0 {
		return err
	}
	rows := make([][]any, len(add))
	nk := make([]names.Keys, len(add))
	for i, k := range add {
		nk[i] = d.variants.Keys(k)
		rows[i] = []any{k, nk[i].Variant, nk[i].Soundex}
	}
	if err := d.add(ctx, w, tx, bulk.Table{Name: "surnames", Cols: []string{"folded", "variant", "soundex"}, OnConflict: bulk.Ignore}, rows, add, d.Surnames); err != nil {
		return err
	}
	var codes [][]any
	for i, k := range add {
		id, ok := d.Surnames[k]
		if !ok {
			return fmt.Errorf("add surname %q: no id", k)
		}
		for _, c := range nk[i].Codes() {
			codes = append(codes, []any{c, id})
		}
	}
	return w.Insert(ctx, tx, bulk.Table{Name: "surname_codes", Cols: []string{"code", "surname_id"}, OnConflict: bulk.Ignore}, codes)
}

func (d *NameDict) resolveGivens(ctx context.Context, w bulk.Writer, tx *sql.Tx, keys []string) error {
	add, err := d.unknown(ctx, tx, "given_names", keys, d.Givens)
	if err != nil || len(add) == 0 {
		return err
	}
	rows := make([][]any, len(add))
	for i, k := range add {
		first, _, _ := strings.Cut(k, " ")
		rows[i] = []any{k, first, GivenInits(d.given, first)}
	}
	if err := d.add(ctx, w, tx, bulk.Table{Name: "given_names", Cols: []string{"folded", "first", "inits"}, OnConflict: bulk.Ignore}, rows, add, d.Givens); err != nil {
		return err
	}
	for _, k := range add {
		if _, ok := d.Givens[k]; !ok {
			return fmt.Errorf("add given names %q: no id", k)
		}
	}
	return nil
}

// InStrings writes "col IN ('a', 'b')" with quoted literals ("1 = 0" when empty):
// cheaper than parameters on SQLite (see insertRows). Strings never hold NUL.
func InStrings(col string, vals []string) string {
	if len(vals) == 0 {
		return "1 = 0"
	}
	var b strings.Builder
	b.WriteString(col)
	b.WriteString(" IN (")
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		store.WriteLiteral(&b, v)
	}
	b.WriteByte(')')
	return b.String()
}

// PrefixEnd is the smallest string greater than every string starting with prefix
// (prefix is ASCII or folded letters).
func PrefixEnd(prefix string) string {
	r, size := utf8.DecodeLastRuneInString(prefix)
	return prefix[:len(prefix)-size] + string(r+1)
}
