package trees

import "slices"

// A person's timeline is their own events and their families' in one order, decided
// here and only here: the API gives each event its Position in it and lists each list
// in that order, and the web merges the lists by Position.
//
// Events are ordered by their date ranges, with the tie-breaks a genealogist expects:
//   - nothing of a person's comes before their birth when its range could hold the
//     birth: "1822 Christening" follows "24 Jul 1822 Birth" (the christening's range
//     starts, for ordering, no earlier than the birth);
//   - a burial or cremation whose range could hold the death follows the death;
//   - on the same start, birth, then christening/baptism, then other events, then
//     death, then burial/cremation; then the narrower range first; then file order;
//   - undated events come after the dated ones, in that same life order (birth,
//     christening, others, death, burial), then file order.
//
// Every event gets one key of plain numbers, so the order is total whatever the data.

// lifeRank is an event's place among events of the same date.
func lifeRank(tag string) int {
	switch tag {
	case "BIRT":
		return 0
	case "CHR", "BAPM":
		return 1
	case "DEAT":
		return 3
	case "BURI", "CREM":
		return 4
	}
	return 2
}

// orderTimeline sorts own and each family's events into the person's timeline and
// sets their Position (0, 1, … across all of them).
func orderTimeline(own []EventView, fams [][]EventView) {
	all := make([]*EventView, 0, len(own))
	for i := range own {
		all = append(all, &own[i])
	}
	for _, f := range fams {
		for i := range f {
			all = append(all, &f[i])
		}
	}
	birth, death := anchor(own, "BIRT"), anchor(own, "DEAT")
	type key struct {
		dated                   bool
		start, rank, lo, hi, at int
	}
	keys := make(map[*EventView]key, len(all))
	for at, e := range all {
		k := key{dated: e.dated, rank: lifeRank(e.Tag), lo: e.lo, hi: e.hi, at: at}
		k.start = e.lo
		if e.dated {
			if birth != nil && e != birth && overlaps(e, birth) {
				k.start = max(k.start, birth.lo)
			}
			if death != nil && (e.Tag == "BURI" || e.Tag == "CREM") && overlaps(e, death) {
				k.start = max(k.start, death.lo)
			}
		}
		keys[e] = k
	}
	cmp := func(a, b *EventView) int {
		ka, kb := keys[a], keys[b]
		if ka.dated != kb.dated {
			if ka.dated {
				return -1
			}
			return 1
		}
		ds := []int{ka.start - kb.start, ka.rank - kb.rank, ka.lo - kb.lo, ka.hi - kb.hi, ka.at - kb.at}
		if !ka.dated {
			ds = []int{ka.rank - kb.rank, ka.at - kb.at}
		}
		for _, d := range ds {
			if d != 0 {
				return d
			}
		}
		return 0
	}
	slices.SortFunc(all, cmp)
	for pos, e := range all {
		e.Position = pos
	}
	byPosition := func(a, b EventView) int { return a.Position - b.Position }
	slices.SortFunc(own, byPosition)
	for _, f := range fams {
		slices.SortFunc(f, byPosition)
	}
}

// anchor is the person's first dated event with the tag.
func anchor(evs []EventView, tag string) *EventView {
	for i := range evs {
		if evs[i].Tag == tag && evs[i].dated {
			return &evs[i]
		}
	}
	return nil
}

func overlaps(a, b *EventView) bool { return a.lo <= b.hi && b.lo <= a.hi }
