package index

import (
	"lineage/internal/gendate"
)

// Date quality and span classes of search_keys (see 00005_research.sql).
const (
	SpanShort   = 0
	SpanLong    = 1
	SpanNone    = 2
	ShortDays   = 4018 // 11 years: the longest range a span-0 row may cover
	DQNone      = 0
	DQExact     = 1
	DQLoose     = 2
	MaxKeyWidth = 256 // persons per record in search_keys ids
)

func SpanOf(has bool, lo, hi int) int {
	switch {
	case !has:
		return SpanNone
	case hi-lo <= ShortDays:
		return SpanShort
	}
	return SpanLong
}

func DQOf(has bool, kind gendate.Kind) int {
	switch {
	case !has:
		return DQNone
	case kind == gendate.Exact:
		return DQExact
	}
	return DQLoose
}

// DecadeOf is the decade facet of a date range: the decade of its middle day; 0 for
// no date.
func DecadeOf(has bool, lo, hi int) int {
	if !has {
		return 0
	}
	y, _, _ := gendate.JDNToGregorian(lo + (hi-lo)/2)
	return FloorDiv(y, 10) * 10
}

func FloorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// The facets of name_facets.
const (
	FacetDecade = 0
	FacetCounty = 1
)
