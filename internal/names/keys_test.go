package names

import (
	"slices"
	"strings"
	"testing"
)

func TestSurnameKeys(t *testing.T) {
	k := SurnameKeys("Robert")
	want := Keys{Folded: "robert", Variant: "robert", Soundex: "R163", DM: []string{"979300"},
		MetaphonePrimary: "RPRT", MetaphoneAlt: "RPRT"}
	if k.String() != want.String() || k.Uncertain {
		t.Errorf("got %v, want %v", k, want)
	}
	if k := SurnameKeys("[illegible]"); k.Folded != "" || k.Soundex != "" || k.DM != nil || !k.Uncertain {
		t.Errorf("a surname with no letters: %+v", k)
	}
}

// sameKeys asserts that surnames share a key of the given kind.
func sameKeys(t *testing.T, kind string, key func(Keys) string, surnames ...string) {
	t.Helper()
	first := key(SurnameKeys(surnames[0]))
	for _, s := range surnames[1:] {
		if got := key(SurnameKeys(s)); got != first {
			t.Errorf("%s key of %q is %q, of %q is %q", kind, surnames[0], first, s, got)
		}
	}
}

func TestSpellingsThatMatch(t *testing.T) {
	folded := func(k Keys) string { return k.Folded }
	variant := func(k Keys) string { return k.Variant }
	sameKeys(t, "folded", folded, "Müller", "Muller", "MÜLLER")
	sameKeys(t, "variant", variant, "Müller", "Muller", "Mueller")
	sameKeys(t, "variant", variant, "Schröder", "Schroder", "Schroeder")
	sameKeys(t, "folded", folded, "McDonald", "MacDonald", "M'Donald", "Mac Donald", "MCDONALD")
	sameKeys(t, "folded", folded, "St John", "St. John", "Saint John", "St-John")
	sameKeys(t, "folded", folded, "O'Brien", "O Brien", "O’Brien")
	sameKeys(t, "variant", variant, "Smith", "Smyth", "Smythe")
	sameKeys(t, "variant", variant, "Rees", "Rhys", "Rice", "Reece")
	sameKeys(t, "variant", variant, "Price", "Pryce", "ap Rhys", "Ap Rhys")
	sameKeys(t, "variant", variant, "O'Neill", "Neill", "O'Neal")
	sameKeys(t, "variant", variant, "Sinclair", "St Clair", "Saint-Clair")
	sameKeys(t, "variant", variant, "Lloyd", "Floyd")
	sameKeys(t, "variant", variant, "Reilly", "O'Reilly", "Riley")
	for _, k := range []func(Keys) string{
		func(k Keys) string { return k.Soundex },
		func(k Keys) string { return strings.Join(k.DM, " ") },
		func(k Keys) string { return k.MetaphonePrimary + "/" + k.MetaphoneAlt },
	} {
		sameKeys(t, "phonetic", k, "Müller", "Muller", "Mueller")
		sameKeys(t, "phonetic", k, "Sm[i]th", "Smith")
	}
	// Spellings that must stay apart.
	if SurnameKeys("Rodriguez").Variant != "rodriguez" || SurnameKeys("Marquez").Variant != "marquez" {
		t.Error("GUE and QUE are not umlaut spellings")
	}
	if SurnameKeys("Neal").Variant == SurnameKeys("O'Neill").Variant {
		t.Error("Neal is not in the O'Neill cluster")
	}
}

func TestPhoneticMatch(t *testing.T) {
	yes := [][2]string{{"Schwarzenegger", "Schwartsenegger"}, {"Smith", "Schmidt"},
		{"Moskowitz", "Moskovitz"}, {"Thompson", "Tompson"}, {"Wasserman", "Vasserman"}}
	for _, p := range yes {
		if !SurnameKeys(p[0]).PhoneticMatch(SurnameKeys(p[1])) {
			t.Errorf("%s and %s should match phonetically", p[0], p[1])
		}
	}
	if SurnameKeys("Smith").PhoneticMatch(SurnameKeys("Jones")) {
		t.Error("Smith and Jones match phonetically")
	}
	if (Keys{}).PhoneticMatch(Keys{}) {
		t.Error("empty keys match")
	}
}

