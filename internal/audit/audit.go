package audit

import (
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"lineage/internal/store"
	"lineage/internal/textfield"
)

// Actor is who did something: their account's id, and the name and address it had
// then (kept with the entry, so that the log still reads after the account is gone).
type Actor struct {
	ID    int64
	Name  string
	Email string
}

// Record is one staff action to log. Before and After are the subject's state around
// the action, marshalled to JSON (nil: null).
type Record struct {
	Actor   Actor
	Action  string // e.g. "user.role", "records.import", "tree.publish"
	Subject string // e.g. "user:7", "collection:parish-1851", "tree:smith-family"
	Summary string // a few words for people: the account's name, the file's name
	Before  any
	After   any
}

// Entry is a logged action as the API answers it.
type Entry struct {
	ID      int64           `json:"id"`
	At      time.Time       `json:"at"`
	ActorID *int64          `json:"actor_id"` // nil: not an account (the command line)
	Actor   *EntryActor     `json:"actor"`    // nil: nobody named (the system)
	Action  string          `json:"action"`
	Subject string          `json:"subject"`
	Summary string          `json:"summary"`
	Before  json.RawMessage `json:"before"`
	After   json.RawMessage `json:"after"`
}

// EntryActor is the actor of an entry, with the name and address they had then.
type EntryActor struct {
	ID      int64  `json:"id"` // 0: not an account (the command line)
	Name    string `json:"name"`
	Email   string `json:"email"`
	Deleted bool   `json:"deleted"` // the account has been deleted since
}

// Limits of what one entry keeps and of what one request reads.
const (
	MaxStateBytes = 64 << 10 // Before or After, as JSON; a larger state is cut to {"truncated": true}
	MaxTextLen    = 500      // Action, Subject, Summary
	MaxPage       = 200
	MaxExportRows = 100_000
)

// Log is the audit log.
type Log struct {
	db  *store.DB
	now func() time.Time
}

// New is the log of a store. now nil is time.Now.
func New(db *store.DB, now func() time.Time) *Log {
	if now == nil {
		now = time.Now
	}
	return &Log{db: db, now: now}
}

// Add writes one entry.
func (l *Log) Add(ctx context.Context, r Record) error {
	return l.add(ctx, l.db, r)
}

// AddTx writes one entry in the caller's transaction, so that the action and its entry
// are kept or lost together.
func (l *Log) AddTx(ctx context.Context, tx *sql.Tx, r Record) error {
	return l.add(ctx, tx, r)
}

type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

