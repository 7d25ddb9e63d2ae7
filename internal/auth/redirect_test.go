package auth_test

import (
	"net/url"
	"strings"
	"testing"

	"lineage/internal/auth"
)

func TestValidRedirect(t *testing.T) {
	good := []string{
		"/",
		"/news",
		"/news/annual-meeting",
		"/research-hub/our-collections/family-trees/",
		"/user-account?tab=bookmarks",
		"/research-hub/our-collections/searchexplore?surname=Smith&county=Kent&page=2",
		"/learn/guides/how-to-use-census-records#searching",
		"/news?x=1#top",
		"/@society/~archive/v1.2:draft_x",
		"/caf%C3%A9",          // an encoded UTF-8 slug
		"/search?q=a%2Fb",     // encoded slash in the query is only data
		"/search?next=//evil", // a query value is not a place to go
		"/a-b_c~d.e",
		"/news/" + strings.Repeat("a", 100),
	}
	bad := []struct{ name, target string }{
		{"empty", ""},
		{"protocol-relative", "//evil.example"},
		{"protocol-relative with path", "//evil.example/news"},
		{"triple slash", "///evil.example"},
		{"absolute https", "https://evil.example/"},
		{"scheme only", "https:"},
		{"javascript", "javascript:alert(1)"},
		{"data", "data:text/html,<script>alert(1)</script>"},
		{"relative", "news/annual-meeting"},
		{"backslash host", "/\\evil.example"},
		{"backslashes", "\\\\evil.example"},
		{"backslash inside", "/news\\..\\evil"},
		{"encoded slash", "/%2F%2Fevil.example"},
		{"encoded slash lower", "/%2fevil.example"},
		{"encoded backslash", "/%5Cevil.example"},
		{"double encoded slash", "/%252F%252Fevil.example"},
		{"encoded dot segment", "/%2e%2e/admin"},
		{"dot segment", "/news/../admin"},
		{"single dot segment", "/./news"},
		{"empty segment", "/news//x"},
		{"tab", "/\tevil.example"},
		{"newline", "/news\nLocation: https://evil.example"},
		{"carriage return", "/news\r"},
		{"nul", "/news\x00"},
		{"encoded nul", "/news%00"},
		{"encoded control", "/news%0d%0aSet-Cookie:x=y"},
		{"space", "/news item"},
		{"broken escape", "/news%2"},
		{"bad hex", "/news%zz"},
		{"invalid utf-8 escape", "/%C3%28"},
		{"raw non-ascii", "/café"},
		{"angle brackets", "/<script>"},
		{"quote", "/news\"onload"},
		{"control in query", "/news?x=\x01"},
		{"space in query", "/news?x=a b"},
		{"backslash in query", "/news?x=\\"},
		{"hash in fragment", "/news#a#b"},
		{"encoded control in fragment", "/news#%0a"},
		{"at-host", "@evil.example"},
		{"too long", "/" + strings.Repeat("a", 3000)},
		{"unicode slash", "/\u2215evil.example"},
		{"fullwidth slash", "/\uff0fevil.example"},
	}
	for _, g := range good {
		if !auth.ValidRedirect(g) {
			t.Errorf("ValidRedirect(%q) = false, want true", g)
		}
	}
	for _, b := range bad {
		if auth.ValidRedirect(b.target) {
			t.Errorf("%s: ValidRedirect(%q) = true, want false", b.name, b.target)
		}
	}
	if len(bad) < 20 {
		t.Fatal("keep at least 20 bad cases")
	}
	if auth.SafeRedirect("//evil.example", "/") != "/" || auth.SafeRedirect("/news", "/") != "/news" {
		t.Error("SafeRedirect")
	}
}

// FuzzValidRedirect checks the property that matters: whatever the validator
// accepts stays on this site when a browser resolves it, before or after one or two
// rounds of percent-decoding.
func FuzzValidRedirect(f *testing.F) {
	for _, s := range []string{"/", "/news", "//evil", "/%2F%2Fevil", "/\\evil", "/a?b=c#d", "/%252F", "/%2e%2e/", "https://x", "/caf%C3%A9", "/a/./b"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://lineage.example.org/some/page")
	f.Fuzz(func(t *testing.T, s string) {
		if !auth.ValidRedirect(s) {
			return
		}
		if s[0] != '/' || strings.HasPrefix(s, "//") || strings.ContainsAny(s, "\\\x00\r\n\t ") {
			t.Fatalf("accepted %q", s)
		}
		for i, v := range []string{s, unescape(s), unescape(unescape(s))} {
			path := v
			if j := strings.IndexAny(path, "?#"); j >= 0 {
				path = path[:j]
			}
			if strings.HasPrefix(path, "//") || strings.HasPrefix(path, "/\\") || strings.Contains(path, "\\") {
				t.Fatalf("accepted %q, which decodes (%d rounds) to %q", s, i, v)
			}
			for _, seg := range strings.Split(path, "/") {
				if seg == ".." || seg == "." {
					t.Fatalf("accepted %q with a dot segment after %d rounds: %q", s, i, v)
				}
			}
		}
		u, err := url.Parse(s)
		if err != nil {
			t.Fatalf("accepted unparsable %q: %v", s, err)
		}
		if r := base.ResolveReference(u); r.Host != base.Host || r.Scheme != base.Scheme {
			t.Fatalf("accepted %q, which resolves to %s", s, r)
		}
	})
}

func unescape(s string) string {
	v, err := url.PathUnescape(s)
	if err != nil {
		return s
	}
	return v
}
