package trees_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"lineage/internal/trees"
)

// staff reads as an editor: sees everything.
var staff = trees.Viewer{ID: 999, Name: "Editor", Role: "editor"}

// snapshot writes everything the API shows of a tree to a privileged reader, one line
// per fact, sorted: people with names, sex, events, notes, sources, media, and families
// with partners and children. Two imports of the same data give equal snapshots.
func snapshot(t testing.TB, s *trees.Service, slug string) []string {
	return snapshotOf(t, s, slug, true)
}

// snapshotOf: with dates false, events are compared by tag, type, value and place, and
// whether they have a date (the paired files write some dates differently).
func snapshotOf(t testing.TB, s *trees.Service, slug string, dates bool) []string {
	t.Helper()
	ctx := withViewer(context.Background(), staff)
	var out []string
	for offset := 0; ; offset += 200 {
		page, err := s.People(ctx, slug, &trees.PeopleQuery{Offset: offset, Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		for _, sum := range page.Results {
			p, err := s.Person(ctx, slug, sum.ID)
			if err != nil {
				t.Fatalf("person %s: %v", sum.ID, err)
			}
			out = append(out, personFacts(p, dates)...)
		}
		if offset+200 >= page.Total {
			break
		}
	}
	slices.Sort(out)
	return out
}

func personFacts(p *trees.Person, dates bool) []string {
	id := p.ID
	out := []string{fmt.Sprintf("%s sex=%s", id, p.Sex)}
	if dates {
		// (The living flag follows the dates, which the paired files write differently.)
		out[0] += fmt.Sprintf(" living=%v", p.Living)
	}
	for _, n := range p.Names {
		out = append(out, fmt.Sprintf("%s name %q given=%q surname=%q type=%q", id, n.Full, n.Given, n.Surname, n.Type))
	}
	ev := func(prefix string, e trees.EventView) string {
		d := ""
		if e.Date != nil {
			d = e.Date.Earliest + ".." + e.Date.Latest
			if d == ".." {
				d = e.Date.Text
			}
			if !dates {
				d = "yes"
			}
		}
		if !dates {
			return fmt.Sprintf("%s event %s type=%q value=%q date=%s place=%q", prefix, e.Tag, e.Type, e.Value, d, e.Place)
		}
		return fmt.Sprintf("%s event %s type=%q value=%q date=%s place=%q notes=%q", prefix, e.Tag, e.Type, e.Value, d, e.Place, e.Notes)
	}
	for _, e := range p.Events {
		out = append(out, ev(id, e))
	}
	for _, n := range p.Notes {
		out = append(out, fmt.Sprintf("%s note %q", id, strings.TrimSpace(n)))
	}
	for _, s := range p.Sources {
		out = append(out, fmt.Sprintf("%s source %q page=%q text=%q", id, s.Title, s.Page, s.Text))
	}
	for _, m := range p.Media {
		out = append(out, fmt.Sprintf("%s media %q", id, m.File))
	}
	for _, pf := range p.Parents {
		var ps []string
		for _, x := range pf.Partners {
			ps = append(ps, x.ID)
		}
		out = append(out, fmt.Sprintf("%s child of %v pedigree=%s", id, ps, pf.Pedigree))
	}
	for _, f := range p.Families {
		partner := ""
		if f.Partner != nil {
			partner = f.Partner.ID
		}
		var kids []string
		for _, c := range f.Children {
			kids = append(kids, c.ID)
		}
		out = append(out, fmt.Sprintf("%s family partner=%s children=%v", id, partner, kids))
		for _, e := range f.Events {
			out = append(out, ev(id+" family", e))
		}
	}
	return out
}

// diff reports the lines only in a and only in b.
func diff(a, b []string) (onlyA, onlyB []string) {
	ca := map[string]int{}
	for _, x := range a {
		ca[x]++
	}
	for _, x := range b {
		if ca[x] > 0 {
			ca[x]--
		} else {
			onlyB = append(onlyB, x)
		}
	}
	for x, n := range ca {
		for ; n > 0; n-- {
			onlyA = append(onlyA, x)
		}
	}
	slices.Sort(onlyA)
	return onlyA, onlyB
}
