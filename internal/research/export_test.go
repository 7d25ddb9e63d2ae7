package research

// DecadeOf exposes the decade rule of name_facets to the external tests.
func DecadeOf(lo, hi int64) int64 { return int64(decadeOf(true, int(lo), int(hi))) }
