package content

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"sort"
	"strings"
	"time"

	"lineage/internal/httpx"
	"lineage/internal/store"
)

// The studio: the writing side of the content room. Editors and admins list, create,
// save (autosave), publish, unpublish, archive and restore documents through the JSON
// API of studio_handlers.go; every write checks the document against its type's model
// (studio_models.go, studio_validate.go), raises the document's revision (a write from an
// older revision is a 409) and is kept in the document's history (content_versions).

// Editor is who makes a studio request.
type Editor struct {
	ID    int64
	Name  string
	Staff bool // an editor or an admin
	Admin bool
}

// Person names the author of a change.
type Person struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func person(id sql.NullInt64, name string) *Person {
	if !id.Valid && name == "" {
		return nil
	}
	return &Person{ID: id.Int64, Name: name}
}

// StudioDocument is a document as the studio sees it: the draft (or the published
// version when there is no draft) and its state.
type StudioDocument struct {
	ID         string              `json:"id"`
	Type       string              `json:"type"`
	Lang       string              `json:"lang"`
	UID        *string             `json:"uid"`
	Tags       []string            `json:"tags"`
	Data       json.RawMessage     `json:"data"`
	Status     string              `json:"status"`
	HasChanges bool                `json:"has_changes"`
	Revision   int64               `json:"revision"`
	Published  *PublishedVersion   `json:"published"`
	First      *string             `json:"first_publication_date"`
	Last       *string             `json:"last_publication_date"`
	CreatedAt  *string             `json:"created_at"`
	CreatedBy  *Person             `json:"created_by"`
	UpdatedAt  *string             `json:"updated_at"`
	UpdatedBy  *Person             `json:"updated_by"`
	ArchivedAt *string             `json:"archived_at"`
	Releases   []ReleaseRef        `json:"releases"`
	Problems   map[string][]string `json:"problems"`
}

// PublishedVersion is what the site shows of a document.
type PublishedVersion struct {
	UID  *string         `json:"uid"`
	Tags []string        `json:"tags"`
	Data json.RawMessage `json:"data"`
}

// ReleaseRef names a release a document is in.
type ReleaseRef struct {
	ID          string  `json:"id"`
	Label       string  `json:"label"`
	ScheduledAt *string `json:"scheduled_at"`
}

// DocumentSummary is a row of the studio's document list: what the link picker shows
// of a document (LinkTarget, the row's first fields), and more.
type DocumentSummary struct {
	LinkTarget
	HasChanges bool     `json:"has_changes"`
	Revision   int64    `json:"revision"`
	Tags       []string `json:"tags"`
	UpdatedAt  *string  `json:"updated_at"`
	UpdatedBy  *Person  `json:"updated_by"`
	First      *string  `json:"first_publication_date"`
	Last       *string  `json:"last_publication_date"`
	ArchivedAt *string  `json:"archived_at"`
}

// Document statuses.
const (
	StatusDraft     = "draft"
	StatusScheduled = "scheduled"
	StatusPublished = "published"
	StatusArchived  = "archived"
)

// studioRow is a row of content_documents with the studio's columns.
type studioRow struct {
	ID, Type, Lang               string
	AltIDs                       []string
	UID, Tags, Data              sql.NullString
	First, Last                  sql.NullInt64
	DUID, DTags, DData           sql.NullString
	DSaved                       sql.NullInt64
	Revision                     int64
	Archived, Created, Updated   sql.NullInt64
	CreatedBy, UpdatedBy         sql.NullInt64
	CreatedByName, UpdatedByName string
}

const studioCols = `id, type, lang, alternate_ids, uid, tags, data, first_publication_date, last_publication_date,
	draft_uid, draft_tags, draft_data, draft_saved_at, revision, archived_at, created_at, created_by, created_by_name,
	updated_at, updated_by, updated_by_name`

func scanStudioRow(sc store.Row) (*studioRow, error) {
	var r studioRow
	var alts string
	err := sc.Scan(&r.ID, &r.Type, &r.Lang, &alts, &r.UID, &r.Tags, &r.Data, &r.First, &r.Last,
		&r.DUID, &r.DTags, &r.DData, &r.DSaved, &r.Revision, &r.Archived, &r.Created, &r.CreatedBy, &r.CreatedByName,
		&r.Updated, &r.UpdatedBy, &r.UpdatedByName)
	if err != nil {
		return nil, err
	}
	r.AltIDs = decodeStrings(alts)
	return &r, nil
}

