package staff

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"lineage/internal/access"
	"lineage/internal/auth"
	"lineage/internal/blob"
	"lineage/internal/httpx"
	"lineage/internal/iiif"
	"lineage/internal/textfield"
)

// Limits of a scans upload (docs/deployment.md, "Staff tools").
const (
	MaxScanUploadBytes = 512 << 20
	MaxScanFiles       = 200
	MaxManifestBytes   = 1 << 20
	MaxManifestRows    = 10_000
	// MaxScanJobsPerUser bounds the scans an account has waiting or being cut (each
	// holds its files in the blob store until it is done).
	MaxScanJobsPerUser = 3
)

var scanExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".tif": true, ".tiff": true}

// ScansProgress is a scans job's progress.
type ScansProgress struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Percent int    `json:"percent"`
	Current string `json:"current"`
}

// ScanItem is a scan a job made.
type ScanItem struct {
	File string `json:"file"`
	ID   string `json:"id"`
}

// ScansReport is a finished scans job's report.
type ScansReport struct {
	Scans     int        `json:"scans"`
	Cut       int        `json:"cut"`
	Unchanged int        `json:"unchanged"`
	Items     []ScanItem `json:"items"`
}

// scansParams are what a scans job needs.
type scansParams struct {
	// Prefix holds the upload's files in the blob store (and manifest.csv, when
	// Manifest is set), so that any server runs or ends the job.
	Prefix string `json:"prefix,omitempty"`
	// Dir is the local folder of a job stored by a server that kept the files on its
	// own disk; undo removes it.
	Dir        string `json:"dir,omitempty"`
	Manifest   string `json:"manifest"` // "" attaches by file name; else the manifest's file name
	Collection string `json:"collection"`
	Access     string `json:"access"`
	Files      int    `json:"files"`
}

