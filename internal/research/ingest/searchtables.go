package ingest

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"lineage/internal/research/index"
	"lineage/internal/store"
	storebulk "lineage/internal/store/bulk"
)

// The search tables (SQLite): the search index's two orders as WITHOUT ROWID tables,
// search_keys_surname and search_keys_given, beside search_keys, which keeps a
// record's rows in id order (migration 00009, decision 008). PostgreSQL has covering
// indexes on search_keys instead.
//
// The tables hold the rows of persons with a surname (surname_id <> 0): searches
// read them only by a surname's id, and a tenth of all persons (witnesses, mothers
// named by given names alone) have none. Stores migrated by 00009 may still hold
// such rows there; nothing reads them.
//
// A bulk load drops the two tables and builds them at its end from search_keys:
// the rows are read into memory, sorted in Go and written in key order, which costs
// much less than SQLite's CREATE INDEX sorting the same rows (decision 008). Until
// they are built, searches read search_keys itself (slowly, but correctly).

// searchRow is a search_keys row held for sorting: 48 bytes.
type searchRow struct {
	id                                          int64
	surname, given, lo, hi, place, county, coll int32
	typ, role                                   int16
	span, dq                                    int8
}

// The search_keys columns buildSQLite reads, in searchRow's order.
const searchRowCols = "id, surname_id, given_id, jdn_lo, jdn_hi, place_id, county_id, collection_id, type_id, role_id, span, dq"

// maxSortedBuild bounds the rows buildSQLite sorts in memory (48 bytes each:
// 3 GiB); a larger index is sorted by SQLite, with less memory and more time.
var maxSortedBuild int64 = 64 << 20

func fits(v int64, bits uint) bool { return v >= -(1<<(bits-1)) && v < 1<<(bits-1) }

func toSearchRow(v []int64) (searchRow, error) {
	for i, x := range v[1:] {
		b := uint(32)
		switch {
		case i >= 9: // span, dq
			b = 8
		case i >= 7: // type, role
			b = 16
		}
		if !fits(x, b) {
			return searchRow{}, errNoSortedBuild
		}
	}
	return searchRow{id: v[0], surname: int32(v[1]), given: int32(v[2]), lo: int32(v[3]), hi: int32(v[4]), place: int32(v[5]),
		county: int32(v[6]), coll: int32(v[7]), typ: int16(v[8]), role: int16(v[9]), span: int8(v[10]), dq: int8(v[11])}, nil
}

// fields are r's columns in searchRowCols order.
func (r *searchRow) fields() [12]int64 {
	return [12]int64{r.id, int64(r.surname), int64(r.given), int64(r.lo), int64(r.hi), int64(r.place),
		int64(r.county), int64(r.coll), int64(r.typ), int64(r.role), int64(r.span), int64(r.dq)}
}

// fieldOrder maps t's columns to positions in searchRowCols.
func fieldOrder(t index.SearchTable) []int {
	all := strings.Split(searchRowCols, ", ")
	order := make([]int, len(t.Cols))
	for i, c := range t.Cols {
		order[i] = slices.Index(all, c)
	}
	return order
}

func bySurnameKey(a, b searchRow) int {
	return cmp.Or(cmp.Compare(a.surname, b.surname), cmp.Compare(a.span, b.span), cmp.Compare(a.lo, b.lo), cmp.Compare(a.id, b.id))
}

func byGivenKey(a, b searchRow) int {
	return cmp.Or(cmp.Compare(a.given, b.given), cmp.Compare(a.span, b.span), cmp.Compare(a.lo, b.lo), cmp.Compare(a.id, b.id))
}

// rowsPerSearchInsert is how many rows one INSERT of writeSorted writes.
const rowsPerSearchInsert = 64