func (s *Service) readRow(ctx context.Context, q store.Querier, id string) (*studioRow, error) {
	r, err := scanStudioRow(q.QueryRowContext(ctx, s.db.Rebind("SELECT "+studioCols+" FROM content_documents WHERE id = ?"), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("document")
	}
	if err != nil {
		return nil, fmt.Errorf("content: read document: %w", err)
	}
	return r, nil
}

// current is what the editor works on: the draft, else the published version.
func (r *studioRow) current() (uid string, tags []string, data json.RawMessage) {
	if r.DData.Valid {
		return r.DUID.String, decodeStrings(r.DTags.String), json.RawMessage(r.DData.String)
	}
	if r.Data.Valid {
		return r.UID.String, decodeStrings(r.Tags.String), json.RawMessage(r.Data.String)
	}
	return "", []string{}, json.RawMessage("{}")
}

func (r *studioRow) status(scheduled bool) string {
	switch {
	case r.Archived.Valid:
		return StatusArchived
	case r.Data.Valid:
		return StatusPublished
	case scheduled:
		return StatusScheduled
	}
	return StatusDraft
}

// document builds the Document that publishing r writes.
func (r *studioRow) document() Document {
	uid, tags, data := r.current()
	d := Document{ID: r.ID, UID: uid, Type: r.Type, Lang: r.Lang, Tags: tags, Data: data}
	for _, id := range r.AltIDs {
		d.AlternateLanguages = append(d.AlternateLanguages, AlternateLanguage{ID: id})
	}
	return d
}

func msString(n sql.NullInt64) *string {
	if !n.Valid {
		return nil
	}
	return formatTime(time.UnixMilli(n.Int64).UTC())
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func notFound(what string) *httpx.Error {
	return &httpx.Error{Code: httpx.ENOTFOUND, Message: "There is no such " + what + "."}
}

var errNotFound = &httpx.Error{Code: httpx.ENOTFOUND, Message: "Not Found"}

// releasesOf lists the open and scheduled releases each document is in.
func (s *Service) releasesOf(ctx context.Context, q store.Querier, id string) (map[string][]ReleaseRef, error) {
	query := `SELECT rd.document_id, r.id, r.label, r.scheduled_at, r.status FROM content_release_documents rd
		JOIN content_releases r ON r.id = rd.release_id WHERE r.status IN ('open', 'scheduled')`
	var args []any
	if id != "" {
		query += " AND rd.document_id = ?"
		args = append(args, id)
	}
	rows, err := q.QueryContext(ctx, s.db.Rebind(query+" ORDER BY r.scheduled_at, r.id"), args...)
	if err != nil {
		return nil, fmt.Errorf("content: read releases: %w", err)
	}
	defer rows.Close()
	out := map[string][]ReleaseRef{}
	for rows.Next() {
		var doc, status string
		var ref ReleaseRef
		var at sql.NullInt64
		if err := rows.Scan(&doc, &ref.ID, &ref.Label, &at, &status); err != nil {
			return nil, err
		}
		if status == "scheduled" {
			ref.ScheduledAt = msString(at)
		}
		out[doc] = append(out[doc], ref)
	}
	return out, rows.Err()
}

func scheduledIn(refs []ReleaseRef) bool {
	for _, r := range refs {
		if r.ScheduledAt != nil {
			return true
		}
	}
	return false
}

func (s *Service) studioDocument(ctx context.Context, r *studioRow, refs []ReleaseRef, problems map[string][]string) *StudioDocument {
	uid, tags, data := r.current()
	d := &StudioDocument{
		ID: r.ID, Type: r.Type, Lang: r.Lang, UID: strPtr(uid), Tags: tags, Data: data,
		Status: r.status(scheduledIn(refs)), HasChanges: r.Data.Valid && r.DData.Valid, Revision: r.Revision,
		First: msString(r.First), Last: msString(r.Last),
		CreatedAt: msString(r.Created), CreatedBy: person(r.CreatedBy, r.CreatedByName),
		UpdatedAt: msString(r.Updated), UpdatedBy: person(r.UpdatedBy, r.UpdatedByName),
		ArchivedAt: msString(r.Archived), Releases: refs, Problems: problems,
	}
	if d.Releases == nil {
		d.Releases = []ReleaseRef{}
	}
	if d.Problems == nil {
		d.Problems = map[string][]string{}
	}
	if r.Data.Valid {
		d.Published = &PublishedVersion{UID: strPtr(r.UID.String), Tags: decodeStrings(r.Tags.String), Data: json.RawMessage(r.Data.String)}
	}
	return d
}

// GetDocument returns a document as the studio shows it, with what blocks publishing.
func (s *Service) GetDocument(ctx context.Context, id string) (*StudioDocument, error) {
	r, err := s.readRow(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	return s.answerRow(ctx, r)
}

func (s *Service) answerRow(ctx context.Context, r *studioRow) (*StudioDocument, error) {
	refs, err := s.releasesOf(ctx, s.db, r.ID)
	if err != nil {
		return nil, err
	}
	problems := map[string][]string{}
	if set, err := s.models(ctx); err == nil && set.types[r.Type] != nil {
		uid, tags, data := r.current()
		if err := s.validate(ctx, s.db, set, r.Type, r.Lang, r.ID, uid, tags, data, true); err != nil {
			var he *httpx.Error
			if errors.As(err, &he) && he.Code == httpx.EINVALID {
				problems = he.Fields
			} else {
				return nil, err
			}
		}
	}
	return s.studioDocument(ctx, r, refs[r.ID], problems), nil
}

// validate checks a document against its model and the store (uid taken, link targets):
// a 422 with every problem, or nil.
func (s *Service) validate(ctx context.Context, q store.Querier, set *modelSet, typ, lang, id, uid string, tags []string, data []byte, publish bool) error {
	m := set.types[typ]
	if m == nil {
		return httpx.Invalid("type", "There is no document type %q.", typ)
	}
	fe, links := ValidateDocument(m, set.slices, uid, tags, data, publish)
	if uid != "" && !fe.Has("uid") {
		taken, err := s.uidTaken(ctx, q, typ, lang, uid, id)
		if err != nil {
			return err
		}
		if taken {
			fe.Add("uid", "Another %s already uses the address %q.", strings.ToLower(m.Label), uid)
		}
	}
	types := map[string]string{}
	for _, l := range links {
		if _, seen := types[l.id]; !seen {
			var t string
			err := q.QueryRowContext(ctx, s.db.Rebind("SELECT type FROM content_documents WHERE id = ? AND archived_at IS NULL"), l.id).Scan(&t)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("content: check link: %w", err)
			}
			types[l.id] = t
		}
		t := types[l.id]
		switch {
		case t == "":
			fe.Add(l.path, "The page this links to does not exist (any more). Choose another.")
		case len(l.types) > 0 && !contains(l.types, t):
			fe.Add(l.path, "This link may point only to: %s.", strings.Join(l.types, ", "))
		}
	}
	return fe.Err()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// uidTaken reports whether another document of the type and language (not archived)
// uses uid, published or in its draft.
func (s *Service) uidTaken(ctx context.Context, q store.Querier, typ, lang, uid, exceptID string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, s.db.Rebind(`SELECT count(*) FROM content_documents
		WHERE type = ? AND lang = ? AND id <> ? AND archived_at IS NULL AND (uid = ? OR draft_uid = ?)`),
		typ, lang, exceptID, uid, uid).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("content: check uid: %w", err)
	}
	return n > 0, nil
}

// UIDCheck is the answer of the uid check.
type UIDCheck struct {
	UID       string `json:"uid"`
	Valid     bool   `json:"valid"`
	Available bool   `json:"available"`
	Message   string `json:"message"`
}

// CheckUID says whether uid is a well-formed address free for a document of the type
// and language (id: the document being edited, which may keep its own).
func (s *Service) CheckUID(ctx context.Context, typ, lang, uid, id string) (*UIDCheck, error) {
	if lang == "" {
		lang = defaultStudioLang
	}
	var fe httpx.FieldErrors
	checkUID(&fe, uid, true, true)
	out := &UIDCheck{UID: uid}
	if err := fe.Err(); err != nil {
		out.Message = err.(*httpx.Error).Message
		return out, nil
	}
	out.Valid = true
	taken, err := s.uidTaken(ctx, s.db, typ, lang, uid, id)
	if err != nil {
		return nil, err
	}
	out.Available = !taken
	if taken {
		out.Message = "Another document of this type already uses this address."
	} else {
		out.Message = "This address is free."
	}
	return out, nil
}

const defaultStudioLang = "en-gb"

// DocumentInput is what an editor sends to create or save a document.
type DocumentInput struct {
	Type     string          `json:"type"`
	Lang     string          `json:"lang"`
	UID      string          `json:"uid"`
	Tags     []string        `json:"tags"`
	Data     json.RawMessage `json:"data"`
	Revision *int64          `json:"revision"`
}

// CreateDocument makes a new draft document.
func (s *Service) CreateDocument(ctx context.Context, ed Editor, in DocumentInput) (*StudioDocument, error) {
	if in.Lang == "" {
		in.Lang = defaultStudioLang
	}
	if !langPattern.MatchString(in.Lang) {
		return nil, httpx.Invalid("lang", "%q is not a language code such as en-gb.", in.Lang)
	}
	data, set, err := s.draftInput(ctx, &in)
	if err != nil {
		return nil, err
	}
	id := newRef()
	now := s.now()
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		if err := s.validate(ctx, tx, set, in.Type, in.Lang, id, in.UID, in.Tags, data, false); err != nil {
			return err
		}
		if m := set.types[in.Type]; !m.Repeatable {
			var n int
			if err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT count(*) FROM content_documents WHERE type = ? AND lang = ? AND archived_at IS NULL`),
				in.Type, in.Lang).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return httpx.Invalid("type", "There is one %s only (in this language): edit the one there is.", strings.ToLower(m.Label))
			}
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO content_documents
			(id, type, lang, alternate_ids, draft_uid, draft_tags, draft_data, draft_saved_at, revision,
			 created_at, created_by, created_by_name, updated_at, updated_by, updated_by_name)
			VALUES (?, ?, ?, '[]', ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`),
			id, in.Type, in.Lang, nullString(in.UID), encodeStrings(in.Tags), string(data), now.UnixMilli(),
			now.UnixMilli(), nullID(ed.ID), ed.Name, now.UnixMilli(), nullID(ed.ID), ed.Name); err != nil {
			return err
		}
		if err := s.addVersion(ctx, tx, ed, id, 1, "draft", in.UID, in.Tags, data, now); err != nil {
			return err
		}
		return bumpRevision(ctx, tx, s)
	})
	if err != nil {
		return nil, err
	}
	s.state(ctx, true)
	d, err := s.GetDocument(ctx, id)
	if err == nil {
		s.audit(ctx, ed, "content.create", "content_document:"+id, nil, auditView(d))
	}
	return d, err
}

