package trees

import (
	"context"
	"errors"
	"fmt"
	"io"

	"lineage/internal/gedcom"
	"lineage/internal/store"
)

// ExportOptions control Export.
type ExportOptions struct {
	// Version is the output version; VersionUnknown means the version imported.
	Version gedcom.Version
	// Public applies the privacy rule (docs/trees.md "Command line").
	Public bool
	// GEDZIP writes a GEDZIP archive instead of a bare file.
	GEDZIP bool
}

// Export writes a tree as GEDCOM: every stored record, converted between versions only
// for shared notes, with the living redacted when opts.Public.
func (s *Service) Export(ctx context.Context, slug string, out io.Writer, opts ExportOptions) error {
	t, err := s.treeBySlug(ctx, s.db, slug)
	if err != nil {
		return err
	}
	from, _ := gedcom.ParseVersion(t.GedcomVersion)
	if from == gedcom.VersionUnknown {
		from = gedcom.Version551
	}
	to := opts.Version
	switch {
	case opts.GEDZIP && to == gedcom.VersionUnknown:
		to = gedcom.Version70 // GEDZIP is a GEDCOM 7 format
	case opts.GEDZIP && to != gedcom.Version70:
		return errors.New("trees: a GEDZIP archive holds GEDCOM 7.0 only")
	case to == gedcom.VersionUnknown:
		to = from
	}
	h := &gedcom.Header{Source: "LINEAGE"}
	if t.header != "" {
		head, err := decodeRecord(t.header)
		if err != nil {
			return fmt.Errorf("tree %s header: %w", slug, err)
		}
		convert(head, from, to)
		h.Record = head
	}
	var living, livingFam map[int64]bool
	keep := func(string) bool { return true }
	if opts.Public {
		if living, err = s.pidSet(ctx, `SELECT pid FROM tree_people WHERE tree_id = ? AND living = 1`, t.ID); err != nil {
			return err
		}
		if livingFam, err = s.pidSet(ctx, `SELECT DISTINCT l.fid FROM tree_links l JOIN tree_people p ON p.tree_id = l.tree_id AND p.pid = l.pid
			WHERE l.tree_id = ? AND l.role = 'P' AND p.living = 1`, t.ID); err != nil {
			return err
		}
		// First pass: which shared notes and media only removed parts point to.
		kept, removed := map[string]bool{}, map[string]bool{}
		err := s.eachRecord(ctx, t.ID, living, livingFam, func(rec *gedcom.Line, redacted *gedcom.Line) error {
			into := kept
			if redacted != nil {
				pointers(rec, removed)
				rec = redacted
			}
			pointers(rec, into)
			return nil
		})
		if err != nil {
			return err
		}
		keep = func(x string) bool { return kept[x] || !removed[x] }
	}
	var w *gedcom.Writer
	var zw *gedcom.ZipWriter
	wopts := &gedcom.WriterOptions{Version: to}
	if opts.GEDZIP {
		zw = gedcom.NewZipWriter(out)
		w, err = zw.GEDCOM(h, wopts)
	} else {
		w, err = gedcom.NewWriter(out, h, wopts)
	}
	if err != nil {
		return err
	}
	err = s.eachRecord(ctx, t.ID, living, livingFam, func(rec *gedcom.Line, redacted *gedcom.Line) error {
		if redacted != nil {
			rec = redacted
		}
		switch rec.Tag {
		case "NOTE", "SNOTE", "OBJE":
			if rec.Xref != "" && !keep(rec.Xref) {
				return nil
			}
		}
		convert(rec, from, to)
		return w.Write(rec)
	})
	if err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if zw != nil {
		return zw.Close()
	}
	return nil
}

func pointers(rec *gedcom.Line, into map[string]bool) {
	rec.Walk(func(l *gedcom.Line) bool {
		if l.Pointer != "" && l.Level > 0 {
			into[l.Pointer] = true
		}
		return true
	})
}

func (s *Service) pidSet(ctx context.Context, q string, treeID int64) (map[int64]bool, error) {
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(q), treeID)
	return store.Set[int64](rows, err)
}

