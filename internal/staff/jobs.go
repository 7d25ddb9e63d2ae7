package staff

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"lineage/internal/auth"
	"lineage/internal/httpx"
	"lineage/internal/jobs"
	"lineage/internal/store"
)

// Job states (docs/studio-staff.md). undoing: the job stopped and is taking back
// what it wrote.
const (
	StateQueued   = "queued"
	StateRunning  = "running"
	StateUndoing  = "undoing"
	StateDone     = "done"
	StateFailed   = "failed"
	StateCanceled = "canceled"
)

// workingJobs counts the jobs that match cond (a condition on staff_jobs, with args)
// and are still working: queued, running or taking back what they wrote.
func (s *Service) workingJobs(ctx context.Context, cond string, args ...any) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT COUNT(*) FROM staff_jobs WHERE `+cond+` AND state IN (?, ?, ?)`),
		append(args, StateQueued, StateRunning, StateUndoing)...).Scan(&n)
	return n, err
}

// Job kinds.
const (
	KindRecords = "records"
	KindScans   = "scans"
)

func finished(state string) bool {
	return state == StateDone || state == StateFailed || state == StateCanceled
}

// How the runner keeps its jobs' rows alive, and when another instance may take a
// job over: a job whose heartbeat is older than StaleAfter lost its server.
const (
	heartbeatEvery = 2 * time.Second
	StaleAfter     = 30 * time.Second
	progressEvery  = 250 * time.Millisecond
)

// JobUser is who started a job.
type JobUser struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Job is a background import as the API answers it.
type Job struct {
	ID         int64           `json:"id"`
	Kind       string          `json:"kind"`
	State      string          `json:"state"`
	CreatedAt  time.Time       `json:"created_at"`
	UpdatedAt  time.Time       `json:"updated_at"`
	StartedBy  *JobUser        `json:"started_by"`
	Collection string          `json:"collection"`
	UploadID   string          `json:"upload_id"`
	Progress   json.RawMessage `json:"progress"`
	Report     json.RawMessage `json:"report"`
	Error      *string         `json:"error"`
	Version    int64           `json:"version"`

	params    string
	userID    int64
	cancel    bool
	heartbeat int64
}

const jobCols = `j.id, j.kind, j.state, j.created_at, j.updated_at, j.user_id, u.name, j.collection, j.upload_id, j.progress, j.report, j.error, j.version, j.params, j.cancel, j.heartbeat_at`
const jobFrom = ` FROM staff_jobs j LEFT JOIN users u ON u.id = j.user_id`

func scanJob(row store.Row) (*Job, error) {
	var j Job
	var created, updated int64
	var uid sql.NullInt64
	var uname sql.NullString
	var progress, report, errText string
	var cancel int
	if err := row.Scan(&j.ID, &j.Kind, &j.State, &created, &updated, &uid, &uname, &j.Collection, &j.UploadID, &progress, &report, &errText,
		&j.Version, &j.params, &cancel, &j.heartbeat); err != nil {
		return nil, err
	}
	j.CreatedAt, j.UpdatedAt = store.Time(created), store.Time(updated)
	if uid.Valid {
		j.userID = uid.Int64
		j.StartedBy = &JobUser{ID: uid.Int64, Name: uname.String}
	}
	j.Progress, j.Report = json.RawMessage(progress), json.RawMessage(report)
	if errText != "" {
		j.Error = &errText
	}
	j.cancel = cancel != 0
	return &j, nil
}

// JobByID loads a job.
func (s *Service) JobByID(ctx context.Context, id int64) (*Job, error) {
	j, err := scanJob(s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+jobCols+jobFrom+` WHERE j.id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	return j, err
}

// jobFunc runs a job: it reports progress through jr and answers the report.
type jobFunc func(ctx context.Context, jr *jobRun) (report any, err error)

// undoFunc takes back what a job of a kind wrote, from its params; it runs when the
// job fails or is cancelled, and on another server when the job's server died.
type undoFunc func(ctx context.Context, params string) error

