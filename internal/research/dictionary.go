package research

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"lineage/internal/names"
	"lineage/internal/store"
)

// nameDict assigns dictionary ids to surnames and given names during an import,
// remembering them so that each distinct name costs one lookup per import.
type nameDict struct {
	db       *store.DB
	variants *names.SurnameVariants
	given    *names.GivenNames
	surnames map[string]int64 // surname key → id
	givens   map[string]int64 // folded given names → id
}

func newNameDict(db *store.DB, v *names.SurnameVariants, g *names.GivenNames) *nameDict {
	return &nameDict{db: db, variants: v, given: g, surnames: map[string]int64{}, givens: map[string]int64{}}
}

// surnameKey is the dictionary key of a surname as written ("" when it has no letters).
func surnameKey(s string) string { return names.SurnameKey(s) }

// givenKey is the dictionary key of given names as written: folded, one space between
// names ("" when there are none).
func givenKey(s string) string { return names.Fold(s) }

// givenInits returns the letters a first given name answers to as an initial: its own
// first letter and the first letters of its groups' keys (Betty answers to B and E).
func givenInits(g *names.GivenNames, first string) string {
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

// resolve fills the ids of the given surname and given-name keys, adding the ones the
// dictionary lacks (with their phonetic codes).
func (d *nameDict) resolve(ctx context.Context, tx *sql.Tx, surnameKeys, givenKeys []string) error {
	if err := d.resolveSurnames(ctx, tx, surnameKeys); err != nil {
		return err
	}
	return d.resolveGivens(ctx, tx, givenKeys)
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
func (d *nameDict) lookup(ctx context.Context, tx *sql.Tx, table string, keys []string, into map[string]int64) error {
	return store.ReadIDs(ctx, tx, keys, 500, func(chunk []string) (string, []any) {
		return `SELECT folded, id FROM ` + table + ` WHERE ` + inStrings("folded", chunk), nil
	}, into)
}

func (d *nameDict) resolveSurnames(ctx context.Context, tx *sql.Tx, keys []string) error {
	need := missing(keys, d.surnames)
	if len(need) == 0 {
		return nil
	}
	if err := d.lookup(ctx, tx, "surnames", need, d.surnames); err != nil {
		return err
	}
	// Add the new ones together, then read their ids.
	add := missing(need, d.surnames)
	if len(add) == 0 {
		return nil
	}
	rows := make([][]any, len(add))
	nk := make([]names.Keys, len(add))
	for i, k := range add {
		nk[i] = d.variants.Keys(k)
		rows[i] = []any{k, nk[i].Variant, nk[i].Soundex}
	}
	if err := insertMany(ctx, d.db, tx, "surnames", []string{"folded", "variant", "soundex"}, rows, true); err != nil {
		return err
	}
	if err := d.lookup(ctx, tx, "surnames", add, d.surnames); err != nil {
		return err
	}
	var codes [][]any
	for i, k := range add {
		id, ok := d.surnames[k]
		if !ok {
			return fmt.Errorf("add surname %q: no id", k)
		}
		for _, c := range nk[i].Codes() {
			codes = append(codes, []any{c, id})
		}
	}
	return insertMany(ctx, d.db, tx, "surname_codes", []string{"code", "surname_id"}, codes, true)
}

func (d *nameDict) resolveGivens(ctx context.Context, tx *sql.Tx, keys []string) error {
	need := missing(keys, d.givens)
	if len(need) == 0 {
		return nil
	}
	if err := d.lookup(ctx, tx, "given_names", need, d.givens); err != nil {
		return err
	}
	add := missing(need, d.givens)
	if len(add) == 0 {
		return nil
	}
	rows := make([][]any, len(add))
	for i, k := range add {
		first, _, _ := strings.Cut(k, " ")
		rows[i] = []any{k, first, givenInits(d.given, first)}
	}
	if err := insertMany(ctx, d.db, tx, "given_names", []string{"folded", "first", "inits"}, rows, true); err != nil {
		return err
	}
	if err := d.lookup(ctx, tx, "given_names", add, d.givens); err != nil {
		return err
	}
	for _, k := range add {
		if _, ok := d.givens[k]; !ok {
			return fmt.Errorf("add given names %q: no id", k)
		}
	}
	return nil
}

// inStrings writes "col IN ('a', 'b')" with quoted literals ("1 = 0" when empty):
// cheaper than parameters on SQLite (see insertRows). Strings never hold NUL.
func inStrings(col string, vals []string) string {
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
