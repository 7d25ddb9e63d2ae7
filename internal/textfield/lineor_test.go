package textfield

import "testing"

func TestLineOr(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"a name", "  Ada Lovelace ", 20, "Ada Lovelace"},
		{"empty", "", 20, "fallback"},
		{"only spaces", "   ", 20, "fallback"},
		{"a second line", "Ada\nBcc: x@example.org", 50, "fallback"},
		{"a control character", "Ada\x1b[2J", 50, "fallback"},
		{"too long", "Ada Lovelace", 5, "fallback"},
		{"not UTF-8", "Ad\xff", 20, "fallback"},
		{"no limit", "Ada Lovelace", 0, "Ada Lovelace"},
	}
	for _, tt := range tests {
		if got := LineOr(tt.in, tt.max, "fallback"); got != tt.want {
			t.Errorf("%s: LineOr(%q, %d) = %q, want %q", tt.name, tt.in, tt.max, got, tt.want)
		}
	}
}
