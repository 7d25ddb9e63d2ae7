// Package names is the room for how Lineage compares people's names: folding them to
// a comparable form, the phonetic codes the search engine stores in indexed columns,
// and the shipped, editable tables of given-name and surname variants. It has no
// dependencies and no state beyond the tables it loads once; the search engine, record
// import and GEDCOM import call it at index time and at query time, so that both see
// the same keys (ARCHITECTURE.md §4).
//
// # Folding
//
// Fold lower-cases, folds accents (Müller → muller, Séamus → seamus, ß → ss, æ → ae),
// drops apostrophes (O'Brien → obrien) and transcribers' marks (*, ?, _ for letters that
// could not be read; square brackets around supplied letters; "[illegible]" and "[…]"
// entirely), and makes any other punctuation a word break. SurnameKey also writes
// prefixes one way (Mc, M', Mac → mac; St, St., Ste → saint, sainte; O' and a separate
// O join the name) and runs the words together, so "Mac Donald" and "McDonald" are
// the same surname.
//
// Umlauts fold to the bare vowel, as Unicode decomposes them: Müller and Muller have the
// same folded key. Mueller, the German way of writing ü without the accent, is
// another spelling of the same name; it meets the other two through the variant key,
// which reduces ae, oe, ue after a consonant (not after g or q: Rodriguez, Marquez) to
// a, o, u, and through the phonetic codes, which already agree (M460, 689000, MLR).
//
// # Phonetic codes
//
// Soundex is American Soundex as the U.S. National Archives define it (the H and W
// rule included). DaitchMokotoff returns every code of the Daitch–Mokotoff chart,
// branching where a letter group has two sounds. DoubleMetaphone follows Lawrence
// Philips' published rules, primary and alternate, four characters each. All three
// work on folded letters; SurnameKeys computes them from the surname key, so spelling
// differences that fold away never split a name's codes.
//
// # Variant tables
//
// given_names.txt (GivenNames: William, Wm, Will, Bill, Gulielmus, Liam, Gwilym …) and
// surname_variants.txt (SurnameVariants: Smith, Smyth, Smythe …) are embedded text
// files, one group a line, that an operator can extend with a file of their own
// (LoadGivenNames, LoadSurnameVariants) or replace (ParseGivenNames,
// ParseSurnameVariants). A given name may be in several groups; initials match any
// name they begin or whose group key they begin (J matches John and Jack).
package names
