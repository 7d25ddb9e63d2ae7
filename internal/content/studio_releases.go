package content

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"lineage/internal/httpx"
	"lineage/internal/jobs"
	"lineage/internal/pagegen"
	"lineage/internal/store"
)

// Releases group documents to publish together, now or at a scheduled time. A release
// publishes each document's current draft (or republishes its published version). The
// scheduler (RunReleases) claims a due release with a conditional UPDATE inside the
// transaction that publishes it: with several instances on one database, exactly one
// publishes it, and a crash half-way publishes nothing.

// Release statuses.
const (
	ReleaseOpen      = "open"
	ReleaseScheduled = "scheduled"
	ReleasePublished = "published"
	ReleaseFailed    = "failed"
)

// Release is a release as the studio shows it.
type Release struct {
	ID          string            `json:"id"`
	Label       string            `json:"label"`
	Status      string            `json:"status"`
	ScheduledAt *string           `json:"scheduled_at"`
	PublishedAt *string           `json:"published_at"`
	Error       string            `json:"error"`
	CreatedAt   *string           `json:"created_at"`
	CreatedBy   *Person           `json:"created_by"`
	Documents   []ReleaseDocument `json:"documents"`

	masterRef string
}

// ReleaseDocument is a document in a release.
type ReleaseDocument struct {
	ID     string  `json:"id"`
	Type   string  `json:"type"`
	UID    *string `json:"uid"`
	Title  string  `json:"title"`
	Status string  `json:"status"`
}

const maxReleaseLabel = 200

