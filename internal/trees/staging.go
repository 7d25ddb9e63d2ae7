package trees

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"lineage/internal/store"
	"lineage/internal/store/bulk"
)

// An import writes a new tree in short transactions and swaps it in at the end; a
// delete hides a tree at once and removes its rows in short transactions
// (docs/decisions/010-imports-write-in-chunks.md). On SQLite, where one writer at a
// time holds the database's write lock, no other writer (a sign-in creating its
// session) then waits for longer than one chunk.

// Tree states (trees.state): only ready trees are seen by any reader.
const (
	stateReady    = "ready"
	stateLoading  = "loading"
	stateDeleting = "deleting"
)

// chunkBudget is how long an import keeps one transaction open before it commits and
// lets waiting writers go (store.DB.YieldToWriters): a writer waits at most about
// this long, plus the batch being written when it ran out.
var chunkBudget = 20 * time.Millisecond

// deleteChunk is how many persons (with their names, events and links), records or
// families one transaction of a tree's removal deletes.
const deleteChunk = 1000

// staleLoading is how long a staging tree may go without its import's heartbeat
// before it is taken for the remains of a killed import and removed. Imports beat at
// every commit and, while they compute without writing, every heartbeatEvery.
var staleLoading = 10 * time.Minute

const heartbeatEvery = time.Minute

// importCacheKiB is the SQLite page cache of an import's connection (the default is
// 2 MiB; more keeps more index pages warm from one chunk to the next).
const importCacheKiB = 32768

// chunkWriter writes an import's rows in a series of short transactions, all on one
// connection, with a larger page cache (SQLite) and a bulk writer.
type chunkWriter struct {
	s       *Service
	conn    *sql.Conn
	bulk    bulk.Writer
	restore func()
	tx      *sql.Tx
	began   time.Time
	treeID  int64 // the staging tree, whose heartbeat each commit updates
	beat    time.Time
	yield   yielder
	// small is set while the import has read no more than smallImport records: its
	// phases then share a transaction (endPhase).
	small bool
	tuned bool // the connection has the pragmas of a long import
}

// smallImport is how many records an import may have for its phases (records,
// surnames, people, the swap) to go into one transaction when they fit in
// chunkBudget: computing between two phases then takes well under a millisecond,
// and a small upload pays for one commit instead of five.
const smallImport = 1000

// yielder lets other writers go between a long job's transactions: at once when one of
// this process waits, and otherwise (for writers of other processes, which this one
// cannot see) once every chunkBudget. A job shorter than that, a small import, never
// sleeps: thousands of them a second (FuzzImport) stay possible.
type yielder struct{ last time.Time }

func (y *yielder) after(db *store.DB) {
	if y.last.IsZero() {
		y.last = time.Now()
	}
	if store.WritersWaiting() > 0 || time.Since(y.last) >= chunkBudget {
		db.YieldToWriters()
		y.last = time.Now()
	}
}

func (s *Service) newChunkWriter(ctx context.Context) (*chunkWriter, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return &chunkWriter{s: s, conn: conn, bulk: bulk.New(s.db, conn)}, nil
}

// tune gives the connection the pragmas of a long import, once the import has
// outlasted one chunk; a small one is over before a larger cache could help it.
func (w *chunkWriter) tune(ctx context.Context) error {
	if w.tuned {
		return nil
	}
	restore, err := w.s.db.SetPragmas(ctx, w.conn, []store.Pragma{{Name: "temp_store", Value: "MEMORY"}, {Name: "cache_size", Value: "-" + strconv.Itoa(importCacheKiB)}})
	if err != nil {
		return err
	}
	w.restore, w.tuned = restore, true
	return nil
}

// close rolls back a transaction left open and gives the connection back.
func (w *chunkWriter) close() {
	w.rollback()
	w.bulk.Close()
	if w.restore != nil {
		w.restore()
	}
	w.conn.Close()
}

// begin returns the open transaction, beginning one if none is.
func (w *chunkWriter) begin(ctx context.Context) (*sql.Tx, error) {
	if w.tx != nil {
		return w.tx, nil
	}
	// Not ctx: database/sql would roll the transaction back on its own goroutine when
	// ctx ends, while the bulk writer may be using the connection. The import stops at
	// ctx's end by itself and the rollback happens in close.
	var err error
	w.tx, err = w.conn.BeginTx(context.WithoutCancel(ctx), nil)
	w.began = time.Now()
	return w.tx, err
}

// maybeCommit commits when the transaction has been open for chunkBudget.
func (w *chunkWriter) maybeCommit(ctx context.Context) error {
	if w.tx == nil || time.Since(w.began) < chunkBudget {
		return nil
	}
	if err := w.commit(ctx); err != nil {
		return err
	}
	return w.tune(ctx)
}

