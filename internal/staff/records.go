package staff

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"lineage/internal/access"
	"lineage/internal/auth"
	"lineage/internal/blob"
	"lineage/internal/httpx"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/textfield"
)

// Limits of the records tools (docs/deployment.md, "Staff tools").
const (
	MaxCSVBytes       = 64 << 20
	MaxCSVRows        = 500_000
	MaxUploadsPerUser = 20
	UploadTTL         = 7 * 24 * time.Hour
	MaxMappings       = 200
	maxMappingName    = 100
	dryRunSample      = 20
)

func errorField(field, msg string) *httpx.Error { return httpx.Invalid(field, "%s", msg) }

// Upload is a CSV waiting to be imported.
type Upload struct {
	ID        string           `json:"id"`
	Filename  string           `json:"filename"`
	Bytes     int64            `json:"bytes"`
	Rows      int              `json:"rows"`
	Delimiter string           `json:"delimiter"`
	CreatedAt time.Time        `json:"created_at"`
	Imported  bool             `json:"imported"`
	Columns   []Column         `json:"columns"`
	Proposed  *Proposal        `json:"proposed,omitempty"`
	Canonical []CanonicalField `json:"canonical,omitempty"`

	userID int64
}

var uploadIDRE = regexp.MustCompile(`^u_[0-9a-f]{24}$`)

func newUploadID() string {
	var b [12]byte
	rand.Read(b[:])
	return "u_" + hex.EncodeToString(b[:])
}

const uploadCols = `id, user_id, filename, bytes, row_count, delimiter, columns, created_at, imported_at`

func scanUpload(row store.Row) (*Upload, error) {
	var u Upload
	var uid sql.NullInt64
	var cols string
	var created int64
	var imported sql.NullInt64
	if err := row.Scan(&u.ID, &uid, &u.Filename, &u.Bytes, &u.Rows, &u.Delimiter, &cols, &created, &imported); err != nil {
		return nil, err
	}
	u.userID = uid.Int64
	u.CreatedAt = store.Time(created)
	u.Imported = imported.Valid
	if err := json.Unmarshal([]byte(cols), &u.Columns); err != nil {
		return nil, err
	}
	return &u, nil
}