func TestSurnameVariantsFile(t *testing.T) {
	v := DefaultSurnameVariants()
	if got := v.Cluster("Smyth"); !slices.Equal(got, []string{"smith", "smithe", "smyth", "smythe"}) {
		t.Errorf("Cluster(Smyth) = %v", got)
	}
	if v.Cluster("Zebedee") != nil {
		t.Error("Zebedee is in a cluster")
	}
	bad := []struct{ name, text string }{
		{"surname in two clusters", "smith, smyth\nsmythe, smyth\n"},
		{"empty name", "smith,,smyth\n"},
		{"no letters", "smith, 123\n"},
	}
	for _, b := range bad {
		if _, err := ParseSurnameVariants(strings.NewReader(b.text), "test.txt"); err == nil {
			t.Errorf("%s: no error", b.name)
		} else if !strings.HasPrefix(err.Error(), "test.txt:") {
			t.Errorf("%s: error %q does not say where", b.name, err)
		}
	}
	path := t.TempDir() + "/surnames.txt"
	writeFile(t, path, "# ours\nhumphreys, humfreys, umphray\nsmith, smijth\n")
	v, err := LoadSurnameVariants(path)
	if err != nil {
		t.Fatal(err)
	}
	if v.VariantKey("Umphray") != "humphreys" || v.VariantKey("Smijth") != "smith" || v.VariantKey("Smyth") != "smith" {
		t.Error("the operator's clusters were not added to the shipped ones")
	}
	if _, err := LoadSurnameVariants(t.TempDir() + "/missing.txt"); err == nil {
		t.Error("a missing file is not an error")
	}
	if !strings.Contains(string(ShippedSurnameVariants()), "smith, smyth") {
		t.Error("ShippedSurnameVariants does not return the shipped file")
	}
}

var benchSurnames = []string{"Smith", "Schwarzenegger", "McDonald", "O'Brien", "Müller",
	"Rosochowaciec", "St. John", "Thompson", "Sm[i]th", "Fitzgerald"}

func BenchmarkKeys(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		SurnameKeys(benchSurnames[i%len(benchSurnames)])
	}
}

func BenchmarkSoundex(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		Soundex(benchSurnames[i%len(benchSurnames)])
	}
}

func BenchmarkDaitchMokotoff(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		DaitchMokotoff(benchSurnames[i%len(benchSurnames)])
	}
}

func BenchmarkDoubleMetaphone(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		DoubleMetaphone(benchSurnames[i%len(benchSurnames)])
	}
}

// TestKeysCodes: Daitch–Mokotoff codes first, then the distinct Metaphone codes; no
// codes for keys without them.
func TestKeysCodes(t *testing.T) {
	for _, c := range []struct {
		k    Keys
		want string
	}{
		{Keys{}, ""},
		{Keys{DM: []string{"463000", "563000"}, MetaphonePrimary: "SM0", MetaphoneAlt: "XMT"}, "d463000 d563000 mSM0 mXMT"},
		{Keys{DM: []string{"463000"}, MetaphonePrimary: "SM0", MetaphoneAlt: "SM0"}, "d463000 mSM0"},
		{Keys{MetaphoneAlt: "A"}, "mA"},
	} {
		if got := strings.Join(c.k.Codes(), " "); got != c.want {
			t.Errorf("%v: codes %q, want %q", c.k, got, c.want)
		}
	}
	if got := strings.Join(SurnameKeys("Smith").Codes(), " "); !strings.Contains(got, "d463000") || !strings.Contains(got, "mSM0") {
		t.Errorf("Smith: codes %q", got)
	}
}