// eachRecord reads a tree's records in file order; for a living person (living set)
// or a family with a living partner (livingFam), redacted is the public form.
func (s *Service) eachRecord(ctx context.Context, treeID int64, living, livingFam map[int64]bool, fn func(rec, redacted *gedcom.Line) error) error {
	public := living != nil
	rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT tag, data FROM tree_records WHERE tree_id = ? ORDER BY seq`), treeID)
	if err != nil {
		return err
	}
	defer rows.Close()
	var pid, fid int64
	for rows.Next() {
		var tag, data string
		if err := rows.Scan(&tag, &data); err != nil {
			return err
		}
		rec, err := decodeRecord(data)
		if err != nil {
			return err
		}
		var red *gedcom.Line
		switch tag {
		case "INDI":
			pid++
			if living[pid] {
				red = redactPerson(rec)
			}
		case "FAM":
			fid++
			if livingFam[fid] || public && restrictedBy(rec) {
				red = redactFamily(rec)
			}
		}
		if public && red == nil && hasRestricted(rec) {
			red = pruneRestricted(rec)
		}
		if err := fn(rec, red); err != nil {
			return err
		}
	}
	return rows.Err()
}

// redactPerson keeps a living person's identifier, sex and family links, named Living.
func redactPerson(rec *gedcom.Line) *gedcom.Line {
	out := &gedcom.Line{Xref: rec.Xref, Tag: rec.Tag}
	out.Children = append(out.Children, &gedcom.Line{Level: 1, Tag: "NAME", Value: LivingName + " //"})
	for _, c := range rec.Children {
		switch c.Tag {
		case "SEX":
			out.Children = append(out.Children, &gedcom.Line{Level: 1, Tag: c.Tag, Value: c.Value})
		case "FAMC":
			l := &gedcom.Line{Level: 1, Tag: c.Tag, Pointer: c.Pointer}
			if p := c.Child("PEDI"); p != nil {
				l.Children = []*gedcom.Line{{Level: 2, Tag: "PEDI", Value: p.Value}}
			}
			out.Children = append(out.Children, l)
		case "FAMS":
			out.Children = append(out.Children, &gedcom.Line{Level: 1, Tag: c.Tag, Pointer: c.Pointer})
		}
	}
	return out
}

// hasRestricted reports whether a structure under rec carries RESN confidential or
// privacy.
func hasRestricted(rec *gedcom.Line) bool {
	found := false
	rec.Walk(func(l *gedcom.Line) bool {
		if l != rec && restrictedBy(l) {
			found = true
		}
		return !found
	})
	return found
}

// pruneRestricted copies rec without the structures RESN restricts.
func pruneRestricted(rec *gedcom.Line) *gedcom.Line {
	out := *rec
	out.Children = nil
	for _, c := range rec.Children {
		if !restrictedBy(c) {
			out.Children = append(out.Children, pruneRestricted(c))
		}
	}
	return &out
}

// redactFamily keeps a family's partners and children only.
func redactFamily(rec *gedcom.Line) *gedcom.Line {
	out := &gedcom.Line{Xref: rec.Xref, Tag: rec.Tag}
	for _, c := range rec.Children {
		switch c.Tag {
		case "HUSB", "WIFE", "CHIL":
			out.Children = append(out.Children, &gedcom.Line{Level: 1, Tag: c.Tag, Pointer: c.Pointer})
		}
	}
	return out
}

// convert changes what differs between the versions in a way the exporter handles:
// shared notes (5.5.x NOTE records and pointers ⇄ 7.0 SNOTE).
func convert(rec *gedcom.Line, from, to gedcom.Version) {
	to7, from7 := to == gedcom.Version70, from == gedcom.Version70
	if to7 == from7 {
		return
	}
	rec.Walk(func(l *gedcom.Line) bool {
		switch {
		case to7 && l.Tag == "NOTE" && (l.Level == 0 && l.Xref != "" || l.Pointer != ""):
			l.Tag = "SNOTE"
		case !to7 && l.Tag == "SNOTE":
			l.Tag = "NOTE"
		}
		return true
	})
}