// upload loads the caller's upload of the path's {id}: another account's is 404.
func (s *Service) upload(r *http.Request, me *auth.User) (*Upload, error) {
	id := r.PathValue("id")
	if !uploadIDRE.MatchString(id) {
		return nil, errNotFound
	}
	u, err := scanUpload(s.db.QueryRowContext(r.Context(), s.db.Rebind(`SELECT `+uploadCols+` FROM staff_uploads WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && u.userID != me.ID) {
		return nil, errNotFound
	}
	return u, err
}

// withProposal fills the upload's proposal: the best saved mapping that fits its
// columns (most columns, then the newest), else one by column names.
func (s *Service) withProposal(ctx context.Context, u *Upload) error {
	names := make([]string, len(u.Columns))
	for i, c := range u.Columns {
		names[i] = c.Name
	}
	p := propose(names, u.Delimiter)
	saved, err := s.mappings(ctx)
	if err != nil {
		return err
	}
	best := -1
	for i, m := range saved {
		if fits(&m.Mapping, names) && (best < 0 || len(mappingColumns(&m.Mapping)) > len(mappingColumns(&saved[best].Mapping))) {
			best = i
		}
	}
	if best >= 0 {
		m := saved[best]
		p.Mapping = m.Mapping
		if p.Mapping.Delimiter == "" && u.Delimiter != "," {
			p.Mapping.Delimiter = u.Delimiter
		}
		p.Matched, p.Missing = map[string]string{}, []string{}
		for name, f := range m.Mapping.Fields {
			if f.Column != "" {
				p.Matched[name] = f.Column
			}
		}
		name := m.Name
		p.FromSaved = &name
	}
	u.Proposed, u.Canonical = &p, CanonicalFields
	return nil
}

// PostRecordsUpload is POST /api/studio/records/uploads (multipart, field file).
func (s *Service) PostRecordsUpload(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	mr, scratch, err := s.openUpload(w, r, s.csvLimits.bytes+1<<20, "Send the file as multipart/form-data.")
	if err != nil {
		return err
	}
	id := newUploadID()
	// The file is received and read here, then stored for whichever server handles the
	// dry run and the import.
	path := filepath.Join(scratch, id+".csv")
	defer os.Remove(path)
	kept := false
	defer func() {
		if !kept {
			s.blobs.Delete(context.WithoutCancel(r.Context()), recordsKey(id))
		}
	}()
	var filename string
	var size int64
	for part, err := range httpx.Parts(mr) {
		if err != nil {
			return s.uploadReadError(err)
		}
		if part.FormName() != "file" || filename != "" {
			part.Close()
			continue
		}
		filename = filepath.Base(part.FileName())
		if filename == "." || filename == "/" || filename == "" {
			filename = "upload.csv"
		}
		if size, err = saveLimited(part, path, s.csvLimits.bytes); err != nil {
			if errors.Is(err, errTooLarge) {
				return s.tooLarge()
			}
			return err
		}
	}
	if filename == "" {
		return errorField("file", "The file field is required.")
	}
	if !textfield.Valid(filename) || utf8.RuneCountInString(filename) > 200 {
		return errorField("file", "The file name must be one line of at most 200 characters.")
	}
	if size == 0 {
		return errorField("file", "The file is empty.")
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	sh, err := analyse(f, s.csvLimits.rows)
	f.Close()
	if errors.Is(err, errTooManyRows) {
		return errorField("file", fmt.Sprintf("The file is over a limit: a file may have at most %d rows; split it into several files.", s.csvLimits.rows))
	}
	if err != nil {
		return errorField("file", err.Error())
	}
	cols, err := json.Marshal(sh.Columns)
	if err != nil {
		return err
	}
	if err := s.putFile(r.Context(), recordsKey(id), path); err != nil {
		return err
	}
	now := s.Now()
	if _, err := s.db.ExecContext(r.Context(), s.db.Rebind(`INSERT INTO staff_uploads (id, user_id, filename, bytes, row_count, delimiter, columns, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), id, me.ID, filename, size, sh.Rows, sh.Delimiter, string(cols), now.Unix()); err != nil {
		return err
	}
	kept = true
	if err := s.pruneUploads(r.Context(), me.ID); err != nil {
		s.log.Warn("staff: prune uploads", "err", err)
	}
	u := &Upload{ID: id, Filename: filename, Bytes: size, Rows: sh.Rows, Delimiter: sh.Delimiter, CreatedAt: now.UTC().Truncate(time.Second), Columns: sh.Columns}
	if err := s.withProposal(r.Context(), u); err != nil {
		return err
	}
	httpx.JSON(w, http.StatusCreated, map[string]any{"upload": u})
	return nil
}

// csvLimits are the limits of a records upload (MaxCSVBytes, MaxCSVRows; tests lower
// them).
type csvLimits struct {
	bytes int64
	rows  int
}

// errTooLarge: a file over its byte limit.
var errTooLarge = errors.New("staff: the file is over its limit")

// uploadReadError is a body that could not be read: broken, or over the request's
// limit.
func (s *Service) uploadReadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) || errors.Is(err, errTooLarge) {
		return s.tooLarge()
	}
	return &httpx.Error{Code: httpx.EBADREQUEST, Message: "The upload could not be read; please try again."}
}

func (s *Service) tooLarge() error {
	msg := fmt.Sprintf("The file is over a limit: a file may be at most %s; split it into several files.", sizeText(s.csvLimits.bytes))
	return &httpx.Error{Code: httpx.ETOOLARGE, Message: msg, Fields: map[string][]string{"file": {msg}}}
}

