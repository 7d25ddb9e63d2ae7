package ingest

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestParallelSorts: sorting on several goroutines gives the order one sort gives,
// with surnames spread evenly, skewed (one surname a third of the rows, as "no
// surname" can be) and all alike.
func TestParallelSorts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, surname := range map[string]func() int32{
		"even":   func() int32 { return r.Int32N(5000) },
		"skewed": func() int32 { return max(0, r.Int32N(3000)-1000) },
		"alike":  func() int32 { return 7 },
	} {
		rows := make([]searchRow, 3*parallelSortMin+17)
		for i := range rows {
			rows[i] = searchRow{id: int64(i), surname: surname(), given: r.Int32N(50), lo: r.Int32N(1000), span: int8(r.IntN(3))}
		}
		r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		for _, parts := range []int{1, 2, 3, 4} {
			got := slices.Clone(rows)
			sortBySurname(got, parts)
			want := slices.Clone(rows)
			slices.SortFunc(want, bySurnameKey)
			if !slices.Equal(got, want) {
				t.Fatalf("%s, %d parts: not in the surname order", name, parts)
			}
			sortByGiven(got, parts)
			slices.SortFunc(want, func(a, b searchRow) int {
				if c := bySurnameKey(searchRow{surname: a.surname}, searchRow{surname: b.surname}); c != 0 {
					return c
				}
				return byGivenKey(a, b)
			})
			if !slices.Equal(got, want) {
				t.Fatalf("%s, %d parts: not in the given-names order", name, parts)
			}
		}
	}
}
