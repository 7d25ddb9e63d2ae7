package main

import (
	"context"
	"path/filepath"

	"lineage/internal/audit"
	"lineage/internal/config"
	"lineage/internal/httpx"
	staffroom "lineage/internal/staff"
	"lineage/internal/store"
)

// addStaff builds the staff tools (records, scans and tree imports, people) and the
// audit log every staff action is written to. Its background imports run until ctx
// ends; an import a stopped server left half done is taken back by the next one.
func (a *app) addStaff(ctx context.Context, cfg config.Config, db *store.DB) error {
	a.audit = audit.New(db, nil)
	a.staff = staffroom.New(db, staffroom.Options{
		Accounts:   a.accounts,
		Audit:      a.audit,
		Research:   a.research,
		Images:     a.images,
		Trees:      a.trees,
		StagingDir: filepath.Join(cfg.DataDir, "staff"),
		// Saved-search alerts may now match the records (as after `lineage import records`).
		AfterRecordsImport: func(ctx context.Context) error { return markRecordsImported(ctx, db) },
	})
	a.staff.Start(ctx)
	return nil
}

// staffRoom is the staff tools' part of the route table (docs/studio-staff.md).
func (a *app) staffRoom() httpx.Room {
	st := a.staff
	return httpx.Room{
		Name:     "staff",
		Session:  a.accounts.Middleware,
		Fallback: []string{"/api/studio/"},
		Routes: []httpx.Route{
			{Pattern: "GET /api/studio/people", Handler: st.Admin(st.ListPeople), Access: admin},
			{Pattern: "GET /api/studio/people/{id}", Handler: st.Admin(st.GetPerson), Access: admin},
			{Pattern: "PUT /api/studio/people/{id}/role", Handler: st.Admin(st.PutRole), Access: admin},
			{Pattern: "POST /api/studio/people/{id}/disable", Handler: st.Admin(st.PostDisable), Access: admin},
			{Pattern: "POST /api/studio/people/{id}/enable", Handler: st.Admin(st.PostEnable), Access: admin},
			{Pattern: "POST /api/studio/people/{id}/password-reset", Handler: st.Admin(st.PostPasswordReset), Access: admin},

			{Pattern: "GET /api/studio/audit", Handler: st.Admin(st.ListAudit), Access: admin},
			{Pattern: "GET /api/studio/audit.csv", Handler: st.Admin(st.ExportAudit), Access: admin},

			{Pattern: "GET /api/studio/records/uploads", Handler: st.Staff(st.ListRecordsUploads), Access: staff},
			{Pattern: "POST /api/studio/records/uploads", Handler: st.Staff(st.PostRecordsUpload), Access: staff},
			{Pattern: "GET /api/studio/records/uploads/{id}", Handler: st.Staff(st.GetRecordsUpload), Access: staff},
			{Pattern: "DELETE /api/studio/records/uploads/{id}", Handler: st.Staff(st.DeleteRecordsUpload), Access: staff},
			{Pattern: "POST /api/studio/records/uploads/{id}/dry-run", Handler: st.Staff(st.PostRecordsDryRun), Access: staff},
			// The records appear in search when the job is done (the page cache is
			// purged by the search pages' own generation, not by this answer).
			{Pattern: "POST /api/studio/records/uploads/{id}/import", Handler: st.Staff(st.PostRecordsImport), Access: staff},
			{Pattern: "GET /api/studio/records/mappings", Handler: st.Staff(st.ListMappings), Access: staff},
			{Pattern: "PUT /api/studio/records/mappings/{name}", Handler: st.Staff(st.PutMapping), Access: staff},
			{Pattern: "DELETE /api/studio/records/mappings/{name}", Handler: st.Staff(st.DeleteMapping), Access: staff},

			{Pattern: "GET /api/studio/jobs", Handler: st.Staff(st.ListJobs), Access: staff},
			{Pattern: "GET /api/studio/jobs/{id}", Handler: st.Staff(st.GetJob), Access: staff},
			{Pattern: "GET /api/studio/jobs/{id}/events", Handler: st.Staff(st.JobEvents), Access: staff},
			{Pattern: "POST /api/studio/jobs/{id}/cancel", Handler: st.Staff(st.CancelJob), Access: staff},

			{Pattern: "POST /api/studio/scans/uploads", Handler: st.Staff(st.PostScansUpload), Access: staff},

			{Pattern: "GET /api/studio/trees", Handler: st.Staff(st.ListTreeQueue), Access: staff},
			{Pattern: "POST /api/studio/trees/uploads", Handler: st.Staff(st.PostTreeUpload), Access: staff, ChangesPages: true},
			{Pattern: "POST /api/studio/trees/{slug}/publish", Handler: st.Staff(st.PostTreePublish), Access: staff, ChangesPages: true},
			{Pattern: "POST /api/studio/trees/{slug}/unpublish", Handler: st.Staff(st.PostTreeUnpublish), Access: staff, ChangesPages: true},

			{Pattern: "GET /api/studio/staff/summary", Handler: st.Staff(st.GetSummary), Access: staff},
		},
	}
}