// PostScansUpload is POST /api/studio/scans/uploads (multipart): image files, and a
// manifest or one target for all of them, or neither to attach by file name; 202 with
// the job that cuts their pyramids.
func (s *Service) PostScansUpload(w http.ResponseWriter, r *http.Request, me *auth.User) error {
	if s.opt.Images == nil || s.opt.Research == nil {
		return unavailable("scans")
	}
	active, err := s.workingJobs(r.Context(), "kind = ? AND user_id = ?", KindScans, me.ID)
	if err != nil {
		return err
	}
	if active >= MaxScanJobsPerUser {
		return &httpx.Error{Code: httpx.ETOOMANY, Message: fmt.Sprintf("You have %d sets of scans waiting or being made; send more when one is done.", active), RetryAfter: time.Minute}
	}
	mr, scratch, err := s.openUpload(w, r, MaxScanUploadBytes, "Send the files as multipart/form-data.")
	if err != nil {
		return err
	}
	upload := newScansUploadID()
	prefix := scansUploadPrefix(upload)
	kept := false
	defer func() {
		if !kept {
			blob.DeletePrefix(context.WithoutCancel(r.Context()), s.blobs, prefix)
		}
	}()
	var fe httpx.FieldErrors
	var files []string // base names, in upload order
	var manifest []byte
	form := map[string]string{}
	for part, err := range httpx.Parts(mr) {
		if err != nil {
			return scanReadError(err)
		}
		switch name := part.FormName(); name {
		case "files":
			base := strings.TrimSpace(filepath.Base(part.FileName()))
			ext := strings.ToLower(filepath.Ext(base))
			switch {
			case len(files) >= MaxScanFiles:
				fe.Add("files", "At most %d files may be sent at once.", MaxScanFiles)
			case !scanExts[ext] || !textfield.Valid(base) || strings.ContainsAny(base, `/\`) || len(base) > 200:
				fe.Add("files", "%q is not a JPEG, PNG or TIFF file.", cutText(base, 80))
			case contains(files, base):
				fe.Add("files", "Two files are called %q.", cutText(base, 80))
			default:
				n, err := s.receiveScan(r.Context(), part, scratch, prefix+base)
				if err != nil {
					return err
				}
				if n == 0 {
					fe.Add("files", "%q is empty.", cutText(base, 80))
				} else {
					files = append(files, base)
				}
			}
		case "manifest":
			b, err := io.ReadAll(io.LimitReader(part, MaxManifestBytes+1))
			if err != nil {
				return scanReadError(err)
			}
			if len(b) > MaxManifestBytes {
				fe.Add("manifest", "The manifest may be at most %d KB.", MaxManifestBytes>>10)
			}
			manifest = b
		case "collection", "record", "record_id", "person", "access":
			b, err := io.ReadAll(io.LimitReader(part, 1<<10))
			if err != nil {
				return scanReadError(err)
			}
			form[name] = strings.TrimSpace(string(b))
		}
		part.Close()
	}
	if len(files) == 0 && !fe.Has("files") {
		fe.Add("files", "Choose at least one image file.")
	}
	coll := form["collection"]
	if coll == "" {
		fe.Add("collection", "The collection field is required.")
	} else if _, err := s.opt.Research.CollectionBySlug(r.Context(), coll); err != nil {
		fe.Add("collection", "There is no collection %q.", cutText(coll, 80))
	}
	if _, err := access.Parse(form["access"]); err != nil {
		fe.Add("access", "The access must be public, registered, members, or scopes:….")
	}
	targets := 0
	for _, k := range []string{"record", "record_id", "person"} {
		if form[k] != "" {
			targets++
		}
	}
	if targets > 1 {
		fe.Add("record", "Give one of record, record_id and person.")
	}
	if targets > 0 && manifest != nil {
		fe.Add("manifest", "Give a manifest or a record to attach to, not both.")
	}
	if manifest != nil && !fe.Has("manifest") {
		if msg := checkManifest(manifest, files); msg != "" {
			fe.Add("manifest", "%s", msg)
		}
	}
	if targets == 1 && !fe.Has("record") {
		var err error
		if manifest, err = manifestFor(files, form); err != nil {
			fe.Add("record", "%s", err.Error())
		}
	}
	if err := fe.Err(); err != nil {
		return err
	}
	p := scansParams{Prefix: prefix, Collection: coll, Access: form["access"], Files: len(files)}
	if manifest != nil {
		// Only images end in .jpg, .png or .tif: no file sent can be called this.
		p.Manifest = "manifest.csv"
		if _, err := s.blobs.Put(r.Context(), prefix+p.Manifest, bytes.NewReader(manifest), blob.PutOptions{ContentType: "text/csv"}); err != nil {
			return err
		}
	}
	kept = true
	j, err := s.jobs.submit(r.Context(), newJob{kind: KindScans, collection: coll, uploadID: upload, userID: me.ID, params: p,
		progress: ScansProgress{Total: len(files)}}, func(ctx context.Context, jr *jobRun) (any, error) {
		return s.runScans(ctx, jr, me, p)
	})
	if err != nil {
		return err
	}
	if err := s.record(r.Context(), me, ActionScansImport, "collection:"+coll, fmt.Sprintf("%d files", len(files)), nil,
		map[string]any{"job": j.ID, "files": len(files), "state": StateQueued}); err != nil {
		return err
	}
	httpx.JSON(w, http.StatusAccepted, map[string]any{"job": j})
	return nil
}

func newScansUploadID() string { return "s" + strings.TrimPrefix(newUploadID(), "u") }

// receiveScan stores one image of a scans upload under key, through a scratch file
// (so that the store receives a file it can hash and send without holding it in
// memory), and answers its size; an empty one is not stored.
func (s *Service) receiveScan(ctx context.Context, part io.Reader, scratch, key string) (int64, error) {
	f, err := os.CreateTemp(scratch, "scan-*")
	if err != nil {
		return 0, err
	}
	f.Close()
	defer os.Remove(f.Name())
	n, err := saveLimited(part, f.Name(), MaxScanUploadBytes)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return n, scanReadError(&http.MaxBytesError{Limit: MaxScanUploadBytes})
		}
		return n, scanReadError(err)
	}
	if n == 0 {
		return 0, nil
	}
	return n, s.putFile(ctx, key, f.Name())
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func scanReadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		msg := fmt.Sprintf("The files are over a limit: at most %d MB may be sent at once; send them in several goes.", MaxScanUploadBytes>>20)
		return &httpx.Error{Code: httpx.ETOOLARGE, Message: msg, Fields: map[string][]string{"files": {msg}}}
	}
	return &httpx.Error{Code: httpx.EBADREQUEST, Message: "The upload could not be read; please try again."}
}

// checkManifest reads a manifest as the image import will, and checks that it names
// only files of this upload (by name: no folders, so that a manifest cannot reach
// files on the server). It answers a message for people, or "".
func checkManifest(b []byte, files []string) string {
	rows, err := iiif.ParseManifestCSV(bytes.NewReader(b))
	if err != nil {
		return "The manifest cannot be read: " + err.Error() + "."
	}
	if len(rows) > MaxManifestRows {
		return fmt.Sprintf("The manifest may have at most %d rows.", MaxManifestRows)
	}
	for _, row := range rows {
		if strings.ContainsAny(row.File, `/\`) || row.File == ".." || row.File == "." {
			return fmt.Sprintf("Line %d: give the file's name only, without folders (%q).", row.Line, cutText(row.File, 80))
		}
		if !contains(files, row.File) {
			return fmt.Sprintf("Line %d: the file %q was not sent with the manifest.", row.Line, cutText(row.File, 80))
		}
	}
	return ""
}

// manifestFor is the manifest that attaches every file, as pages in upload order, to
// the one target the form names (record, record_id or person).
func manifestFor(files []string, form map[string]string) ([]byte, error) {
	var col, val string
	for _, k := range []string{"record", "record_id", "person"} {
		if v := strings.TrimSpace(form[k]); v != "" {
			if col != "" {
				return nil, errors.New("Give one of record, record_id and person.")
			}
			col, val = k, v
		}
	}
	switch col {
	case "":
		return nil, errors.New("Give a record, a record number or a person.")
	case "record_id":
		if n, err := strconv.ParseInt(val, 10, 64); err != nil || n <= 0 {
			return nil, errors.New("The record number must be a whole number.")
		}
	case "person":
		slug, xref, ok := strings.Cut(val, ":")
		if !ok || strings.TrimSpace(slug) == "" || strings.TrimSpace(xref) == "" || slug != strings.TrimSpace(slug) || xref != strings.TrimSpace(xref) {
			return nil, errors.New("The person must be written TREE-SLUG:XREF, e.g. smith-family:I12.")
		}
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	cw.Write([]string{"file", col, "page"})
	for i, f := range files {
		cw.Write([]string{f, val, strconv.Itoa(i + 1)})
	}
	cw.Flush()
	return buf.Bytes(), cw.Error()
}

// runScans cuts the scans through the image room's import, as `lineage import
// images` does. Each scan is whole or absent: one that fails stops the job, and the
// ones made before it stay (sending the files again skips them, as unchanged).
func (s *Service) runScans(ctx context.Context, jr *jobRun, me *auth.User, p scansParams) (any, error) {
	dir, err := s.fetchScans(ctx, jr.id, p.Prefix)
	if dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		return nil, err
	}
	rep := ScansReport{Items: []ScanItem{}}
	opts := iiif.ImportOptions{Collection: p.Collection, Paths: []string{dir}, Access: p.Access,
		Out: func(id, file string) {
			base := filepath.Base(file)
			rep.Items = append(rep.Items, ScanItem{File: base, ID: id})
			jr.progress(ctx, ScansProgress{Done: len(rep.Items), Total: p.Files, Percent: percent(len(rep.Items), p.Files), Current: base}, false)
		}}
	if p.Manifest != "" {
		// The manifest itself is in the folder: only the images are imported.
		opts.Manifest, opts.Paths = filepath.Join(dir, p.Manifest), nil
	}
	ir, err := s.opt.Images.Import(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := err.Error()
		msg = strings.ReplaceAll(msg, dir+string(filepath.Separator), "")
		return nil, &httpx.Error{Code: httpx.EINVALID, Message: cutText(msg, 300)}
	}
	rep.Scans, rep.Cut, rep.Unchanged = ir.Scans, ir.Cut, ir.Unchanged
	if err := blob.DeletePrefix(ctx, s.blobs, p.Prefix); err != nil {
		s.log.Warn("staff: remove a scans upload", "job", jr.id, "err", err)
	}
	jr.progress(ctx, ScansProgress{Done: ir.Scans, Total: p.Files, Percent: 100}, true)
	if err := s.record(ctx, me, ActionScansImport, "collection:"+p.Collection, fmt.Sprintf("%d files", p.Files), nil,
		map[string]any{"job": jr.id, "state": StateDone, "scans": ir.Scans, "cut": ir.Cut, "unchanged": ir.Unchanged}); err != nil {
		s.log.Warn("staff: audit", "err", err)
	}
	return rep, nil
}

// fetchScans copies a scans upload from the blob store into a new scratch folder, as
// iiif's Import reads files from disk. The caller removes the folder (named when err
// is not nil too).
func (s *Service) fetchScans(ctx context.Context, job int64, prefix string) (string, error) {
	scratch, err := s.scratchDir()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(scratch, fmt.Sprintf("scans-%d-", job))
	if err != nil {
		return "", err
	}
	var keys []string
	if err := s.blobs.List(ctx, prefix, func(i blob.Info) error { keys = append(keys, i.Key); return nil }); err != nil {
		return dir, err
	}
	if len(keys) == 0 {
		return dir, fmt.Errorf("staff: the scans upload %s is not in the store", prefix)
	}
	for _, k := range keys {
		name := strings.TrimPrefix(k, prefix)
		if strings.Contains(name, "/") {
			continue
		}
		if err := s.fetchFile(ctx, k, filepath.Join(dir, name)); err != nil {
			return dir, err
		}
	}
	return dir, nil
}

func (s *Service) fetchFile(ctx context.Context, key, path string) error {
	rc, _, err := s.open(ctx, key)
	if err != nil {
		return err
	}
	defer rc.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, rc)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// undoScans removes a stopped scans job's upload; the scans it made stay (each is
// whole).
func (s *Service) undoScans(ctx context.Context, raw string) error {
	var p scansParams
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return err
	}
	if p.Prefix != "" && strings.HasPrefix(p.Prefix, scansPrefix) {
		return blob.DeletePrefix(ctx, s.blobs, p.Prefix)
	}
	legacy := filepath.Join(s.opt.StagingDir, "jobs")
	if p.Dir != "" && s.opt.StagingDir != "" && strings.HasPrefix(filepath.Clean(p.Dir), legacy+string(filepath.Separator)) {
		return os.RemoveAll(p.Dir)
	}
	return nil
}

// pruneScans deletes scans uploads no job is working on: those of a request that
// never finished, or of a job whose end could not delete them (scansUploadPrefix).
func (s *Service) pruneScans(ctx context.Context) error {
	return s.pruneIdleFolders(ctx, scansPrefix, func(up string) (int, error) {
		return s.workingJobs(ctx, "kind = ? AND upload_id = ?", KindScans, up)
	})
}

// GetSummary is GET /api/studio/staff/summary: what needs attention, for the studio's
// home.
func (s *Service) GetSummary(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	out := map[string]any{}
	if s.opt.Trees != nil {
		_, counts, err := s.queue(r.Context(), "waiting")
		if err != nil {
			return err
		}
		out["trees_waiting"] = counts["waiting"]
	}
	var running, failed int
	if err := s.db.QueryRowContext(r.Context(), s.db.Rebind(`SELECT COUNT(*) FROM staff_jobs WHERE state IN (?, ?, ?)`), StateQueued, StateRunning, StateUndoing).Scan(&running); err != nil {
		return err
	}
	since := s.Now().Add(-7 * 24 * time.Hour).Unix()
	if err := s.db.QueryRowContext(r.Context(), s.db.Rebind(`SELECT COUNT(*) FROM staff_jobs WHERE state = ? AND updated_at >= ?`), StateFailed, since).Scan(&failed); err != nil {
		return err
	}
	out["jobs_running"], out["jobs_failed_recent"] = running, failed
	httpx.JSON(w, http.StatusOK, out)
	return nil
}
