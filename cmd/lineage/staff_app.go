package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"strconv"

	"lineage/internal/audit"
	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/pagegen"
	staffroom "lineage/internal/staff"
	"lineage/internal/store"
)

// addStaff builds the staff tools (records, scans and tree imports, people), which write
// every staff action to the audit log. Its background imports run until ctx
// ends; an import a stopped server left half done is taken back by the next one.
func (a *app) addStaff(ctx context.Context, cfg config.Config, db *store.DB) error {
	a.staff = staffroom.New(db, staffroom.Options{
		Accounts: a.accounts,
		Audit:    a.audit,
		Research: a.research,
		Images:   a.images,
		Trees:    a.trees,
		// Uploads and take-back files go where every instance reads them; the staging
		// folder keeps only one request's or job's scratch.
		Blobs:      a.blobs,
		StagingDir: filepath.Join(cfg.DataDir, "staff"),
		// Saved-search alerts may now match the records (as after `lineage import records`).
		AfterRecordsImport: func(ctx context.Context) error { return markRecordsImported(ctx, db) },
		PagesChanged: func(ctx context.Context) {
			if _, err := pagegen.Raise(ctx, db); err != nil {
				slog.Error("staff: page cache not told of a change", "err", err)
			}
		},
	})
	a.staff.Start(ctx)
	return nil
}

// commandLine is the audit log's actor for what an operator does with `lineage`.
var commandLine = audit.Actor{Name: "command line"}

func userSubject(u *auth.User) string { return "user:" + strconv.FormatInt(u.ID, 10) }
