package trees

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"time"

	"lineage/internal/gedcom"
	"lineage/internal/names"
	"lineage/internal/store"
	"lineage/internal/store/bulk"
)

// ImportOptions describe the tree an import fills.
type ImportOptions struct {
	Slug string // required; an existing tree of this slug is replaced
	// Title and Description of the tree; "" keeps an existing tree's (a new tree's
	// title defaults to the slug).
	Title, Description string
	// OwnerID, when not 0, sets the owner.
	OwnerID int64
	// Published, when set, sets the visibility; a new tree is otherwise unpublished.
	Published *bool
	// SourceFile is the file's name, shown on the tree.
	SourceFile string
	// Progress, when set, is called every 1000 records with the bytes read so far and
	// the file's size (0 when unknown).
	Progress func(done, size int64, records int)
}

// ImportReport says what an import did.
type ImportReport struct {
	Tree         *Tree
	Records      int
	Warnings     []gedcom.Warning
	WarningCount int
	Duration     time.Duration
}

// Reserved slugs are path segments of the API under /api/trees/.
var reservedSlugs = []string{"search", "uploads"}

var slugRE = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// ValidSlug reports whether s can name a tree.
func ValidSlug(s string) bool {
	return len(s) <= 100 && slugRE.MatchString(s) && !slices.Contains(reservedSlugs, s)
}

// ErrBadSlug is an import to a slug that cannot name a tree.
var ErrBadSlug = errors.New("trees: a tree slug is lower-case letters, digits and single hyphens (not 'search' or 'uploads')")

// recordBatch is how many records are written per round trip while the file is read.
const recordBatch = 2000

// Import reads a whole GEDCOM file into a tree. It writes into a hidden staging tree
// in short transactions and swaps it in for the tree of opts.Slug at the end, in one
// more: if it fails (or ctx ends, or the reader stops in strict mode), nothing
// visible changes, and the staging tree is removed (by this import, or, when the
// process was killed, by a later import or delete). The reader's warnings are in the
// report.
func (s *Service) Import(ctx context.Context, r *gedcom.Reader, opts ImportOptions) (*ImportReport, error) {
	if !ValidSlug(opts.Slug) {
		return nil, ErrBadSlug
	}
	start := time.Now()
	rep := &ImportReport{}
	if err := s.removeHidden(ctx); err != nil {
		s.log.Warn("trees: remove hidden trees", "err", err)
	}
	err := s.importStaged(ctx, r, opts, rep)
	rep.Warnings, rep.WarningCount = r.Warnings(), r.WarningCount()
	rep.Duration = time.Since(start)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			// Interrupted: the driver may report the cancelled query in its own words
			// ("bad connection" from pgx); the caller learns why.
			return rep, fmt.Errorf("import interrupted (%w): %v", cerr, err)
		}
		return rep, err
	}
	t, err := s.treeBySlug(ctx, s.db, opts.Slug)
	rep.Tree = t
	return rep, err
}

// importStaged loads the file into a staging tree and swaps it in; a replaced tree's
// rows are removed afterwards.
func (s *Service) importStaged(ctx context.Context, r *gedcom.Reader, opts ImportOptions, rep *ImportReport) error {
	w, err := s.newChunkWriter(ctx)
	if err != nil {
		return err
	}
	defer w.close()
	staging, err := w.stage(ctx)
	if err != nil {
		return err
	}
	sum, err := s.importRows(ctx, w, staging, r, opts, rep)
	var old int64
	if err == nil {
		old, err = w.swapIn(ctx, staging, opts, sum)
	}
	// The removals go on when ctx has ended: the import is over either way.
	bg := context.WithoutCancel(ctx)
	if err != nil {
		w.rollback()
		if _, herr := s.db.ExecContext(bg, s.db.Rebind(`UPDATE trees SET state = ? WHERE id = ? AND state = ?`), stateDeleting, staging, stateLoading); herr == nil {
			if rerr := s.removeTree(bg, staging); rerr != nil {
				s.log.Warn("trees: remove a failed import's rows", "err", rerr)
			}
		}
		return err
	}
	if old != 0 {
		if err := s.removeTree(bg, old); err != nil {
			s.log.Warn("trees: remove a replaced tree's rows", "err", err)
		}
	}
	return nil
}

