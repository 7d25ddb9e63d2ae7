package ingest

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"hash/maphash"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"lineage/internal/gendate"
	"lineage/internal/research/gazetteer"
	"lineage/internal/research/index"
	"lineage/internal/store"
	"lineage/internal/store/bulk"
)

// ImportOptions configure ImportRecords.
type ImportOptions struct {
	Collection string // slug; created when missing
	Kind       string // for a new collection (default record_set)
	Title      string // for a new collection (default the slug)
	Access     string // for a new collection: public (default) or members
	// Strict refuses the whole file when any row is bad; the source must then be an
	// io.ReadSeeker, read once to check and again to import.
	Strict    bool
	BatchSize int // records per transaction; default 2000
	// Bulk drops the search index's secondary indexes for the import and rebuilds them
	// at the end (much faster for a load larger than what the store holds; searches
	// meanwhile are slow). BulkAuto decides by the source's size when it can;
	// BulkDefer leaves them out for BuildSearchIndexes after several imports.
	Bulk     BulkMode
	Progress func(ImportProgress) // called after each batch
	// CSV bounds the file's rows (lines a quoted field may span, bytes of a row);
	// the zero value is the defaults.
	CSV CSVLimits
}

// BulkMode chooses how an import maintains the search index.
type BulkMode int

const (
	BulkAuto BulkMode = iota // bulk when the caller's size hint says the load is large
	BulkOff
	BulkOn
	// BulkDefer drops the indexes and leaves them out: a loader importing many files
	// builds them once at the end with BuildSearchIndexes (any later import without
	// BulkDefer also builds them). Searches meanwhile are slow.
	BulkDefer
)

// ImportProgress is reported after every batch.
type ImportProgress struct {
	Records, Added, Updated, Unchanged, Skipped int
}

// MaxReportedErrors bounds the bad rows an ImportReport lists (ErrorCount has them all).
const MaxReportedErrors = 1000

// ImportReport says what an import did.
type ImportReport struct {
	Collection        string        `json:"collection"`
	CollectionCreated bool          `json:"collection_created"`
	Records           int           `json:"records"` // records read, good or bad
	Added             int           `json:"added"`
	Updated           int           `json:"updated"`
	Unchanged         int           `json:"unchanged"`
	Skipped           int           `json:"skipped"` // records rejected for bad rows
	ErrorCount        int           `json:"error_count"`
	Errors            []RowError    `json:"errors"` // at most MaxReportedErrors
	Notes             []RowError    `json:"notes"`  // at most MaxReportedErrors
	Bulk              bool          `json:"bulk"`
	IndexDeferred     bool          `json:"index_deferred"` // BulkDefer: the search indexes are still to build
	Elapsed           time.Duration `json:"elapsed"`
}

func (r *ImportReport) AddErrors(errs []RowError) {
	r.ErrorCount += len(errs)
	for _, e := range errs {
		if len(r.Errors) < MaxReportedErrors {
			r.Errors = append(r.Errors, e)
		}
	}
}

// ErrStrict is returned by a strict import that found bad rows (the report lists
// them); nothing was written.
var ErrStrict = errors.New("the file has bad rows; nothing was imported (--strict)")

