package names

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestShippedGivenNames(t *testing.T) {
	g := DefaultGivenNames()
	if n := g.Len(); n < 150 {
		t.Errorf("%d given-name groups shipped, want at least 150", n)
	}
	if !strings.Contains(string(ShippedGivenNames()), "william, wm") {
		t.Error("ShippedGivenNames does not return the shipped file")
	}
}

func TestGivenNameMatch(t *testing.T) {
	g := DefaultGivenNames()
	same := [][]string{
		{"William", "Wm", "Wm.", "Will", "Bill", "Billy", "Gulielmus", "Guilielmi", "Liam", "Gwilym"},
		{"Catherine", "Katherine", "Kathryn", "Kate", "Kitty", "Kathleen", "Catriona", "Catrin"},
		{"Margaret", "Peggy", "Maggie", "Meg", "Margt", "Mairead", "Margareta"},
		{"Elizabeth", "Eliza", "Betty", "Bess", "Elspeth", "Eliz.", "Elizabetha"},
		{"John", "Jack", "Jno", "Jno.", "Johannes", "Joannes", "Sean", "Seán", "Ian", "Eoin"},
		{"James", "Jas", "Jim", "Jacobus", "Seamus", "Séamus", "Hamish"},
		{"Mary", "Maria", "Polly", "Molly", "Máire"},
		{"Charles", "Chas", "Carolus", "Charlie"},
		{"Thomas", "Thos", "Tom", "Tomos"},
		{"Christopher", "Xpher", "Kit"},
		{"Bridget", "Biddy", "Bríd", "Delia"},
		{"Timothy", "Tadhg", "Thady"},
		{"Agnes", "Nancy", "Nest"},
		{"David", "Dafydd", "Dai", "Davy"},
	}
	for _, group := range same {
		for _, a := range group {
			for _, b := range group {
				if !g.Match(a, b) {
					t.Errorf("Match(%q, %q) = false", a, b)
				}
			}
		}
	}
	differ := [][2]string{{"William", "John"}, {"Catherine", "Margaret"}, {"Mary", "Martha"},
		{"Bill", "Jack"}, {"J", "W"}, {"", "John"}, {"John", ""}, {"Zebedee", "Zachary"}}
	for _, p := range differ {
		if g.Match(p[0], p[1]) {
			t.Errorf("Match(%q, %q) = true", p[0], p[1])
		}
	}
	if !g.Match("Zebedee", "ZEBEDEE") {
		t.Error("an unknown name does not match itself")
	}
}

func TestInitials(t *testing.T) {
	g := DefaultGivenNames()
	yes := [][2]string{{"J", "John"}, {"J.", "Jack"}, {"W.", "William"}, {"W", "Gulielmus"},
		{"E", "Betty"}, {"B", "Betty"}, {"John", "J"}, {"j", "Jno"}, {"Z", "Zebedee"}, {"J", "J."}}
	for _, p := range yes {
		if !g.Match(p[0], p[1]) {
			t.Errorf("Match(%q, %q) = false", p[0], p[1])
		}
	}
	no := [][2]string{{"J", "William"}, {"W.", "John"}, {"B", "William"}, {"J", "W"}}
	for _, p := range no {
		if g.Match(p[0], p[1]) {
			t.Errorf("Match(%q, %q) = true", p[0], p[1])
		}
	}
	if !IsInitial("W.") || !IsInitial("j") || IsInitial("Wm") || IsInitial("") {
		t.Error("IsInitial")
	}
}

func TestMatchAll(t *testing.T) {
	g := DefaultGivenNames()
	tests := []struct {
		query, recorded string
		want            bool
	}{
		{"John William", "J. W.", true},
		{"John William", "Jno. Wm. Henry", true},
		{"John William", "Jack Bill", true},
		{"John", "John William", true},
		{"William", "John William", true},
		{"William John", "John William", false},
		{"John William", "John", false},
		{"", "John", true},
		{"Mary Ann", "Polly", false},
	}
	for _, tt := range tests {
		if got := g.MatchAll(tt.query, tt.recorded); got != tt.want {
			t.Errorf("MatchAll(%q, %q) = %v", tt.query, tt.recorded, got)
		}
	}
}

func TestGivenNameGroups(t *testing.T) {
	g := DefaultGivenNames()
	tests := []struct {
		name string
		want []string
	}{
		{"Wm.", []string{"william"}},
		{"Nell", []string{"eleanor", "ellen", "helen"}},
		{"Kit", []string{"catherine", "christopher"}},
		{"Zebedee", []string{"zebedee"}},
		{"W.", []string{"w"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := g.Groups(tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("Groups(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
	v := g.Variants("Bill")
	for _, n := range []string{"william", "wm", "bill", "gulielmus", "liam"} {
		if !slices.Contains(v, n) {
			t.Errorf("Variants(Bill) lacks %q: %v", n, v)
		}
	}
	if got := g.Variants("Zebedee"); !slices.Equal(got, []string{"zebedee"}) {
		t.Errorf("Variants(Zebedee) = %v", got)
	}
}

func TestGivenNamesFile(t *testing.T) {
	g, err := ParseGivenNames(strings.NewReader("# test\nzebedee, zeb, Zebedæus\n\nzeb, zebulun\n"), "test.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !g.Match("Zebedaeus", "Zeb") || !g.Match("Zebulun", "Zeb") || g.Match("Zebulun", "Zebedee") {
		t.Error("groups from a parsed file")
	}
	for _, bad := range []string{"john,,jack\n", "john, 42\n", "john, mary ann\n"} {
		if _, err := ParseGivenNames(strings.NewReader(bad), "bad.txt"); err == nil ||
			!strings.HasPrefix(err.Error(), "bad.txt:1:") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
	path := t.TempDir() + "/given.txt"
	writeFile(t, path, "william, wullie\nhowell, hwyel\n")
	g, err = LoadGivenNames(path)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Match("Wullie", "Bill") || !g.Match("Hwyel", "Howell") {
		t.Error("the operator's groups were not added to the shipped ones")
	}
}