// maxDocumentBytes bounds a document's JSON body (create, save).
const maxDocumentBytes = 1 << 20

// draftInput is what creating and saving a draft start from: its tags (none is an
// empty list), its data compacted, and the models it is checked against.
func (s *Service) draftInput(ctx context.Context, in *DocumentInput) ([]byte, *modelSet, error) {
	if in.Tags == nil {
		in.Tags = []string{}
	}
	data, err := compactData(in.Data)
	if err != nil {
		return nil, nil, err
	}
	set, err := s.models(ctx)
	return data, set, err
}

func compactData(raw json.RawMessage) ([]byte, error) {
	d := Document{Type: "x", Lang: defaultStudioLang, ID: "x", Data: raw}
	if err := d.normalize(); err != nil {
		return nil, httpx.Invalid("data", "The document's data must be a JSON object.")
	}
	return d.Data, nil
}

func bumpRevision(ctx context.Context, tx *sql.Tx, s *Service) error {
	_, err := tx.ExecContext(ctx, s.db.Rebind("UPDATE content_state SET revision = revision + 1 WHERE id = 1"))
	return err
}

// mutate runs one studio write to a document in a transaction: it claims the document's
// revision (a conditional UPDATE, so of two concurrent writers from the same revision
// exactly one goes on and the other gets a 409), keeps a baseline of a document that
// has no history yet, then runs fn. It answers the document after the write.
func (s *Service) mutate(ctx context.Context, ed Editor, id string, expect *int64, action string,
	fn func(tx *sql.Tx, before *studioRow, rev int64, now time.Time) error) (*StudioDocument, error) {
	now := s.now()
	var before *studioRow
	err := s.db.InTx(ctx, func(tx *sql.Tx) error {
		var err error
		before, err = s.readRow(ctx, tx, id)
		if err != nil {
			return err
		}
		if expect != nil && *expect != before.Revision {
			return conflict(before)
		}
		res, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE content_documents SET revision = revision + 1,
			updated_at = ?, updated_by = ?, updated_by_name = ? WHERE id = ? AND revision = ?`),
			now.UnixMilli(), nullID(ed.ID), ed.Name, id, before.Revision)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return conflict(before)
		}
		if err := s.baseline(ctx, tx, before); err != nil {
			return err
		}
		if err := fn(tx, before, before.Revision+1, now); err != nil {
			return err
		}
		return bumpRevision(ctx, tx, s)
	})
	if err != nil {
		return nil, err
	}
	if _, err := s.state(ctx, true); err != nil {
		return nil, err
	}
	after, err := s.GetDocument(ctx, id)
	if err != nil {
		return nil, err
	}
	beforeDoc := s.studioDocument(ctx, before, nil, nil)
	s.audit(ctx, ed, action, "content_document:"+id, auditView(beforeDoc), auditView(after))
	return after, nil
}

func conflict(r *studioRow) error {
	who := "Someone else"
	if r.UpdatedByName != "" {
		who = r.UpdatedByName
	}
	when := ""
	if t := msString(r.Updated); t != nil {
		when = " at " + time.UnixMilli(r.Updated.Int64).UTC().Format("15:04 on 2 January (UTC)")
	}
	return &httpx.Error{Code: httpx.ECONFLICT, Message: fmt.Sprintf(
		"%s saved this document%s, after you opened it. Your changes are still on this screen: copy what you need, then reload the document to see theirs.", who, when)}
}

// auditView is the short form of a document the audit log keeps.
func auditView(d *StudioDocument) map[string]any {
	if d == nil {
		return nil
	}
	return map[string]any{"id": d.ID, "type": d.Type, "uid": d.UID, "tags": d.Tags, "status": d.Status, "revision": d.Revision}
}

func (s *Service) audit(ctx context.Context, ed Editor, action, subject string, before, after any) {
	if s.opts.Audit != nil {
		s.opts.Audit(ctx, ed.ID, action, subject, before, after)
	}
}

// SaveDocument stores an editor's draft (autosave): checked against the model (a 422
// stores nothing), refused with a 409 when in.Revision is not the stored one.
func (s *Service) SaveDocument(ctx context.Context, ed Editor, id string, in DocumentInput) (*StudioDocument, error) {
	if in.Revision == nil {
		return nil, httpx.Invalid("revision", "Send the revision you started from.")
	}
	data, set, err := s.draftInput(ctx, &in)
	if err != nil {
		return nil, err
	}
	return s.mutate(ctx, ed, id, in.Revision, "content.save", func(tx *sql.Tx, before *studioRow, rev int64, now time.Time) error {
		if err := s.validate(ctx, tx, set, before.Type, before.Lang, id, in.UID, in.Tags, data, false); err != nil {
			return err
		}
		if err := s.writeDraft(ctx, tx, id, in.UID, in.Tags, data, now); err != nil {
			return err
		}
		return s.addVersion(ctx, tx, ed, id, rev, "draft", in.UID, in.Tags, data, now)
	})
}

func (s *Service) writeDraft(ctx context.Context, tx *sql.Tx, id, uid string, tags []string, data []byte, now time.Time) error {
	_, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE content_documents SET draft_uid = ?, draft_tags = ?, draft_data = ?, draft_saved_at = ? WHERE id = ?`),
		nullString(uid), encodeStrings(tags), string(data), now.UnixMilli(), id)
	return err
}

