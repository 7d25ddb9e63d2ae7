package trees

import (
	"context"
	"fmt"
	"strconv"

	"lineage/internal/gedcom"
)

// Limits bound what a member's upload and a reader's request may make the server do
// (docs/deployment.md, "Uploads, archives and family trees"). A field of 0 takes its
// default; uploads by editors and admins are bound by everything but the per-member
// limits. Command-line imports are not bound (the operator chose the file).
type Limits struct {
	UploadBytes       int64 // the file as sent (LINEAGE_TREE_UPLOAD_MB)
	ArchiveBytes      int64 // what a GEDZIP expands to (LINEAGE_GEDZIP_MAX_MB)
	ArchiveEntries    int   // files in a GEDZIP (LINEAGE_GEDZIP_MAX_FILES)
	Lines             int   // lines of the GEDCOM (LINEAGE_GEDCOM_MAX_LINES)
	Records           int   // level-0 records of the GEDCOM (LINEAGE_GEDCOM_MAX_RECORDS)
	TextBytes         int   // one value with its CONT/CONC lines (LINEAGE_GEDCOM_MAX_TEXT_KB)
	TreesPerMember    int   // trees a member owns (LINEAGE_TREES_PER_MEMBER)
	BytesPerMember    int64 // GEDCOM bytes of all the trees a member owns (LINEAGE_TREE_MB_PER_MEMBER)
	PersonItems       int   // items of one list in a person's answer (LINEAGE_PERSON_MAX_ITEMS)
	PersonAnswerBytes int   // about how large a person's answer grows before paging (LINEAGE_PERSON_ANSWER_KB)
}

// DefaultLimits are the limits of a Service whose Options leave them 0.
var DefaultLimits = Limits{
	UploadBytes:       50 << 20,
	ArchiveBytes:      200 << 20,
	ArchiveEntries:    10000,
	Lines:             5_000_000,
	Records:           1_000_000,
	TextBytes:         1 << 20,
	TreesPerMember:    20,
	BytesPerMember:    200 << 20,
	PersonItems:       100,
	PersonAnswerBytes: 1 << 20,
}

// ReadEnv sets the limits that deployment settings give (docs/deployment.md, "Uploads,
// archives and family trees") through getenv (os.Getenv). An empty variable keeps what
// l has (or the default).
func (l *Limits) ReadEnv(getenv func(string) string) error {
	whole := func(name string, least, most int64, set func(int64)) error {
		v := getenv(name)
		if v == "" {
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < least || n > most {
			return fmt.Errorf("%s must be a whole number from %d to %d, got %q", name, least, most, v)
		}
		set(n)
		return nil
	}
	for _, err := range []error{
		whole("LINEAGE_TREE_UPLOAD_MB", 1, 1<<20, func(n int64) { l.UploadBytes = n << 20 }),
		whole("LINEAGE_GEDZIP_MAX_MB", 1, 1<<20, func(n int64) { l.ArchiveBytes = n << 20 }),
		whole("LINEAGE_GEDZIP_MAX_FILES", 1, 1<<30, func(n int64) { l.ArchiveEntries = int(n) }),
		whole("LINEAGE_GEDCOM_MAX_LINES", 1, 1<<40, func(n int64) { l.Lines = int(n) }),
		whole("LINEAGE_GEDCOM_MAX_RECORDS", 1, 1<<40, func(n int64) { l.Records = int(n) }),
		whole("LINEAGE_GEDCOM_MAX_TEXT_KB", 1, 1<<20, func(n int64) { l.TextBytes = int(n << 10) }),
		whole("LINEAGE_TREES_PER_MEMBER", 1, 1<<20, func(n int64) { l.TreesPerMember = int(n) }),
		whole("LINEAGE_TREE_MB_PER_MEMBER", 1, 1<<30, func(n int64) { l.BytesPerMember = n << 20 }),
		whole("LINEAGE_PERSON_MAX_ITEMS", 1, 10000, func(n int64) { l.PersonItems = int(n) }),
		whole("LINEAGE_PERSON_ANSWER_KB", 16, 1<<20, func(n int64) { l.PersonAnswerBytes = int(n << 10) }),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// withDefaults fills the fields left 0.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set64 := func(v *int64, def int64) {
		if *v <= 0 {
			*v = def
		}
	}
	set64(&l.UploadBytes, d.UploadBytes)
	set64(&l.ArchiveBytes, d.ArchiveBytes)
	set(&l.ArchiveEntries, d.ArchiveEntries)
	set(&l.Lines, d.Lines)
	set(&l.Records, d.Records)
	set(&l.TextBytes, d.TextBytes)
	set(&l.TreesPerMember, d.TreesPerMember)
	set64(&l.BytesPerMember, d.BytesPerMember)
	set(&l.PersonItems, d.PersonItems)
	set(&l.PersonAnswerBytes, d.PersonAnswerBytes)
	return l
}

// Limits returns the limits in force.
func (s *Service) Limits() Limits { return s.limits }

// readerLimits are the reader's limits for an upload that may add at most room bytes of
// GEDCOM to what its member owns (0: no per-member bound).
func (l Limits) readerLimits(room int64) gedcom.Limits {
	return gedcom.Limits{MaxBytes: room, MaxLines: l.Lines, MaxRecords: l.Records, MaxTextBytes: l.TextBytes,
		MaxArchiveBytes: l.ArchiveBytes, MaxArchiveEntries: l.ArchiveEntries}
}

// limitMessage is what a member reads about a file over a reader limit. The bytes
// limit is only ever the member's room, so it is named as the per-member limit.
func (l Limits) limitMessage(le *gedcom.LimitError, used int64) string {
	if le.Kind == gedcom.LimitBytes {
		return "Your family trees may hold at most " + gedcom.FormatBytes(l.BytesPerMember) + " of GEDCOM in all (" +
			gedcom.FormatBytes(used) + " used). Delete a tree or upload a smaller file."
	}
	m := le.Message()
	return "The file is over a limit: " + m + "."
}

func (l Limits) uploadTooLarge() string {
	return "The file may be at most " + gedcom.FormatBytes(l.UploadBytes) + "."
}

func (l Limits) tooManyTrees() string {
	return "You may have at most " + strconv.Itoa(l.TreesPerMember) + " family trees. Delete one first."
}

// ownedBytes is the size of the GEDCOM records of every tree the member owns, as stored.
func (s *Service) ownedBytes(ctx context.Context, owner int64) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COALESCE(SUM(`+s.db.OctetLength("r.data")+`), 0) FROM tree_records r
		JOIN trees t ON t.id = r.tree_id WHERE t.owner_id = ?`), owner).Scan(&n)
	return n, err
}
