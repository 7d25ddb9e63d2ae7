package auth

import (
	"strings"
	"unicode/utf8"
)

// maxRedirectLen bounds a redirect target; longer ones are refused, not truncated.
const maxRedirectLen = 2048

// ValidRedirect reports whether target may be used as the place to return to after
// signing in (seed-spec §5): a local path of ASCII letters, digits and
// @ - % _ ~ . : / with an optional query and fragment.
//
// It is stricter than the spec's pattern where the pattern alone would let a browser
// leave the site or a server re-interpret the path:
//   - the path starts with exactly one "/" (so "//host" and "/\host" are refused);
//   - every "%" starts a valid escape, and no escape decodes to "/", "\", "%", "." ,
//     a control character or a byte that is not part of valid UTF-8, so neither one
//     nor two rounds of decoding can produce "//host", "/\host" or a dot segment;
//   - no segment is "." or "..", and no segment is empty (no "//" anywhere);
//   - query and fragment hold only printable ASCII URL characters and valid escapes.
func ValidRedirect(target string) bool {
	if target == "" || len(target) > maxRedirectLen || target[0] != '/' {
		return false
	}
	path, rest := target, ""
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		path, rest = target[:i], target[i:]
	}
	if !validRedirectPath(path) {
		return false
	}
	if rest == "" {
		return true
	}
	query, fragment := rest, ""
	if rest[0] == '#' {
		query, fragment = "", rest[1:]
	} else if i := strings.IndexByte(rest, '#'); i >= 0 {
		query, fragment = rest[:i], rest[i+1:]
	}
	if query != "" && !validRedirectExtra(query[1:]) {
		return false
	}
	return validRedirectExtra(fragment)
}

// SafeRedirect returns target when ValidRedirect accepts it, and fallback otherwise.
func SafeRedirect(target, fallback string) string {
	if ValidRedirect(target) {
		return target
	}
	return fallback
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func validRedirectPath(path string) bool {
	if path == "/" {
		return true
	}
	// Segments between slashes; the path may end in "/".
	segs := strings.Split(path[1:], "/")
	for i, seg := range segs {
		if seg == "" {
			if i == len(segs)-1 {
				continue // trailing slash
			}
			return false
		}
		if seg == "." || seg == ".." {
			return false
		}
		var decoded []byte
		for j := 0; j < len(seg); j++ {
			c := seg[j]
			switch {
			case isAlnum(c), c == '@', c == '-', c == '_', c == '~', c == '.', c == ':':
				decoded = append(decoded, c)
			case c == '%':
				b, ok := unhex2(seg, j)
				if !ok || !allowedEscape(b) {
					return false
				}
				decoded = append(decoded, b)
				j += 2
			default:
				return false
			}
		}
		if !utf8.Valid(decoded) {
			return false
		}
	}
	return true
}

// allowedEscape reports whether a percent-escape may stand for b in a path: encoded
// letters and non-ASCII UTF-8 bytes are fine; encoded separators, dots, percent signs,
// controls and characters the path may not hold are not.
func allowedEscape(b byte) bool {
	if b >= 0x80 {
		return true
	}
	return isAlnum(b) || b == '@' || b == '-' || b == '_' || b == '~' || b == ':' ||
		b == ' ' || b == '\'' || b == '(' || b == ')' || b == ',' || b == '+' || b == '&' || b == '='
}

// validRedirectExtra checks a query or fragment (without its leading ? or #).
func validRedirectExtra(s string) bool {
	for j := 0; j < len(s); j++ {
		c := s[j]
		switch {
		case isAlnum(c):
		case strings.IndexByte("-._~!$&'()*+,;=:@/?", c) >= 0:
		case c == '%':
			b, ok := unhex2(s, j)
			if !ok || b < 0x20 || b == 0x7f || b == '%' {
				return false
			}
			j += 2
		default:
			return false
		}
	}
	return true
}

func unhex2(s string, i int) (byte, bool) {
	if i+2 >= len(s) {
		return 0, false
	}
	h, ok1 := unhex(s[i+1])
	l, ok2 := unhex(s[i+2])
	return h<<4 | l, ok1 && ok2
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