// PublishDocument publishes a document's draft (or republishes it): required fields are
// checked too. It moves the master ref and queues the webhooks.
func (s *Service) PublishDocument(ctx context.Context, ed Editor, id string, expect *int64) (*StudioDocument, error) {
	set, err := s.models(ctx)
	if err != nil {
		return nil, err
	}
	return s.mutate(ctx, ed, id, expect, "content.publish", func(tx *sql.Tx, before *studioRow, rev int64, now time.Time) error {
		if before.Archived.Valid {
			return &httpx.Error{Code: httpx.ECONFLICT, Message: "This document is archived: bring it back from the archive before publishing it."}
		}
		_, err := s.publishRowsTx(ctx, tx, ed, set, []*studioRow{before}, map[string]int64{id: rev}, now, nil)
		return err
	})
}

// publishRowsTx publishes rows (their drafts, else their published versions) in tx:
// each is checked for publishing, written, kept in the history, and the webhooks are
// queued. Field errors are keyed by path, prefixed with documents.<id>. when there is
// more than one row. It returns the new master ref.
func (s *Service) publishRowsTx(ctx context.Context, tx *sql.Tx, ed Editor, set *modelSet, rows []*studioRow, revs map[string]int64, now time.Time, release *Release) (string, error) {
	var docs []Document
	var fe httpx.FieldErrors
	for _, r := range rows {
		d := r.document()
		if err := s.validate(ctx, tx, set, r.Type, r.Lang, r.ID, d.UID, d.Tags, d.Data, true); err != nil {
			var he *httpx.Error
			if !errors.As(err, &he) || he.Code != httpx.EINVALID {
				return "", err
			}
			if len(rows) == 1 {
				return "", err
			}
			for _, k := range sortedKeys(he.Fields) {
				for _, m := range he.Fields[k] {
					fe.Add("documents."+r.ID+"."+k, "%s", m)
				}
			}
			continue
		}
		if err := d.normalize(); err != nil {
			return "", httpx.Invalid("data", "%s", err)
		}
		docs = append(docs, d)
	}
	if err := fe.Err(); err != nil {
		return "", err
	}
	ref, err := writeDocumentsTx(ctx, tx, s.db, docs, modePublish, now)
	if err != nil {
		return "", err
	}
	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		ids = append(ids, d.ID)
		if _, err := tx.ExecContext(ctx, s.db.Rebind("UPDATE content_documents SET archived_at = NULL WHERE id = ?"), d.ID); err != nil {
			return "", err
		}
		if err := s.addVersion(ctx, tx, ed, d.ID, revs[d.ID], "published", d.UID, d.Tags, d.Data, now); err != nil {
			return "", err
		}
	}
	if err := s.queueWebhooks(ctx, tx, ref, ids, release, now); err != nil {
		return "", err
	}
	return ref, nil
}

