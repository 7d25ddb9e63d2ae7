// Package gedcom reads and writes GEDCOM 5.5, 5.5.1 and 7.0 files and GEDZIP archives,
// one record at a time. It knows GEDCOM's syntax (lines, levels, identifiers, pointers,
// escapes, continuation lines, character sets), not its meaning: a record is a tree of
// Lines, and what an INDI or a FAM holds is for the importer (internal/trees) to read.
//
// Why our own and not github.com/cacack/gedcom-go: docs/decisions/003-gedcom-library.md.
//
// # Reading
//
//	r, err := gedcom.Open(path, nil) // .ged or .gdz
//	if err != nil { … }
//	defer r.Close()
//	h := r.Header() // version, charset, source, the whole HEAD record
//	for rec, err := range r.Records() {
//		if err != nil { … } // I/O, or the first problem in strict mode
//		// rec.Tag == "INDI", rec.Xref == "I1", rec.Children …
//	}
//	for _, w := range r.Warnings() { log.Print(w) } // "line 12: level 3 follows level 1; …"
//
// The Reader works out the encoding from the byte order mark, the bytes themselves
// (UTF-16 without a BOM) and HEAD.CHAR: UTF-8 with or without BOM, UTF-16 LE and BE,
// ANSEL, ASCII, ANSI (CP1252), IBM PC (CP437) and Macintosh. GEDCOM 7 is always UTF-8.
// Text comes out as UTF-8; ANSEL's diacritics are composed (NFC).
//
// Lenient by default: a malformed line is a Warning with its line number and the read
// goes on (the line and the lines under it are skipped; a level jump is attached to the
// deepest line; bytes invalid in the encoding are read as CP1252 or U+FFFD). With
// Options.Strict the first such problem is a *SyntaxError instead.
//
// Memory is bounded by the current record, never by the file: physical lines are cut at
// Options.MaxLineBytes, a record is cut at Options.MaxRecordBytes, warnings kept at
// Options.MaxWarnings, interned tags at 4096. Nothing is read ahead beyond one buffer and
// the HEAD record.
//
// For files from people the caller does not trust, Options.Limits bound the dataset's
// bytes, lines and records, the length of one value with its CONT and CONC lines, and a
// GEDZIP archive's entries and uncompressed bytes (counted as they are decompressed, not
// only as the archive declares them). Past a limit the read ends with a *LimitError whose
// Message names the limit ("a GEDZIP archive may expand to at most 500 MB").
//
// # What a Line holds
//
//   - Xref and Pointer without their @ signs and in upper case: identifiers are
//     case-insensitive, so @test@ and @TEST@ are the same record. GEDCOM 7's null
//     pointer @VOID@ is Pointer "VOID" (Line.IsVoid).
//   - Value with CONC and CONT joined (CONT as "\n") and @@ escapes removed: in GEDCOM 7
//     only a leading @@ is an escape; in 5.5 and 5.5.1 every @@ is one @. Date escapes
//     such as @#DJULIAN@ are left in place for internal/gendate.
//   - A value of the form @X@ is a pointer (X not starting with #); anything else is
//     text.
//   - Extension tags (_UID, _MARNM…) and unknown tags are kept like any other.
//
// # Writing
//
//	w, err := gedcom.NewWriter(out, header, &gedcom.WriterOptions{Version: gedcom.Version551})
//	for … { err = w.Write(rec) }
//	err = w.Close() // TRLR
//
// The Writer writes HEAD from the Header, each record's tree with levels from its depth,
// CONT at newlines, CONC (5.5.x only) to keep lines within MaxLineLength (253 characters
// by default, never cutting an @@ pair, an @#…@ escape or a letter from its diacritic,
// and not next to a space when it can help it), @ escaped as the version requires, and
// HEAD.CHAR for the output encoding (UTF-8; for 5.5.x also UNICODE, ANSEL, ASCII). It
// does not convert structures between versions (NOTE records to SNOTE and so on): that is
// the exporter's choice.
//
// # Round trips
//
// Read → write (same version) → read gives the same records, line for line. What may
// change, by design:
//
//   - line ends (the Writer's LineEnding), the byte order mark, the encoding (HEAD.CHAR
//     follows it; a CHAR.VERS of another character set is dropped);
//   - leading white space before a level, runs of spaces between level, identifier and
//     tag, blank lines, and trailing NULs or Ctrl-Z;
//   - identifiers in upper case; for GEDCOM 7 output, bytes other than A–Z, 0–9 and _
//     in an identifier become _ and two hex digits (@NoTe ref@ → @NOTE_20REF@);
//   - where CONC splits a long value (the text is the same), and CONC is never written
//     for 7.0;
//   - @@ escapes: 5.5.x output doubles every @ that is not part of an @#…@ escape, 7.0
//     output only a leading one;
//   - HEAD.GEDC.VERS is the output version, GEDC.FORM LINEAGE-LINKED is added for 5.5.x
//     and removed for 7.0, HEAD.CHAR is removed for 7.0;
//   - lines the Reader warned about and dropped are gone, and repaired level jumps are
//     written at their repaired level.
//
// Text from an ANSEL file is NFC; written back as ANSEL, the diacritics of one letter
// may come out in Unicode's canonical order rather than the original's.
//
// # GEDZIP
//
// OpenGEDZIP (or Open) reads gedcom.ged from a GEDZIP archive and gives the other files
// as an fs.FS (Reader.Files); MediaPath turns a FILE value into a name in it.
// NewZipWriter writes an archive: the dataset first, then the media.
package gedcom
