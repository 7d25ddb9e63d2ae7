package textfield

import "testing"

func TestSpreadsheetSafe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"Ann Lee", "Ann Lee"},
		{"=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"},
		{"+1", "'+1"},
		{"-2", "'-2"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"a=b", "a=b"},
	} {
		if got := SpreadsheetSafe(c.in); got != c.want {
			t.Errorf("SpreadsheetSafe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
