package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"lineage/internal/auth"
	"lineage/internal/config"
	"lineage/internal/gedcom"
	"lineage/internal/trees"
	"lineage/internal/wholefile"
)

// The family trees' commands: `lineage import gedcom` (registered in importKinds) and
// `lineage export gedcom`. docs/trees.md describes both.

const importGedcomUsage = "--tree SLUG [--title T] [--description D] [--owner EMAIL] [--publish=false] [--strict] [--quiet] FILE.ged|FILE.gdz"

// maxReportedWarnings is how many warnings the import prints before it only counts.
const maxReportedWarnings = 100

// runImportGedcom is `lineage import gedcom --tree SLUG FILE`.
func runImportGedcom(ctx context.Context, args []string, _ io.Writer) error {
	fs := newFlags("import gedcom", importGedcomUsage)
	cfgFn := config.DataFlags(fs)
	var opts trees.ImportOptions
	var owner string
	var strict, quiet bool
	var cpuProfile string
	publish := true
	fs.StringVar(&opts.Slug, "tree", "", "slug of the tree (replaced when it exists; required)")
	fs.StringVar(&opts.Title, "title", "", "title of the tree (default: the slug, or the existing tree's)")
	fs.StringVar(&opts.Description, "description", "", "description of the tree")
	fs.StringVar(&owner, "owner", "", "email address of the account that owns the tree")
	fs.BoolVar(&publish, "publish", true, "publish the tree (--publish=false keeps it for its owner and editors)")
	fs.BoolVar(&strict, "strict", false, "stop at the first problem in the file and load nothing")
	fs.BoolVar(&quiet, "quiet", false, "no progress bar")
	fs.StringVar(&cpuProfile, "cpuprofile", "", "write a Go CPU profile of the import to this file (go tool pprof)")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(positional) != 1 || opts.Slug == "" {
		fs.Usage()
		return errors.New("give --tree and one GEDCOM file")
	}
	if !trees.ValidSlug(opts.Slug) {
		return trees.ErrBadSlug
	}
	publishSet := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "publish" {
			publishSet = true
		}
	})
	_, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	if owner != "" {
		u, err := auth.New(db, auth.Options{}).UserByEmail(ctx, owner)
		if err != nil {
			return fmt.Errorf("--owner %s: %w", owner, err)
		}
		opts.OwnerID = u.ID
	}
	svc := trees.New(db, trees.Options{})
	if publishSet || !treeExists(ctx, svc, opts.Slug) {
		opts.Published = &publish
	}
	path := positional[0]
	r, err := gedcom.Open(path, &gedcom.Options{Strict: strict})
	if err != nil {
		return err
	}
	defer r.Close()
	opts.SourceFile = filepath.Base(path)
	batchGC()
	stopProfile, err := startCPUProfile(cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	bar := newProgressBar(os.Stderr, r.Size(), !quiet)
	opts.Progress = func(done, size int64, records int) { bar.update(done, records) }
	rep, err := svc.Import(ctx, r, opts)
	bar.done()
	if rep != nil {
		printGedcomReport(os.Stderr, path, rep, err == nil)
	}
	return err
}

func treeExists(ctx context.Context, svc *trees.Service, slug string) bool {
	ok, err := svc.Exists(ctx, slug)
	return err == nil && ok
}

func printGedcomReport(w io.Writer, file string, rep *trees.ImportReport, ok bool) {
	for i, wn := range rep.Warnings {
		if i == maxReportedWarnings {
			break
		}
		fmt.Fprintf(w, "warning: %s\n", wn)
	}
	if rep.WarningCount > min(len(rep.Warnings), maxReportedWarnings) {
		fmt.Fprintf(w, "… and %d more warnings\n", rep.WarningCount-min(len(rep.Warnings), maxReportedWarnings))
	}
	if !ok || rep.Tree == nil {
		fmt.Fprintf(w, "%s: nothing loaded (%d records read, %d warnings)\n", file, rep.Records, rep.WarningCount)
		return
	}
	c := rep.Tree.Counts
	vis := "unpublished"
	if rep.Tree.Published {
		vis = "published"
	}
	fmt.Fprintf(w, "%s → tree %s (%s): %d records in %s: %d people, %d families, %d events, %d sources, %d notes, %d media; %d warnings\n",
		file, rep.Tree.Slug, vis, rep.Records, rep.Duration.Round(1e6), c.People, c.Families, c.Events, c.Sources, c.Notes, c.Media, rep.WarningCount)
}

const exportGedcomUsage = "--tree SLUG [--version 5.5.1|7.0] [--public] FILE (.ged, .gdz, or - for standard output)"

// exportKinds are the things `lineage export` writes.
var exportKinds = map[string]subcommand{
	"gedcom": {runExportGedcom, exportGedcomUsage, "a family tree as GEDCOM 5.5.1 or 7.0 (or GEDZIP), --public without the living"},
}

// runExportGedcom is `lineage export gedcom --tree SLUG FILE`; FILE - is w.
func runExportGedcom(ctx context.Context, args []string, w io.Writer) error {
	fs := newFlags("export gedcom", exportGedcomUsage)
	cfgFn := config.DataFlags(fs)
	var slug, version string
	var public bool
	fs.StringVar(&slug, "tree", "", "slug of the tree (required)")
	fs.StringVar(&version, "version", "", "GEDCOM version to write: 5.5.1 or 7.0 (default: the version imported)")
	fs.BoolVar(&public, "public", false, "leave out the living: names 'Living', no dates, places, notes or media")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(positional) != 1 || slug == "" {
		fs.Usage()
		return errors.New("give --tree and one output file")
	}
	var opts trees.ExportOptions
	opts.Public = public
	switch version {
	case "":
	case "5.5.1":
		opts.Version = gedcom.Version551
	case "7.0", "7":
		opts.Version = gedcom.Version70
	default:
		return fmt.Errorf("--version must be 5.5.1 or 7.0")
	}
	_, db, err := openStore(ctx, cfgFn)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := trees.New(db, trees.Options{})
	path := positional[0]
	if path == "-" {
		return svc.Export(ctx, slug, w, opts)
	}
	opts.GEDZIP = strings.EqualFold(filepath.Ext(path), ".gdz")
	err = wholefile.Write(path, 0o600, func(w io.Writer) error { return svc.Export(ctx, slug, w, opts) })
	if errors.Is(err, trees.ErrNotFound) {
		return fmt.Errorf("no tree %q", slug)
	}
	return err
}