// runner runs jobs one kind at a time per server (a records import and a scan import
// may run side by side), the others waiting queued.
type runner struct {
	s     *Service
	slots map[string]chan struct{}
	undo  map[string]undoFunc
	// stoppedMsg says what is left of a job of a kind that stopped (what undo promises).
	stoppedMsg map[string]string
	// action is the audit log's action of a kind of job.
	action map[string]string
	mu     sync.Mutex
	base   context.Context
	wg     sync.WaitGroup
	// streams counts each account's open event streams.
	streams map[int64]int
}

func newRunner(s *Service) *runner {
	r := &runner{s: s, slots: map[string]chan struct{}{KindRecords: make(chan struct{}, 1), KindScans: make(chan struct{}, 1)},
		undo: map[string]undoFunc{}, stoppedMsg: map[string]string{}, action: map[string]string{}, base: context.Background(), streams: map[int64]int{}}
	return r
}

// Start makes ctx the jobs' context (they stop, and take themselves back, when it
// ends) and takes over, every StaleAfter, the jobs of servers that died. It returns
// at once (after emptying the scratch folder, which holds nothing yet).
func (s *Service) Start(ctx context.Context) {
	if err := s.clearScratch(); err != nil {
		s.log.Warn("staff: empty the scratch folder", "err", err)
	}
	if err := s.adoptLocalUploads(ctx); err != nil {
		s.log.Warn("staff: store the uploads kept in the staging folder", "err", err)
	}
	s.jobs.mu.Lock()
	s.jobs.base = ctx
	s.jobs.mu.Unlock()
	s.jobs.wg.Add(1)
	go func() {
		defer s.jobs.wg.Done()
		jobs.Repeat(ctx, StaleAfter, nil, func(ctx context.Context) {
			if _, err := s.RecoverJobs(ctx, s.Now()); err != nil && ctx.Err() == nil {
				s.log.Error("staff: recover jobs", "err", err)
			}
			if err := s.pruneExpired(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("staff: remove old uploads", "err", err)
			}
		})
	}()
}

// Wait waits for the running jobs (and their undoing) to end, after Start's context
// ended.
func (s *Service) Wait() { s.jobs.wg.Wait() }

// newJob is what submit stores.
type newJob struct {
	kind, collection, uploadID string
	userID                     int64
	params                     any
	progress                   any
}