// endPhase ends a phase of the import: a small import's next phase goes on in the
// same transaction (committed when chunkBudget runs out); a larger one's commits, so
// that no transaction stays open while the import computes.
func (w *chunkWriter) endPhase(ctx context.Context) error {
	if w.small {
		return w.maybeCommit(ctx)
	}
	return w.commit(ctx)
}

// commit commits the open transaction, with the staging tree's heartbeat, and lets
// the writers waiting for the lock go first.
func (w *chunkWriter) commit(ctx context.Context) error {
	if w.tx == nil {
		return nil
	}
	tx := w.tx
	w.tx = nil
	if w.treeID != 0 {
		if _, err := tx.ExecContext(ctx, w.s.db.Rebind(`UPDATE trees SET updated_at = ? WHERE id = ?`), w.s.Now().Unix(), w.treeID); err != nil {
			tx.Rollback()
			return err
		}
		w.beat = time.Now()
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	w.yield.after(w.s.db)
	return nil
}

// heartbeat shows that the import is alive while it computes without writing.
func (w *chunkWriter) heartbeat(ctx context.Context) error {
	if w.treeID == 0 || time.Since(w.beat) < heartbeatEvery {
		return nil
	}
	if _, err := w.begin(ctx); err != nil {
		return err
	}
	return w.commit(ctx)
}

func (w *chunkWriter) rollback() {
	if w.tx != nil {
		w.tx.Rollback()
		w.tx = nil
	}
}

// inChunk runs fn in a transaction of its own.
func (w *chunkWriter) inChunk(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if err := w.commit(ctx); err != nil {
		return err
	}
	if err := w.run(ctx, fn); err != nil {
		return err
	}
	return w.commit(ctx)
}

// inPhase runs fn as a phase of the import: in a transaction of its own, or, for a
// small import, in the one already open (endPhase).
func (w *chunkWriter) inPhase(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if !w.small {
		return w.inChunk(ctx, fn)
	}
	if err := w.run(ctx, fn); err != nil {
		return err
	}
	return w.endPhase(ctx)
}

// run runs fn in the open transaction (begun if there is none); if fn fails, the
// transaction is rolled back.
func (w *chunkWriter) run(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := w.begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		w.rollback()
		return err
	}
	return nil
}

// stage creates the hidden tree an import fills.
func (w *chunkWriter) stage(ctx context.Context) (int64, error) {
	var b [8]byte
	rand.Read(b[:])
	now := w.s.Now().Unix()
	var id int64
	err := w.inChunk(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, w.s.db.Rebind(`INSERT INTO trees (slug, title, state, created_at, updated_at)
			VALUES (?, '', ?, ?, ?) RETURNING id`), "~loading-"+hex.EncodeToString(b[:]), stateLoading, now, now).Scan(&id)
	})
	w.treeID, w.beat = id, time.Now()
	return id, err
}

// treeSummary is what an import learnt about the tree besides its rows.
type treeSummary struct {
	header, version string
	counts          Counts
}

// swapIn makes the staging tree the tree of opts.Slug in one transaction (for a small
// import, the one that wrote its rows): a tree that had the slug is hidden (to be
// removed by the caller) and gives the new one its title, description, owner,
// visibility and creation time where opts does not set them, and its scans
// (iiif_items of a person point at the tree's id). It returns the replaced tree's
// id, or 0.
func (w *chunkWriter) swapIn(ctx context.Context, staging int64, opts ImportOptions, sum *treeSummary) (int64, error) {
	s := w.s
	var oldID int64
	err := w.inPhase(ctx, func(tx *sql.Tx) error {
		now := s.Now().Unix()
		title, desc, owner, pub := opts.Title, opts.Description, opts.OwnerID, opts.Published != nil && *opts.Published
		created, pubAt := now, any(nil)
		old, err := s.treeBySlug(ctx, tx, opts.Slug)
		switch {
		case errors.Is(err, ErrNotFound):
			if title == "" {
				title = opts.Slug
			}
		case err != nil:
			return err
		default:
			oldID, created = old.ID, old.CreatedAt.Unix()
			if title == "" {
				title = old.Title
			}
			if desc == "" {
				desc = old.Description
			}
			if owner == 0 {
				owner = old.OwnerID
			}
			if opts.Published == nil {
				pub = old.Published
			}
			if pub && old.PublishedAt != nil {
				pubAt = old.PublishedAt.Unix()
			}
			if err := hideTree(ctx, s.db, tx, oldID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE iiif_items SET target_id = ? WHERE target = 'person' AND target_id = ?`), staging, oldID); err != nil {
				return err
			}
		}
		if pub && pubAt == nil {
			pubAt = now
		}
		var ownerArg any
		if owner != 0 {
			ownerArg = owner
		}
		c := sum.counts
		res, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE trees SET slug = ?, title = ?, description = ?, owner_id = ?, published = ?,
			source_file = ?, gedcom_version = ?, header = ?, n_people = ?, n_families = ?, n_events = ?, n_sources = ?, n_notes = ?,
			n_media = ?, created_at = ?, updated_at = ?, published_at = ?, state = ? WHERE id = ? AND state = ?`),
			opts.Slug, title, desc, ownerArg, boolInt(pub), opts.SourceFile, sum.version, cleanText(sum.header),
			c.People, c.Families, c.Events, c.Sources, c.Notes, c.Media, created, now, pubAt, stateReady, staging, stateLoading)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			// Taken for the remains of a dead import (no heartbeat for staleLoading).
			return errors.New("trees: the import's staging tree was removed before it was complete")
		}
		w.treeID = 0 // ready, with updated_at set: no heartbeat in this commit
		return nil
	})
	if err == nil {
		err = w.commit(ctx)
	}
	return oldID, err
}