// ImportRecords reads records from src (the canonical CSV, or another layout through
// m) into a collection. It streams, writing BatchSize records per transaction; a record
// with a bad row is skipped whole and reported with its line numbers. Re-importing a
// file is idempotent: records are matched by record_id within the collection, unchanged
// ones are left alone and changed ones updated in place. sizeHint (bytes, 0 if unknown)
// lets BulkAuto decide.
func (s *Importer) ImportRecords(ctx context.Context, src io.Reader, m *Mapping, opts ImportOptions, sizeHint int64) (*ImportReport, error) {
	start := time.Now()
	rep := &ImportReport{Collection: opts.Collection}
	if opts.BatchSize <= 0 {
		opts.BatchSize = 2000
	}
	if opts.Strict {
		if err := strictPass(src, m, opts.CSV, rep); err != nil {
			if errors.Is(err, ErrStrict) {
				rep.Elapsed = time.Since(start)
			}
			return rep, err
		}
	}
	rr, err := NewRecordReader(src, m, opts.CSV)
	if err != nil {
		return rep, err
	}
	coll, created, err := s.EnsureCollection(ctx, index.NewCollection{Slug: opts.Collection, Kind: opts.Kind, Title: opts.Title, Access: opts.Access})
	if err != nil {
		return rep, err
	}
	rep.CollectionCreated = created
	st, err := s.begin(ctx, coll, opts.BatchSize)
	if err != nil {
		return rep, err
	}
	defer st.end(ctx)
	if err := st.places.Preload(ctx); err != nil {
		return rep, err
	}
	if err := st.startSummary(ctx); err != nil {
		return rep, err
	}
	rep.Bulk = opts.Bulk == BulkOn || opts.Bulk == BulkDefer || (opts.Bulk == BulkAuto && sizeHint > 0 && s.bulkWorthIt(ctx, sizeHint))
	rep.IndexDeferred = opts.Bulk == BulkDefer
	ix, err := st.prepareIndexes(ctx, rep.Bulk, rep.IndexDeferred)
	if err != nil {
		return rep, err
	}
	defer ix.abandon()
	if err := st.readAndWrite(ctx, rr, opts, rep); err != nil {
		return rep, err
	}
	if err := st.flushStats(ctx); err != nil {
		return rep, err
	}
	if err := ix.finish(); err != nil {
		return rep, err
	}
	if rep.Added > 0 || rep.Updated > 0 {
		if err := st.finishSummary(ctx); err != nil {
			return rep, err
		}
	}
	for _, n := range rr.Notes {
		if len(rep.Notes) < MaxReportedErrors {
			rep.Notes = append(rep.Notes, n)
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// strictPass checks the whole source of a strict import before anything is written:
// ErrStrict when it has bad rows (rep lists them), else the source rewound for the
// import.
func strictPass(src io.Reader, m *Mapping, lim CSVLimits, rep *ImportReport) error {
	rs, ok := src.(io.ReadSeeker)
	if !ok {
		return errors.New("a strict import needs a file it can read twice")
	}
	if err := strictCheck(rs, m, lim, rep); err != nil {
		return err
	}
	if rep.ErrorCount > 0 {
		return ErrStrict
	}
	rep.Records, rep.Notes = 0, nil
	_, err := rs.Seek(0, io.SeekStart)
	return err
}

// begin opens the import's connection, one for the whole import: on SQLite its page
// cache stays warm from batch to batch and its INSERTs are compiled once; on
// PostgreSQL batches COPY on the connection that holds their transaction. end gives
// it back as it was.
func (s *Importer) begin(ctx context.Context, coll *index.Collection, batchSize int) (*importState, error) {
	conn, err := s.DB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	// A bulk load writes its rows with a smaller page cache (pageCache).
	restore, err := s.DB.SetPragmas(ctx, conn, bulkPragmas())
	if err != nil {
		conn.Close()
		return nil, err
	}
	w := bulk.New(s.DB, conn)
	// Where foreign keys are off, the only one the import's rows have, records'
	// collection, is checked once a batch (collectionGone) instead of each row.
	fkOff, err := w.ForeignKeysOff(ctx)
	if err != nil {
		w.Close()
		restore()
		conn.Close()
		return nil, err
	}
	return &importState{
		s: s, coll: coll, run: time.Now().UnixNano(),
		dict:         index.NewNameDict(s.DB, s.Variants, s.Given),
		places:       gazetteer.NewResolver(s.DB, nil),
		writeRecords: w.Budget(batchSize),
		search:       s.searchIndexes(),
		checkColl:    fkOff,
		conn:         conn,
		restore:      restore,
		w:            w,
		// Checkpoints run beside the writer, on the other core.
		ckpt: s.DB.StartCheckpointer(ctx, checkpointInterval),
	}, nil
}

// end closes what begin opened. A failed import still records the statistics of
// what it committed (bulkStats).
func (st *importState) end(ctx context.Context) {
	if err := st.flushStats(context.WithoutCancel(ctx)); err != nil {
		st.s.log.Error("research: name statistics", "err", err)
	}
	st.ckpt.Stop()
	st.w.Close()
	// Back to the pool as every connection is.
	st.restore()
	st.conn.Close()
}

// indexWork is what an import does to the search indexes besides writing rows: finish
// brings them up to date at the end; abandon, when finish never ran, rebuilds what
// a failed bulk import dropped (the batches it committed stay).
type indexWork struct {
	finish  func() error
	abandon func()
}

// prepareIndexes readies the search indexes for the import: a bulk import drops
// their secondary indexes (and builds them again at the end unless deferred); any
// other import writes into the search tables as it goes, when they are there, and
// builds at its end what a deferred bulk import left out.
func (st *importState) prepareIndexes(ctx context.Context, bulkLoad, deferred bool) (*indexWork, error) {
	s := st.s
	ix := &indexWork{abandon: func() {}}
	if bulkLoad {
		if err := st.pageCache(ctx, bulkCacheKiB); err != nil {
			return nil, err
		}
		st.bulkStats, st.merge = statDeltas{}, newStatsMerger()
		if err := st.search.Drop(ctx, st.conn); err != nil {
			return nil, err
		}
	}
	switch {
	case deferred:
		ix.finish = func() error { return nil }
	case bulkLoad:
		rebuilt := false
		ix.finish = func() error {
			rebuilt = true
			if err := st.pageCache(ctx, importCacheKiB); err != nil {
				return err
			}
			return s.rebuildSearchIndexes(ctx, st.search, st.conn)
		}
		ix.abandon = func() {
			if rebuilt {
				return
			}
			ctx := context.WithoutCancel(ctx)
			if err := st.pageCache(ctx, importCacheKiB); err != nil {
				s.log.Error("research: page cache for the rebuild", "err", err)
			}
			if err := s.rebuildSearchIndexes(ctx, st.search, st.conn); err != nil {
				s.log.Error("research: rebuild search indexes", "err", err)
			}
		}
	default:
		var err error
		if st.tables, err = s.HaveSearchTables(ctx); err != nil {
			return nil, err
		}
		ix.finish = func() error {
			built, err := st.search.Repair(ctx, st.conn)
			if err == nil && built {
				err = s.Analyze(ctx)
			}
			return err
		}
	}
	return ix, nil
}

// readAndWrite imports the records: reading, checking and preparing them (one
// goroutine) overlaps with writing them (this one), as the two halves cost about
// the same.
func (st *importState) readAndWrite(ctx context.Context, rr *RecordReader, opts ImportOptions, rep *ImportReport) error {
	batches := make(chan readBatch, 2)
	quit := make(chan struct{})
	defer close(quit)
	st.learned = make(chan *knownIDs, 16)
	go readBatches(rr, opts.BatchSize, batches, st.learned, quit)
	for b := range batches {
		if err := ctx.Err(); err != nil {
			return err
		}
		rep.Records += b.read
		for _, errs := range b.rejected {
			rep.Skipped++
			rep.AddErrors(errs)
		}
		if b.err != nil {
			return b.err
		}
		// A batch may be written in several transactions (writeRecords), but a record
		// never is split across two, and the outcome is the same however a file is cut
		// (TestImportBatchBoundaries).
		for preps := b.preps; len(preps) > 0; {
			n := st.writeRecords.Take(len(preps))
			began := time.Now()
			if err := st.write(ctx, preps[:n], rep); err != nil {
				return err
			}
			st.writeRecords.Took(time.Since(began), opts.BatchSize)
			preps = preps[n:]
		}
		if opts.Progress != nil {
			opts.Progress(ImportProgress{Records: rep.Records, Added: rep.Added, Updated: rep.Updated, Unchanged: rep.Unchanged, Skipped: rep.Skipped})
		}
	}
	return nil
}

// strictCheck reads the whole source without writing, collecting bad rows and
// record_ids that appear twice.
func strictCheck(src io.Reader, m *Mapping, lim CSVLimits, rep *ImportReport) error {
	rr, err := NewRecordReader(src, m, lim)
	if err != nil {
		return err
	}
	type seen struct {
		h    uint64
		line int
		key  string
	}
	var keys []seen
	for {
		rec, errs, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		rep.Records++
		if errs != nil {
			rep.Skipped++
			rep.AddErrors(errs)
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(rec.Key))
		keys = append(keys, seen{h.Sum64(), rec.Line, ""})
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].h != keys[j].h {
			return keys[i].h < keys[j].h
		}
		return keys[i].line < keys[j].line
	})
	var dups []RowError
	for i := 1; i < len(keys); i++ {
		if keys[i].h == keys[i-1].h {
			dups = append(dups, RowError{Line: keys[i].line, Message: fmt.Sprintf("this record_id was used for another record at line %d; the rows of one record must be together", keys[i-1].line)})
		}
	}
	sort.Slice(dups, func(i, j int) bool { return dups[i].Line < dups[j].Line })
	rep.AddErrors(dups)
	rep.Notes = rr.Notes
	return nil
}

// importState is what one import carries from batch to batch.
type importState struct {
	s *Importer
	// writeRecords is how many records a transaction writes: on SQLite, whose one
	// write lock a transaction holds, about bulk.TxBudget's worth, so that a sign-in
	// waits for one transaction at most.
	writeRecords *bulk.Budget
	// search is what a bulk load does to the search index on this database.
	search bulk.Indexes
	// checkColl: the import's connection has foreign keys off (collectionGone).
	checkColl bool
	coll      *index.Collection
	run       int64
	dict      *index.NameDict
	places    *gazetteer.Resolver
	// bulkStats gathers a bulk import's name_facets changes, written once at the end
	// (nil: each batch writes its own); merge adds up the batches' until then.
	bulkStats statDeltas
	merge     *statsMerger
	conn      *sql.Conn   // the connection every batch is written on
	restore   func()      // puts conn's settings back (begin)
	w         bulk.Writer // writes the rows, on conn
	ckpt      *store.Checkpointer
	tables    bool // rows go into the search tables too (HaveSearchTables)
	// summary is the collection's summary counted as records are added, when the
	// collection was empty at the start (nil: recounted from the store at the end).
	summary  *index.CollectionSummary
	summaryN int64
	// runKeys are the hashes of the record_ids this import has written, when the
	// collection was empty at the start (nil otherwise): only a record_id whose hash
	// is there can be in the store already, so existing asks about those alone.
	runKeys map[uint64]struct{}
	// learned takes what each batch resolved to the reading goroutine (knownIDs).
	learned chan *knownIDs
}

// keySeed hashes runKeys.
var keySeed = maphash.MakeSeed()

// startSummary decides whether the import can count the collection's summary itself:
// only when the collection holds no records yet, so that every record it will hold
// passes through insert.
func (st *importState) startSummary(ctx context.Context) error {
	// Until finishSummary counts them, the collection may hold records marked
	// members-only that its summary does not count (search/paywall.go).
	if err := st.s.ForgetMembersOnly(ctx, st.coll.ID); err != nil {
		return err
	}
	var one int
	err := st.s.DB.QueryRowContext(ctx, st.s.DB.Rebind(`SELECT 1 FROM records WHERE collection_id = ? LIMIT 1`), st.coll.ID).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		st.summary = index.NewCollectionSummary()
		st.runKeys = map[uint64]struct{}{}
		return nil
	case err != nil:
		return err
	}
	return nil
}

