package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/term"

	"lineage/internal/access"
	"lineage/internal/audit"
	"lineage/internal/config"
	"lineage/internal/research"
	staffroom "lineage/internal/staff"
)

// importKinds are the things `lineage import` reads (the room of each adds its own:
// images.go the scans). An import reports on standard error, as it goes and at the end.
var importKinds = map[string]subcommand{
	"records": {runImportRecords, importRecordsUsage, "index records from the canonical CSV, or another layout through --mapping"},
	"library": {runImportLibrary, importCatalogueUsage, "library catalogue entries: key, title, authors, year, publisher, subjects, shelfmark"},
	"archive": {runImportArchive, importCatalogueUsage, "archive catalogue entries: reference, title, date, level, description, parent"},
	"gedcom":  {runImportGedcom, importGedcomUsage, "a family tree from GEDCOM 5.5, 5.5.1 or 7.0 (.ged) or GEDZIP (.gdz), staged and then swapped in: a failed import leaves the tree as it was (docs/trees.md)"},
}

// runImport is `lineage import KIND …`.
func runImport(ctx context.Context, args []string) error {
	if err := lowerPriority(); err != nil {
		return err
	}
	return runSubcommand(ctx, "import", importKinds, args)
}

const importCatalogueUsage = "--collection SLUG [--title T] FILE.csv"

func runImportLibrary(ctx context.Context, args []string, _ io.Writer) error {
	return runImportCatalogue(ctx, research.KindLibrary, args)
}

func runImportArchive(ctx context.Context, args []string, _ io.Writer) error {
	return runImportCatalogue(ctx, research.KindArchive, args)
}

// runImportCatalogue is `lineage import library|archive --collection SLUG FILE.csv`.
func runImportCatalogue(ctx context.Context, kind string, args []string) error {
	fs := newFlags("import "+kind, importCatalogueUsage)
	cfgFn := config.DataFlags(fs)
	var slug, title string
	fs.StringVar(&slug, "collection", "", "slug of the "+kind+" collection (created when missing; required)")
	fs.StringVar(&title, "title", "", "title of a new collection (default the slug)")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(positional) != 1 || slug == "" {
		fs.Usage()
		return errors.New("give --collection and one CSV file")
	}
	f, err := os.Open(positional[0])
	if err != nil {
		return err
	}
	defer f.Close()
	_, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := research.New(db, research.Options{}).ImportCatalogue(ctx, kind, slug, title, f)
	if rep != nil {
		printImportReport(os.Stderr, positional[0], rep)
	}
	return err
}

const importRecordsUsage = "--collection SLUG [flags] FILE.csv"

