package names

import (
	"io"
	"slices"
	"strings"
)

// GivenNames holds groups of given names that records use for one person: a name, its
// diminutives and pet forms (William, Will, Bill), clerks' abbreviations (Wm, Jno,
// Chas), and its Latin, Irish, Scottish Gaelic and Welsh forms (Gulielmus, Liam,
// Uilleam, Gwilym). A name may be in several groups (Nell is Ellen, Helen and
// Eleanor; Kit is Christopher and Catherine).
type GivenNames struct {
	groups map[string][]string // folded name → sorted group keys
}

// ParseGivenNames reads given-name groups in the variant file format: the first name of
// a line is the group's key, and a key that appears on several lines gathers all of
// them.
func ParseGivenNames(r io.Reader, source string) (*GivenNames, error) {
	g := &GivenNames{groups: map[string][]string{}}
	return g, g.add(r, source)
}

func givenKey(s string) string { return Fold(s) }

func (g *GivenNames) add(r io.Reader, source string) error {
	lines, err := readVariants(r, source, givenKey)
	if err != nil {
		return err
	}
	for _, l := range lines {
		key := l.names[0]
		for _, n := range l.names {
			if !slices.Contains(g.groups[n], key) {
				g.groups[n] = append(g.groups[n], key)
				slices.Sort(g.groups[n])
			}
		}
	}
	return nil
}

// LoadGivenNames returns the shipped groups with those of an operator's file added.
// To replace the shipped groups instead, use ParseGivenNames on the operator's file.
func LoadGivenNames(path string) (*GivenNames, error) {
	return loadVariants(ParseGivenNames, shippedGivenNames, "given_names.txt", path)
}

var defaultGiven = shippedVariants(ParseGivenNames, shippedGivenNames, "given_names.txt")

// DefaultGivenNames returns the shipped given-name groups.
func DefaultGivenNames() *GivenNames { return defaultGiven() }

// Len returns the number of group keys.
func (g *GivenNames) Len() int {
	n := 0
	for name, keys := range g.groups {
		if slices.Contains(keys, name) {
			n++
		}
	}
	return n
}

// IsInitial reports whether a given name is an initial: one letter, with or without a
// full stop (J, W.).
func IsInitial(name string) bool {
	f := Fold(name)
	return len(f) == 1 && 'a' <= f[0] && f[0] <= 'z'
}

// Groups returns the keys of the groups a single given name belongs to, sorted; a
// name in no group is its own group, so Groups("Zebedee") is ["zebedee"]. An initial
// is returned as itself (Groups("W.") is ["w"]): match it with Match. Empty input
// gives nil.
func (g *GivenNames) Groups(name string) []string {
	f := strings.ReplaceAll(Fold(name), " ", "")
	if f == "" {
		return nil
	}
	if keys, ok := g.groups[f]; ok {
		return slices.Clone(keys)
	}
	return []string{f}
}

// Variants returns every name that shares a group with the given name (itself
// included), sorted: the names a "variants" search for it accepts.
func (g *GivenNames) Variants(name string) []string {
	keys := g.Groups(name)
	var out []string
	for n, ks := range g.groups {
		for _, k := range ks {
			if slices.Contains(keys, k) {
				out = append(out, n)
				break
			}
		}
	}
	if f := strings.ReplaceAll(Fold(name), " ", ""); f != "" && !slices.Contains(out, f) {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// Match reports whether two single given names can be the same person's: they fold
// alike, they share a group (William and Bill, Jno and Jack, Gulielmus and Liam), or
// one is an initial that begins the other or the key of one of its groups (J matches
// John and Jack; W. matches William and Gulielmus; E matches Betty, whose group is
// Elizabeth). Two different initials do not match.
func (g *GivenNames) Match(a, b string) bool {
	fa := strings.ReplaceAll(Fold(a), " ", "")
	fb := strings.ReplaceAll(Fold(b), " ", "")
	if fa == "" || fb == "" {
		return false
	}
	if fa == fb {
		return true
	}
	ia, ib := len(fa) == 1, len(fb) == 1
	switch {
	case ia && ib:
		return false
	case ia:
		return g.initialOf(fa[0], fb)
	case ib:
		return g.initialOf(fb[0], fa)
	}
	ga, gb := g.Groups(fa), g.Groups(fb)
	for _, k := range ga {
		if slices.Contains(gb, k) {
			return true
		}
	}
	return false
}

func (g *GivenNames) initialOf(initial byte, name string) bool {
	if name[0] == initial {
		return true
	}
	for _, k := range g.Groups(name) {
		if k[0] == initial {
			return true
		}
	}
	return false
}

// MatchAll reports whether every given name of query matches a given name of
// recorded, in order (each recorded name used once): "John William" matches "J. W.",
// "Jno. Wm. Henry" and "Jack Bill"; "John" matches "John William"; "William John" does
// not match "John William". Names are split at spaces and punctuation.
func (g *GivenNames) MatchAll(query, recorded string) bool {
	q := strings.Fields(Fold(query))
	r := strings.Fields(Fold(recorded))
	if len(q) == 0 {
		return true
	}
	j := 0
	for _, n := range q {
		for j < len(r) && !g.Match(n, r[j]) {
			j++
		}
		if j == len(r) {
			return false
		}
		j++
	}
	return true
}