// finishSummary stores the collection's summary.
func (st *importState) finishSummary(ctx context.Context) error {
	if st.summary == nil {
		return st.s.RefreshSummary(ctx, st.coll.ID)
	}
	return st.s.StoreSummary(ctx, st.coll.ID, st.summary, st.summaryN)
}

// inTx runs fn in a transaction on the import's connection.
func (st *importState) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if st.conn == nil {
		return st.s.DB.InTx(ctx, fn)
	}
	return store.InTxOn(ctx, st.conn, fn)
}

// The page cache of an import's connection on SQLite, in KiB. An import that keeps
// the search indexes up to date revisits their pages all over, and a bulk load sorts
// its indexes in that cache when it rebuilds them; a bulk load's rows meanwhile go to
// the ends of their tables, where a large cache only costs time, allocating and
// touching fresh pages (docs/decisions/011-house-plan.md, "Figures").
const (
	importCacheKiB = 256 << 10
	bulkCacheKiB   = 16 << 10
)

// bulkPragmas are the SQLite settings of a connection that does a long bulk job (an
// import, the index build): a page cache that holds the pages it keeps coming back
// to (indexes, dictionaries) and that sorts a bulk load's indexes in memory,
// temporary data and any statement journal in memory, helper threads for sorting,
// the records table read through a memory map, and checkpoints left to a
// Checkpointer beside it (the writer's own only as a backstop).
func bulkPragmas() []store.Pragma {
	return []store.Pragma{
		{Name: "temp_store", Value: "MEMORY"},
		{Name: "cache_size", Value: strconv.Itoa(-importCacheKiB)},
		{Name: "threads", Value: "2"},
		{Name: "mmap_size", Value: "17179869184"},
		{Name: "wal_autocheckpoint", Value: strconv.Itoa(store.ImportAutocheckpoint)},
	}
}

// pageCache sets the page cache of the import's connection (SQLite). end's restore
// puts back the size the connection had before begin.
func (st *importState) pageCache(ctx context.Context, kib int) error {
	_, err := st.s.DB.SetPragmas(ctx, st.conn, []store.Pragma{{Name: "cache_size", Value: strconv.Itoa(-kib)}})
	return err
}

// checkpointInterval is how often, at most, an import's Checkpointer runs: each run
// syncs the log and the database file.
const checkpointInterval = 200 * time.Millisecond

