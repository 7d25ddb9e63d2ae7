package names

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
)

// A variant file lists name groups, one group a line, names separated by commas; the
// first name of a line is the group's key. Blank lines and text after # are ignored.
// Names are folded (Fold), so case, accents and full stops do not matter. The shipped
// files are embedded below; operators may load their own (LoadGivenNames,
// LoadSurnameVariants), which add to the shipped groups.

//go:embed given_names.txt
var shippedGivenNames []byte

//go:embed surname_variants.txt
var shippedSurnameVariants []byte

// ShippedGivenNames returns the given-name groups the package ships, in the variant
// file format: a starting point for an operator's own file.
func ShippedGivenNames() []byte { return bytes.Clone(shippedGivenNames) }

// ShippedSurnameVariants returns the surname clusters the package ships.
func ShippedSurnameVariants() []byte { return bytes.Clone(shippedSurnameVariants) }

// loadVariants parses a shipped file (named name) and adds to it the operator's file
// at path; parse is the kind's ParseX.
func loadVariants[T interface{ add(io.Reader, string) error }](parse func(io.Reader, string) (T, error), shipped []byte, name, path string) (T, error) {
	var none T
	v, err := parse(bytes.NewReader(shipped), name)
	if err != nil {
		return none, err
	}
	f, err := os.Open(path)
	if err != nil {
		return none, err
	}
	defer f.Close()
	return v, v.add(f, path)
}

// shippedVariants parses a shipped file the first time it is asked for; the package's
// own file that does not parse is a bug of the build, not of a caller.
func shippedVariants[T any](parse func(io.Reader, string) (T, error), shipped []byte, name string) func() T {
	return sync.OnceValue(func() T {
		v, err := parse(bytes.NewReader(shipped), name)
		if err != nil {
			panic("names: the shipped " + name + " does not parse: " + err.Error())
		}
		return v
	})
}

// variantLine is one parsed line: the group key and the names in it (key included).
type variantLine struct {
	line  int
	names []string
}

// readVariants parses a variant file; key folds one entry (given names stay one word;
// surnames become surname keys).
func readVariants(r io.Reader, source string, key func(string) string) ([]variantLine, error) {
	var out []variantLine
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		var names []string
		for _, f := range strings.Split(text, ",") {
			if strings.TrimSpace(f) == "" {
				return nil, fmt.Errorf("%s:%d: an empty name", source, n)
			}
			k := key(f)
			if k == "" {
				return nil, fmt.Errorf("%s:%d: %q has no letters", source, n, strings.TrimSpace(f))
			}
			if strings.ContainsRune(k, ' ') {
				return nil, fmt.Errorf("%s:%d: %q is more than one name", source, n, strings.TrimSpace(f))
			}
			if !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
		out = append(out, variantLine{line: n, names: names})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return out, nil
}

// SurnameVariants holds known clusters of surname spellings that sound too different
// for the phonetic codes to join, or that the codes join only loosely (Smith, Smyth,
// Smythe; Lloyd, Floyd; Rees, Rice, Rhys; O'Neill, Neill). Each surname belongs to at
// most one cluster.
type SurnameVariants struct {
	cluster map[string]string // surname key → cluster key
}

// ParseSurnameVariants reads surname clusters in the variant file format. A surname in
// two clusters is an error.
func ParseSurnameVariants(r io.Reader, source string) (*SurnameVariants, error) {
	v := &SurnameVariants{cluster: map[string]string{}}
	return v, v.add(r, source)
}

func (v *SurnameVariants) add(r io.Reader, source string) error {
	lines, err := readVariants(r, source, SurnameKey)
	if err != nil {
		return err
	}
	for _, l := range lines {
		key := l.names[0]
		if k, ok := v.cluster[key]; ok && k != key {
			return fmt.Errorf("%s:%d: %q is already in the cluster of %q", source, l.line, key, k)
		}
		for _, n := range l.names {
			if k, ok := v.cluster[n]; ok && k != key {
				return fmt.Errorf("%s:%d: %q is already in the cluster of %q", source, l.line, n, k)
			}
			v.cluster[n] = key
		}
	}
	return nil
}

// LoadSurnameVariants returns the shipped clusters with those of an operator's file
// added; a line whose first surname is a shipped cluster's key adds to that cluster.
func LoadSurnameVariants(path string) (*SurnameVariants, error) {
	return loadVariants(ParseSurnameVariants, shippedSurnameVariants, "surname_variants.txt", path)
}

var defaultSurnames = shippedVariants(ParseSurnameVariants, shippedSurnameVariants, "surname_variants.txt")

// DefaultSurnameVariants returns the shipped surname clusters.
func DefaultSurnameVariants() *SurnameVariants { return defaultSurnames() }

// VariantKey returns the key shared by spellings of one surname: the key of its known
// cluster, else its surname key with German umlaut spellings reduced (ae, oe, ue after
// a consonant other than g or q become a, o, u: Mueller → muller, Schroeder →
// schroder), so that Müller, Muller and Mueller share it.
func (v *SurnameVariants) VariantKey(surname string) string {
	return v.variantOf(SurnameKey(surname))
}

func (v *SurnameVariants) variantOf(key string) string {
	if k, ok := v.cluster[key]; ok {
		return k
	}
	u := unUmlaut(key)
	if k, ok := v.cluster[u]; ok {
		return k
	}
	return u
}

// unUmlaut reduces the two-letter spellings of ä, ö, ü.
func unUmlaut(s string) string {
	if !strings.Contains(s, "e") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 'e' && i >= 2 && (s[i-1] == 'a' || s[i-1] == 'o' || s[i-1] == 'u') {
			switch p := s[i-2]; {
			case p == 'g' || p == 'q' || strings.IndexByte("aeiouy", p) >= 0:
			default:
				continue // drop the e
			}
		}
		b = append(b, c)
	}
	return string(b)
}

// Cluster returns the surname keys of the known cluster of a surname, sorted, or nil
// when it is in none.
func (v *SurnameVariants) Cluster(surname string) []string {
	key, ok := v.cluster[SurnameKey(surname)]
	if !ok {
		if key, ok = v.cluster[unUmlaut(SurnameKey(surname))]; !ok {
			return nil
		}
	}
	var out []string
	for n, k := range v.cluster {
		if k == key {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