// runImportRecords is `lineage import records --collection SLUG FILE.csv`.
func runImportRecords(ctx context.Context, args []string, _ io.Writer) error {
	fs := newFlags("import records", importRecordsUsage)
	cfgFn := config.DataFlags(fs)
	var opts research.ImportOptions
	var mappingPath, bulk string
	var quiet bool
	var cpuProfile string
	fs.StringVar(&opts.Collection, "collection", "", "slug of the collection (created when missing; required)")
	fs.StringVar(&opts.Kind, "kind", "", "kind of a new collection: "+strings.Join(research.Kinds, ", ")+" (default record_set)")
	fs.StringVar(&opts.Title, "title", "", "title of a new collection (default the slug)")
	fs.StringVar(&opts.Access, "access", "", "access level of a new collection: public (default), registered, members or scopes:<scope>,<scope>… (docs/research.md)")
	fs.StringVar(&mappingPath, "mapping", "", "a JSON mapping file for another CSV layout (docs/research.md)")
	fs.BoolVar(&opts.Strict, "strict", false, "import nothing if any row is bad (default: skip bad records and report them)")
	fs.IntVar(&opts.BatchSize, "batch", 2000, "records per transaction")
	fs.StringVar(&bulk, "bulk", "auto", "rebuild the search index after the load instead of updating it row by row: auto, on or off; defer leaves it for --build-index after several imports")
	var buildIndex bool
	fs.BoolVar(&buildIndex, "build-index", false, "build the search indexes that --bulk defer imports left out (no FILE)")
	fs.BoolVar(&quiet, "quiet", false, "no progress bar")
	fs.StringVar(&cpuProfile, "cpuprofile", "", "write a Go CPU profile of the import to this file (go tool pprof)")
	fs.IntVar(&opts.CSV.FieldLines, "max-field-lines", research.DefaultFieldLines, "lines one quoted field may span; a quote not closed within them is reported and its row skipped")
	fs.IntVar(&opts.CSV.RowBytes, "max-row-bytes", research.DefaultRowBytes, "bytes of one row; a longer row is reported and skipped")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	batchGC()
	if buildIndex {
		if len(positional) != 0 {
			fs.Usage()
			return errors.New("--build-index takes no file")
		}
		return runBuildIndex(ctx, cfgFn, cpuProfile)
	}
	if len(positional) != 1 {
		fs.Usage()
		return errors.New("give one CSV file")
	}
	if opts.Collection == "" {
		fs.Usage()
		return errors.New("--collection is required")
	}
	if _, err := access.Parse(opts.Access); err != nil {
		return fmt.Errorf("--access: %w", err)
	}
	switch bulk {
	case "auto":
		opts.Bulk = research.BulkAuto
	case "on":
		opts.Bulk = research.BulkOn
	case "off":
		opts.Bulk = research.BulkOff
	case "defer":
		opts.Bulk = research.BulkDefer
	default:
		return fmt.Errorf("--bulk must be auto, on, off or defer")
	}
	var mapping *research.Mapping
	if mappingPath != "" {
		f, err := os.Open(mappingPath)
		if err != nil {
			return err
		}
		mapping, err = research.ParseMapping(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", mappingPath, err)
		}
	}
	f, err := os.Open(positional[0])
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	_, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := research.New(db, research.Options{})
	stopProfile, err := startCPUProfile(cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()

	counter := &countingReader{r: f}
	var src io.Reader = counter
	if opts.Strict {
		src = &countingReadSeeker{countingReader: counter, s: f}
	}
	bar := newProgressBar(os.Stderr, st.Size(), !quiet)
	opts.Progress = func(p research.ImportProgress) { bar.update(counter.n.Load(), p.Records) }
	rep, err := svc.ImportRecords(ctx, src, mapping, opts, st.Size())
	bar.done()
	if rep != nil && err == nil {
		if aerr := audit.New(db, nil).Add(ctx, audit.Record{Actor: commandLine, Action: staffroom.ActionRecordsImport, Subject: "collection:" + opts.Collection,
			Summary: filepath.Base(positional[0]), After: map[string]any{"state": "done", "records": rep.Records, "added": rep.Added, "updated": rep.Updated,
				"unchanged": rep.Unchanged, "skipped": rep.Skipped}}); aerr != nil {
			return aerr
		}
	}
	if rep != nil {
		printImportReport(os.Stderr, positional[0], rep)
		if !rep.IndexDeferred {
			if merr := markRecordsImported(ctx, db); merr != nil { // alerts may now match them
				return merr
			}
		}
	}
	if errors.Is(err, research.ErrStrict) && len(rep.Errors) > 0 {
		return fmt.Errorf("%w: the first at %s", err, rep.Errors[0])
	}
	return err
}

// runBuildIndex is `lineage import records --build-index`.
func runBuildIndex(ctx context.Context, cfgFn func() (config.Config, error), cpuProfile string) error {
	_, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	stopProfile, err := startCPUProfile(cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	start := time.Now()
	built, err := research.New(db, research.Options{}).BuildSearchIndexes(ctx)
	if err != nil {
		return err
	}
	if err := markRecordsImported(ctx, db); err != nil { // alerts may now match them
		return err
	}
	if built {
		fmt.Fprintf(os.Stderr, "search indexes built in %s\n", time.Since(start).Round(time.Millisecond))
	} else {
		fmt.Fprintln(os.Stderr, "search indexes: all there, nothing to build")
	}
	return nil
}

func printImportReport(w io.Writer, file string, rep *research.ImportReport) {
	created := ""
	if rep.CollectionCreated {
		created = " (new collection)"
	}
	rate := 0.0
	if s := rep.Elapsed.Seconds(); s > 0 {
		rate = float64(rep.Records) / s
	}
	fmt.Fprintf(w, "%s → %s%s: %d records read in %s (%.0f records/s): %d added, %d updated, %d unchanged, %d skipped\n",
		file, rep.Collection, created, rep.Records, rep.Elapsed.Round(time.Millisecond), rate, rep.Added, rep.Updated, rep.Unchanged, rep.Skipped)
	switch {
	case rep.IndexDeferred:
		fmt.Fprintln(w, "bulk load: the search indexes are left out until 'lineage import records --build-index'")
	case rep.Bulk:
		fmt.Fprintln(w, "bulk load: the search index was rebuilt after the load")
	}
	show := func(title string, rows []research.RowError, total int) {
		if total == 0 {
			return
		}
		fmt.Fprintf(w, "%s (%d):\n", title, total)
		for i, e := range rows {
			if i == 50 {
				fmt.Fprintf(w, "  … and %d more\n", total-50)
				break
			}
			fmt.Fprintf(w, "  %s\n", e.Error())
		}
	}
	show("bad rows", rep.Errors, rep.ErrorCount)
	show("notes", rep.Notes, len(rep.Notes))
}

// countingReader counts the bytes read, for the progress bar.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

type countingReadSeeker struct {
	*countingReader
	s io.Seeker
}

func (c *countingReadSeeker) Seek(off int64, whence int) (int64, error) {
	n, err := c.s.Seek(off, whence)
	c.n.Store(n)
	return n, err
}

// progressBar draws one line on a terminal; elsewhere it stays silent.
type progressBar struct {
	w     io.Writer
	total int64
	on    bool
	start time.Time
	last  time.Time
}

func newProgressBar(f *os.File, total int64, want bool) *progressBar {
	return &progressBar{w: f, total: total, on: want && term.IsTerminal(int(f.Fd())), start: time.Now()}
}

func (b *progressBar) update(bytes int64, records int) {
	if !b.on || time.Since(b.last) < 200*time.Millisecond {
		return
	}
	b.last = time.Now()
	frac := 0.0
	if b.total > 0 {
		frac = min(1, float64(bytes)/float64(b.total))
	}
	const width = 30
	filled := int(frac * width)
	rate := float64(records) / max(time.Since(b.start).Seconds(), 0.001)
	fmt.Fprintf(b.w, "\r[%s%s] %3.0f%% %d records, %.0f/s ", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), frac*100, records, rate)
}

func (b *progressBar) done() {
	if b.on {
		fmt.Fprint(b.w, "\r\033[K")
	}
}