// collectionGone fails when the collection being imported into has been deleted
// since the import began: the check that records' foreign key makes of every row,
// made once a batch where the import's connection has foreign keys off (SQLite).
func (st *importState) collectionGone(ctx context.Context, tx *sql.Tx) error {
	if !st.checkColl {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM collections WHERE id = ?`, st.coll.ID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("research: collection %q was deleted during the import", st.coll.Slug)
	}
	return nil
}

// insertRows writes rows of a batch.
func (st *importState) insertRows(ctx context.Context, tx *sql.Tx, table string, cols []string, rows [][]any) error {
	return st.w.Insert(ctx, tx, bulk.Table{Name: table, Cols: cols}, rows)
}

// flushStats writes the statistics a bulk import gathered.
func (st *importState) flushStats(ctx context.Context) error {
	if st.merge != nil {
		for c, n := range st.merge.finish() {
			st.bulkStats[c] += n
		}
		st.merge = nil
	}
	if len(st.bulkStats) == 0 {
		return nil
	}
	stats := st.bulkStats
	st.bulkStats = statDeltas{}
	// statChunk cells a transaction, so that other writers wait for one chunk at most.
	chunk := make(statDeltas, min(len(stats), statChunk))
	write := func() error {
		c := chunk
		chunk = make(statDeltas, min(len(stats), statChunk))
		if err := st.inTx(ctx, func(tx *sql.Tx) error { return st.applyStats(ctx, tx, c) }); err != nil {
			return err
		}
		st.s.DB.YieldToWriters()
		return nil
	}
	for c, n := range stats {
		chunk[c] = n
		if len(chunk) >= statChunk {
			if err := write(); err != nil {
				return err
			}
		}
	}
	if len(chunk) == 0 {
		return nil
	}
	return write()
}

// statChunk is how many name_facets cells flushStats writes a transaction (a
// variable for tests): few enough that other writers wait for one chunk, not for
// all of them (docs/decisions/011-house-plan.md, "Figures").
var statChunk = 10_000

// applyStats adds the deltas to name_facets and drops cells that reach zero.
func (st *importState) applyStats(ctx context.Context, tx *sql.Tx, stats statDeltas) error {
	// In key order, each page of name_facets is visited once.
	cells, negative := stats.sorted()
	ints := make([]int64, 0, len(cells)*len(facetTable.Cols))
	for _, c := range cells {
		ints = append(ints, c.surname, c.collection, c.typ, int64(c.facet), c.value, int64(stats[c]))
	}
	if err := st.w.InsertInts(ctx, tx, facetTable, ints); err != nil {
		return err
	}
	return dropEmptyFacets(ctx, tx, negative)
}

// readBatch is a batch of records read and checked, ready for the database.
type readBatch struct {
	preps    []*prepared
	rejected [][]RowError // the errors of each record skipped
	read     int          // records read, good or bad
	err      error        // the reader failed
}

// readBatches reads, checks and prepares records in batches until the source ends or
// quit closes.
func readBatches(rr *RecordReader, size int, out chan<- readBatch, learn <-chan *knownIDs, quit <-chan struct{}) {
	defer close(out)
	keys := newKeyCache()
	known := newKnownIDs()
	b := readBatch{}
	send := func() bool {
		select {
		case out <- b:
			b = readBatch{}
			return true
		case <-quit:
			return false
		}
	}
	for {
		rec, errs, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.err = err
			send()
			return
		}
		b.read++
		if errs != nil {
			b.rejected = append(b.rejected, errs)
			continue
		}
		if len(b.preps) == 0 {
			known.learn(learn)
		}
		b.preps = append(b.preps, precompute(rec, keys, rr.dates, known))
		if len(b.preps) == size && !send() {
			return
		}
	}
	if b.read > 0 {
		send()
	}
}

// keyCache remembers the dictionary keys of names already seen: names repeat heavily
// (a few thousand surnames make most of any register), and folding them is a good
// part of reading a record. One goroutine uses it.
type keyCache struct {
	surnames, givens map[string]string
}

// keyCacheMax bounds each map; a full one starts again (a file of endless distinct
// names gains nothing from it).
const keyCacheMax = 200_000

func newKeyCache() *keyCache {
	return &keyCache{surnames: map[string]string{}, givens: map[string]string{}}
}

func (c *keyCache) key(m map[string]string, s string, f func(string) string) string {
	if k, ok := m[s]; ok {
		return k
	}
	k := f(s)
	if len(m) >= keyCacheMax {
		clear(m)
	}
	m[s] = k
	return k
}

// precompute does the work of preparing a record that needs no database.
func precompute(rec *index.RecordInput, keys *keyCache, dates dateCache, known *knownIDs) *prepared {
	pj := appendPersonsJSON(nil, rec.Persons)
	p := &prepared{rec: rec, hash: recordHash(rec, pj), persons: string(pj), access: index.AccessCode(rec.Access), typeSlug: index.NormaliseRecordType(rec.Type)}
	d := dates.parse(rec.Date)
	p.hasDate, p.lo, p.hi, p.kind = d.searchable, d.lo, d.hi, d.kind
	n := len(rec.Persons)
	p.surnames, p.givens = make([]string, n), make([]string, n)
	ids := make([]int64, 3*n)
	p.surnameIDs, p.givenIDs, p.roleIDs = ids[:n:n], ids[n:2*n:2*n], ids[2*n:]
	for i, person := range rec.Persons {
		p.surnames[i] = keys.key(keys.surnames, person.Surname, index.SurnameKey)
		p.givens[i] = keys.key(keys.givens, person.GivenNames, index.GivenKey)
		p.surnameIDs[i] = known.nameID(known.surnames, p.surnames[i])
		p.givenIDs[i] = known.nameID(known.givens, p.givens[i])
		p.roleIDs[i] = known.id(known.roles, person.Role)
	}
	p.typeID = known.id(known.types, p.typeSlug)
	if pl, ok := known.places[rec.Place]; ok {
		p.placeOK, p.placeID, p.countyID = true, pl[0], pl[1]
	}
	p.images = "[]"
	if rec.Images != nil {
		p.images = string(appendStringsJSON(nil, rec.Images))
	}
	return p
}

// dateCache keeps what the importer needs of each date text it has parsed: a
// register's dates repeat (a few hundred thousand days in three centuries), and
// parsing was a tenth of reading a record. One goroutine uses it.
type dateCache map[string]parsedDate

// parsedDate is a date as the importer stores it: its search range when it has one,
// its kind, and why it cannot be read.
type parsedDate struct {
	searchable bool
	lo, hi     int
	kind       int
	err        error
}

// maxCachedDates bounds a dateCache (about 100 bytes an entry).
const maxCachedDates = 1 << 20

func (c dateCache) parse(text string) parsedDate {
	if p, ok := c[text]; ok {
		return p
	}
	d, err := gendate.Parse(text)
	p := parsedDate{kind: int(d.Kind), err: err}
	if err == nil && d.HasRange() {
		p.searchable, p.lo, p.hi = true, d.Range.Earliest, d.Range.Latest
	}
	if len(c) < maxCachedDates {
		c[text] = p
	}
	return p
}

// prepared is a record made ready for the store.
type prepared struct {
	rec      *index.RecordInput
	typeSlug string
	typeID   int64
	hasDate  bool
	lo, hi   int
	kind     int
	placeID  int64
	countyID int64
	placeOK  bool     // placeID and countyID are resolved
	surnames []string // surname key per person
	givens   []string // given key per person
	// Ids per person, and typeID: -1 until resolved (knownIDs or prepare).
	surnameIDs, givenIDs, roleIDs []int64
	persons                       string // JSON
	images                        string // JSON
	hash                          string
	access                        int
	id                            int64
	oldID                         int64 // the stored record it replaces
	duplicate                     bool  // its record_id was already imported by this run
}

// prepare resolves what the reading goroutine could not (knownIDs): vocabularies,
// places and name dictionaries, adding what is new; learned gets what it resolved.
func (st *importState) prepare(ctx context.Context, tx *sql.Tx, preps []*prepared, pendTypes, pendRoles map[string]int64, learned *knownIDs) error {
	s := st.s
	var skeys, gkeys []string
	for _, p := range preps {
		var err error
		if p.typeID < 0 {
			if p.typeID, err = s.Types.Ensure(ctx, s.DB, tx, p.typeSlug, p.rec.Type, pendTypes); err != nil {
				return err
			}
			learned.types[p.typeSlug] = p.typeID
		}
		if !p.placeOK {
			place, err := st.places.Resolve(ctx, p.rec.Place)
			if err != nil {
				return fmt.Errorf("place %q: %w", p.rec.Place, err)
			}
			p.placeID, p.countyID = 0, 0
			if place != nil {
				p.placeID, p.countyID = place.ID, place.CountyID
				if place.Kind == gazetteer.PlaceCounty {
					p.countyID = place.ID
				}
			}
			p.placeOK = true
			learned.places[p.rec.Place] = [2]int64{p.placeID, p.countyID}
		}
		for i, person := range p.rec.Persons {
			if p.roleIDs[i] < 0 {
				if p.roleIDs[i], err = s.Roles.Ensure(ctx, s.DB, tx, person.Role, person.Role, pendRoles); err != nil {
					return err
				}
				learned.roles[person.Role] = p.roleIDs[i]
			}
			if p.surnameIDs[i] < 0 {
				skeys = append(skeys, p.surnames[i])
			}
			if p.givenIDs[i] < 0 {
				gkeys = append(gkeys, p.givens[i])
			}
		}
	}
	if len(skeys) == 0 && len(gkeys) == 0 {
		return nil
	}
	if err := st.dict.Resolve(ctx, st.w, tx, skeys, gkeys); err != nil {
		return err
	}
	for _, p := range preps {
		for i := range p.rec.Persons {
			if p.surnameIDs[i] < 0 {
				p.surnameIDs[i] = st.dict.Surnames[p.surnames[i]]
				learned.surnames[p.surnames[i]] = p.surnameIDs[i]
			}
			if p.givenIDs[i] < 0 {
				p.givenIDs[i] = st.dict.Givens[p.givens[i]]
				learned.givens[p.givens[i]] = p.givenIDs[i]
			}
		}
	}
	return nil
}

// knownIDs are the store's ids of name keys, place texts, record types and roles
// that the reading goroutine has learned from the writing one, batch by batch after
// each commit: it resolves most of a record itself, and the writer, the import's
// bottleneck, only what is new. Ids of a transaction that fails are never learned.
type knownIDs struct {
	surnames, givens map[string]int64    // name key → id ("" is always 0)
	places           map[string][2]int64 // place text as written → place id, county id
	types, roles     map[string]int64    // slug → id
}

func newKnownIDs() *knownIDs {
	return &knownIDs{surnames: map[string]int64{}, givens: map[string]int64{}, places: map[string][2]int64{},
		types: map[string]int64{}, roles: map[string]int64{}}
}

func (k *knownIDs) empty() bool {
	return len(k.surnames)+len(k.givens)+len(k.places)+len(k.types)+len(k.roles) == 0
}

// id is m's id of key, -1 when unknown.
func (k *knownIDs) id(m map[string]int64, key string) int64 {
	if id, ok := m[key]; ok {
		return id
	}
	return -1
}

// nameID is id for a name key: the empty key (no name) is 0.
func (k *knownIDs) nameID(m map[string]int64, key string) int64 {
	if key == "" {
		return 0
	}
	return k.id(m, key)
}

// learn adds what the writer has sent, without waiting for more. A map that reaches
// keyCacheMax starts again, as keyCache does.
func (k *knownIDs) learn(from <-chan *knownIDs) {
	for {
		select {
		case l := <-from:
			mergeCapped(k.surnames, l.surnames)
			mergeCapped(k.givens, l.givens)
			mergeCapped(k.places, l.places)
			mergeCapped(k.types, l.types)
			mergeCapped(k.roles, l.roles)
		default:
			return
		}
	}
}

func mergeCapped[V any](into, from map[string]V) {
	if len(into)+len(from) > keyCacheMax {
		clear(into)
	}
	maps.Copy(into, from)
}

// write stores one batch in one transaction.
func (st *importState) write(ctx context.Context, preps []*prepared, rep *ImportReport) error {
	s := st.s
	pendTypes, pendRoles := map[string]int64{}, map[string]int64{}
	var added, updated, unchanged int
	var dupErrs []RowError
	var batchStats statDeltas
	learned := newKnownIDs()
	err := st.inTx(ctx, func(tx *sql.Tx) error {
		added, updated, unchanged, dupErrs = 0, 0, 0, nil
		st.places.Tx = tx
		defer func() { st.places.Tx = nil }()
		if err := st.collectionGone(ctx, tx); err != nil {
			return err
		}
		if err := st.prepare(ctx, tx, preps, pendTypes, pendRoles, learned); err != nil {
			return err
		}
		existing, err := st.existing(ctx, tx, preps)
		if err != nil {
			return err
		}
		inBatch := map[string]int{}
		var fresh, changed []*prepared
		for _, p := range preps {
			p.duplicate, p.oldID, p.id = false, 0, 0
			if first, ok := inBatch[p.rec.Key]; ok {
				p.duplicate = true
				dupErrs = append(dupErrs, RowError{Line: p.rec.Line, Record: p.rec.Key, Message: fmt.Sprintf("this record_id was used for another record at line %d; the rows of one record must be together", first)})
				continue
			}
			inBatch[p.rec.Key] = p.rec.Line
			old, ok := existing[p.rec.Key]
			switch {
			case !ok:
				fresh = append(fresh, p)
			case old.run == st.run:
				p.duplicate = true
				dupErrs = append(dupErrs, RowError{Line: p.rec.Line, Record: p.rec.Key, Message: "this record_id was used for another record earlier in the file; the rows of one record must be together"})
			case old.hash == p.hash:
				unchanged++
			default:
				p.oldID, p.id = old.id, old.id
				changed = append(changed, p)
			}
		}
		if err := st.allocate(ctx, tx, fresh); err != nil {
			return err
		}
		// Sized for the cells of about two surnames a record: growing the map had
		// taken about 6 % of the writing goroutine's time.
		stats := make(statDeltas, 4*len(preps))
		batchStats = stats
		if len(changed) > 0 {
			if err := st.retire(ctx, tx, changed, stats); err != nil {
				return err
			}
		}
		if err := st.insert(ctx, tx, fresh, changed, stats); err != nil {
			return err
		}
		if st.bulkStats == nil {
			if err := st.applyStats(ctx, tx, stats); err != nil {
				return err
			}
		}
		added, updated = len(fresh), len(changed)
		if added > 0 || updated > 0 {
			if _, err := tx.ExecContext(ctx, s.DB.Rebind(`UPDATE collections SET record_count = record_count + ?, updated_at = ? WHERE id = ?`),
				added, s.Now().Unix(), st.coll.ID); err != nil {
				return err
			}
			if len(st.search.Tables) > 0 {
				// search_keys changed: a build of the search tables under way is stale.
				if _, err := tx.ExecContext(ctx, `UPDATE search_epoch SET n = n + 1`); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	st.ckpt.Poke()
	// Writers waiting for SQLite's lock (a sign-in) go before the next batch.
	s.DB.YieldToWriters()
	if st.runKeys != nil {
		for _, p := range preps {
			if !p.duplicate && p.oldID == 0 {
				st.runKeys[maphash.String(keySeed, p.rec.Key)] = struct{}{}
			}
		}
	}
	if st.merge != nil {
		st.merge.add(batchStats)
	}
	if err := s.Types.Remember(ctx, s.DB, pendTypes); err != nil {
		return err
	}
	if err := s.Roles.Remember(ctx, s.DB, pendRoles); err != nil {
		return err
	}
	if st.learned != nil && !learned.empty() {
		select {
		case st.learned <- learned:
		default: // the reader has not taken the last ones yet: it learns these later, from the writer's misses
		}
	}
	rep.Added += added
	rep.Updated += updated
	rep.Unchanged += unchanged
	rep.Skipped += len(dupErrs)
	rep.AddErrors(dupErrs)
	return nil
}

type storedRecord struct {
	id   int64
	hash string
	run  int64
}

// existing finds the batch's records already in the collection.
func (st *importState) existing(ctx context.Context, tx *sql.Tx, preps []*prepared) (map[string]storedRecord, error) {
	out := map[string]storedRecord{}
	if st.runKeys != nil {
		var maybe []*prepared
		for _, p := range preps {
			if _, ok := st.runKeys[maphash.String(keySeed, p.rec.Key)]; ok {
				maybe = append(maybe, p)
			}
		}
		preps = maybe
	}
	for i := 0; i < len(preps); i += 500 {
		chunk := preps[i:min(i+500, len(preps))]
		ks := make([]string, len(chunk))
		for j, p := range chunk {
			ks[j] = p.rec.Key
		}
		rows, err := tx.QueryContext(ctx, `SELECT key, id, hash, import_run FROM records WHERE collection_id = `+strconv.FormatInt(st.coll.ID, 10)+` AND `+index.InStrings("key", ks))
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k string
			var r storedRecord
			if err := rows.Scan(&k, &r.id, &r.hash, &r.run); err != nil {
				rows.Close()
				return nil, err
			}
			out[k] = r
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// allocate gives new records their ids.
func (st *importState) allocate(ctx context.Context, tx *sql.Tx, fresh []*prepared) error {
	if len(fresh) == 0 {
		return nil
	}
	ids, err := st.w.NextIDs(ctx, tx, "records", len(fresh))
	if err != nil {
		return err
	}
	for i, p := range fresh {
		p.id = ids[i]
	}
	return nil
}

// facetCell is one cell of name_facets: a surname's records in one collection and
// record type with one decade (facet 0) or county (facet 1).
type facetCell struct {
	surname, collection, typ int64
	facet                    int
	value                    int64
}

// statDeltas are changes to name_facets.
type statDeltas map[facetCell]int

// statsMerger adds up a bulk import's statistics, batch by batch, on a goroutine of
// its own: merging each batch's cells (two a person) was a twentieth of the time of
// the writing goroutine, an import's bottleneck.
type statsMerger struct {
	in    chan statDeltas
	done  chan struct{}
	total statDeltas
}

func newStatsMerger() *statsMerger {
	m := &statsMerger{in: make(chan statDeltas, 4), done: make(chan struct{}), total: statDeltas{}}
	go func() {
		defer close(m.done)
		for d := range m.in {
			for c, n := range d {
				m.total[c] += n
			}
		}
	}()
	return m
}

// add adds a committed batch's statistics.
func (m *statsMerger) add(d statDeltas) { m.in <- d }

// finish waits for the batches added and returns their sum; m takes no more.
func (m *statsMerger) finish() statDeltas {
	close(m.in)
	<-m.done
	return m.total
}

// add counts n more records of a surname in a collection and type, dated in a decade
// and placed in a county: one cell of each facet.
func (d statDeltas) add(surname, collection, typ int64, decade int, county int64, n int) {
	d[facetCell{surname, collection, typ, index.FacetDecade, int64(decade)}] += n
	d[facetCell{surname, collection, typ, index.FacetCounty, county}] += n
}

// facetTable is where applyStats adds a batch's deltas to the counts.
var facetTable = bulk.Table{
	Name:       "name_facets",
	Cols:       []string{"surname_id", "collection_id", "type_id", "facet", "value", "records"},
	OnConflict: `ON CONFLICT (surname_id, collection_id, type_id, facet, value) DO UPDATE SET records = name_facets.records + excluded.records`,
}

// sorted is the cells of d that change, in name_facets' key order, and whether any
// change is negative.
func (d statDeltas) sorted() (cells []facetCell, negative bool) {
	cells = make([]facetCell, 0, len(d))
	for c, n := range d {
		if n != 0 {
			cells = append(cells, c)
			negative = negative || n < 0
		}
	}
	slices.SortFunc(cells, func(a, b facetCell) int {
		return cmp.Or(cmp.Compare(a.surname, b.surname), cmp.Compare(a.collection, b.collection), cmp.Compare(a.typ, b.typ),
			cmp.Compare(a.facet, b.facet), cmp.Compare(a.value, b.value))
	})
	return cells, negative
}

// retire removes what changed records had in the index and the statistics, before
// they are written again.
func (st *importState) retire(ctx context.Context, tx *sql.Tx, changed []*prepared, stats statDeltas) error {
	db := st.s.DB
	for _, p := range changed {
		var typ, county int64
		var lo, hi sql.NullInt64
		if err := tx.QueryRowContext(ctx, db.Rebind(`SELECT type_id, county_id, jdn_lo, jdn_hi FROM records WHERE id = ?`), p.oldID).Scan(&typ, &county, &lo, &hi); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, db.Rebind(`SELECT DISTINCT surname_id FROM search_keys WHERE id >= ? AND id < ? AND surname_id <> 0`), p.oldID*index.MaxKeyWidth, (p.oldID+1)*index.MaxKeyWidth)
		if err != nil {
			return err
		}
		dec := index.DecadeOf(lo.Valid, int(lo.Int64), int(hi.Int64))
		for rows.Next() {
			var sid int64
			if err := rows.Scan(&sid); err != nil {
				rows.Close()
				return err
			}
			stats.add(sid, st.coll.ID, typ, dec, county, -1)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if st.tables {
			for _, t := range index.SearchTables {
				key := strings.Join(t.Cols[:t.NKey], ", ")
				if _, err := tx.ExecContext(ctx, `DELETE FROM `+t.Name+` WHERE (`+key+`) IN (SELECT `+key+` FROM search_keys WHERE id >= ? AND id < ?)`, p.oldID*index.MaxKeyWidth, (p.oldID+1)*index.MaxKeyWidth); err != nil {
					return err
				}
			}
		}
		if _, err := tx.ExecContext(ctx, db.Rebind(`DELETE FROM search_keys WHERE id >= ? AND id < ?`), p.oldID*index.MaxKeyWidth, (p.oldID+1)*index.MaxKeyWidth); err != nil {
			return err
		}
	}
	return nil
}

// insert writes new and changed records, their events and search keys, and adds to
// the statistics.
func (st *importState) insert(ctx context.Context, tx *sql.Tx, fresh, changed []*prepared, stats statDeltas) error {
	s := st.s
	coll := st.coll.ID
	recordRow := func(p *prepared) []any {
		var lo, hi any
		if p.hasDate {
			lo, hi = p.lo, p.hi
		}
		return []any{p.id, coll, p.rec.Key, p.typeID, p.rec.Date, lo, hi, p.kind, p.placeID, p.countyID,
			p.rec.Place, p.rec.Transcript, p.rec.Source, p.access, p.images, p.persons, p.hash, st.run}
	}
	var newRows [][]any
	for _, p := range fresh {
		newRows = append(newRows, recordRow(p))
	}
	if st.summary != nil {
		if len(changed) > 0 {
			st.summary = nil // cannot happen in an empty collection; recount to be sure
		} else {
			for _, p := range fresh {
				st.summary.Add(p.typeID, p.hasDate, p.lo, p.hi, p.countyID, p.access)
			}
			st.summaryN += int64(len(fresh))
		}
	}
	if err := st.insertRows(ctx, tx, "records", recordCols, newRows); err != nil {
		return err
	}
	for _, p := range changed {
		r := recordRow(p)
		if _, err := tx.ExecContext(ctx, s.DB.Rebind(`UPDATE records SET type_id = ?, date_text = ?, jdn_lo = ?, jdn_hi = ?, date_kind = ?,
			place_id = ?, county_id = ?, place_text = ?, transcript = ?, source = ?, access = ?, images = ?, persons = ?, hash = ?, import_run = ?
			WHERE id = ?`), append(r[3:], p.id)...); err != nil {
			return err
		}
	}
	var keys []int64 // rows of len(keyCols) values
	for _, p := range slices.Concat(fresh, changed) {
		span, dq := index.SpanOf(p.hasDate, p.lo, p.hi), index.DQOf(p.hasDate, gendate.Kind(p.kind))
		klo, khi := p.lo, p.hi
		if !p.hasDate {
			klo, khi = 0, 0
		}
		dec := index.DecadeOf(p.hasDate, p.lo, p.hi)
		for i := range p.rec.Persons {
			sid, gid := p.surnameIDs[i], p.givenIDs[i]
			keys = append(keys, p.id*index.MaxKeyWidth+int64(i), sid, int64(span), int64(klo), int64(khi), int64(dq), gid, p.placeID, p.countyID, coll, p.typeID, p.roleIDs[i])
			if sid != 0 && !slices.Contains(p.surnameIDs[:i], sid) {
				stats.add(sid, coll, p.typeID, dec, p.countyID, 1)
			}
		}
	}
	if st.tables {
		// The search tables have the rows of persons with a surname only.
		named := make([]int64, 0, len(keys))
		for i := 0; i < len(keys); i += len(keyCols) {
			if keys[i+1] != 0 {
				named = append(named, keys[i:i+len(keyCols)]...)
			}
		}
		for _, t := range index.SearchTables {
			if err := st.insertKeys(ctx, tx, t.Name, named); err != nil {
				return err
			}
		}
	}
	return st.insertKeys(ctx, tx, "search_keys", keys)
}

// insertKeys writes search-index rows (keyCols, flattened) into table.
func (st *importState) insertKeys(ctx context.Context, tx *sql.Tx, table string, keys []int64) error {
	return st.w.InsertInts(ctx, tx, bulk.Table{Name: table, Cols: keyCols}, keys)
}

var (
	recordCols = []string{"id", "collection_id", "key", "type_id", "date_text", "jdn_lo", "jdn_hi", "date_kind", "place_id", "county_id",
		"place_text", "transcript", "source", "access", "images", "persons", "hash", "import_run"}
	keyCols = []string{"id", "surname_id", "span", "jdn_lo", "jdn_hi", "dq", "given_id", "place_id", "county_id", "collection_id", "type_id", "role_id"}
)

// dropEmptyFacets deletes the name_facets cells that changes brought to zero, when
// any change was negative.
func dropEmptyFacets(ctx context.Context, tx *sql.Tx, negative bool) error {
	if !negative {
		return nil
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM name_facets WHERE records <= 0`)
	return err
}

