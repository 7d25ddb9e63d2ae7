package names

// Surname search modes: how a searched surname matches the stored ones, in the
// research search and the trees' pedigree search alike. Each includes the ones before
// it in ranking, and exact matches always rank first. The API names them in this order
// (SurnameModes); the web app's list is checked against it.
const (
	ModeExact    = "exact"    // the same surname key (accents, case, Mc/Mac, St/Saint fold away)
	ModeVariants = "variants" // plus known variant spellings and umlaut spellings
	ModeSoundex  = "soundex"  // plus the same Russell Soundex code
	ModePhonetic = "phonetic" // plus a shared Daitch–Mokotoff or Double Metaphone code
	ModeWildcard = "wildcard" // * any letters, ? one letter; at least three letters given
)

// SurnameModes lists the surname modes.
var SurnameModes = []string{ModeExact, ModeVariants, ModeSoundex, ModePhonetic, ModeWildcard}