// importRows writes the file's rows into the staging tree treeID.
func (s *Service) importRows(ctx context.Context, w *chunkWriter, treeID int64, r *gedcom.Reader, opts ImportOptions, rep *ImportReport) (*treeSummary, error) {
	h := r.Header()
	sum := &treeSummary{}
	if h.Record != nil {
		sum.header = encodeRecord(h.Record)
	}
	sum.version = h.Version.String()
	if sum.version == "" {
		sum.version = gedcom.Version551.String()
	}

	// Read every record: stored as it is, people and families kept for later. One
	// goroutine reads and prepares while this one writes.
	var people []*personInfo
	var families []*familyInfo
	counts := &sum.counts
	seq := 0
	err := s.pipeline(ctx, w, func(emit emitFunc) error {
		rb := newBatcher(emit, "tree_records", []string{"tree_id", "seq", "tag", "xref", "data"}, recordBatch)
		for rec, err := range r.Records() {
			if err != nil {
				return err
			}
			if rec.Tag == "HEAD" || rec.Tag == "TRLR" {
				continue
			}
			seq++
			if err := rb.add(treeID, seq, rec.Tag, rec.Xref, encodeRecord(rec)); err != nil {
				return err
			}
			switch rec.Tag {
			case "INDI":
				p := readPerson(rec)
				p.pid = len(people) + 1
				people = append(people, p)
			case "FAM":
				f := readFamily(rec)
				f.fid = len(families) + 1
				families = append(families, f)
			case "SOUR":
				counts.Sources++
			case "NOTE", "SNOTE":
				counts.Notes++
			case "OBJE":
				counts.Media++
			}
			if opts.Progress != nil && seq%1000 == 0 {
				opts.Progress(r.Offset(), r.Size(), seq)
			}
		}
		if opts.Progress != nil {
			opts.Progress(r.Offset(), r.Size(), seq)
		}
		return rb.flush()
	})
	if err == nil {
		w.small = seq <= smallImport
		err = w.endPhase(ctx)
	}
	if err != nil {
		return nil, err
	}
	rep.Records = seq

	// Identifiers → numbers; links from both sides (FAM's HUSB/WIFE/CHIL and INDI's
	// FAMC/FAMS).
	byXref := make(map[string]int, len(people))
	ids := make([]string, len(people))
	used := make(map[string]bool, len(people))
	for i, p := range people {
		if p.xref != "" {
			if _, dup := byXref[p.xref]; !dup {
				byXref[p.xref] = i
			}
		}
		id := safeID(p.xref)
		if id == "" || used[id] {
			id = "_P" + strconv.Itoa(p.pid)
		}
		used[id] = true
		ids[i] = id
	}
	famByXref := make(map[string]int, len(families))
	for i, f := range families {
		if f.xref != "" {
			if _, dup := famByXref[f.xref]; !dup {
				famByXref[f.xref] = i
			}
		}
	}
	for _, p := range people {
		for _, fx := range p.fams {
			if fi, ok := famByXref[fx]; ok && !slices.Contains(families[fi].partners, p.xref) {
				families[fi].partners = append(families[fi].partners, p.xref)
			}
		}
		for _, fc := range p.famc {
			if fi, ok := famByXref[fc.xref]; ok && !slices.Contains(families[fi].children, p.xref) {
				families[fi].children = append(families[fi].children, p.xref)
			}
		}
	}
	computeLiving(people, families, byXref, s.Now())

	// Surnames → dictionary ids.
	var keys []string
	for _, p := range people {
		for _, n := range p.names {
			if k := names.SurnameKey(n.surname); k != "" {
				keys = append(keys, k)
			}
		}
	}
	if err := w.heartbeat(ctx); err != nil {
		return nil, err
	}
	surnameIDs, err := s.resolveSurnames(ctx, w, keys)
	if err != nil {
		return nil, err
	}

	// People, names, events, families and links, prepared in one goroutine while this
	// one writes.
	const batch = 5000
	err = s.pipeline(ctx, w, func(emit emitFunc) error {
		pb := newBatcher(emit, "tree_people", []string{"tree_id", "pid", "xref", "sex", "living", "name", "given", "surname", "sort_key",
			"birth_text", "birth_lo", "birth_hi", "birth_place", "death_text", "death_lo", "death_hi", "death_place"}, batch)
		nb := newBatcher(emit, "tree_names", []string{"tree_id", "pid", "ord", "surname_id", "given", "living"}, batch)
		eb := newBatcher(emit, "tree_events", []string{"tree_id", "pid", "ord", "fid", "tag", "jdn_lo", "jdn_hi", "place"}, batch)
		lb := newBatcher(emit, "tree_links", []string{"tree_id", "pid", "role", "fid", "ord", "pedigree"}, batch)
		fb := newBatcher(emit, "tree_families", []string{"tree_id", "fid", "xref", "partner1", "partner2"}, batch)
		// Each table is written in the order of its key, so that SQLite appends to its
		// B-trees instead of inserting in their middle: families first, and for each
		// person its row, names, own events, then the events of the families it is a
		// partner in and its links (as child, then as partner), in family order.
		type famLink struct {
			fam        *familyInfo
			ord        int
			role, pedi string
		}
		links := make([][]famLink, len(people))
		for _, f := range families {
			var partners [2]int
			n := 0
			for _, px := range f.partners {
				pi, ok := byXref[px]
				if !ok {
					continue
				}
				if n < 2 {
					partners[n] = people[pi].pid
				}
				n++
				links[pi] = append(links[pi], famLink{fam: f, ord: n, role: "P"})
			}
			if err := fb.add(treeID, f.fid, safeID(f.xref), partners[0], partners[1]); err != nil {
				return err
			}
			counts.Events += int64(len(f.events))
			for k, cx := range f.children {
				ci, ok := byXref[cx]
				if !ok {
					continue
				}
				pedi := "birth"
				for _, fc := range people[ci].famc {
					if fc.xref == f.xref {
						pedi = fc.pedigree
						break
					}
				}
				links[ci] = append(links[ci], famLink{fam: f, ord: k + 1, role: "C", pedi: pedi})
			}
		}
		for i, p := range people {
			name, given, surname := p.display()
			bt, blo, bhi, bpl := eventCols(publicEvent(birthEvent(p.events)))
			dt, dlo, dhi, dpl := eventCols(publicEvent(deathEvent(p.events)))
			if err := pb.add(treeID, p.pid, ids[i], p.sex, boolInt(p.living), name, given, surname, sortKey(given, surname),
				bt, blo, bhi, bpl, dt, dlo, dhi, dpl); err != nil {
				return err
			}
			for j, n := range p.names {
				nb.add(treeID, p.pid, j+1, surnameIDs[names.SurnameKey(n.surname)], names.Fold(n.given), boolInt(p.living))
			}
			ord := 0
			for _, e := range p.events {
				if e.restricted {
					continue // not searchable: RESN keeps it for the owner and editors
				}
				ord++
				_, lo, hi, _ := eventCols(&e)
				eb.add(treeID, p.pid, ord, 0, e.tag, lo, hi, names.Fold(e.place))
			}
			counts.Events += int64(len(p.events))
			for _, l := range links[i] {
				if l.role != "P" || l.fam.restricted {
					continue
				}
				for _, e := range l.fam.events {
					if e.restricted {
						continue
					}
					ord++
					_, lo, hi, _ := eventCols(&e)
					eb.add(treeID, p.pid, ord, l.fam.fid, e.tag, lo, hi, names.Fold(e.place))
				}
			}
			for _, role := range [2]string{"C", "P"} { // the key's order: (pid, role, fid)
				for _, l := range links[i] {
					if l.role == role {
						lb.add(treeID, p.pid, role, l.fam.fid, l.ord, l.pedi)
					}
				}
			}
			links[i], people[i] = nil, nil // done with: the collector may have it
		}
		for _, b := range []*batcher{pb, nb, eb, lb, fb} {
			if err := b.flush(); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = w.endPhase(ctx)
	}
	if err != nil {
		return nil, err
	}
	counts.People, counts.Families = int64(len(people)), int64(len(families))
	return sum, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// publicEvent is e unless RESN restricts it (the summary columns are shown to all).
func publicEvent(e *eventInfo) *eventInfo {
	if e == nil || e.restricted {
		return nil
	}
	return e
}

// eventCols are an event's text, day range (nil when unplaced) and place.
func eventCols(e *eventInfo) (text string, lo, hi any, place string) {
	if e == nil {
		return "", nil, nil, ""
	}
	if e.hasRange {
		lo, hi = e.lo, e.hi
	}
	return e.dateText, lo, hi, e.place
}

// emitFunc hands a batch of rows to the writer.
type emitFunc func(table string, cols []string, rows [][]any) error

type batchMsg struct {
	table string
	cols  []string
	rows  [][]any
}

// pipeline runs produce in its own goroutine and writes the batches it emits through
// w on this one, so that reading and preparing overlap with writing. The batches go
// into transactions of about chunkBudget each; the last may be left open, for the
// caller's endPhase. The first error of either side ends both.
func (s *Service) pipeline(ctx context.Context, w *chunkWriter, produce func(emit emitFunc) error) error {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := make(chan batchMsg, 3)
	var perr error
	go func() {
		defer close(ch)
		perr = produce(func(table string, cols []string, rows [][]any) error {
			m := batchMsg{table: table, cols: cols, rows: rows}
			select {
			case ch <- m:
				return nil
			case <-pctx.Done():
				return pctx.Err()
			}
		})
	}()
	var werr error
	// A transaction is not left open while the producer is slow (reading an upload,
	// computing): it commits when the budget runs out, written to or not.
	idle := time.NewTimer(time.Hour)
	idle.Stop()
	recv := func() (batchMsg, bool) {
		if w.tx != nil && werr == nil {
			idle.Reset(max(chunkBudget-time.Since(w.began), 0))
			select {
			case m, ok := <-ch:
				idle.Stop()
				return m, ok
			case <-idle.C:
				if werr = w.commit(ctx); werr != nil {
					cancel()
				}
			}
		}
		m, ok := <-ch
		return m, ok
	}
	for {
		m, ok := recv()
		if !ok {
			break
		}
		if werr != nil {
			continue // let the producer see the cancellation and stop
		}
		if werr = ctx.Err(); werr != nil {
			cancel()
			continue
		}
		var tx *sql.Tx
		if tx, werr = w.begin(ctx); werr != nil {
			cancel()
			continue
		}
		werr = w.bulk.Insert(ctx, tx, bulk.Table{Name: m.table, Cols: m.cols}, m.rows)
		if werr == nil {
			werr = w.maybeCommit(ctx)
		}
		if werr != nil {
			cancel()
		}
	}
	switch {
	case werr != nil:
		return werr
	case perr != nil:
		return perr
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return nil
}

// batcher collects rows of one table and emits them in batches. The values of a
// batch share one backing array (one allocation per batch, not per row).
type batcher struct {
	emit  emitFunc
	table string
	cols  []string
	vals  []any
	size  int
	err   error
}

func newBatcher(emit emitFunc, table string, cols []string, size int) *batcher {
	// The first batch grows as rows come, so that a small file does not pay for a full
	// batch of every table; later batches are allocated whole (add).
	return &batcher{emit: emit, table: table, cols: cols, size: size, vals: make([]any, 0, min(size, 16)*len(cols))}
}

func (b *batcher) add(vals ...any) error {
	if b.err != nil {
		return b.err
	}
	if len(vals) != len(b.cols) {
		panic(fmt.Sprintf("trees: %d values for the %d columns of %s", len(vals), len(b.cols), b.table))
	}
	if b.vals == nil {
		b.vals = make([]any, 0, b.size*len(b.cols))
	}
	b.vals = append(b.vals, vals...)
	if len(b.vals) >= b.size*len(b.cols) {
		b.err = b.flush()
	}
	return b.err
}

func (b *batcher) flush() error {
	if b.err != nil {
		return b.err
	}
	if len(b.vals) > 0 {
		n := len(b.cols)
		rows := make([][]any, len(b.vals)/n)
		for i := range rows {
			rows[i] = b.vals[i*n : (i+1)*n : (i+1)*n]
		}
		b.err = b.emit(b.table, b.cols, rows)
		b.vals = nil // the rows keep the array; the next add allocates another
	}
	return b.err
}

// surnameChunk is how many surname keys one transaction of resolveSurnames looks up
// and adds.
const surnameChunk = 1000

// resolveSurnames returns the dictionary ids of the surname keys, adding missing ones
// with their keys and phonetic codes, a chunk of keys per transaction (a small
// import's in the one it has open). (The dictionary is shared by all trees: what a
// failed import added stays, unused.)
func (s *Service) resolveSurnames(ctx context.Context, w *chunkWriter, keys []string) (map[string]int64, error) {
	slices.Sort(keys)
	keys = slices.Compact(keys)
	ids := make(map[string]int64, len(keys))
	for i := 0; i < len(keys); i += surnameChunk {
		chunk := keys[i:min(i+surnameChunk, len(keys))]
		if err := w.inPhase(ctx, func(tx *sql.Tx) error { return s.resolveSurnameChunk(ctx, w.bulk, tx, chunk, ids) }); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// The dictionary's tables, whose rows another import may have added meanwhile.
var (
	surnamesTable = bulk.Table{Name: "tree_surnames", Cols: []string{"folded", "variant", "soundex"}, OnConflict: bulk.Ignore}
	codesTable    = bulk.Table{Name: "tree_surname_codes", Cols: []string{"code", "surname_id"}, OnConflict: bulk.Ignore}
)

func (s *Service) resolveSurnameChunk(ctx context.Context, bw bulk.Writer, tx *sql.Tx, keys []string, ids map[string]int64) error {
	lookup := func(ks []string) error {
		return store.ReadIDs(ctx, tx, ks, 500, func(chunk []string) (string, []any) {
			args := make([]any, len(chunk))
			for i, k := range chunk {
				args[i] = k
			}
			return s.db.Rebind(`SELECT folded, id FROM tree_surnames WHERE folded IN (` + store.Placeholders(len(chunk)) + `)`), args
		}, ids)
	}
	if err := lookup(keys); err != nil {
		return err
	}
	var add []string
	for _, k := range keys {
		if _, ok := ids[k]; !ok {
			add = append(add, k)
		}
	}
	if len(add) == 0 {
		return nil
	}
	rows := make([][]any, len(add))
	nk := make([]names.Keys, len(add))
	for i, k := range add {
		nk[i] = s.variants.Keys(k)
		rows[i] = []any{k, nk[i].Variant, nk[i].Soundex}
	}
	if err := bw.Insert(ctx, tx, surnamesTable, rows); err != nil {
		return err
	}
	if err := lookup(add); err != nil {
		return err
	}
	var codes [][]any
	for i, k := range add {
		id, ok := ids[k]
		if !ok {
			return fmt.Errorf("trees: surname %q has no id", k)
		}
		for _, c := range nk[i].Codes() {
			codes = append(codes, []any{c, id})
		}
	}
	return bw.Insert(ctx, tx, codesTable, codes)
}