// submit stores a queued job and runs it in the background.
func (r *runner) submit(ctx context.Context, nj newJob, run jobFunc) (*Job, error) {
	s := r.s
	params, err := json.Marshal(nj.params)
	if err != nil {
		return nil, err
	}
	progress, err := json.Marshal(nj.progress)
	if err != nil {
		return nil, err
	}
	now := s.Now().Unix()
	var id int64
	err = s.db.QueryRowContext(ctx, s.db.Rebind(`INSERT INTO staff_jobs (kind, state, user_id, upload_id, collection, params, progress, created_at, updated_at, heartbeat_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		nj.kind, StateQueued, nj.userID, nj.uploadID, nj.collection, string(params), string(progress), now, now, now).Scan(&id)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	base := r.base
	r.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.run(base, id, nj.kind, run)
	}()
	return s.JobByID(ctx, id)
}

// jobRun is a running job's handle.
type jobRun struct {
	s         *Service
	id        int64
	lastWrite time.Time
	mu        sync.Mutex
}

// progress stores p as the job's progress, at most every progressEvery unless force.
func (jr *jobRun) progress(ctx context.Context, p any, force bool) {
	jr.mu.Lock()
	defer jr.mu.Unlock()
	if !force && time.Since(jr.lastWrite) < progressEvery {
		return
	}
	jr.lastWrite = time.Now()
	b, err := json.Marshal(p)
	if err != nil {
		return
	}
	now := jr.s.Now().Unix()
	if _, err := jr.s.db.ExecContext(context.WithoutCancel(ctx), jr.s.db.Rebind(`UPDATE staff_jobs SET progress = ?, updated_at = ?, heartbeat_at = ?, version = version + 1 WHERE id = ?`),
		string(b), now, now, jr.id); err != nil {
		jr.s.log.Warn("staff: job progress", "job", jr.id, "err", err)
	}
}

// setParams stores what undo needs, before the job writes anything.
func (jr *jobRun) setParams(ctx context.Context, p any) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	_, err = jr.s.db.ExecContext(ctx, jr.s.db.Rebind(`UPDATE staff_jobs SET params = ? WHERE id = ?`), string(b), jr.id)
	return err
}

// errCanceledByStaff is the cause of a job's context when someone cancelled it.
var errCanceledByStaff = errors.New("staff: the job was cancelled")

// beat keeps the job's heartbeat and watches its cancel flag until stop is closed.
func (r *runner) beat(ctx context.Context, id int64, cancel context.CancelCauseFunc, stop <-chan struct{}) {
	s := r.s
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		var flag int
		err := s.db.QueryRowContext(context.WithoutCancel(ctx), s.db.Rebind(`UPDATE staff_jobs SET heartbeat_at = ? WHERE id = ? RETURNING cancel`), s.Now().Unix(), id).Scan(&flag)
		if err == nil && flag != 0 && cancel != nil {
			cancel(errCanceledByStaff)
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// setState moves a job to state with its report or error.
func (s *Service) setState(ctx context.Context, id int64, state string, report any, errText string) error {
	b, err := json.Marshal(report)
	if err != nil {
		return err
	}
	now := s.Now().Unix()
	_, err = s.db.ExecContext(context.WithoutCancel(ctx), s.db.Rebind(`UPDATE staff_jobs SET state = ?, report = ?, error = ?, updated_at = ?, heartbeat_at = ?, version = version + 1 WHERE id = ?`),
		state, string(b), errText, now, now, id)
	return err
}

func (r *runner) run(base context.Context, id int64, kind string, fn jobFunc) {
	s := r.s
	ctx, cancel := context.WithCancelCause(base)
	defer cancel(nil)
	stop := make(chan struct{})
	beating := make(chan struct{})
	go func() {
		defer close(beating)
		r.beat(ctx, id, cancel, stop)
	}()
	defer func() {
		close(stop)
		<-beating
	}()
	select {
	case r.slots[kind] <- struct{}{}:
		defer func() { <-r.slots[kind] }()
	case <-ctx.Done():
	}
	if ctx.Err() != nil && context.Cause(ctx) == errCanceledByStaff {
		s.finishStopped(ctx, id, kind, StateCanceled, nil)
		return
	}
	if ctx.Err() != nil {
		return // the server is stopping: the next one takes the queued job back
	}
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE staff_jobs SET state = ?, updated_at = ?, version = version + 1 WHERE id = ? AND state = ? AND cancel = 0`),
		StateRunning, s.Now().Unix(), id, StateQueued)
	if err != nil {
		s.log.Error("staff: start job", "job", id, "err", err)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		s.finishStopped(ctx, id, kind, StateCanceled, nil)
		return
	}
	jr := &jobRun{s: s, id: id}
	report, err := fn(ctx, jr)
	if err == nil {
		// Before the job shows as done, so that a page its author opens then is new.
		s.pagesChanged(ctx)
		// Only a job still running is done: one another server took over (its
		// heartbeat had stopped) is that server's to end.
		b, merr := json.Marshal(report)
		if merr != nil {
			err = merr
		} else {
			now := s.Now().Unix()
			_, err = s.db.ExecContext(context.WithoutCancel(ctx), s.db.Rebind(`UPDATE staff_jobs SET state = ?, report = ?, error = '', updated_at = ?, heartbeat_at = ?, version = version + 1
				WHERE id = ? AND state = ?`), StateDone, string(b), now, now, id, StateRunning)
		}
		if err != nil {
			s.log.Error("staff: finish job", "job", id, "err", err)
		}
		return
	}
	state := StateFailed
	if context.Cause(ctx) == errCanceledByStaff {
		state = StateCanceled
	} else if ctx.Err() == nil {
		s.log.Error("staff: job failed", "job", id, "kind", kind, "err", err)
	}
	if base.Err() != nil {
		// The server is stopping. The undo may not finish before it exits: the job
		// then stays undoing and RecoverJobs on the next server finishes it.
		err = nil
	}
	s.finishStopped(ctx, id, kind, state, err)
}

// finishStopped takes a stopped job back and records its end.
func (s *Service) finishStopped(ctx context.Context, id int64, kind, state string, cause error) {
	s.undoNow(context.WithoutCancel(ctx), id, kind, state, cause)
}

