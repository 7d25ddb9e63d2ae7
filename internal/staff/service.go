package staff

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"lineage/internal/audit"
	"lineage/internal/auth"
	"lineage/internal/blob"
	"lineage/internal/httpx"
	"lineage/internal/iiif"
	"lineage/internal/research"
	"lineage/internal/store"
	"lineage/internal/trees"
)

// Options configure a Service. Research, Images and Trees may be nil in a server
// without those rooms: their routes then answer 503.
type Options struct {
	Accounts *auth.Service
	Audit    *audit.Log
	Research *research.Service
	Images   *iiif.Service
	Trees    *trees.Service
	// Blobs keeps what another server may have to read: records uploads, a records
	// job's take-back files and scans uploads (under staff/), so that behind a load
	// balancer any server dry-runs, imports or takes back what another received. nil:
	// a folder store in StagingDir, for a server alone.
	Blobs blob.Store
	// StagingDir is this server's scratch folder (created if missing): files being
	// received or worked on within one request or job, which no other server reads.
	StagingDir string
	Log        *slog.Logger
	// AfterRecordsImport runs after a records job added or changed records (the
	// newsletter's alerts may now match them); nil: nothing.
	AfterRecordsImport func(ctx context.Context) error
	// PagesChanged tells every server that anonymous pages are stale: a job added,
	// changed or took back records or scans that the collections' pages, search results
	// and the image explorer show. nil: nothing (a server without a page cache).
	PagesChanged func(ctx context.Context)
}

// Service is the staff tools' room.
type Service struct {
	db    *store.DB
	opt   Options
	blobs blob.Store
	log   *slog.Logger
	audit *audit.Log
	jobs  *runner
	// Now is the clock; tests replace it.
	Now func() time.Time
	// batchDone, when set, runs after each batch a records job writes (tests stop a
	// job there, between two of its writes).
	batchDone func(ctx context.Context)
	csvLimits csvLimits
}

// New builds the room. Call Start to run the jobs' workers.
func New(db *store.DB, opt Options) *Service {
	s := &Service{db: db, opt: opt, blobs: opt.Blobs, log: opt.Log, audit: opt.Audit, Now: time.Now, csvLimits: csvLimits{bytes: MaxCSVBytes, rows: MaxCSVRows}}
	if s.blobs == nil {
		s.blobs = blob.NewLocal(opt.StagingDir)
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.jobs = newRunner(s)
	s.jobs.undo[KindRecords] = s.undoRecords
	s.jobs.stoppedMsg[KindRecords] = "Nothing from this file was kept: the collection is as it was before."
	s.jobs.undo[KindScans] = s.undoScans
	s.jobs.stoppedMsg[KindScans] = "The scans made before it stopped are kept, each one whole; send the files again to finish (those already made are skipped)."
	s.jobs.action[KindRecords], s.jobs.action[KindScans] = ActionRecordsImport, ActionScansImport
	return s
}

// handlerFunc is a handler of the room, given the signed-in staff member.
type handlerFunc func(w http.ResponseWriter, r *http.Request, u *auth.User) error

var errNotFound = &httpx.Error{Code: httpx.ENOTFOUND, Message: "Not Found"}

func isStaff(u *auth.User) bool { return u.Role == auth.RoleEditor || u.Role == auth.RoleAdmin }

// Staff makes fn a handler for editors and admins: 401 anonymously, 403 to others.
// Its answers are never cached.
func (s *Service) Staff(fn handlerFunc) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		u := auth.UserFrom(r.Context())
		if u == nil {
			return httpx.ErrUnauthenticated
		}
		if !isStaff(u) {
			return httpx.ErrForbidden
		}
		w.Header().Set("Cache-Control", "no-store")
		return fn(w, r, u)
	}
}

// Admin makes fn a handler for admins only: 401 anonymously, 403 to other accounts.
func (s *Service) Admin(fn handlerFunc) httpx.HandlerFunc {
	return s.Staff(func(w http.ResponseWriter, r *http.Request, u *auth.User) error {
		if u.Role != auth.RoleAdmin {
			return httpx.ErrForbidden
		}
		return fn(w, r, u)
	})
}

// actor is u as the audit log keeps it.
func actor(u *auth.User) audit.Actor { return audit.Actor{ID: u.ID, Name: u.Name, Email: u.Email} }

// record writes an audit entry for an action u took.
func (s *Service) record(ctx context.Context, u *auth.User, action, subject, summary string, before, after any) error {
	if s.audit == nil {
		return nil
	}
	return s.audit.Add(ctx, audit.Record{Actor: actor(u), Action: action, Subject: subject, Summary: summary, Before: before, After: after})
}

// Audit actions the staff tools write (docs/studio-staff.md).
const (
	ActionUserRole          = "user.role"
	ActionUserDisable       = "user.disable"
	ActionUserEnable        = "user.enable"
	ActionUserPasswordReset = "user.password_reset"
	ActionMappingSave       = "records.mapping_save"
	ActionMappingDelete     = "records.mapping_delete"
	ActionRecordsImport     = "records.import"
	ActionScansImport       = "scans.import"
	ActionTreeUpload        = "tree.upload"
	ActionTreePublish       = "tree.publish"
	ActionTreeUnpublish     = "tree.unpublish"
	ActionTreeAccess        = "tree.access"
)

func unavailable(what string) error {
	return &httpx.Error{Code: httpx.EUNAVAILABLE, Message: "The " + what + " are not part of this server."}
}