func (s *Service) readRelease(ctx context.Context, q store.Querier, id string) (*Release, error) {
	var r Release
	var sched, pub, created, by sql.NullInt64
	var byName string
	var ref sql.NullString
	err := q.QueryRowContext(ctx, s.db.Rebind(`SELECT id, label, status, scheduled_at, published_at, error, created_at, created_by, created_by_name, master_ref
		FROM content_releases WHERE id = ?`), id).Scan(&r.ID, &r.Label, &r.Status, &sched, &pub, &r.Error, &created, &by, &byName, &ref)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("release")
	}
	if err != nil {
		return nil, fmt.Errorf("content: read release: %w", err)
	}
	r.ScheduledAt, r.PublishedAt, r.CreatedAt = msString(sched), msString(pub), msString(created)
	r.CreatedBy = person(by, byName)
	r.masterRef = ref.String
	rows, err := q.QueryContext(ctx, s.db.Rebind(`SELECT `+prefixed("d.", studioCols)+` FROM content_release_documents rd
		JOIN content_documents d ON d.id = rd.document_id WHERE rd.release_id = ? ORDER BY rd.added_at, d.id`), id)
	if err != nil {
		return nil, fmt.Errorf("content: read release: %w", err)
	}
	r.Documents, err = store.Collect(rows, nil, func(row store.Row) (ReleaseDocument, error) {
		d, err := scanStudioRow(row)
		if err != nil {
			return ReleaseDocument{}, err
		}
		uid, _, data := d.current()
		m, _ := decodeData(data)
		title := strings.TrimSpace(asText(m["title"]))
		if title == "" {
			title = uid
		}
		status := d.status(r.Status == ReleaseScheduled)
		return ReleaseDocument{ID: d.ID, Type: d.Type, UID: strPtr(uid), Title: title, Status: status}, nil
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

func prefixed(p, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// GetRelease returns a release with its documents.
func (s *Service) GetRelease(ctx context.Context, id string) (*Release, error) {
	return s.readRelease(ctx, s.db, id)
}

// Releases lists releases (of one status, or all), scheduled ones first by time.
func (s *Service) Releases(ctx context.Context, status string) ([]*Release, error) {
	query := "SELECT id FROM content_releases"
	var args []any
	if status != "" {
		query += " WHERE status = ?"
		args = append(args, status)
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(query+" ORDER BY COALESCE(scheduled_at, published_at, created_at) DESC, id"), args...)
	ids, err := store.Collect(rows, err, store.Scalar[string])
	if err != nil {
		return nil, fmt.Errorf("content: releases: %w", err)
	}
	out := []*Release{}
	for _, id := range ids {
		r, err := s.GetRelease(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// ReleaseInput is what an editor sends to create or change a release. ScheduledAt is
// set (possibly to nil, which unschedules) when SetSchedule is true.
type ReleaseInput struct {
	Label       *string
	ScheduledAt *time.Time
	SetSchedule bool
}

func checkLabel(label string) error {
	if strings.TrimSpace(label) == "" || utf8.RuneCountInString(label) > maxReleaseLabel {
		return httpx.Invalid("label", "Give the release a name of 1 to %d characters.", maxReleaseLabel)
	}
	return nil
}

// CreateRelease makes a release, scheduled when a time is given.
func (s *Service) CreateRelease(ctx context.Context, ed Editor, in ReleaseInput) (*Release, error) {
	label := ""
	if in.Label != nil {
		label = strings.TrimSpace(*in.Label)
	}
	if err := checkLabel(label); err != nil {
		return nil, err
	}
	id := "rel_" + newRef()
	status := ReleaseOpen
	var at sql.NullInt64
	if in.ScheduledAt != nil {
		status, at = ReleaseScheduled, sql.NullInt64{Int64: in.ScheduledAt.UnixMilli(), Valid: true}
	}
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO content_releases (id, label, status, scheduled_at, created_at, created_by, created_by_name)
		VALUES (?, ?, ?, ?, ?, ?, ?)`), id, label, status, at, s.now().UnixMilli(), nullID(ed.ID), ed.Name)
	if err != nil {
		return nil, fmt.Errorf("content: create release: %w", err)
	}
	r, err := s.GetRelease(ctx, id)
	if err == nil {
		s.audit(ctx, ed, "content.release.create", "content_release:"+id, nil, r)
	}
	return r, err
}

// UpdateRelease renames or (un)schedules a release that is not published. Scheduling
// checks that every document can be published (422 otherwise), and brings a failed
// release back to scheduled.
func (s *Service) UpdateRelease(ctx context.Context, ed Editor, id string, in ReleaseInput) (*Release, error) {
	before, err := s.GetRelease(ctx, id)
	if err != nil {
		return nil, err
	}
	if before.Status == ReleasePublished {
		return nil, &httpx.Error{Code: httpx.ECONFLICT, Message: "This release is published already."}
	}
	set := []string{}
	args := []any{}
	if in.Label != nil {
		label := strings.TrimSpace(*in.Label)
		if err := checkLabel(label); err != nil {
			return nil, err
		}
		set, args = append(set, "label = ?"), append(args, label)
	}
	if in.SetSchedule {
		if in.ScheduledAt == nil {
			set = append(set, "status = 'open'", "scheduled_at = NULL", "error = ''")
		} else {
			if err := s.checkReleasePublishable(ctx, id); err != nil {
				return nil, err
			}
			set = append(set, "status = 'scheduled'", "scheduled_at = ?", "error = ''")
			args = append(args, in.ScheduledAt.UnixMilli())
		}
	}
	if len(set) > 0 {
		args = append(args, id)
		res, err := s.db.ExecContext(ctx, s.db.Rebind("UPDATE content_releases SET "+strings.Join(set, ", ")+" WHERE id = ? AND status <> 'published'"), args...)
		if err != nil {
			return nil, fmt.Errorf("content: update release: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil, &httpx.Error{Code: httpx.ECONFLICT, Message: "This release was published meanwhile."}
		}
	}
	r, err := s.GetRelease(ctx, id)
	if err == nil {
		s.audit(ctx, ed, "content.release.update", "content_release:"+id, before, r)
	}
	return r, err
}

// checkReleasePublishable is a 422 naming what stops a release's documents from being
// published (keys documents.<id>.<path>).
func (s *Service) checkReleasePublishable(ctx context.Context, id string) error {
	set, err := s.models(ctx)
	if err != nil {
		return err
	}
	rows, err := s.releaseRows(ctx, s.db, id)
	if err != nil {
		return err
	}
	var fe httpx.FieldErrors
	if len(rows) == 0 {
		fe.Add("documents", "Add a document to the release first.")
	}
	for _, r := range rows {
		uid, tags, data := r.current()
		if err := s.validate(ctx, s.db, set, r.Type, r.Lang, r.ID, uid, tags, data, true); err != nil {
			var he *httpx.Error
			if !errors.As(err, &he) || he.Code != httpx.EINVALID {
				return err
			}
			for _, k := range sortedKeys(he.Fields) {
				for _, m := range he.Fields[k] {
					fe.Add("documents."+r.ID+"."+k, "%s", m)
				}
			}
		}
	}
	return fe.Err()
}

func (s *Service) releaseRows(ctx context.Context, q store.Querier, id string) ([]*studioRow, error) {
	rows, err := q.QueryContext(ctx, s.db.Rebind(`SELECT `+prefixed("d.", studioCols)+` FROM content_release_documents rd
		JOIN content_documents d ON d.id = rd.document_id WHERE rd.release_id = ? ORDER BY d.id`), id)
	if err != nil {
		return nil, fmt.Errorf("content: release documents: %w", err)
	}
	return store.Collect(rows, nil, scanStudioRow)
}

// DeleteRelease deletes a release that is not published; its documents are untouched.
func (s *Service) DeleteRelease(ctx context.Context, ed Editor, id string) error {
	before, err := s.GetRelease(ctx, id)
	if err != nil {
		return err
	}
	if before.Status == ReleasePublished {
		return &httpx.Error{Code: httpx.ECONFLICT, Message: "A published release stays in the history."}
	}
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.db.Rebind("DELETE FROM content_release_documents WHERE release_id = ?"), id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.db.Rebind("DELETE FROM content_releases WHERE id = ? AND status <> 'published'"), id)
		return store.Changed(res, err, &httpx.Error{Code: httpx.ECONFLICT, Message: "This release was published meanwhile."})
	})
	if err != nil {
		return err
	}
	s.audit(ctx, ed, "content.release.delete", "content_release:"+id, before, nil)
	return nil
}

// SetReleaseDocument adds (in) or removes a document of a release that is not published.
func (s *Service) SetReleaseDocument(ctx context.Context, ed Editor, id, docID string, in bool) (*Release, error) {
	before, err := s.GetRelease(ctx, id)
	if err != nil {
		return nil, err
	}
	if before.Status == ReleasePublished {
		return nil, &httpx.Error{Code: httpx.ECONFLICT, Message: "This release is published already."}
	}
	doc, err := s.readRow(ctx, s.db, docID)
	if err != nil {
		return nil, err
	}
	if in && doc.Archived.Valid {
		return nil, &httpx.Error{Code: httpx.ECONFLICT, Message: "This document is archived: bring it back from the archive first."}
	}
	// The revision moves too, so that the release's previews see the change.
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		var err error
		if in {
			_, err = tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO content_release_documents (release_id, document_id, added_at) VALUES (?, ?, ?)
				ON CONFLICT (release_id, document_id) DO NOTHING`), id, docID, s.now().UnixMilli())
		} else {
			_, err = tx.ExecContext(ctx, s.db.Rebind("DELETE FROM content_release_documents WHERE release_id = ? AND document_id = ?"), id, docID)
		}
		if err != nil {
			return err
		}
		return bumpRevision(ctx, tx, s)
	})
	if err != nil {
		return nil, fmt.Errorf("content: release document: %w", err)
	}
	s.state(ctx, true)
	r, err := s.GetRelease(ctx, id)
	if err == nil {
		action := "content.release.add"
		if !in {
			action = "content.release.remove"
		}
		s.audit(ctx, ed, action, "content_release:"+id, map[string]any{"document": docID}, r)
	}
	return r, err
}

// PublishRelease publishes a release now (open, scheduled or failed).
func (s *Service) PublishRelease(ctx context.Context, ed Editor, id string) (*Release, error) {
	before, err := s.GetRelease(ctx, id)
	if err != nil {
		return nil, err
	}
	if before.Status != ReleasePublished && len(before.Documents) == 0 {
		return nil, httpx.Invalid("documents", "Add a document to the release first.")
	}
	ok, err := s.publishRelease(ctx, ed, id, "status IN ('open', 'scheduled', 'failed')", nil)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &httpx.Error{Code: httpx.ECONFLICT, Message: "This release is published already."}
	}
	r, err := s.GetRelease(ctx, id)
	if err == nil {
		s.audit(ctx, ed, "content.release.publish", "content_release:"+id, before, r)
	}
	return r, err
}

