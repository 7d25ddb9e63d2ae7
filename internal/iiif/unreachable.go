package iiif

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// missingFiles answers a request for scan id whose files are not in this instance's
// storage. Either the scan was replaced a moment ago (another version's files are
// there now, and the row this server remembered is stale): then a retry succeeds, so it
// answers 503 with Retry-After: 1. Or the database names the same version whose files
// are missing: this instance does not see the storage the scan was imported into
// (instances with data folders of their own instead of one shared storage), or the
// files were lost. Retrying cannot help, so it answers 500 without Retry-After — a
// viewer shows a broken image instead of asking for ever — and /readyz says why
// (Unreachable).
func (s *Service) missingFiles(w http.ResponseWriter, r *http.Request, id string) {
	s.mu.Lock()
	used, known := s.images[id]
	delete(s.images, id)
	s.mu.Unlock()
	fresh, err := lookupImage(r.Context(), s.db, id)
	if err != nil {
		s.fail(w, r, err) // a scan deleted meanwhile is a 404
		return
	}
	if !known || used.row.Version != fresh.Version {
		w.Header().Set("Retry-After", "1")
		writeIIIFError(w, &Error{Status: http.StatusServiceUnavailable, Message: "The scan is being replaced; try again."})
		return
	}
	s.unreachable.note(id, time.Now())
	s.opts.Log.Error("iiif: the files of a scan are not in this instance's storage", "scan", id, "version", fresh.Version,
		"storage", s.blobs.String(), "path", r.URL.Path)
	writeIIIFError(w, &Error{Status: http.StatusInternalServerError,
		Message: "This scan's images cannot be reached from this server. Trying again will not help; please tell the society."})
}

// scanOf is the scan id a request under Prefix names.
func scanOf(r *http.Request) string {
	id, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, Prefix), "/")
	return id
}

// unreachableFor is how long /readyz reports a scan whose files were missing.
const unreachableFor = 10 * time.Minute

// unreachable remembers the last scan whose files were missing, for /readyz.
type unreachable struct {
	mu   sync.Mutex
	scan string
	at   time.Time
}

func (u *unreachable) note(id string, at time.Time) {
	u.mu.Lock()
	u.scan, u.at = id, at
	u.mu.Unlock()
}

// Unreachable says which scan's files were last found missing from this instance's
// storage in the last ten minutes, or nil. /readyz reports it without taking the
// instance out of service: with one shared storage every instance would miss the same
// files, and an instance that cannot serve other pages as well is no better than one
// that can.
func (s *Service) Unreachable(now time.Time) error {
	u := &s.unreachable
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.scan == "" || now.Sub(u.at) >= unreachableFor {
		return nil
	}
	return fmt.Errorf("the files of scan %s were not found in this instance's storage, %s, at %s; every instance must use the same storage (LINEAGE_STORAGE_URL)",
		u.scan, s.blobs.String(), u.at.UTC().Format(time.RFC3339))
}