// hideTree takes a tree out of every reader's sight: its slug is freed, and it is
// unpublished and without owner (so that no count of an owner's trees includes it).
func hideTree(ctx context.Context, db *store.DB, tx *sql.Tx, id int64) error {
	_, err := tx.ExecContext(ctx, db.Rebind(`UPDATE trees SET slug = ?, state = ?, published = 0, owner_id = NULL WHERE id = ?`),
		"~deleting-"+strconv.FormatInt(id, 10), stateDeleting, id)
	return err
}

// treeKeys are the tree tables with the column that orders each one's rows within a
// tree: the chunks of a removal are ranges of it.
var treeKeys = [][2]string{
	{"tree_records", "seq"}, {"tree_people", "pid"}, {"tree_names", "pid"}, {"tree_events", "pid"},
	{"tree_links", "pid"}, {"tree_families", "fid"},
}

// afterRemoveChunk, when set (by tests), is called after each chunk of a removal.
var afterRemoveChunk func()

// removeTree deletes a hidden tree's rows in short transactions, then the tree. A
// tree no bigger than one chunk in all (the keys of its tables add up to less than
// deleteChunk: any small upload's) goes in one transaction.
func (s *Service) removeTree(ctx context.Context, id int64) error {
	var q string
	args := make([]any, len(treeKeys))
	for i, tk := range treeKeys {
		if i > 0 {
			q += ", "
		}
		q += `(SELECT MAX(` + tk[1] + `) FROM ` + tk[0] + ` WHERE tree_id = ?)`
		args[i] = id
	}
	his := make([]sql.NullInt64, len(treeKeys))
	dest := make([]any, len(his))
	for i := range his {
		dest[i] = &his[i]
	}
	if err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT `+q), args...).Scan(dest...); err != nil {
		return fmt.Errorf("remove tree: %w", err)
	}
	var keys int64
	for _, hi := range his {
		keys += hi.Int64 // 0 when the table has none of its rows
	}
	if keys < deleteChunk {
		err := s.db.InTx(ctx, func(tx *sql.Tx) error {
			for i, tk := range treeKeys {
				if !his[i].Valid {
					continue
				}
				if _, err := tx.ExecContext(ctx, s.db.Rebind(`DELETE FROM `+tk[0]+` WHERE tree_id = ?`), id); err != nil {
					return fmt.Errorf("remove tree: %s: %w", tk[0], err)
				}
			}
			_, err := tx.ExecContext(ctx, s.db.Rebind(`DELETE FROM trees WHERE id = ? AND state <> ?`), id, stateReady)
			return err
		})
		if err == nil && afterRemoveChunk != nil {
			afterRemoveChunk()
		}
		return err
	}
	var y yielder
	for i, tk := range treeKeys {
		tbl, col, hi := tk[0], tk[1], his[i]
		for lo := int64(0); hi.Valid && lo <= hi.Int64; lo += deleteChunk {
			if _, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM `+tbl+` WHERE tree_id = ? AND `+col+` >= ? AND `+col+` < ?`),
				id, lo, lo+deleteChunk); err != nil {
				return fmt.Errorf("remove tree: %s: %w", tbl, err)
			}
			y.after(s.db)
			if afterRemoveChunk != nil {
				afterRemoveChunk()
			}
		}
	}
	_, err := s.db.ExecContext(ctx, s.db.Rebind(`DELETE FROM trees WHERE id = ? AND state <> ?`), id, stateReady)
	return err
}

// removeHidden removes the trees that are being deleted and the staging trees of
// imports that died (no heartbeat for staleLoading). Another process may be removing
// the same tree: deleting its rows twice is harmless.
func (s *Service) removeHidden(ctx context.Context) error {
	// state <> 'ready', written out: the condition of the index of hidden trees.
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id FROM trees WHERE state <> 'ready' AND (state = ? OR (state = ? AND updated_at < ?)) ORDER BY id`),
		stateDeleting, stateLoading, s.Now().Add(-staleLoading).Unix())
	ids, err := store.Collect(rows, err, store.Scalar[int64])
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE trees SET state = ? WHERE id = ?`), stateDeleting, id); err != nil {
			return err
		}
		if err := s.removeTree(ctx, id); err != nil {
			return err
		}
	}
	return nil
}
