package trees

import (
	"time"

	"lineage/internal/gendate"
)

// LivingYears is how recent a birth makes a person without a death living.
const LivingYears = 100

// PublicPerson is the SQL condition under which anyone, signed in or not, sees a
// person of a family tree in full (docs/trees.md "The living"): the tree is published
// and the person is not counted among the living. Rooms that show things attached to
// tree people (the image server's scans) hide what it hides. tree and person are the
// query's aliases of trees and tree_people.
func PublicPerson(tree, person string) string {
	return "(" + tree + ".published = 1 AND " + person + ".living = 0)"
}

// parentAge is how many years before a child's birth, or a marriage, a person is taken
// to have been born at the latest.
const parentAge = 12

// computeLiving sets living on every person (docs/trees.md "The living"): not living
// with a DEAT, BURI or CREM; restricted (RESN) people are shown as living; otherwise
// living unless the latest possible birth is LivingYears or more before now.
func computeLiving(people []*personInfo, families []*familyInfo, byXref map[string]int, now time.Time) {
	y, m, d := now.Date()
	cutoff := gendate.AddYears(gendate.GregorianToJDN(y, int(m), d), -LivingYears)
	const none = int(^uint(0) >> 1)
	// The latest birth each person's own dates allow.
	own := make([]int, len(people))
	for i, p := range people {
		own[i] = none
		if b := birthEvent(p.events); b != nil && b.hasRange {
			own[i] = b.hi
			continue
		}
		for _, e := range p.events {
			if e.hasRange && e.hi < own[i] {
				own[i] = e.hi
			}
		}
	}
	bound := make([]int, len(people))
	copy(bound, own)
	lower := func(i, v int) {
		if v < bound[i] {
			bound[i] = v
		}
	}
	for _, f := range families {
		famHi := none
		for _, e := range f.events {
			if e.hasRange && e.hi < famHi {
				famHi = e.hi
			}
		}
		childHi := none
		for _, c := range f.children {
			if ci, ok := byXref[c]; ok {
				if b := birthEvent(people[ci].events); b != nil && b.hasRange && b.hi < childHi {
					childHi = b.hi
				}
			}
		}
		for _, px := range f.partners {
			pi, ok := byXref[px]
			if !ok || hasBirthRange(people[pi]) {
				continue
			}
			if famHi != none {
				lower(pi, gendate.AddYears(famHi, -parentAge))
			}
			if childHi != none {
				lower(pi, gendate.AddYears(childHi, -parentAge))
			}
		}
	}
	for i, p := range people {
		switch {
		case p.restricted:
			p.living = true
		case p.dead:
			p.living = false
		case bound[i] == none:
			p.living = true
		default:
			p.living = bound[i] > cutoff
		}
	}
}

func hasBirthRange(p *personInfo) bool {
	b := birthEvent(p.events)
	return b != nil && b.hasRange
}
