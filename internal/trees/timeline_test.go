package trees

import (
	"slices"
	"strings"
	"testing"

	"lineage/internal/gendate"
)

// ev is an event as the person answer builds it: "BIRT 24 JUL 1822", or "RESI" undated.
func ev(t *testing.T, s string) EventView {
	t.Helper()
	tag, date, _ := strings.Cut(s, " ")
	e := EventView{Tag: tag, Label: s}
	if date != "" {
		d, err := gendate.Parse(date)
		if err != nil || !d.HasRange() {
			t.Fatalf("date %q: %v", date, err)
		}
		e.lo, e.hi, e.dated = d.Range.Earliest, d.Range.Latest, true
	}
	return e
}

func TestOrderTimeline(t *testing.T) {
	tests := []struct {
		name string
		own  []string
		fam  []string // one family's events
		want []string // labels, in timeline order
	}{
		{"birth before a christening of its year",
			[]string{"CHR 1822", "BIRT 24 JUL 1822"}, nil,
			[]string{"BIRT 24 JUL 1822", "CHR 1822"}},
		{"birth before a baptism of the same day",
			[]string{"BAPM 3 MAR 1851", "BIRT 3 MAR 1851"}, nil,
			[]string{"BIRT 3 MAR 1851", "BAPM 3 MAR 1851"}},
		{"a christening clearly before the recorded birth stays before it",
			[]string{"BIRT 24 JUL 1823", "CHR 1822"}, nil,
			[]string{"CHR 1822", "BIRT 24 JUL 1823"}},
		{"death before a burial of its year",
			[]string{"BURI 1890", "DEAT 3 MAR 1890", "BIRT 1822"}, nil,
			[]string{"BIRT 1822", "DEAT 3 MAR 1890", "BURI 1890"}},
		{"death before a cremation of the same month",
			[]string{"CREM MAR 1890", "DEAT 30 MAR 1890"}, nil,
			[]string{"DEAT 30 MAR 1890", "CREM MAR 1890"}},
		{"a residence of the death year stays before the death",
			[]string{"DEAT 3 MAR 1890", "RESI 1890"}, nil,
			[]string{"RESI 1890", "DEAT 3 MAR 1890"}},
		{"nothing of the birth year before the birth",
			[]string{"RESI 1822", "CHR 1822", "BIRT 24 JUL 1822"}, nil,
			[]string{"BIRT 24 JUL 1822", "CHR 1822", "RESI 1822"}},
		{"family events among the person's own",
			[]string{"BIRT 1822", "DEAT 1890", "OCCU 1851"}, []string{"MARR 12 JUN 1845", "DIV"},
			[]string{"BIRT 1822", "MARR 12 JUN 1845", "OCCU 1851", "DEAT 1890", "DIV"}},
		{"the narrower range first on the same start",
			[]string{"CENS 1851", "RESI 1 JAN 1851"}, nil,
			[]string{"RESI 1 JAN 1851", "CENS 1851"}},
		{"undated after dated, in life order, then file order",
			[]string{"BURI", "OCCU", "BIRT", "RESI 1851", "NOTE2", "DEAT", "CHR"}, nil,
			[]string{"RESI 1851", "BIRT", "CHR", "OCCU", "NOTE2", "DEAT", "BURI"}},
		{"equal events keep file order",
			[]string{"RESI 1851", "OCCU 1851", "CENS 1851"}, nil,
			[]string{"RESI 1851", "OCCU 1851", "CENS 1851"}},
		{"a death with no earliest date still follows the birth",
			[]string{"DEAT BEF 1900", "BIRT 1822"}, nil,
			[]string{"BIRT 1822", "DEAT BEF 1900"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var own, fam []EventView
			for _, s := range tt.own {
				own = append(own, ev(t, s))
			}
			for _, s := range tt.fam {
				fam = append(fam, ev(t, s))
			}
			orderTimeline(own, [][]EventView{fam})
			all := append(slices.Clone(own), fam...)
			slices.SortFunc(all, func(a, b EventView) int { return a.Position - b.Position })
			var got []string
			for i, e := range all {
				if e.Position != i {
					t.Fatalf("positions %v are not 0..%d", all, len(all)-1)
				}
				got = append(got, e.Label)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("order\n got %q\nwant %q", got, tt.want)
			}
			for _, l := range [][]EventView{own, fam} {
				if !slices.IsSortedFunc(l, func(a, b EventView) int { return a.Position - b.Position }) {
					t.Errorf("a list is not in timeline order: %v", l)
				}
			}
		})
	}
}
