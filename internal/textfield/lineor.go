package textfield

// LineOr returns s, trimmed, when it is a valid single line of 1 to max characters,
// else fallback. It is for values read back from the store into a mail: one saved
// before validation, or by another program, must not add lines or headers of its own,
// and a mail reads better with a plain fallback ("our event") than with an escaped
// value (Escape, for listings).
func LineOr(s string, max int, fallback string) string {
	v, err := SingleLine(s, max)
	if err != nil || v == "" {
		return fallback
	}
	return v
}