// undoNow marks the job undoing, takes back what it wrote, and ends it in state. If
// the undo fails the job stays undoing, for RecoverJobs to try again.
func (s *Service) undoNow(ctx context.Context, id int64, kind, state string, cause error) {
	now := s.Now().Unix()
	if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE staff_jobs SET state = ?, updated_at = ?, heartbeat_at = ?, version = version + 1 WHERE id = ?`),
		StateUndoing, now, now, id); err != nil {
		s.log.Error("staff: job undo", "job", id, "err", err)
		return
	}
	j, err := s.JobByID(ctx, id)
	if err != nil {
		s.log.Error("staff: job undo", "job", id, "err", err)
		return
	}
	if undo := s.jobs.undo[kind]; undo != nil {
		if err := undo(ctx, j.params); err != nil {
			s.log.Error("staff: job undo failed; it is tried again later", "job", id, "err", err)
			return
		}
		s.pagesChanged(ctx) // a page rendered while the job wrote may show what was taken back
	}
	msg := s.jobs.stoppedMsg[kind]
	switch {
	case state == StateCanceled:
		msg = "Stopped on request. " + msg
	case cause != nil:
		msg = "The import failed: " + plainCause(cause) + ". " + msg
	default:
		msg = "The server stopped during the import. " + msg
	}
	if err := s.setState(ctx, id, state, nil, msg); err != nil {
		s.log.Error("staff: job end", "job", id, "err", err)
		return
	}
	if a := s.jobs.action[kind]; a != "" && s.audit != nil {
		if err := s.audit.ByID(ctx, j.userID, a, "collection:"+j.Collection, nil, map[string]any{"job": id, "state": state, "error": msg}); err != nil {
			s.log.Error("staff: audit", "err", err)
		}
	}
}

// pagesChanged tells the servers' page caches that a job changed what visitors see.
func (s *Service) pagesChanged(ctx context.Context) {
	if s.opt.PagesChanged != nil {
		s.opt.PagesChanged(context.WithoutCancel(ctx))
	}
}

// plainCause is what a job's error says to a staff member: a client error's message,
// else a pointer to the server's log.
func plainCause(err error) string {
	var he *httpx.Error
	if errors.As(err, &he) {
		return he.Message
	}
	return "something went wrong on the server (its log has the details)"
}

// RecoverJobs takes back the jobs whose server stopped (a heartbeat older than
// StaleAfter at now): each is claimed by one server with a conditional UPDATE, so
// that with several servers only one takes it back. It answers how many it ended.
func (s *Service) RecoverJobs(ctx context.Context, now time.Time) (int, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id, kind FROM staff_jobs WHERE state IN (?, ?, ?) AND heartbeat_at < ?`),
		StateQueued, StateRunning, StateUndoing, now.Add(-StaleAfter).Unix())
	type stale struct {
		id   int64
		kind string
	}
	found, err := store.Collect(rows, err, func(row store.Row) (st stale, err error) {
		err = row.Scan(&st.id, &st.kind)
		return st, err
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, st := range found {
		res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE staff_jobs SET heartbeat_at = ? WHERE id = ? AND state IN (?, ?, ?) AND heartbeat_at < ?`),
			now.Unix(), st.id, StateQueued, StateRunning, StateUndoing, now.Add(-StaleAfter).Unix())
		if err != nil {
			return n, err
		}
		if c, _ := res.RowsAffected(); c == 0 {
			continue // another server took it
		}
		stop, beating := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(beating)
			s.jobs.beat(ctx, st.id, nil, stop)
		}()
		s.undoNow(ctx, st.id, st.kind, StateFailed, nil)
		close(stop)
		<-beating
		if j, err := s.JobByID(ctx, st.id); err == nil && j.State == StateFailed {
			n++
		}
	}
	return n, nil
}

// CancelJob is POST /api/studio/jobs/{id}/cancel.
func (s *Service) CancelJob(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	j, err := s.pathJob(r)
	if err != nil {
		return err
	}
	res, err := s.db.ExecContext(r.Context(), s.db.Rebind(`UPDATE staff_jobs SET cancel = 1, version = version + 1, updated_at = ? WHERE id = ? AND state IN (?, ?)`),
		s.Now().Unix(), j.ID, StateQueued, StateRunning)
	if err := store.Changed(res, err, &httpx.Error{Code: httpx.ECONFLICT, Message: "This import has already finished."}); err != nil {
		return err
	}
	j, err = s.JobByID(r.Context(), j.ID)
	return httpx.Reply(w, http.StatusAccepted, map[string]any{"job": j}, err)
}

// GetJob is GET /api/studio/jobs/{id}.
func (s *Service) GetJob(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	j, err := s.pathJob(r)
	return httpx.Reply(w, http.StatusOK, map[string]any{"job": j}, err)
}

// pathJob is the job of the path's {id}.
func (s *Service) pathJob(r *http.Request) (*Job, error) {
	id, err := httpx.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	return s.JobByID(r.Context(), id)
}

// ListJobs is GET /api/studio/jobs?kind=: the newest 50.
func (s *Service) ListJobs(w http.ResponseWriter, r *http.Request, _ *auth.User) error {
	kind := r.URL.Query().Get("kind")
	q := `SELECT ` + jobCols + jobFrom
	var args []any
	switch kind {
	case "":
	case KindRecords, KindScans:
		q += ` WHERE j.kind = ?`
		args = append(args, kind)
	default:
		return httpx.Invalid("kind", "The kind must be records or scans.")
	}
	rows, err := s.db.QueryContext(r.Context(), s.db.Rebind(q+` ORDER BY j.id DESC LIMIT 50`), args...)
	out, err := store.Collect(rows, err, scanJob)
	return httpx.Reply(w, http.StatusOK, map[string]any{"jobs": out}, err)
}

// MaxStreams is how many event streams one account may hold open at once.
const MaxStreams = 8

// keepAlive is how often an idle event stream sends a comment, so that proxies keep
// it open.
const keepAlive = 15 * time.Second

// JobEvents is GET /api/studio/jobs/{id}/events: the job as server-sent events, from
// the store, so that any server answers it (docs/studio-staff.md).
func (s *Service) JobEvents(w http.ResponseWriter, r *http.Request, u *auth.User) error {
	j, err := s.pathJob(r)
	if err != nil {
		return err
	}
	id := j.ID
	fl, ok := w.(http.Flusher)
	if !ok {
		if uw, ok2 := w.(interface{ Unwrap() http.ResponseWriter }); ok2 {
			fl, ok = uw.Unwrap().(http.Flusher)
		}
	}
	if !ok {
		return &httpx.Error{Code: httpx.EUNAVAILABLE, Message: "This server cannot stream events."}
	}
	rn := s.jobs
	rn.mu.Lock()
	if rn.streams[u.ID] >= MaxStreams {
		rn.mu.Unlock()
		return &httpx.Error{Code: httpx.ETOOMANY, Message: fmt.Sprintf("At most %d progress streams may be open at once; close another window.", MaxStreams), RetryAfter: 5 * time.Second}
	}
	rn.streams[u.ID]++
	rn.mu.Unlock()
	defer func() {
		rn.mu.Lock()
		if rn.streams[u.ID]--; rn.streams[u.ID] <= 0 {
			delete(rn.streams, u.ID)
		}
		rn.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(event string, j *Job) error {
		b, err := json.Marshal(j)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", j.Version, event, b); err != nil {
			return err
		}
		fl.Flush()
		return nil
	}
	if err := send("job", j); err != nil {
		return nil
	}
	if finished(j.State) {
		send(j.State, j)
		return nil
	}
	poll := time.NewTicker(progressEvery)
	defer poll.Stop()
	idle := time.NewTicker(keepAlive)
	defer idle.Stop()
	last := j.Version
	ctx := r.Context()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-idle.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return nil
			}
			fl.Flush()
		case <-poll.C:
			j, err := s.JobByID(ctx, id)
			if err != nil {
				return nil
			}
			if j.Version == last {
				continue
			}
			last = j.Version
			event := "progress"
			if finished(j.State) {
				event = j.State
			}
			if err := send(event, j); err != nil || finished(j.State) {
				return nil
			}
		}
	}
}