// searchIndexes is what a bulk load drops and builds again of the search index, on
// s's database: the research room's schema, as data for store/bulk, which picks
// the database's own. The secondary indexes that random inserts make slow are
// dropped for the import and built again, sorted, at its end: on PostgreSQL the
// two covering indexes of search_keys; on SQLite, where the search index is two
// tables instead (SearchTables, decision 008), those tables, built by buildSQLite
// in bounded transactions.
//
// On SQLite records_browse stays: CREATE INDEX is one statement that holds the
// write lock throughout, longer at ten million records than a sign-in waits, and
// keeping it costs a bulk import little (decision 010). It is still created when
// missing (Repair), for stores whose bulk import by an earlier version was killed.
func (s *Importer) searchIndexes() bulk.Indexes {
	tables := make([]string, len(index.SearchTables))
	for i, t := range index.SearchTables {
		tables[i] = t.Name
	}
	return bulk.Plan{
		SQLite: bulk.Indexes{Kept: sqliteKeptIndexes, Tables: tables, Build: s.buildSQLite},
		Postgres: bulk.Indexes{Dropped: []bulk.Index{
			{Name: "search_keys_surname", Create: `CREATE INDEX IF NOT EXISTS search_keys_surname ON search_keys (surname_id, span, jdn_lo, id)
    INCLUDE (jdn_hi, dq, given_id, place_id, county_id, collection_id, type_id, role_id)`},
			{Name: "search_keys_given", Create: `CREATE INDEX IF NOT EXISTS search_keys_given ON search_keys (surname_id, given_id, span, jdn_lo, id)
    INCLUDE (jdn_hi, dq, place_id, county_id, collection_id, type_id, role_id)`},
			recordsBrowse,
		}},
	}.For(s.DB)
}