func (l *Log) add(ctx context.Context, q execer, r Record) error {
	if r.Action == "" {
		return errors.New("audit: an entry needs an action")
	}
	before, err := stateJSON(r.Before)
	if err != nil {
		return err
	}
	after, err := stateJSON(r.After)
	if err != nil {
		return err
	}
	var actor any
	if r.Actor.ID != 0 {
		actor = r.Actor.ID
	}
	_, err = q.ExecContext(ctx, l.db.Rebind(`INSERT INTO audit_log (at, actor_id, actor_name, actor_email, action, subject, summary, before_json, after_json)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		l.now().Unix(), actor, cut(r.Actor.Name), cut(r.Actor.Email), cut(r.Action), cut(r.Subject), cut(r.Summary), before, after)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// ByID logs an action of the account with this id, looking up its name and address:
// the shape of content.Options.Audit, so that the studio's content writes join the
// same log.
func (l *Log) ByID(ctx context.Context, actorID int64, action, subject string, before, after any) error {
	a := Actor{ID: actorID}
	if actorID != 0 {
		err := l.db.QueryRowContext(ctx, l.db.Rebind(`SELECT name, email FROM users WHERE id = ?`), actorID).Scan(&a.Name, &a.Email)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("audit: %w", err)
		}
	}
	return l.Add(ctx, Record{Actor: a, Action: action, Subject: subject, Before: before, After: after})
}

// Hook is ByID for a room whose writes must not fail because the log could not be
// written (content.Options.Audit): such a failure goes to lg.
func (l *Log) Hook(lg *slog.Logger) func(ctx context.Context, actorID int64, action, subject string, before, after any) {
	return func(ctx context.Context, actorID int64, action, subject string, before, after any) {
		if err := l.ByID(ctx, actorID, action, subject, before, after); err != nil {
			lg.Error("audit: an entry was not written", "action", action, "subject", subject, "err", err)
		}
	}
}

func cut(s string) string {
	if len(s) <= MaxTextLen {
		return s
	}
	i := MaxTextLen
	for i > 0 && !isRuneStart(s[i]) {
		i--
	}
	return s[:i]
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func stateJSON(v any) (string, error) {
	if v == nil {
		return "null", nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("audit: state: %w", err)
	}
	if len(b) > MaxStateBytes {
		return `{"truncated":true}`, nil
	}
	return string(b), nil
}

// Filter chooses entries. Zero fields match everything.
type Filter struct {
	ActorID int64
	// Action is an action's name, or a prefix of names when it ends in "." ("user.").
	Action  string
	Subject string
	From    time.Time // at or after
	To      time.Time // before
	Before  int64     // entries with a smaller id (the next page)
	Limit   int       // 1..MaxPage; 0 is 50
}

// where is the filter's condition on audit_log's columns, each prefixed with p.
func (f Filter) where(p string) (string, []any) {
	cond := []string{"1 = 1"}
	var args []any
	if f.ActorID != 0 {
		cond = append(cond, p+"actor_id = ?")
		args = append(args, f.ActorID)
	}
	if strings.HasSuffix(f.Action, ".") {
		// A prefix as a range: the index serves it on both stores.
		cond = append(cond, p+"action >= ? AND "+p+"action < ?")
		args = append(args, f.Action, f.Action[:len(f.Action)-1]+"/")
	} else if f.Action != "" {
		cond = append(cond, p+"action = ?")
		args = append(args, f.Action)
	}
	if f.Subject != "" {
		cond = append(cond, p+"subject = ?")
		args = append(args, f.Subject)
	}
	if !f.From.IsZero() {
		cond = append(cond, p+"at >= ?")
		args = append(args, f.From.Unix())
	}
	if !f.To.IsZero() {
		cond = append(cond, p+"at < ?")
		args = append(args, f.To.Unix())
	}
	if f.Before > 0 {
		cond = append(cond, p+"id < ?")
		args = append(args, f.Before)
	}
	return strings.Join(cond, " AND "), args
}

const entryCols = `a.id, a.at, a.actor_id, a.actor_name, a.actor_email, a.action, a.subject, a.summary, a.before_json, a.after_json, u.id`

// List answers a page of entries, newest first, and the id to pass as Before for the
// next page (0 on the last).
func (l *Log) List(ctx context.Context, f Filter) ([]Entry, int64, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, MaxPage)
	out := []Entry{}
	err := l.each(ctx, f, limit+1, func(e Entry) error {
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	var next int64
	if len(out) > limit {
		out = out[:limit]
		next = out[limit-1].ID
	}
	return out, next, nil
}

func (l *Log) each(ctx context.Context, f Filter, limit int, fn func(Entry) error) error {
	cond, args := f.where("a.")
	q := `SELECT ` + entryCols + ` FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id WHERE ` + cond + ` ORDER BY a.id DESC LIMIT ?`
	rows, err := l.db.QueryContext(ctx, l.db.Rebind(q), append(args, limit)...)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Entry
		var at int64
		var actorID, liveID sql.NullInt64
		var name, email, before, after string
		if err := rows.Scan(&e.ID, &at, &actorID, &name, &email, &e.Action, &e.Subject, &e.Summary, &before, &after, &liveID); err != nil {
			return err
		}
		e.At = store.Time(at)
		if actorID.Valid {
			id := actorID.Int64
			e.ActorID = &id
			e.Actor = &EntryActor{ID: id, Name: name, Email: email, Deleted: !liveID.Valid}
		} else if name != "" || email != "" {
			e.Actor = &EntryActor{Name: name, Email: email}
		}
		e.Before, e.After = json.RawMessage(before), json.RawMessage(after)
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Actions lists the action names in the log, sorted.
func (l *Log) Actions(ctx context.Context) ([]string, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT DISTINCT action FROM audit_log ORDER BY action`)
	return store.Collect(rows, err, store.Scalar[string])
}

// CSVHeader is the export's first row.
var CSVHeader = []string{"id", "at", "actor_id", "actor_name", "actor_email", "action", "subject", "summary", "before", "after"}

// WriteCSV writes the entries f chooses, newest first, at most MaxExportRows of them;
// it reports how many it wrote. The names and addresses are those the entries kept.
func (l *Log) WriteCSV(ctx context.Context, w io.Writer, f Filter) (int, error) {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return 0, err
	}
	n := 0
	cond, args := f.where("")
	rows, err := l.db.QueryContext(ctx, l.db.Rebind(`SELECT id, at, actor_id, actor_name, actor_email, action, subject, summary, before_json, after_json
		FROM audit_log WHERE `+cond+` ORDER BY id DESC LIMIT ?`), append(args, MaxExportRows)...)
	if err != nil {
		return 0, fmt.Errorf("audit: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, at int64
		var actor sql.NullInt64
		var name, email, action, subject, summary, before, after string
		if err := rows.Scan(&id, &at, &actor, &name, &email, &action, &subject, &summary, &before, &after); err != nil {
			return n, err
		}
		actorID := ""
		if actor.Valid {
			actorID = strconv.FormatInt(actor.Int64, 10)
		}
		safe := textfield.SpreadsheetSafe
		if err := cw.Write([]string{strconv.FormatInt(id, 10), store.Time(at).Format(time.RFC3339), actorID,
			safe(name), safe(email), safe(action), safe(subject), safe(summary), safe(before), safe(after)}); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	cw.Flush()
	return n, cw.Error()
}