// UnpublishDocument withdraws a document from the site; its content stays as the draft.
func (s *Service) UnpublishDocument(ctx context.Context, ed Editor, id string, expect *int64) (*StudioDocument, error) {
	return s.mutate(ctx, ed, id, expect, "content.unpublish", func(tx *sql.Tx, before *studioRow, rev int64, now time.Time) error {
		if !before.Data.Valid {
			return &httpx.Error{Code: httpx.ECONFLICT, Message: "This document is not published."}
		}
		return s.withdraw(ctx, tx, ed, before, rev, "unpublished", now)
	})
}

// withdraw unpublishes r inside tx, keeping its content as the draft.
func (s *Service) withdraw(ctx context.Context, tx *sql.Tx, ed Editor, r *studioRow, rev int64, kind string, now time.Time) error {
	uid, tags, data := r.current()
	if r.Data.Valid {
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE content_documents SET draft_uid = uid, draft_tags = tags, draft_data = data,
			draft_saved_at = ? WHERE id = ? AND draft_data IS NULL`), now.UnixMilli(), r.ID); err != nil {
			return err
		}
		ref, err := unpublishTx(ctx, tx, s.db, []string{r.ID}, now)
		if err != nil {
			return err
		}
		if err := s.queueWebhooks(ctx, tx, ref, []string{r.ID}, nil, now); err != nil {
			return err
		}
	}
	return s.addVersion(ctx, tx, ed, r.ID, rev, kind, uid, tags, data, now)
}

// ArchiveDocument withdraws a document from the site and from the studio's lists and
// releases; its history is kept and UnarchiveDocument brings it back as a draft.
func (s *Service) ArchiveDocument(ctx context.Context, ed Editor, id string, expect *int64) (*StudioDocument, error) {
	return s.mutate(ctx, ed, id, expect, "content.archive", func(tx *sql.Tx, before *studioRow, rev int64, now time.Time) error {
		if before.Archived.Valid {
			return &httpx.Error{Code: httpx.ECONFLICT, Message: "This document is archived already."}
		}
		if err := s.withdraw(ctx, tx, ed, before, rev, "archived", now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`DELETE FROM content_release_documents WHERE document_id = ?
			AND release_id IN (SELECT id FROM content_releases WHERE status IN ('open', 'scheduled', 'failed'))`), id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.db.Rebind("UPDATE content_documents SET archived_at = ? WHERE id = ?"), now.UnixMilli(), id)
		return err
	})
}

// UnarchiveDocument brings an archived document back as a draft.
func (s *Service) UnarchiveDocument(ctx context.Context, ed Editor, id string, expect *int64) (*StudioDocument, error) {
	return s.mutate(ctx, ed, id, expect, "content.unarchive", func(tx *sql.Tx, before *studioRow, rev int64, now time.Time) error {
		if !before.Archived.Valid {
			return &httpx.Error{Code: httpx.ECONFLICT, Message: "This document is not archived."}
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind("UPDATE content_documents SET archived_at = NULL WHERE id = ?"), id); err != nil {
			return err
		}
		uid, tags, data := before.current()
		return s.addVersion(ctx, tx, ed, id, rev, "unarchived", uid, tags, data, now)
	})
}

// DuplicateDocument copies a document's current content into a new draft, with a free
// uid made from the original's.
func (s *Service) DuplicateDocument(ctx context.Context, ed Editor, id string) (*StudioDocument, error) {
	r, err := s.readRow(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	uid, tags, data := r.current()
	if uid != "" {
		base := strings.TrimSuffix(uid, "-copy")
		if len(base) > maxUIDLength-10 {
			base = strings.TrimRight(base[:maxUIDLength-10], "-")
		}
		for n := 1; ; n++ {
			cand := base + "-copy"
			if n > 1 {
				cand = fmt.Sprintf("%s-copy-%d", base, n)
			}
			taken, err := s.uidTaken(ctx, s.db, r.Type, r.Lang, cand, "")
			if err != nil {
				return nil, err
			}
			if !taken {
				uid = cand
				break
			}
			if n > 1000 {
				return nil, fmt.Errorf("content: no free uid for a copy of %s", id)
			}
		}
	}
	return s.CreateDocument(ctx, ed, DocumentInput{Type: r.Type, Lang: r.Lang, UID: uid, Tags: tags, Data: data})
}

// ListParams filter and page the studio's document list.
type ListParams struct {
	Type, Status, Tag, Q, Sort string
	Author                     int64
	From, To                   time.Time // on updated_at (or the publication date); zero: open
	Page, PageSize             int
}

// DocumentList is a page of the studio's document list.
type DocumentList struct {
	Results  []DocumentSummary `json:"results"`
	Page     int               `json:"page"`
	PageSize int               `json:"page_size"`
	Total    int               `json:"total"`
}

// ListDocuments lists documents for the studio. Filters and search run over every
// document in memory: a society's content is hundreds to a few thousand documents.
func (s *Service) ListDocuments(ctx context.Context, p ListParams) (*DocumentList, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+studioCols+" FROM content_documents")
	all, err := store.Collect(rows, err, scanStudioRow)
	if err != nil {
		return nil, fmt.Errorf("content: list documents: %w", err)
	}
	refs, err := s.releasesOf(ctx, s.db, "")
	if err != nil {
		return nil, err
	}
	terms := appendWords(nil, p.Q)
	type hit struct {
		sum   DocumentSummary
		when  int64
		title string
	}
	var hits []hit
	for _, r := range all {
		status := r.status(scheduledIn(refs[r.ID]))
		if p.Status == "" && status == StatusArchived || p.Status != "" && status != p.Status {
			continue
		}
		if p.Type != "" && r.Type != p.Type {
			continue
		}
		uid, tags, data := r.current()
		if p.Tag != "" && !contains(tags, p.Tag) {
			continue
		}
		if p.Author != 0 && r.UpdatedBy.Int64 != p.Author && r.CreatedBy.Int64 != p.Author {
			continue
		}
		when := r.Updated.Int64
		if !r.Updated.Valid {
			when = max(r.Last.Int64, r.DSaved.Int64)
		}
		if !p.From.IsZero() && when < p.From.UnixMilli() || !p.To.IsZero() && when >= p.To.UnixMilli() {
			continue
		}
		title, words := s.listText(r.ID, data, len(terms) > 0)
		if len(terms) > 0 {
			extra := sortedUnique(appendWords(nil, uid+" "+strings.Join(tags, " ")))
			ok := true
			for _, t := range terms {
				ok = ok && (hasWordPrefix(words, t) || hasWordPrefix(extra, t))
			}
			if !ok {
				continue
			}
		}
		if title == "" {
			title = uid
		}
		if title == "" {
			title = r.ID
		}
		hits = append(hits, hit{when: when, title: strings.ToLower(title), sum: DocumentSummary{
			LinkTarget: LinkTarget{ID: r.ID, Type: r.Type, Lang: r.Lang, UID: strPtr(uid), Title: title, Status: status},
			HasChanges: r.Data.Valid && r.DData.Valid, Revision: r.Revision, Tags: tags,
			UpdatedAt: msString(sql.NullInt64{Int64: when, Valid: when != 0}), UpdatedBy: person(r.UpdatedBy, r.UpdatedByName),
			First: msString(r.First), Last: msString(r.Last), ArchivedAt: msString(r.Archived),
		}})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		switch p.Sort {
		case "updated_at":
			if a.when != b.when {
				return a.when < b.when
			}
		case "title":
			if a.title != b.title {
				return a.title < b.title
			}
		case "-title":
			if a.title != b.title {
				return a.title > b.title
			}
		default:
			if a.when != b.when {
				return a.when > b.when
			}
		}
		return a.sum.ID < b.sum.ID
	})
	out := &DocumentList{Page: max(p.Page, 1), PageSize: p.PageSize, Total: len(hits), Results: []DocumentSummary{}}
	if out.PageSize < 1 || out.PageSize > 100 {
		out.PageSize = 20
	}
	for i := (out.Page - 1) * out.PageSize; i < len(hits) && i < out.Page*out.PageSize; i++ {
		out.Results = append(out.Results, hits[i].sum)
	}
	return out, nil
}

// listEntry is what the list needs of a document's data: its title and words, kept per
// content (a checksum of the data) so that a list decodes only what changed since.
type listEntry struct {
	sum   uint32
	size  int
	title string
	words []string // nil until a search needs them
}

// maxListCache bounds the list's memo of titles and words.
const maxListCache = 20_000

func (s *Service) listText(id string, data []byte, withWords bool) (string, []string) {
	sum := crc32.ChecksumIEEE(data)
	s.mu.Lock()
	e, ok := s.listCache[id]
	s.mu.Unlock()
	if ok && e.sum == sum && e.size == len(data) && (!withWords || e.words != nil) {
		return e.title, e.words
	}
	m, _ := decodeData(data)
	e = listEntry{sum: sum, size: len(data), title: strings.TrimSpace(asText(m["title"]))}
	if withWords {
		e.words = sortedUnique(collectText(nil, m, ""))
		if e.words == nil {
			e.words = []string{}
		}
	}
	s.mu.Lock()
	if s.listCache == nil || len(s.listCache) >= maxListCache {
		s.listCache = map[string]listEntry{}
	}
	s.listCache[id] = e
	s.mu.Unlock()
	return e.title, e.words
}

// LinkTarget is a row of the link picker.
type LinkTarget struct {
	ID     string  `json:"id"`
	Type   string  `json:"type"`
	Lang   string  `json:"lang"`
	UID    *string `json:"uid"`
	Title  string  `json:"title"`
	Status string  `json:"status"`
}

// LinkTargets finds documents to link to (drafts included, archived ones not).
func (s *Service) LinkTargets(ctx context.Context, q, typ string, n int) ([]LinkTarget, error) {
	if n < 1 || n > 50 {
		n = 20
	}
	list, err := s.ListDocuments(ctx, ListParams{Q: q, Type: typ, Sort: "title", PageSize: n, Page: 1})
	if err != nil {
		return nil, err
	}
	out := make([]LinkTarget, 0, len(list.Results))
	for _, d := range list.Results {
		out = append(out, d.LinkTarget)
	}
	return out, nil
}

// StudioTags lists every tag of published versions and drafts, sorted.
func (s *Service) StudioTags(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT tags, COALESCE(draft_tags, '[]') FROM content_documents WHERE archived_at IS NULL")
	if err != nil {
		return nil, fmt.Errorf("content: tags: %w", err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var a, b string
		if err := rows.Scan(&a, &b); err != nil {
			return nil, err
		}
		for _, t := range append(decodeStrings(a), decodeStrings(b)...) {
			seen[t] = true
		}
	}
	return sortedKeys(seen), rows.Err()
}

// Version is a row of a document's history.
type Version struct {
	ID        int64   `json:"id"`
	Revision  int64   `json:"revision"`
	Kind      string  `json:"kind"`
	Author    *Person `json:"author"`
	CreatedAt *string `json:"created_at"`
}

// VersionDetail is a version with its content.
type VersionDetail struct {
	Version
	UID  *string         `json:"uid"`
	Tags []string        `json:"tags"`
	Data json.RawMessage `json:"data"`
}

// autosaveWindow: an editor's saves within this time of their own last draft version
// update that version rather than add one, so autosave does not flood the history.
const autosaveWindow = 10 * time.Minute

// addVersion records a version in the history.
func (s *Service) addVersion(ctx context.Context, tx *sql.Tx, ed Editor, docID string, rev int64, kind, uid string, tags []string, data []byte, now time.Time) error {
	if kind == "draft" {
		var (
			vid     int64
			vkind   string
			author  sql.NullInt64
			created int64
		)
		err := tx.QueryRowContext(ctx, s.db.Rebind(`SELECT id, kind, author_id, created_at FROM content_versions
			WHERE document_id = ? ORDER BY id DESC LIMIT 1`), docID).Scan(&vid, &vkind, &author, &created)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil && vkind == "draft" && author.Int64 == ed.ID && ed.ID != 0 && now.UnixMilli()-created < autosaveWindow.Milliseconds() {
			_, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE content_versions SET revision = ?, uid = ?, tags = ?, data = ?, created_at = ? WHERE id = ?`),
				rev, nullString(uid), encodeStrings(tags), string(data), now.UnixMilli(), vid)
			return err
		}
	}
	_, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO content_versions
		(document_id, revision, kind, uid, tags, data, author_id, author_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		docID, rev, kind, nullString(uid), encodeStrings(tags), string(data), nullID(ed.ID), ed.Name, now.UnixMilli())
	return err
}