var (
	recordsBrowse     = bulk.Index{Name: "records_browse", Create: `CREATE INDEX IF NOT EXISTS records_browse ON records (collection_id, jdn_lo, id)`}
	sqliteKeptIndexes = []bulk.Index{recordsBrowse}
)

// bulkWorthIt guesses whether an import of size bytes adds more than a quarter of the
// search index's rows (one per person): about 100 bytes of CSV per person, 2.5
// persons a stored record.
func (s *Importer) bulkWorthIt(ctx context.Context, size int64) bool {
	var n int64
	if err := s.DB.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM records`).Scan(&n); err != nil {
		return false
	}
	incoming := size / 100
	return incoming > 125_000 && incoming*4 > n*5/2
}

// rebuildSearchIndexes creates the indexes and tables a bulk import dropped (and
// any that a crashed bulk import left missing) and refreshes the planner's
// statistics.
func (s *Importer) rebuildSearchIndexes(ctx context.Context, ix bulk.Indexes, conn *sql.Conn) error {
	if _, err := ix.Repair(ctx, conn); err != nil {
		return err
	}
	return s.Analyze(ctx)
}

// RepairIndexes recreates search indexes that an interrupted bulk import left
// missing; it does nothing when they are all there.
func (s *Importer) RepairIndexes(ctx context.Context) error {
	conn, err := s.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = s.searchIndexes().Repair(ctx, conn)
	return err
}

// BuildSearchIndexes builds the search indexes that imports with BulkDefer left out
// and refreshes the planner's statistics; it reports whether there was anything to
// build.
func (s *Importer) BuildSearchIndexes(ctx context.Context) (bool, error) {
	conn, err := s.DB.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	restore, err := s.DB.SetPragmas(ctx, conn, bulkPragmas())
	if err != nil {
		return false, err
	}
	defer restore()
	built, err := s.searchIndexes().Repair(ctx, conn)
	if err != nil || !built {
		return built, err
	}
	return true, s.Analyze(ctx)
}

// Analyze refreshes the query planner's statistics of the research tables.
func (s *Importer) Analyze(ctx context.Context) error {
	return bulk.Analyze(ctx, s.DB, []string{"search_keys", "records", "surnames", "surname_codes", "given_names", "name_facets", "places"})
}
