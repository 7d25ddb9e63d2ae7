package research

import (
	"strings"
	"testing"
	"unicode/utf8"

	"lineage/internal/names"
)

// places is a gazetteer for the reading's tests.
func places(text string) bool {
	switch strings.ToLower(text) {
	case "halifax", "ely", "halifax, yorkshire", "kings lynn", "kent":
		return true
	}
	return false
}

func TestReadQuery(t *testing.T) {
	tests := []struct {
		text string
		want Reading // Text is checked as written here
		ok   bool
	}{
		{"John Smith 1850", Reading{Surname: "Smith", Given: "John", Year: 1850, YearPM: 2, Text: "Smith, John, 1850 ± 2"}, true},
		{"Smith", Reading{Surname: "Smith", Text: "Smith"}, true},
		{"Smith, John", Reading{Surname: "Smith", Given: "John", Text: "Smith, John"}, true},
		{"Smith,John 1850", Reading{Surname: "Smith", Given: "John", Year: 1850, YearPM: 2, Text: "Smith, John, 1850 ± 2"}, true},
		{"1850 Mary Ann Howarth", Reading{Surname: "Howarth", Given: "Mary Ann", Year: 1850, YearPM: 2, Text: "Howarth, Mary Ann, 1850 ± 2"}, true},
		{"John Smith 1850 1860", Reading{Surname: "Smith", Given: "John", Year: 1850, YearPM: 2, Text: "Smith, John, 1850 ± 2"}, true},
		{"John Smith Halifax 1850", Reading{Surname: "Smith", Given: "John", Year: 1850, YearPM: 2, Place: "Halifax", Text: "Smith, John, 1850 ± 2, Halifax"}, true},
		{"John Smith in Halifax, Yorkshire", Reading{Surname: "Smith", Given: "John", Place: "Halifax, Yorkshire", Text: "Smith, John, Halifax, Yorkshire"}, true},
		{"Emma Ashdon Kings Lynn", Reading{Surname: "Ashdon", Given: "Emma", Place: "Kings Lynn", Text: "Ashdon, Emma, Kings Lynn"}, true},
		{"Ely", Reading{Surname: "Ely", Text: "Ely"}, true}, // a place alone names nobody: read as a name
		{"John Kent", Reading{Surname: "Kent", Given: "John", Text: "Kent, John"}, true},
		{"Smith Halifax", Reading{Surname: "Halifax", Given: "Smith", Text: "Halifax, Smith"}, true},
		{"Smith in Halifax", Reading{Surname: "Smith", Place: "Halifax", Text: "Smith, Halifax"}, true},
		{"Smith in Nowhere", Reading{Surname: "Nowhere", Given: "Smith", Text: "Nowhere, Smith"}, true},
		{"John Smith 12", Reading{Surname: "Smith", Given: "John", Text: "Smith, John"}, true},
		{"1850", Reading{}, false},
		{"  , ; ", Reading{}, false},
		{"", Reading{}, false},
		{"a b c d e f g Smith", Reading{Surname: "Smith", Given: "a b c d e f", Text: "Smith, a b c d e f"}, true},
		{"Smith 0999", Reading{Surname: "Smith", Text: "Smith"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, ok := readQuery(tt.text, places)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tt.ok, got)
			}
			if got != tt.want {
				t.Errorf("read %+v\n want %+v", got, tt.want)
			}
		})
	}
}

// FuzzReadQuery: any text reads without a panic, into a reading the index accepts
// (but for a wildcard pattern it finds too short or a name over its 200 characters:
// the global search then shows that group empty).
func FuzzReadQuery(f *testing.F) {
	for _, s := range []string{"John Smith 1850", "Smith, John", "a in Halifax", ",,", "in in in", "Ely 1850 Ely", "Ünal Öztürk 1901"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, ok := readQuery(text, places)
		if !ok {
			if r != (Reading{}) {
				t.Fatalf("no reading of %q, yet %+v", text, r)
			}
			return
		}
		if names.Fold(r.Surname) == "" || strings.ContainsAny(r.Surname, " ,") {
			t.Fatalf("%q: surname %q", text, r.Surname)
		}
		if r.Year != 0 && (r.Year < 1000 || r.Year > 2099 || r.YearPM != 2) {
			t.Fatalf("%q: year %d ± %d", text, r.Year, r.YearPM)
		}
		if r.Place != "" && !places(r.Place) {
			t.Fatalf("%q: unknown place %q", text, r.Place)
		}
		if r.Text != r.say() || !utf8.ValidString(r.Text) && utf8.ValidString(text) {
			t.Fatalf("%q: text %q", text, r.Text)
		}
		long := len(r.Surname) > 200 || len(r.Given) > 200
		if _, errs := ParseQuery(r.values()); errs != nil && !strings.ContainsAny(r.Surname, "*?") && !long {
			t.Fatalf("%q read as %+v: the index refuses it: %v", text, r, errs)
		}
	})
}
