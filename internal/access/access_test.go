package access

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "public"},
		{"public", "public"},
		{" Public ", "public"},
		{"registered", "registered"},
		{"members", "members"},
		{"MEMBERS", "members"},
		{"scopes:member", "members"},
		{"scopes:member:overseas", "scopes:member:overseas"},
		{"scopes: member:research , member:overseas,member:research", "scopes:member:overseas,member:research"},
	} {
		l, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if l.String() != c.want {
			t.Errorf("Parse(%q) = %q, want %q", c.in, l, c.want)
		}
	}
}

func TestParseBad(t *testing.T) {
	for _, in := range []string{
		"member", "private", "scopes:", "scopes:,", "scopes:a,,b", "scopes:a b", "scopes:<x>",
		"scopes:" + strings.Repeat("x", maxScopeLen+1),
		"scopes:" + strings.Repeat("a,", maxScopes) + "z",
		"publics", "registered,members",
	} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q): no error", in)
		}
	}
}

func TestOpens(t *testing.T) {
	anon := []string(nil)
	reg := []string{"registered"}
	member := []string{"registered", "member"}
	overseas := []string{"registered", "member:overseas"}
	for _, c := range []struct {
		level string
		scope []string
		want  bool
	}{
		{"public", anon, true},
		{"registered", anon, false},
		{"registered", reg, true},
		{"members", anon, false},
		{"members", reg, false},
		{"members", member, true},
		{"members", overseas, false},
		{"scopes:member:overseas", member, false},
		{"scopes:member:overseas", overseas, true},
		{"scopes:member:overseas,member", member, true},
		{"scopes:member:overseas", anon, false},
	} {
		if got := MustParse(c.level).Opens(c.scope); got != c.want {
			t.Errorf("%s opens %v = %v, want %v", c.level, c.scope, got, c.want)
		}
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct{ outer, inner, want string }{
		{"public", "public", "public"},
		{"public", "members", "members"},
		{"registered", "public", "registered"},
		{"registered", "members", "members"},
		{"members", "public", "members"},
		{"scopes:member:overseas", "members", "scopes:member:overseas"},
		{"scopes:member:overseas", "public", "scopes:member:overseas"},
	} {
		if got := Within(MustParse(c.outer), MustParse(c.inner)).String(); got != c.want {
			t.Errorf("Within(%s, %s) = %s, want %s", c.outer, c.inner, got, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "public", "registered", "members", "scopes:member:overseas,member", "scopes:", "scopes:a,,b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(l.String())
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, l, err)
		}
		if !back.Equal(l) {
			t.Fatalf("Parse(%q) = %q, again %q", s, l, back)
		}
		if !l.Opens(l.Scopes()) && len(l.Scopes()) > 0 {
			t.Fatalf("%q does not open for its own scopes", l)
		}
	})
}
