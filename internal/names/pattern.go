package names

import "strings"

// FoldPattern folds a surname wildcard pattern ("McDon*", "Sm?th") the way surname
// keys are folded, keeping the wildcards * (any run of letters) and ? (one letter).
func FoldPattern(pat string) string {
	var b strings.Builder
	for _, r := range pat {
		if r == '*' || r == '?' {
			b.WriteRune(r)
		} else {
			b.WriteString(strings.ReplaceAll(Fold(string(r)), " ", ""))
		}
	}
	out := b.String()
	if strings.HasPrefix(out, "mc") {
		out = "mac" + out[2:]
	}
	return out
}

// GlobMatch reports whether s matches a folded pattern of * and ?, in time linear in
// their lengths for any one star and without recursion.
func GlobMatch(pat, s string) bool {
	p, t := []rune(pat), []rune(s)
	pi, ti, star, mark := 0, 0, -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == t[ti]):
			pi++
			ti++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
