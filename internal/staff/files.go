package staff

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"lineage/internal/blob"
	"lineage/internal/httpx"
)

// Where the staff tools keep their files in the blob store. Everything a later
// request or a job's take-back reads is there, since behind a load balancer it may run
// on another server than the one that wrote it.
const (
	recordsPrefix = "staff/records/"
	jobsPrefix    = "staff/jobs/"
	scansPrefix   = "staff/scans/"
)

func recordsKey(uploadID string) string { return recordsPrefix + uploadID + ".csv" }

// jobPrefix holds a records job's take-back files.
func jobPrefix(id int64) string { return fmt.Sprintf("%s%d/", jobsPrefix, id) }

// scansUploadPrefix holds the files of one scans upload.
func scansUploadPrefix(upload string) string { return scansPrefix + upload + "/" }

// scratchDir is this server's own scratch: a request's upload before it is stored, a
// take-back file being written, the copy of a scans upload iiif's Import reads from
// disk. Each lives for one request or job and no other server reads it, so it stays
// local; Start empties it, since what a stopped process left there belongs to no one.
func (s *Service) scratchDir() (string, error) {
	dir := filepath.Join(s.opt.StagingDir, "tmp")
	return dir, os.MkdirAll(dir, 0o755)
}

// openUpload opens an upload's multipart body (at most limit bytes; message says what
// to send instead of another kind) and the scratch folder its files are received in.
func (s *Service) openUpload(w http.ResponseWriter, r *http.Request, limit int64, message string) (*multipart.Reader, string, error) {
	mr, err := httpx.Multipart(w, r, limit, message)
	if err != nil {
		return nil, "", err
	}
	scratch, err := s.scratchDir()
	return mr, scratch, err
}

// clearScratch removes what a previous process left in the scratch folder (the data
// folder's start-up lock means no other process of this folder is running).
func (s *Service) clearScratch() error {
	if s.opt.StagingDir == "" {
		return nil
	}
	return os.RemoveAll(filepath.Join(s.opt.StagingDir, "tmp"))
}

// putFile stores the local file path under key.
func (s *Service) putFile(ctx context.Context, key, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = s.blobs.Put(ctx, key, f, blob.PutOptions{})
	return err
}

// open reads a stored file: a key, or the absolute path of a file a job stored by a
// server that kept its files on its own disk names.
func (s *Service) open(ctx context.Context, key string) (io.ReadCloser, int64, error) {
	if filepath.IsAbs(key) {
		f, err := os.Open(key)
		if err != nil {
			return nil, 0, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		return f, st.Size(), nil
	}
	rc, info, err := s.blobs.Get(ctx, key, blob.Range{})
	if err != nil {
		return nil, 0, err
	}
	return rc, info.Size, nil
}

// remove deletes a stored file (a key, or a local path as open takes); a missing one
// is not an error.
func (s *Service) remove(ctx context.Context, key string) error {
	if key == "" {
		return nil
	}
	if filepath.IsAbs(key) {
		if err := os.Remove(key); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	return s.blobs.Delete(ctx, key)
}

// adoptLocalUploads moves records uploads that an earlier version kept in the staging
// folder (records/<id>.csv) into the blob store, so that their rows still find them.
func (s *Service) adoptLocalUploads(ctx context.Context) error {
	if s.opt.StagingDir == "" {
		return nil
	}
	dir := filepath.Join(s.opt.StagingDir, "records")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, en := range entries {
		id := strings.TrimSuffix(en.Name(), ".csv")
		if !en.Type().IsRegular() || !uploadIDRE.MatchString(id) {
			continue
		}
		p := filepath.Join(dir, en.Name())
		if err := s.putFile(ctx, recordsKey(id), p); err != nil {
			return err
		}
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	os.Remove(dir) // only when empty
	return nil
}