// publishRelease claims the release with a conditional UPDATE (cond on its status) and
// publishes its documents in the same transaction. It reports whether this call
// published it: false when another caller (instance) did.
func (s *Service) publishRelease(ctx context.Context, ed Editor, id, cond string, args []any) (bool, error) {
	set, err := s.models(ctx)
	if err != nil {
		return false, err
	}
	now := s.now()
	claimed := false
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE content_releases SET status = 'published', published_at = ?, error = ''
			WHERE id = ? AND `+cond), append([]any{now.UnixMilli(), id}, args...)...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		claimed = true
		rows, err := s.releaseRows(ctx, tx, id)
		if err != nil {
			return err
		}
		var live []*studioRow
		revs := map[string]int64{}
		for _, r := range rows {
			if r.Archived.Valid {
				continue
			}
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE content_documents SET revision = revision + 1,
				updated_at = ?, updated_by = ?, updated_by_name = ? WHERE id = ?`), now.UnixMilli(), nullID(ed.ID), ed.Name, r.ID); err != nil {
				return err
			}
			if err := s.baseline(ctx, tx, r); err != nil {
				return err
			}
			revs[r.ID] = r.Revision + 1
			live = append(live, r)
		}
		if len(live) == 0 {
			return httpx.Invalid("documents", "The release has no documents to publish.")
		}
		rel, err := s.readRelease(ctx, tx, id)
		if err != nil {
			return err
		}
		ref, err := s.publishRowsTx(ctx, tx, ed, set, live, revs, now, rel)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, s.db.Rebind("UPDATE content_releases SET master_ref = ? WHERE id = ?"), nullString(ref), id)
		return err
	})
	if err != nil {
		return false, err
	}
	if claimed {
		s.state(ctx, true)
		s.kickWebhooks()
	}
	return claimed, nil
}

