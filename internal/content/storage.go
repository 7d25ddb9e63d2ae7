package content

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"lineage/internal/store"
)

// This file holds the content SQL. It is plain SQL with ? placeholders that runs on
// both SQLite and PostgreSQL through store.DB.Rebind.

// repoState is the row of content_state.
type repoState struct {
	master   string
	revision int64
}

func readState(ctx context.Context, db *store.DB) (repoState, error) {
	var st repoState
	err := db.QueryRowContext(ctx, db.Rebind("SELECT master_ref, revision FROM content_state WHERE id = 1")).Scan(&st.master, &st.revision)
	if err != nil {
		return st, fmt.Errorf("content: read state: %w", err)
	}
	return st, nil
}

// loadRows reads the documents a snapshot sees, in one statement so that the result is
// consistent on both databases. With drafts, a draft replaces the published version.
func loadRows(ctx context.Context, db *store.DB, withDrafts bool) ([]docRow, error) {
	return loadRowsOf(ctx, db, withDrafts, "")
}

// loadRowsOf is loadRows; with a release, only the drafts of the release's documents
// replace published versions (a release's preview).
func loadRowsOf(ctx context.Context, db *store.DB, withDrafts bool, release string) ([]docRow, error) {
	where := "data IS NOT NULL"
	var args []any
	switch {
	case withDrafts && release != "":
		where += " OR id IN (SELECT document_id FROM content_release_documents WHERE release_id = ?)"
		args = append(args, release)
	case withDrafts:
		where += " OR draft_data IS NOT NULL"
	}
	in := "0"
	if release != "" {
		in = "CASE WHEN id IN (SELECT document_id FROM content_release_documents WHERE release_id = ?) THEN 1 ELSE 0 END"
		args = append([]any{release}, args...)
	}
	rows, err := db.QueryContext(ctx, db.Rebind(`SELECT id, type, lang, alternate_ids, uid, tags, data,
		first_publication_date, last_publication_date, draft_uid, draft_tags, draft_data, draft_saved_at, `+in+`
		FROM content_documents WHERE `+where+` ORDER BY id`), args...)
	if err != nil {
		return nil, fmt.Errorf("content: load documents: %w", err)
	}
	defer rows.Close()
	var out []docRow
	for rows.Next() {
		var (
			r                             docRow
			alts, tags                    string
			uid, data, dUID, dTags, dData sql.NullString
			first, last, saved            sql.NullInt64
			inRelease                     int
		)
		if err := rows.Scan(&r.ID, &r.Type, &r.Lang, &alts, &uid, &tags, &data, &first, &last, &dUID, &dTags, &dData, &saved, &inRelease); err != nil {
			return nil, fmt.Errorf("content: load documents: %w", err)
		}
		r.AlternateIDs = decodeStrings(alts)
		if withDrafts && dData.Valid && (release == "" || inRelease == 1) {
			r.UID = dUID.String
			r.Tags = decodeStrings(dTags.String)
			r.Data = []byte(dData.String)
			r.Last = msTime(saved)
			r.First = msTime(first)
			if r.First.IsZero() {
				r.First = r.Last
			}
		} else {
			if !data.Valid {
				continue // in the release, but neither drafted nor published
			}
			r.UID = uid.String
			r.Tags = decodeStrings(tags)
			r.Data = []byte(data.String)
			r.First, r.Last = msTime(first), msTime(last)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func decodeStrings(s string) []string {
	var out []string
	if s != "" {
		json.Unmarshal([]byte(s), &out)
	}
	if out == nil {
		out = []string{}
	}
	return out
}

func encodeStrings(list []string) string {
	if list == nil {
		list = []string{}
	}
	b, _ := json.Marshal(list)
	return string(b)
}

func msTime(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.UnixMilli(n.Int64).UTC()
}

func nullMS(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

// newRef returns a random ref in Prismic's alphabet (16 characters, URL and cookie safe).
func newRef() string {
	b := make([]byte, 12)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// publishMode says how writeDocuments treats publication dates and drafts.
type publishMode int

const (
	// modePublish: an editor publishes; first_publication_date is kept if the document
	// was published before, last_publication_date is now, the draft is consumed.
	modePublish publishMode = iota
	// modeImport: dates come from the import files; drafts are left alone.
	modeImport
)

// writeDocuments upserts published versions and moves the master ref once, in one
// transaction.
func writeDocuments(ctx context.Context, db *store.DB, docs []Document, mode publishMode, now time.Time) (string, error) {
	var ref string
	err := db.InTx(ctx, func(tx *sql.Tx) error {
		var err error
		ref, err = writeDocumentsTx(ctx, tx, db, docs, mode, now)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("content: publish: %w", err)
	}
	return ref, nil
}

// writeDocumentsTx is writeDocuments inside the caller's transaction (the studio
// publishes, records the history and queues webhooks in one).
func writeDocumentsTx(ctx context.Context, tx *sql.Tx, db *store.DB, docs []Document, mode publishMode, now time.Time) (string, error) {
	first := "excluded.first_publication_date"
	drafts := ""
	if mode == modePublish {
		first = "COALESCE(content_documents.first_publication_date, excluded.first_publication_date)"
		drafts = ", draft_uid = NULL, draft_tags = NULL, draft_data = NULL, draft_saved_at = NULL"
	}
	query := db.Rebind(`INSERT INTO content_documents
		(id, type, lang, alternate_ids, uid, tags, data, first_publication_date, last_publication_date)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET type = excluded.type, lang = excluded.lang,
			alternate_ids = excluded.alternate_ids, uid = excluded.uid, tags = excluded.tags, data = excluded.data,
			first_publication_date = ` + first + `, last_publication_date = excluded.last_publication_date` + drafts)
	stmt, err := tx.PrepareContext(ctx, query)
	if err != nil {
		return "", err
	}
	defer stmt.Close()
	for _, d := range docs {
		firstAt, lastAt := d.FirstPublicationDate, d.LastPublicationDate
		if mode == modePublish || lastAt.IsZero() {
			lastAt = now
		}
		if mode == modePublish || firstAt.IsZero() {
			firstAt = lastAt
		}
		if _, err := stmt.ExecContext(ctx, d.ID, d.Type, d.Lang, encodeStrings(alternateIDs(d.AlternateLanguages)),
			nullString(d.UID), encodeStrings(d.Tags), string(d.Data), nullMS(firstAt), nullMS(lastAt)); err != nil {
			if store.IsUniqueViolation(err) {
				return "", fmt.Errorf("document %s: uid %q is already used by another %s document in %s", d.ID, d.UID, d.Type, d.Lang)
			}
			return "", fmt.Errorf("document %s: %w", d.ID, err)
		}
	}
	return moveMaster(ctx, tx, db, now)
}

// moveMaster records a new master ref; the old one stays in content_refs so it answers
// 410 rather than 404.
func moveMaster(ctx context.Context, tx *sql.Tx, db *store.DB, now time.Time) (string, error) {
	ref := newRef()
	if _, err := tx.ExecContext(ctx, db.Rebind("INSERT INTO content_refs (ref, kind, created_at) VALUES (?, 'master', ?)"), ref, now.UnixMilli()); err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, db.Rebind("UPDATE content_state SET master_ref = ?, revision = revision + 1 WHERE id = 1"), ref); err != nil {
		return "", err
	}
	return ref, nil
}

// unpublish removes the published versions of ids (drafts stay) and moves the master.
func unpublish(ctx context.Context, db *store.DB, ids []string, now time.Time) (string, error) {
	var ref string
	err := db.InTx(ctx, func(tx *sql.Tx) error {
		var err error
		ref, err = unpublishTx(ctx, tx, db, ids, now)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("content: unpublish: %w", err)
	}
	return ref, nil
}

// unpublishTx is unpublish inside the caller's transaction.
func unpublishTx(ctx context.Context, tx *sql.Tx, db *store.DB, ids []string, now time.Time) (string, error) {
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, db.Rebind("UPDATE content_documents SET uid = NULL, tags = '[]', data = NULL, last_publication_date = NULL WHERE id = ?"), id); err != nil {
			return "", err
		}
	}
	return moveMaster(ctx, tx, db, now)
}

// saveDraft stores a draft version, creating the document if it is new.
func saveDraft(ctx context.Context, db *store.DB, d Document, now time.Time) error {
	err := db.InTx(ctx, func(tx *sql.Tx) error {
		var typ, lang string
		err := tx.QueryRowContext(ctx, db.Rebind("SELECT type, lang FROM content_documents WHERE id = ?"), d.ID).Scan(&typ, &lang)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if _, err := tx.ExecContext(ctx, db.Rebind(`INSERT INTO content_documents
				(id, type, lang, alternate_ids, draft_uid, draft_tags, draft_data, draft_saved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
				d.ID, d.Type, d.Lang, encodeStrings(alternateIDs(d.AlternateLanguages)), nullString(d.UID), encodeStrings(d.Tags), string(d.Data), now.UnixMilli()); err != nil {
				return err
			}
		case err != nil:
			return err
		case typ != d.Type || lang != d.Lang:
			return fmt.Errorf("document %s is a %s in %s; a draft cannot change its type or language", d.ID, typ, lang)
		default:
			if _, err := tx.ExecContext(ctx, db.Rebind(`UPDATE content_documents SET draft_uid = ?, draft_tags = ?, draft_data = ?, draft_saved_at = ? WHERE id = ?`),
				nullString(d.UID), encodeStrings(d.Tags), string(d.Data), now.UnixMilli(), d.ID); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, db.Rebind("UPDATE content_state SET revision = revision + 1 WHERE id = 1"))
		return err
	})
	if err != nil {
		return fmt.Errorf("content: save draft: %w", err)
	}
	return nil
}

func insertPreview(ctx context.Context, db *store.DB, token string, now, expires time.Time, release string) error {
	_, err := db.ExecContext(ctx, db.Rebind("INSERT INTO content_refs (ref, kind, created_at, expires_at, release_id) VALUES (?, 'preview', ?, ?, ?)"),
		token, now.UnixMilli(), expires.UnixMilli(), nullString(release))
	if err != nil {
		return fmt.Errorf("content: create preview: %w", err)
	}
	// Forget previews that expired more than a week ago; they would answer 404 either way.
	db.ExecContext(ctx, db.Rebind("DELETE FROM content_refs WHERE kind = 'preview' AND expires_at < ?"), now.Add(-7*24*time.Hour).UnixMilli())
	return nil
}

// lookupRef finds a ref that is not the current master: kind "" when unknown; a
// release's preview names its release.
func lookupRef(ctx context.Context, db *store.DB, ref string) (kind string, expires time.Time, release string, err error) {
	var exp sql.NullInt64
	var rel sql.NullString
	err = db.QueryRowContext(ctx, db.Rebind("SELECT kind, expires_at, release_id FROM content_refs WHERE ref = ?"), ref).Scan(&kind, &exp, &rel)
	if errors.Is(err, sql.ErrNoRows) {
		return "", time.Time{}, "", nil
	}
	if err != nil {
		return "", time.Time{}, "", fmt.Errorf("content: look up ref: %w", err)
	}
	return kind, msTime(exp), rel.String, nil
}

func countDocuments(ctx context.Context, db *store.DB) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM content_documents").Scan(&n)
	return n, err
}