// baseline keeps the published version of a document that has no history yet (one
// that came from an import) as its first version, so it can be restored.
func (s *Service) baseline(ctx context.Context, tx *sql.Tx, r *studioRow) error {
	if !r.Data.Valid {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, s.db.Rebind("SELECT count(*) FROM content_versions WHERE document_id = ?"), r.ID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	at := r.Last.Int64
	_, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO content_versions
		(document_id, revision, kind, uid, tags, data, author_id, author_name, created_at) VALUES (?, ?, 'published', ?, ?, ?, NULL, '', ?)`),
		r.ID, r.Revision, r.UID, r.Tags.String, r.Data.String, at)
	return err
}

// Versions lists a document's history, newest first, without the content.
func (s *Service) Versions(ctx context.Context, id string) ([]Version, error) {
	if _, err := s.readRow(ctx, s.db, id); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id, revision, kind, author_id, author_name, created_at
		FROM content_versions WHERE document_id = ? ORDER BY id DESC`), id)
	if err != nil {
		return nil, fmt.Errorf("content: versions: %w", err)
	}
	return store.Collect(rows, nil, func(row store.Row) (v Version, err error) {
		var author sql.NullInt64
		var name string
		var at int64
		if err := row.Scan(&v.ID, &v.Revision, &v.Kind, &author, &name, &at); err != nil {
			return v, err
		}
		v.Author = person(author, name)
		v.CreatedAt = formatTime(time.UnixMilli(at).UTC())
		return v, nil
	})
}