// sizeText is a byte count for people: whole MB, else KB, else bytes.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// saveLimited copies r to a new file at path: errTooLarge past max bytes, the
// reader's error when it fails.
func saveLimited(r io.Reader, path string, max int64) (int64, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, io.LimitReader(r, max+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, err
	}
	if n > max {
		return n, errTooLarge
	}
	return n, nil
}

// pruneUploads deletes an account's uploads older than UploadTTL and, beyond
// MaxUploadsPerUser, its oldest; never one a job is importing.
func (s *Service) pruneUploads(ctx context.Context, userID int64) error {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id, created_at FROM staff_uploads u WHERE user_id = ?
		AND NOT EXISTS (SELECT 1 FROM staff_jobs j WHERE j.upload_id = u.id AND j.state IN (?, ?, ?))
		ORDER BY seq DESC`), userID, StateQueued, StateRunning, StateUndoing)
	if err != nil {
		return err
	}
	var drop []string
	n := 0
	cutoff := s.Now().Add(-UploadTTL).Unix()
	for rows.Next() {
		var id string
		var created int64
		if err := rows.Scan(&id, &created); err != nil {
			rows.Close()
			return err
		}
		n++
		if n > MaxUploadsPerUser || created < cutoff {
			drop = append(drop, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range drop {
		if err := s.deleteUpload(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// pruneExpired deletes every upload older than UploadTTL that no job is importing.
func (s *Service) pruneExpired(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id FROM staff_uploads u WHERE created_at < ?
		AND NOT EXISTS (SELECT 1 FROM staff_jobs j WHERE j.upload_id = u.id AND j.state IN (?, ?, ?))`),
		s.Now().Add(-UploadTTL).Unix(), StateQueued, StateRunning, StateUndoing)
	ids, err := store.Collect(rows, err, store.Scalar[string])
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.deleteUpload(ctx, id); err != nil {
			return err
		}
	}
	// Files whose row went with a deleted account, or whose upload never finished; and
	// take-back files a job's end could not delete.
	var orphans []string
	err = s.blobs.List(ctx, recordsPrefix, func(i blob.Info) error {
		id := strings.TrimSuffix(strings.TrimPrefix(i.Key, recordsPrefix), ".csv")
		if uploadIDRE.MatchString(id) && s.Now().Sub(i.ModTime) >= time.Hour {
			orphans = append(orphans, id)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range orphans {
		var n int
		if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM staff_uploads WHERE id = ?`), id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if err := s.blobs.Delete(ctx, recordsKey(id)); err != nil {
				return err
			}
		}
	}
	if err := s.pruneJobFiles(ctx); err != nil {
		return err
	}
	return s.pruneScans(ctx)
}

// pruneJobFiles deletes the take-back files of jobs that ended (or are gone).
func (s *Service) pruneJobFiles(ctx context.Context) error {
	return s.pruneIdleFolders(ctx, jobsPrefix, func(folder string) (int, error) {
		id, err := strconv.ParseInt(folder, 10, 64)
		if err != nil {
			return 1, nil // not a job's folder (jobPrefix): kept
		}
		return s.workingJobs(ctx, "id = ?", id)
	})
}

// pruneIdleFolders deletes each folder below prefix that holds a file an hour old or
// more (so not one a request is still writing) and that no job is working on: working
// counts the working jobs that use the folder.
func (s *Service) pruneIdleFolders(ctx context.Context, prefix string, working func(folder string) (int, error)) error {
	folders := map[string]bool{}
	err := s.blobs.List(ctx, prefix, func(i blob.Info) error {
		folder, _, ok := strings.Cut(strings.TrimPrefix(i.Key, prefix), "/")
		if ok && s.Now().Sub(i.ModTime) >= time.Hour {
			folders[folder] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	for folder := range folders {
		n, err := working(folder)
		if err != nil {
			return err
		}
		if n == 0 {
			if err := blob.DeletePrefix(ctx, s.blobs, prefix+folder+"/"); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Service) deleteUpload(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM staff_uploads WHERE id = ?`), id); err != nil {
		return err
	}
	return s.blobs.Delete(ctx, recordsKey(id))
}

// ListRecordsUploads is GET /api/studio/records/uploads: the caller's, newest first.
func (s *Service) ListRecordsUploads(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	rows, err := s.db.QueryContext(r.Context(), s.db.Rebind(`SELECT `+uploadCols+` FROM staff_uploads WHERE user_id = ? ORDER BY seq DESC`), me.ID)
	out, err := store.Collect(rows, err, scanUpload)
	return httpx.Reply(w, http.StatusOK, map[string]any{"uploads": out}, err)
}

// GetRecordsUpload is GET /api/studio/records/uploads/{id}.
func (s *Service) GetRecordsUpload(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	u, err := s.upload(r, me)
	if err != nil {
		return err
	}
	if err := s.withProposal(r.Context(), u); err != nil {
		return err
	}
	httpx.JSON(w, http.StatusOK, map[string]any{"upload": u})
	return nil
}

// DeleteRecordsUpload is DELETE /api/studio/records/uploads/{id}.
func (s *Service) DeleteRecordsUpload(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	u, err := s.upload(r, me)
	if err != nil {
		return err
	}
	if busy, err := s.uploadBusy(r.Context(), u.ID); err != nil {
		return err
	} else if busy {
		return &httpx.Error{Code: httpx.ECONFLICT, Message: "This file is being imported; stop the import first."}
	}
	if err := s.deleteUpload(r.Context(), u.ID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Service) uploadBusy(ctx context.Context, id string) (bool, error) {
	n, err := s.workingJobs(ctx, "upload_id = ?", id)
	return n > 0, err
}

// SampleRecord is a record of a dry run's sample.
type SampleRecord struct {
	Line       int               `json:"line"`
	RecordID   string            `json:"record_id"`
	RecordType string            `json:"record_type"`
	Date       string            `json:"date"`
	Place      string            `json:"place"`
	Transcript string            `json:"transcript"`
	Source     string            `json:"source"`
	Access     string            `json:"access"`
	Images     []string          `json:"images"`
	Persons    []research.Person `json:"persons"`
}

// DryRun is what an import of an upload would do.
type DryRun struct {
	Records          int                 `json:"records"`
	Good             int                 `json:"good"`
	Skipped          int                 `json:"skipped"`
	CollectionExists bool                `json:"collection_exists"`
	New              *int                `json:"new"`      // null without a collection
	Existing         *int                `json:"existing"` // record_ids already in the collection (updated when they differ)
	WarningCount     int                 `json:"warning_count"`
	Warnings         []research.RowError `json:"warnings"`
	Notes            []research.RowError `json:"notes"`
	Sample           []SampleRecord      `json:"sample"`

	keys []string // the good records' record_ids, in file order
}

func (d *DryRun) warn(errs ...research.RowError) {
	d.WarningCount += len(errs)
	for _, e := range errs {
		if len(d.Warnings) < research.MaxReportedErrors {
			d.Warnings = append(d.Warnings, e)
		}
	}
}

// dryRun reads the upload as the import engine will (the same reader, the same
// mapping) without writing anything.
func (s *Service) dryRun(ctx context.Context, uploadID string, m *research.Mapping, collection string) (*DryRun, error) {
	f, _, err := s.open(ctx, recordsKey(uploadID))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rr, err := research.NewRecordReader(f, m, research.CSVLimits{})
	if err != nil {
		return nil, errMapping(err)
	}
	d := &DryRun{Warnings: []research.RowError{}, Notes: []research.RowError{}, Sample: []SampleRecord{}}
	firstLine := map[string]int{}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec, errs, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, errorField("file", fmt.Sprintf("The file cannot be read: %v.", err))
		}
		d.Records++
		if errs != nil {
			d.Skipped++
			d.warn(errs...)
			continue
		}
		if first, dup := firstLine[rec.Key]; dup {
			d.Skipped++
			d.warn(research.RowError{Line: rec.Line, Record: rec.Key, Message: fmt.Sprintf("this record_id was used for another record at line %d; the rows of one record must be together", first)})
			continue
		}
		firstLine[rec.Key] = rec.Line
		d.Good++
		d.keys = append(d.keys, rec.Key)
		if len(d.Sample) < dryRunSample {
			d.Sample = append(d.Sample, SampleRecord{Line: rec.Line, RecordID: rec.Key, RecordType: rec.Type, Date: rec.Date, Place: rec.Place,
				Transcript: rec.Transcript, Source: rec.Source, Access: rec.Access, Images: nonNil(rec.Images), Persons: rec.Persons})
		}
	}
	for _, n := range rr.Notes {
		if len(d.Notes) < research.MaxReportedErrors {
			d.Notes = append(d.Notes, n)
		}
	}
	if collection != "" {
		existing, exists, err := s.existingKeys(ctx, collection, d.keys)
		if err != nil {
			return nil, err
		}
		d.CollectionExists = exists
		e, n := len(existing), d.Good-len(existing)
		d.Existing, d.New = &e, &n
	}
	return d, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// existingKeys are the keys already in the collection, and whether it exists.
func (s *Service) existingKeys(ctx context.Context, collection string, keys []string) (map[string]bool, bool, error) {
	out := map[string]bool{}
	var collID int64
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT id FROM collections WHERE slug = ?`), collection).Scan(&collID)
	if errors.Is(err, sql.ErrNoRows) {
		return out, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	for chunk := range slices.Chunk(keys, 500) {
		args := []any{collID}
		for _, k := range chunk {
			args = append(args, k)
		}
		rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT key FROM records WHERE collection_id = ? AND key IN (`+store.Placeholders(len(chunk))+`)`), args...)
		found, err := store.Set[string](rows, err)
		if err != nil {
			return nil, true, err
		}
		maps.Copy(out, found)
	}
	return out, true, nil
}