// scheduler is the Editor the release scheduler publishes as.
var scheduler = Editor{Name: "Scheduled release"}

// PublishDueReleases publishes every scheduled release whose time has come (by now),
// each exactly once across instances. A release that cannot be published (a document
// misses a required field) is marked failed with the reason, for an editor to fix and
// schedule again. It returns how many releases this call published.
func (s *Service) PublishDueReleases(ctx context.Context, now time.Time) (int, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id FROM content_releases WHERE status = 'scheduled' AND scheduled_at <= ? ORDER BY scheduled_at, id`), now.UnixMilli())
	ids, err := store.Collect(rows, err, store.Scalar[string])
	if err != nil {
		return 0, fmt.Errorf("content: due releases: %w", err)
	}
	n := 0
	for _, id := range ids {
		ok, err := s.publishRelease(ctx, scheduler, id, "status = 'scheduled' AND scheduled_at <= ?", []any{now.UnixMilli()})
		var he *httpx.Error
		if errors.As(err, &he) && he.Code == httpx.EINVALID {
			msg := he.Message
			if len(msg) > 2000 {
				msg = msg[:2000]
			}
			if _, ferr := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE content_releases SET status = 'failed', error = ? WHERE id = ? AND status = 'scheduled'`), msg, id); ferr != nil {
				return n, ferr
			}
			s.audit(ctx, scheduler, "content.release.failed", "content_release:"+id, nil, map[string]any{"error": msg})
			continue
		}
		if err != nil {
			return n, err
		}
		if ok {
			n++
			s.audit(ctx, scheduler, "content.release.publish", "content_release:"+id, nil, map[string]any{"id": id})
		}
	}
	return n, nil
}

// RunReleases publishes due releases and sends queued webhooks every interval (and
// webhooks at once after a publish through this instance) until ctx ends. With several
// instances each may run it: releases and deliveries are claimed in the store.
func (s *Service) RunReleases(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = 5 * time.Second
	}
	jobs.Repeat(ctx, every, s.webhookKick, func(ctx context.Context) {
		n, err := s.PublishDueReleases(ctx, s.now())
		if err != nil && ctx.Err() == nil {
			slog.Error("content: scheduled releases", "err", err)
		}
		if n > 0 {
			s.pagesChanged(ctx)
		}
		if _, err := s.DeliverWebhooks(ctx, s.now()); err != nil && ctx.Err() == nil {
			slog.Error("content: webhooks", "err", err)
		}
	})
}

func (s *Service) pagesChanged(ctx context.Context) {
	if s.opts.PagesChanged != nil {
		s.opts.PagesChanged(ctx)
		return
	}
	if _, err := pagegen.Raise(ctx, s.db); err != nil {
		slog.Error("content: a release was published but page caches were not told", "err", err)
	}
}
