package membership

import (
	"strings"
	"testing"
	"unicode/utf8"

	"lineage/internal/httpx"
)

// Whatever a visitor's declaration holds, checkGiftAid either refuses it or accepts
// values that go into HMRC's schedule as they are: within its lengths, on one line,
// the postcode in its written form, and only the last name's hyphens changed.
func FuzzGiftAidDeclaration(f *testing.F) {
	f.Add("Mrs", "Ada", "Smith-Jones", "12", "s19 2bd", "1 Lane\nTown")
	f.Add("Professor", "J.", "O'Brien", "Rose Cottage", "SW1A1AA", "x")
	f.Add("", "=1", "a\u2028b", "-1", "12345", "")
	f.Add("Dr", "Zoë", "Ng", "Flat 2\uFFFD", "m1 1ae", "addr")
	s := &Service{opt: Options{SocietyName: "Test Society"}}
	f.Fuzz(func(t *testing.T, title, first, last, house, postcode, address string) {
		in, err := s.checkGiftAid(GiftAidInput{Declared: true, Title: title, FirstName: first, LastName: last,
			House: house, Postcode: postcode, Address: address})
		if err != nil {
			if _, ok := err.(*httpx.Error); !ok {
				t.Fatalf("not a field error: %v", err)
			}
			return
		}
		cells := ClaimRow{Title: in.Title, FirstName: in.FirstName, LastName: in.LastName, House: in.House, Postcode: in.Postcode, AmountMinor: 1}.Cells()
		wantLast := strings.Join(strings.Fields(strings.ReplaceAll(in.LastName, "-", " ")), " ")
		want := []string{in.Title, in.FirstName, wantLast, in.House, in.Postcode}
		for i, w := range want {
			if cells[i] != w {
				t.Fatalf("accepted %q became %q in the claim (cells %q)", w, cells[i], cells)
			}
		}
		if utf8.RuneCountInString(in.FirstName) > MaxGiftAidName || utf8.RuneCountInString(in.LastName) > MaxGiftAidName ||
			utf8.RuneCountInString(in.Title) > MaxGiftAidTitle || utf8.RuneCountInString(in.House) > MaxGiftAidHouse {
			t.Fatalf("over a limit: %+v", in)
		}
		if pc, ok := NormalizePostcode(in.Postcode); !ok || pc != in.Postcode {
			t.Fatalf("postcode %q is not in its written form (%q, %v)", in.Postcode, pc, ok)
		}
	})
}

// Whatever a stored row holds (one written before validation, or by another program),
// its cells are single lines within HMRC's lengths that a spreadsheet does not read as
// formulas.
func FuzzClaimRowCells(f *testing.F) {
	f.Add("Mr", "John", "Smith-Jones", "10", "s19 2bd")
	f.Add("=cmd", "+1", "@x", "-\n=2", "\x00")
	f.Fuzz(func(t *testing.T, title, first, last, house, postcode string) {
		cells := ClaimRow{Title: title, FirstName: first, LastName: last, House: house, Postcode: postcode, AmountMinor: 100}.Cells()
		limits := []int{MaxGiftAidTitle, MaxGiftAidName, MaxGiftAidName, MaxGiftAidHouse, 8}
		for i, max := range limits {
			c := cells[i]
			if !utf8.ValidString(c) || utf8.RuneCountInString(c) > max || strings.ContainsAny(c, "\r\n\x00") {
				t.Fatalf("cell %d %q", i, c)
			}
			if c != "" && strings.ContainsRune("=+-@", rune(c[0])) {
				t.Fatalf("cell %d starts a formula: %q", i, c)
			}
		}
		if cells[5] != "" || cells[6] != "" || cells[8] != "1.00" {
			t.Fatalf("cells %q", cells)
		}
	})
}