var slugRE = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// importInput is the body of dry-run and import.
type importInput struct {
	Mapping       json.RawMessage `json:"mapping"`
	Collection    string          `json:"collection"`
	Title         string          `json:"title"`
	Kind          string          `json:"kind"`
	Access        string          `json:"access"`
	SaveMappingAs string          `json:"save_mapping_as"`
}

// check validates the body; needCollection for an import.
func (in *importInput) check(u *Upload, needCollection bool) (*research.Mapping, error) {
	var fe httpx.FieldErrors
	m, err := parseMapping(in.Mapping, u.Delimiter)
	if err != nil {
		var he *httpx.Error
		if errors.As(err, &he) {
			for _, msg := range he.Fields["mapping"] {
				fe.Add("mapping", "%s", msg)
			}
		}
	}
	in.Collection = strings.TrimSpace(in.Collection)
	switch {
	case in.Collection == "" && needCollection:
		fe.Add("collection", "The collection field is required.")
	case in.Collection != "" && (len(in.Collection) > 100 || !slugRE.MatchString(in.Collection)):
		fe.Add("collection", "The collection must be lower-case letters and digits joined by hyphens, at most 100 characters (e.g. parish-registers-1851).")
	}
	if t, err := textfield.SingleLine(in.Title, 200); err != nil {
		fe.Add("title", "The title must be one line of at most 200 characters.")
	} else {
		in.Title = t
	}
	if in.Kind != "" && !validKind(in.Kind) {
		fe.Add("kind", "The kind must be one of %s.", strings.Join(research.Kinds, ", "))
	}
	if _, err := access.Parse(in.Access); err != nil {
		fe.Add("access", "The access must be public, registered, members, or scopes:… (docs/research.md).")
	}
	if in.SaveMappingAs != "" {
		if _, err := mappingName(in.SaveMappingAs); err != nil {
			fe.Add("save_mapping_as", "%s", err.Error())
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

func validKind(k string) bool {
	for _, x := range research.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// importRequest reads a request to try or make an import of the caller's upload that
// the path names: the upload, the request, and its mapping checked against the file
// (an import also needs its collection).
func (s *Service) importRequest(w http.ResponseWriter, r *http.Request, me *auth.User, forImport bool) (*Upload, importInput, *research.Mapping, error) {
	var in importInput
	if s.opt.Research == nil {
		return nil, in, nil, unavailable("research records")
	}
	u, err := s.upload(r, me)
	if err != nil {
		return nil, in, nil, err
	}
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return nil, in, nil, err
	}
	m, err := in.check(u, forImport)
	return u, in, m, err
}

// PostRecordsDryRun is POST /api/studio/records/uploads/{id}/dry-run.
func (s *Service) PostRecordsDryRun(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	u, in, m, err := s.importRequest(w, r, me, false)
	if err != nil {
		return err
	}
	d, err := s.dryRun(r.Context(), u.ID, m, in.Collection)
	return httpx.Reply(w, http.StatusOK, map[string]any{"dry_run": d}, err)
}

// recordsParams are what a records job needs to run and to take itself back.
type recordsParams struct {
	UploadID   string          `json:"upload_id"`
	Filename   string          `json:"filename"`
	Mapping    json.RawMessage `json:"mapping"`
	Delimiter  string          `json:"delimiter"`
	Collection string          `json:"collection"`
	Title      string          `json:"title,omitempty"`
	Kind       string          `json:"kind,omitempty"`
	Access     string          `json:"access,omitempty"`
	Total      int             `json:"total"`
	// Set once the job has kept what undo needs, before it writes anything.
	Prepared bool   `json:"prepared"`
	Created  bool   `json:"created"` // the job creates the collection
	Fresh    string `json:"fresh"`   // key of the record_ids new to the collection (JSON)
	Before   string `json:"before"`  // key of the canonical CSV of the records it may change; "": none
}

// RecordsProgress is a records job's progress.
type RecordsProgress struct {
	Done      int `json:"done"`
	Total     int `json:"total"`
	Percent   int `json:"percent"`
	Added     int `json:"added"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	Skipped   int `json:"skipped"`
}

func percent(done, total int) int {
	if total <= 0 {
		return 0
	}
	return min(100, done*100/total)
}

// PostRecordsImport is POST /api/studio/records/uploads/{id}/import: 202 with the job.
func (s *Service) PostRecordsImport(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	u, in, m, err := s.importRequest(w, r, me, true)
	if err != nil {
		return err
	}
	// The mapping must bind to this file's header before a job is made.
	f, _, err := s.open(r.Context(), recordsKey(u.ID))
	if err != nil {
		return err
	}
	_, err = research.NewRecordReader(f, m, research.CSVLimits{})
	f.Close()
	if err != nil {
		return errMapping(err)
	}
	if busy, err := s.uploadBusy(r.Context(), u.ID); err != nil {
		return err
	} else if busy {
		return &httpx.Error{Code: httpx.ECONFLICT, Message: "This file is already being imported."}
	}
	if in.SaveMappingAs != "" {
		if err := s.saveMapping(r.Context(), me, in.SaveMappingAs, m, columnNames(u)); err != nil {
			return err
		}
	}
	mj, err := json.Marshal(m)
	if err != nil {
		return err
	}
	p := recordsParams{UploadID: u.ID, Filename: u.Filename, Mapping: mj, Delimiter: u.Delimiter, Collection: in.Collection,
		Title: in.Title, Kind: in.Kind, Access: in.Access, Total: u.Rows}
	j, err := s.jobs.submit(r.Context(), newJob{kind: KindRecords, collection: in.Collection, uploadID: u.ID, userID: me.ID, params: p,
		progress: RecordsProgress{Total: u.Rows}}, func(ctx context.Context, jr *jobRun) (any, error) {
		return s.runRecords(ctx, jr, me, p)
	})
	if err != nil {
		return err
	}
	if err := s.record(r.Context(), me, ActionRecordsImport, "collection:"+in.Collection, u.Filename, nil,
		map[string]any{"job": j.ID, "file": u.Filename, "rows": u.Rows, "state": StateQueued}); err != nil {
		return err
	}
	httpx.JSON(w, http.StatusAccepted, map[string]any{"job": j})
	return nil
}

func columnNames(u *Upload) []string {
	out := make([]string, len(u.Columns))
	for i, c := range u.Columns {
		out[i] = c.Name
	}
	return out
}

// runRecords is a records job: it keeps what undo needs, then imports the upload
// through the research room's import engine.
func (s *Service) runRecords(ctx context.Context, jr *jobRun, me *auth.User, p recordsParams) (any, error) {
	rs := s.opt.Research
	m, err := parseMapping(p.Mapping, p.Delimiter)
	if err != nil {
		return nil, err
	}
	d, err := s.dryRun(ctx, p.UploadID, m, p.Collection)
	if err != nil {
		return nil, err
	}
	total := d.Records
	jr.progress(ctx, RecordsProgress{Total: total}, true)
	existing, exists, err := s.existingKeys(ctx, p.Collection, d.keys)
	if err != nil {
		return nil, err
	}
	base := jobPrefix(jr.id)
	p.Fresh, p.Before, p.Created = base+"fresh.json", base+"before.csv", !exists
	fresh := make([]string, 0, len(d.keys)-len(existing))
	changed := make([]string, 0, len(existing))
	for _, k := range d.keys {
		if existing[k] {
			changed = append(changed, k)
		} else {
			fresh = append(fresh, k)
		}
	}
	fb, err := json.Marshal(fresh)
	if err != nil {
		return nil, err
	}
	if _, err := s.blobs.Put(ctx, p.Fresh, bytes.NewReader(fb), blob.PutOptions{ContentType: "application/json"}); err != nil {
		return nil, err
	}
	if kept, err := s.putBefore(ctx, p.Before, exists, p.Collection, changed); err != nil {
		return nil, err
	} else if !kept {
		p.Before = ""
	}
	p.Prepared = true
	if err := jr.setParams(ctx, p); err != nil {
		return nil, err
	}
	f, size, err := s.open(ctx, recordsKey(p.UploadID))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opts := research.ImportOptions{Collection: p.Collection, Kind: p.Kind, Title: p.Title, Access: p.Access, Bulk: research.BulkOff,
		Progress: func(ip research.ImportProgress) {
			jr.progress(ctx, RecordsProgress{Done: ip.Records, Total: total, Percent: percent(ip.Records, total),
				Added: ip.Added, Updated: ip.Updated, Unchanged: ip.Unchanged, Skipped: ip.Skipped}, false)
			if s.batchDone != nil {
				s.batchDone(ctx)
			}
		}}
	rep, err := rs.ImportRecords(ctx, f, m, opts, size)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err // cancelled after the last batch: still taken back
	}
	jr.progress(ctx, RecordsProgress{Done: rep.Records, Total: total, Percent: 100, Added: rep.Added, Updated: rep.Updated,
		Unchanged: rep.Unchanged, Skipped: rep.Skipped}, true)
	now := s.Now().Unix()
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE staff_uploads SET imported_at = ? WHERE id = ?`), now, p.UploadID); err != nil {
		return nil, err
	}
	if (rep.Added > 0 || rep.Updated > 0) && s.opt.AfterRecordsImport != nil {
		if err := s.opt.AfterRecordsImport(ctx); err != nil {
			s.log.Warn("staff: after records import", "err", err)
		}
	}
	if err := s.forget(ctx, p); err != nil {
		s.log.Warn("staff: remove a job's take-back files", "job", jr.id, "err", err)
	}
	out := rep
	if err := s.record(ctx, me, ActionRecordsImport, "collection:"+p.Collection, p.Filename, nil,
		map[string]any{"job": jr.id, "state": StateDone, "records": rep.Records, "added": rep.Added, "updated": rep.Updated,
			"unchanged": rep.Unchanged, "skipped": rep.Skipped}); err != nil {
		s.log.Warn("staff: audit", "err", err)
	}
	return out, nil
}

// undoRecords takes a records job back: it removes the records it added, imports the
// records it changed as they were, and deletes the collection if it made it.
func (s *Service) undoRecords(ctx context.Context, raw string) error {
	var p recordsParams
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return err
	}
	if !p.Prepared {
		return nil // it wrote nothing
	}
	rs := s.opt.Research
	if rs == nil {
		return errors.New("staff: a records job to take back, and no research room")
	}
	if _, err := rs.CollectionBySlug(ctx, p.Collection); err != nil {
		if errors.Is(err, research.ErrNotFound) {
			return s.forget(ctx, p)
		}
		return err
	}
	fb, err := s.readAll(ctx, p.Fresh)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	var fresh []string
	if len(fb) > 0 {
		if err := json.Unmarshal(fb, &fresh); err != nil {
			return err
		}
	}
	if _, err := rs.RemoveRecords(ctx, p.Collection, fresh); err != nil {
		return err
	}
	if p.Before == "" {
		// Nothing the job may change was there before it.
	} else if bf, size, err := s.open(ctx, p.Before); err == nil {
		if size > 0 {
			// Transcripts may run over many lines: the file is ours, so the limits are
			// those of what the store holds.
			rep, err := rs.ImportRecords(ctx, bf, nil, research.ImportOptions{Collection: p.Collection, Bulk: research.BulkOff,
				CSV: research.CSVLimits{FieldLines: 1 << 20, RowBytes: 64 << 20}}, 0)
			if err == nil && rep.ErrorCount > 0 {
				err = fmt.Errorf("putting records back: %v", rep.Errors[0])
			}
			if err != nil {
				bf.Close()
				return err
			}
		}
		bf.Close()
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if p.Created {
		if err := rs.DeleteEmptyCollection(ctx, p.Collection); err != nil && !errors.Is(err, research.ErrNotEmpty) && !errors.Is(err, research.ErrNotFound) {
			return err
		}
	}
	return s.forget(ctx, p)
}

// putBefore stores, under key, the canonical CSV of the records the job may change,
// and answers whether there was any (none when the collection is new: nothing is
// stored then). It is written to a scratch file first, so that the store receives a
// file it can hash and send without holding it in memory.
func (s *Service) putBefore(ctx context.Context, key string, exists bool, collection string, changed []string) (bool, error) {
	if !exists || len(changed) == 0 {
		return false, nil
	}
	scratch, err := s.scratchDir()
	if err != nil {
		return false, err
	}
	bf, err := os.CreateTemp(scratch, "before-*.csv")
	if err != nil {
		return false, err
	}
	defer os.Remove(bf.Name())
	_, err = s.opt.Research.WriteCanonical(ctx, collection, changed, bf)
	if cerr := bf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, err
	}
	return true, s.putFile(ctx, key, bf.Name())
}

// readAll reads a stored file whole.
func (s *Service) readAll(ctx context.Context, key string) ([]byte, error) {
	rc, _, err := s.open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// forget deletes a records job's take-back files.
func (s *Service) forget(ctx context.Context, p recordsParams) error {
	if err := s.remove(ctx, p.Fresh); err != nil {
		return err
	}
	return s.remove(ctx, p.Before)
}