// GetVersion returns one version of a document with its content.
func (s *Service) GetVersion(ctx context.Context, id string, vid int64) (*VersionDetail, error) {
	var v VersionDetail
	var author sql.NullInt64
	var name, tags, data string
	var uid sql.NullString
	var at int64
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT id, revision, kind, author_id, author_name, created_at, uid, tags, data
		FROM content_versions WHERE document_id = ? AND id = ?`), id, vid).Scan(&v.ID, &v.Revision, &v.Kind, &author, &name, &at, &uid, &tags, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("version")
	}
	if err != nil {
		return nil, fmt.Errorf("content: version: %w", err)
	}
	v.Author = person(author, name)
	v.CreatedAt = formatTime(time.UnixMilli(at).UTC())
	v.UID = strPtr(uid.String)
	v.Tags = decodeStrings(tags)
	v.Data = json.RawMessage(data)
	return &v, nil
}

// RestoreVersion makes an old version the document's draft (publish it to make it
// live). It is not checked against the model: the history is restorable even after the
// model changed; publishing checks it.
func (s *Service) RestoreVersion(ctx context.Context, ed Editor, id string, vid int64, expect *int64) (*StudioDocument, error) {
	v, err := s.GetVersion(ctx, id, vid)
	if err != nil {
		return nil, err
	}
	uid := ""
	if v.UID != nil {
		uid = *v.UID
	}
	return s.mutate(ctx, ed, id, expect, "content.restore", func(tx *sql.Tx, before *studioRow, rev int64, now time.Time) error {
		if err := s.writeDraft(ctx, tx, id, uid, v.Tags, v.Data, now); err != nil {
			return err
		}
		return s.addVersion(ctx, tx, ed, id, rev, "restored", uid, v.Tags, v.Data, now)
	})
}

// StudioPreview is a preview token and the site's address that opens it.
type StudioPreview struct {
	Token     string  `json:"token"`
	URL       string  `json:"url"`
	ExpiresAt *string `json:"expires_at"`
}

// Preview issues a preview token and the /preview address that opens a document with
// it: for a release, the drafts of its documents over the published site; else every
// draft.
func (s *Service) Preview(ctx context.Context, ed Editor, docID, releaseID string) (*StudioPreview, error) {
	if docID != "" {
		if _, err := s.readRow(ctx, s.db, docID); err != nil {
			return nil, err
		}
	}
	var token string
	var err error
	if releaseID != "" {
		rel, err := s.GetRelease(ctx, releaseID)
		if err != nil {
			return nil, err
		}
		if docID == "" && len(rel.Documents) > 0 {
			docID = rel.Documents[0].ID
		}
		token, err = s.CreateReleasePreview(ctx, releaseID, DefaultPreviewTTL)
	} else {
		token, err = s.CreatePreview(ctx, DefaultPreviewTTL)
	}
	if err != nil {
		return nil, err
	}
	u := "/preview?token=" + token
	if docID != "" {
		u += "&documentId=" + docID
	}
	return &StudioPreview{Token: token, URL: u, ExpiresAt: formatTime(s.now().Add(DefaultPreviewTTL))}, nil
}
