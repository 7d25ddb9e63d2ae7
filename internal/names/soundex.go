package names

// soundexCodes holds the American Soundex digit of each letter A–Z; 0 marks the
// vowels A E I O U Y, which separate letters of the same code, and 'h' marks H and W,
// which do not.
var soundexCodes = [26]byte{
	0, '1', '2', '3', 0, '1', '2', 'h', 0, '2', '2', '4', '5', // A–M
	'5', 0, '1', '2', '6', '2', '3', 0, '1', 'h', '2', 0, '2', // N–Z
}

// Soundex returns the American Soundex code of a name (Russell's system as used by the
// U.S. National Archives): its first letter and three digits, padded with zeros. Letters
// with the same code side by side, or separated only by H or W, are coded once
// (Ashcraft A261, Pfister P236); a vowel between them makes both count (Tymczak T522).
// The name is folded first (Müller → M460); a name with no letters gives "".
func Soundex(name string) string {
	return soundex(letters(Fold(name)))
}

func soundex(l []byte) string {
	if len(l) == 0 {
		return ""
	}
	out := []byte{l[0], '0', '0', '0'}
	n := 1
	last := soundexCodes[l[0]-'A']
	for _, c := range l[1:] {
		if n == 4 {
			break
		}
		switch code := soundexCodes[c-'A']; code {
		case 0:
			last = 0
		case 'h':
		default:
			if code != last {
				out[n] = code
				n++
			}
			last = code
		}
	}
	return string(out)
}
