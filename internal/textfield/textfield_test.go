package textfield

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// lineCase is a case of SingleLine or MultiLine: the field's text in, its limit, and
// the stored text or the error wanted.
type lineCase struct {
	name, in string
	max      int
	want     string
	err      error
}

// checkLines runs each case through fn (SingleLine or MultiLine, named name) as a subtest.
func checkLines(t *testing.T, name string, fn func(string, int) (string, error), tests []lineCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fn(tt.in, tt.max)
			if !errors.Is(err, tt.err) {
				t.Fatalf("%s(%q) error %v, want %v", name, tt.in, err, tt.err)
			}
			if err == nil && got != tt.want {
				t.Fatalf("%s(%q) = %q, want %q", name, tt.in, got, tt.want)
			}
		})
	}
}

func TestSingleLine(t *testing.T) {
	checkLines(t, "SingleLine", SingleLine, []lineCase{
		{"OK", "Ada Lovelace", 0, "Ada Lovelace", nil},
		{"OKTrimmed", "  Ada \r\n", 0, "Ada", nil},
		{"OKNonASCII", "Zoë Ó Briain 山田", 0, "Zoë Ó Briain 山田", nil},
		{"OKRightToLeftMark", "\u200fمحمد", 0, "\u200fمحمد", nil},
		{"OKAtMax", "abcdé", 5, "abcdé", nil},
		{"OKEmpty", "", 3, "", nil},
		{"ErrHeaderInjection", "X\r\nBcc: evil@evil.com", 0, "", ErrControl},
		{"ErrLF", "a\nb", 0, "", ErrControl},
		{"ErrCR", "a\rb", 0, "", ErrControl},
		{"ErrTab", "a\tb", 0, "", ErrControl},
		{"ErrNUL", "a\x00b", 0, "", ErrControl},
		{"ErrEscape", "a\x1b[2Jb", 0, "", ErrControl},
		{"ErrDEL", "a\x7fb", 0, "", ErrControl},
		{"ErrNEL", "a\u0085b", 0, "", ErrControl},
		{"ErrC1", "a\u009bb", 0, "", ErrControl},
		{"ErrLineSeparator", "a\u2028b", 0, "", ErrControl},
		{"ErrParagraphSeparator", "a\u2029b", 0, "", ErrControl},
		{"ErrRightToLeftOverride", "abc\u202egpj.exe", 0, "", ErrControl},
		{"ErrIsolate", "a\u2066b", 0, "", ErrControl},
		{"ErrNotUTF8", "a\xffb", 0, "", ErrNotText},
		{"ErrNotUTF8BeforeControl", "\n\xff\nx\n", 0, "", ErrNotText},
		{"ErrTooLong", "abcdef", 5, "", ErrTooLong},
		{"ErrTooLongCountsCharacters", strings.Repeat("é", 6), 5, "", ErrTooLong},
	})
}

func TestMultiLine(t *testing.T) {
	checkLines(t, "MultiLine", MultiLine, []lineCase{
		{"OK", "one\ntwo", 0, "one\ntwo", nil},
		{"OKCRLFBecomesLF", "one\r\ntwo\r\n\r\nthree\r\n", 0, "one\ntwo\n\nthree", nil},
		{"OKLoneCRBecomesLF", "one\rtwo", 0, "one\ntwo", nil},
		{"OKMaxCountsAfterNormalising", "a\r\nb", 3, "a\nb", nil},
		{"ErrTab", "a\tb", 0, "", ErrControl},
		{"ErrNUL", "a\x00b", 0, "", ErrControl},
		{"ErrEscape", "a\x1b]0;title\x07", 0, "", ErrControl},
		{"ErrLineSeparator", "a\u2028b", 0, "", ErrControl},
		{"ErrOverride", "a\u202db", 0, "", ErrControl},
		{"ErrNotUTF8", "a\xc3", 0, "", ErrNotText},
		{"ErrTooLong", "ab\ncd", 4, "", ErrTooLong},
	})
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Ada Lovelace", "Ada Lovelace"},
		{"Zoë \u200fمحمد", "Zoë \u200fمحمد"},
		{`back\slash`, `back\slash`},
		{"X\r\nBcc: evil@evil.com", `X\r\nBcc: evil@evil.com`},
		{"a\tb\x00c\x1b[2J", `a\tb\x00c\x1b[2J`},
		{"a\u2028b\u202ec\u0085", `a\u2028b\u202ec\u0085`},
		{"bad \xff\xfe byte", `bad \xff\xfe byte`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzSingleLine checks the rule's promises on any input: what SingleLine accepts is
// valid UTF-8 on one line with no control character and within the limit, MultiLine's
// only control character is LF, and Escape's output is always a valid single line.
func FuzzSingleLine(f *testing.F) {
	for _, s := range []string{"Ada", "X\r\nBcc: evil@evil.com", "a\u2028b", "\xff", " é \t", "a\u202eb", "one\r\ntwo"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 300
		if got, err := SingleLine(s, max); err == nil {
			if !utf8.ValidString(got) || strings.ContainsAny(got, "\r\n\t\x00\u2028\u2029\u0085") {
				t.Fatalf("SingleLine(%q) accepted %q", s, got)
			}
			if max > 0 && utf8.RuneCountInString(got) > max {
				t.Fatalf("SingleLine(%q, %d) accepted %d characters", s, max, utf8.RuneCountInString(got))
			}
			if got != strings.TrimSpace(got) || !Valid(got) {
				t.Fatalf("SingleLine(%q) = %q: not trimmed or not valid", s, got)
			}
		} else if !errors.Is(err, ErrControl) && !errors.Is(err, ErrNotText) && !errors.Is(err, ErrTooLong) {
			t.Fatalf("SingleLine(%q): unexpected error %v", s, err)
		}
		if got, err := MultiLine(s, max); err == nil {
			if !utf8.ValidString(got) || strings.ContainsAny(got, "\r\t\x00\u2028") || !Valid(strings.ReplaceAll(got, "\n", " ")) {
				t.Fatalf("MultiLine(%q) accepted %q", s, got)
			}
		}
		e := Escape(s)
		if !Valid(e) {
			t.Fatalf("Escape(%q) = %q is not a valid single line", s, e)
		}
		if Valid(s) && e != s {
			t.Fatalf("Escape changed the valid %q to %q", s, e)
		}
	})
}