// buildSQLite creates the bulk-load indexes and the search tables that missing
// names (SQLite). A table appears under its own name only once it is complete: it
// is written as name_build and renamed at the end, so a build that fails or is
// killed leaves the store as it was (searches read search_keys meanwhile).
//
// A first, short transaction creates the tables under their _build names (and
// records_browse, only when a bulk import of an earlier version left it out: that
// is one long statement), while a second connection reads search_keys into memory,
// with search_epoch in the same read transaction, and sorts the rows without holding
// the write lock. The tables are then written from memory in key order, in
// transactions of about buildChunkBudget (writeChunked), so that a Checkpointer copies each chunk into
// the database file on the other core while the next is written, and so that other
// writers (a sign-in) wait for one chunk at most; each of those transactions first
// checks that no import has changed search_keys since the read (search_epoch,
// errStoreChanged). Rows that are not sorted in memory are sorted by SQLite on the
// second connection, also in a read transaction, and written in the same chunks
// (readSortedBySQLite).
func (s *Importer) buildSQLite(ctx context.Context, conn *sql.Conn, missing []string) (err error) {
	var tables []index.SearchTable
	for _, t := range index.SearchTables {
		if slices.Contains(missing, t.Name) {
			tables = append(tables, t)
		}
	}
	var rows, given []searchRow // given: rows in the given-names table's order, when sorted early
	var version int64
	var read *searchRead
	if len(tables) > 0 {
		read = s.readSearchRows(ctx, len(tables) == len(index.SearchTables))
		defer read.stop()
	}
	err = store.InTxOn(ctx, conn, func(tx *sql.Tx) error {
		for _, ix := range sqliteKeptIndexes {
			if !slices.Contains(missing, ix.Name) {
				continue
			}
			if _, err := tx.ExecContext(ctx, ix.Create); err != nil {
				return fmt.Errorf("%s: %w", ix.Name, err)
			}
		}
		for _, t := range tables {
			if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS `+buildName(t)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, t.CreateSQL(buildName(t))); err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
		}
		return nil
	})
	if err != nil || read == nil {
		return err
	}
	defer func() {
		if err != nil {
			// Best effort: the next build drops them anyway.
			for _, t := range tables {
				conn.ExecContext(context.WithoutCancel(ctx), `DROP TABLE IF EXISTS `+buildName(t))
			}
		}
	}()
	rows, given, version, err = read.wait()
	sorted := err == nil
	if errors.Is(err, errNoSortedBuild) {
		// Too many rows for memory, or values too wide for the compact rows: SQLite
		// sorts them, on the reading connection, still outside the write lock.
		version, err = -1, nil
	}
	if err != nil {
		return err
	}
	bulk := storebulk.NewSQLiteConn(conn)
	if bulk == nil {
		return errNoSortedBuild // cannot happen: the reader had one
	}
	defer conn.Raw(func(any) error { bulk.Close(); return nil })
	ckpt := s.DB.StartCheckpointer(ctx, 0)
	defer ckpt.Stop()
	// chunk runs fn in a transaction of its own, when no import has changed
	// search_keys.
	chunk := func(fn func(tx *sql.Tx) error) error {
		err := store.InTxOn(ctx, conn, func(tx *sql.Tx) error {
			var v int64
			if err := tx.QueryRowContext(ctx, `SELECT n FROM search_epoch`).Scan(&v); err != nil {
				return err
			}
			if v != version {
				return errStoreChanged
			}
			return fn(tx)
		})
		if err == nil {
			ckpt.Poke()
			s.DB.YieldToWriters()
			if afterBuildChunk != nil {
				afterBuildChunk()
			}
		}
		return err
	}
	if !sorted {
		for _, t := range tables {
			n := len(t.Cols)
			err := s.readSortedBySQLite(ctx, t, &version, func(args []int64) error {
				return writeChunked(len(args)/n, chunk, func(i, j int) error {
					return conn.Raw(func(any) error { return writeInts(ctx, bulk, buildName(t), t, args[i*n:j*n]) })
				})
			})
			if err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
		}
		return chunk(func(tx *sql.Tx) error { return renameBuilt(ctx, tx, tables) })
	}
	for _, t := range tables {
		if t.Name == "search_keys_given" {
			if given == nil {
				sortByGiven(rows, runtime.GOMAXPROCS(0))
				given = rows
			}
			rows = given
		}
		err := writeChunked(len(rows), chunk, func(i, j int) error {
			return conn.Raw(func(any) error { return writeSorted(ctx, bulk, buildName(t), t, rows[i:j]) })
		})
		if err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
	}
	return chunk(func(tx *sql.Tx) error { return renameBuilt(ctx, tx, tables) })
}

// readSortedBySQLite reads t's rows from search_keys in t's key order, sorted by
// SQLite (its sorter spills to temporary files, with little memory), on a connection
// of its own in a read transaction, which takes no write lock however long the sort;
// it hands them to write buildChunkRows at a time (in t.cols order, len(t.cols)
// values a row), while it reads the next. The first table's read sets *version to
// search_epoch in its snapshot; a later table's read whose snapshot has another
// (an import wrote between them) is errStoreChanged.
func (s *Importer) readSortedBySQLite(ctx context.Context, t index.SearchTable, version *int64, write func(args []int64) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	chunks := make(chan []int64, 1)
	read := make(chan error, 1)
	go func() {
		defer close(chunks)
		read <- s.sortedRows(ctx, t, version, chunks)
	}()
	var err error
	for args := range chunks {
		if err == nil {
			if err = write(args); err != nil {
				cancel()
			}
		}
	}
	if rerr := <-read; err == nil {
		err = rerr
	}
	return err
}

// sortedRows is readSortedBySQLite's reader.
func (s *Importer) sortedRows(ctx context.Context, t index.SearchTable, version *int64, chunks chan<- []int64) error {
	conn, err := s.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN DEFERRED`); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
	var epoch int64
	if err := conn.QueryRowContext(ctx, `SELECT n FROM search_epoch`).Scan(&epoch); err != nil {
		return err
	}
	if *version < 0 {
		*version = epoch
	} else if epoch != *version {
		return errStoreChanged
	}
	bulk := storebulk.NewSQLiteConn(conn)
	if bulk == nil {
		return errNoSortedBuild
	}
	defer conn.Raw(func(any) error { bulk.Close(); return nil })
	per := buildChunkRows * len(t.Cols)
	buf := make([]int64, 0, per)
	send := func() error {
		select {
		case chunks <- buf:
			buf = make([]int64, 0, per)
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	cols := strings.Join(t.Cols, ", ")
	err = conn.Raw(func(any) error {
		return bulk.QueryInts(`SELECT `+cols+` FROM search_keys WHERE surname_id <> 0 ORDER BY `+strings.Join(t.Cols[:t.NKey], ", "), len(t.Cols), func(v []int64) error {
			buf = append(buf, v...)
			if len(buf) == per {
				return send()
			}
			return nil
		})
	})
	if err == nil && len(buf) > 0 {
		err = send()
	}
	return err
}

// writeInts inserts rows given as len(t.cols) values each, in t.cols order and in
// t's key order, into t's table under name, rowsPerSearchInsert at a time.
func writeInts(ctx context.Context, bulk *storebulk.SQLiteConn, name string, t index.SearchTable, args []int64) error {
	n := len(t.Cols)
	full := storebulk.InsertRowsSQL("INSERT OR FAIL", name, t.Cols, rowsPerSearchInsert)
	for i := 0; i < len(args); i += rowsPerSearchInsert * n {
		part := args[i:min(i+rowsPerSearchInsert*n, len(args))]
		q := full
		if len(part) < rowsPerSearchInsert*n {
			q = storebulk.InsertRowsSQL("INSERT OR FAIL", name, t.Cols, len(part)/n)
		}
		if err := bulk.ExecInts(q, part); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// writeChunked writes n rows, write(i, j) writing rows i to j-1, in transactions of
// chunk of at most buildChunkRows rows each, which commit once they have been open
// for buildChunkBudget: other writers (a sign-in) wait for about that long at most,
// whatever the machine's load.
func writeChunked(n int, chunk func(fn func(tx *sql.Tx) error) error, write func(i, j int) error) error {
	for off := 0; off < n; {
		err := chunk(func(*sql.Tx) error {
			start := time.Now()
			end := min(off+buildChunkRows, n)
			for off < end {
				j := min(off+budgetCheckRows, end)
				if err := write(off, j); err != nil {
					return err
				}
				off = j
				if time.Since(start) >= buildChunkBudget {
					break
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// A transaction of the search tables' build writes at most buildChunkRows rows and
// commits once it has been open for buildChunkBudget (as a tree import's
// transactions do, decision 010), looking at the clock every budgetCheckRows rows; afterBuildChunk, when set by a
// test, runs after each.
var (
	buildChunkRows   = 1 << 18
	buildChunkBudget = 20 * time.Millisecond
	afterBuildChunk  func()
)

const budgetCheckRows = 1024

// errStoreChanged stops a build of the search tables when an import changed
// search_keys between two of its transactions: the rows it holds may be stale.
var errStoreChanged = errors.New("the store changed while the search tables were being built; build them again (lineage import records --build-index)")

// buildName is the name t is built under.
func buildName(t index.SearchTable) string { return t.Name + "_build" }

// renameBuilt gives the built tables their own names.
func renameBuilt(ctx context.Context, tx *sql.Tx, tables []index.SearchTable) error {
	for _, t := range tables {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE `+buildName(t)+` RENAME TO `+t.Name); err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
	}
	return nil
}

// errNoSortedBuild is readSearchRows' answer when the rows are not to be sorted in
// memory: more than maxSortedBuild of them, a value too wide for searchRow, or a
// driver without bulk.SQLiteConn.
var errNoSortedBuild = errors.New("the search rows are not sorted in memory")

// searchRead is a read of search_keys under way on a connection of its own.
type searchRead struct {
	cancel context.CancelFunc
	done   chan struct{}
	rows   []searchRow
	given  []searchRow
	epoch  int64 // search_epoch when the rows were read
	err    error
}

// readSearchRows starts reading search_keys into memory on a second connection and
// sorting the rows by the surname table's key, on every core; with both, also a copy
// in the given-names table's order (when there are at most givenCopyMax rows): the
// read is done long before records_browse is, and the copy saves the writer the
// second sort.
func (s *Importer) readSearchRows(ctx context.Context, both bool) *searchRead {
	ctx, cancel := context.WithCancel(ctx)
	r := &searchRead{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.rows, r.epoch, r.err = s.loadSearchRows(ctx)
		if r.err != nil {
			return
		}
		cores := runtime.GOMAXPROCS(0)
		sortBySurname(r.rows, cores)
		if both && len(r.rows) <= givenCopyMax && ctx.Err() == nil {
			r.given = slices.Clone(r.rows)
			sortByGiven(r.given, cores)
		}
	}()
	return r
}

// givenCopyMax bounds the rows readSearchRows copies (48 bytes each: 1.5 GiB).
const givenCopyMax = 32 << 20

// wait returns the sorted rows (and the copy in the given-names order, or nil) and
// search_epoch as they were read, or why there are none.
func (r *searchRead) wait() (rows, given []searchRow, epoch int64, err error) {
	<-r.done
	return r.rows, r.given, r.epoch, r.err
}

// stop ends the read if it is still under way and waits for it.
func (r *searchRead) stop() {
	r.cancel()
	<-r.done
}

// loadSearchRows reads search_keys and search_epoch in one read transaction (a
// snapshot: BEGIN DEFERRED takes no write lock, unlike the store's transactions).
func (s *Importer) loadSearchRows(ctx context.Context) (_ []searchRow, epoch int64, err error) {
	conn, err := s.DB.Conn(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN DEFERRED`); err != nil {
		return nil, 0, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
	var n int64
	if err := conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM search_keys WHERE surname_id <> 0`).Scan(&n); err != nil {
		return nil, 0, err
	}
	if err := conn.QueryRowContext(ctx, `SELECT n FROM search_epoch`).Scan(&epoch); err != nil {
		return nil, 0, err
	}
	if n > maxSortedBuild {
		return nil, 0, errNoSortedBuild
	}
	bulk := storebulk.NewSQLiteConn(conn)
	if bulk == nil {
		return nil, 0, errNoSortedBuild
	}
	defer conn.Raw(func(any) error { bulk.Close(); return nil })
	rows := make([]searchRow, 0, n)
	err = conn.Raw(func(any) error {
		return bulk.QueryInts(`SELECT `+searchRowCols+` FROM search_keys WHERE surname_id <> 0`, 12, func(v []int64) error {
			r, err := toSearchRow(v)
			if err != nil {
				return err
			}
			rows = append(rows, r)
			if len(rows)%(1<<20) == 0 {
				return ctx.Err()
			}
			return nil
		})
	})
	return rows, epoch, err
}

// parallelSortMin is the fewest rows worth sorting on more than one goroutine.
const parallelSortMin = 1 << 16

// sortBySurname sorts rows by the surname table's key on up to parts goroutines: the
// rows are split by surname id around the median of a sample, and each side is
// sorted on its own.
func sortBySurname(rows []searchRow, parts int) {
	if parts < 2 || len(rows) < parallelSortMin {
		slices.SortFunc(rows, bySurnameKey)
		return
	}
	sample := make([]int32, 0, 1024)
	for i := 0; i < len(rows); i += len(rows)/1023 + 1 {
		sample = append(sample, rows[i].surname)
	}
	slices.Sort(sample)
	pivot := sample[len(sample)/2]
	mid := partitionRows(rows, func(r *searchRow) bool { return r.surname < pivot })
	if mid == 0 { // the pivot is the smallest surname: split after it instead
		mid = partitionRows(rows, func(r *searchRow) bool { return r.surname <= pivot })
	}
	var wg sync.WaitGroup
	wg.Go(func() { sortBySurname(rows[:mid], parts/2) })
	sortBySurname(rows[mid:], parts-parts/2)
	wg.Wait()
}

// partitionRows moves the rows for which left is true before the others and returns
// how many there are.
func partitionRows(rows []searchRow, left func(*searchRow) bool) int {
	i := 0
	for j := range rows {
		if left(&rows[j]) {
			rows[i], rows[j] = rows[j], rows[i]
			i++
		}
	}
	return i
}

// sortByGiven re-sorts rows, sorted by surname, into the given-names table's order:
// each surname's run by itself, the runs shared out among up to parts goroutines.
func sortByGiven(rows []searchRow, parts int) {
	if parts >= 2 && len(rows) >= parallelSortMin {
		// Split at the first surname boundary after the middle.
		mid := len(rows) / 2
		for mid < len(rows) && rows[mid].surname == rows[mid-1].surname {
			mid++
		}
		var wg sync.WaitGroup
		wg.Go(func() { sortByGiven(rows[:mid], parts/2) })
		sortByGiven(rows[mid:], parts-parts/2)
		wg.Wait()
		return
	}
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].surname == rows[i].surname {
			j++
		}
		slices.SortFunc(rows[i:j], byGivenKey)
		i = j
	}
}

// writeSorted inserts rows, sorted in t's key order, into t's table under name,
// rowsPerSearchInsert at a time.
func writeSorted(ctx context.Context, bulk *storebulk.SQLiteConn, name string, t index.SearchTable, rows []searchRow) error {
	// OR FAIL: a duplicate key fails the build all the same, but no statement of
	// many rows keeps a journal to undo itself with (SQLite needs one only when a
	// failing statement must take back the rows it wrote before the failure).
	full := storebulk.InsertRowsSQL("INSERT OR FAIL", name, t.Cols, rowsPerSearchInsert)
	order := fieldOrder(t)
	args := make([]int64, 0, rowsPerSearchInsert*len(t.Cols))
	for i := 0; i < len(rows); i += rowsPerSearchInsert {
		chunk := rows[i:min(i+rowsPerSearchInsert, len(rows))]
		args = args[:0]
		for j := range chunk {
			f := chunk[j].fields()
			for _, k := range order {
				args = append(args, f[k])
			}
		}
		q := full
		if len(chunk) < rowsPerSearchInsert {
			q = storebulk.InsertRowsSQL("INSERT OR FAIL", name, t.Cols, len(chunk))
		}
		if err := bulk.ExecInts(q, args); err != nil {
			return err
		}
		if i%(1<<20) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	return nil
}
