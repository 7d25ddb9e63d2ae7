package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"lineage/internal/blob"
	"lineage/internal/wholefile"
)

// ImportDir imports a directory of documents: every *.json file under dir (one
// document each, in the Document export shape; a media/ folder is skipped) is read and
// checked first, so one bad file means nothing is imported and the error names it. The
// media files are copied into DataDir/files/media from dir/media, or, when dir has none,
// from the sibling dir/../media (the demo layout: demo/content and demo/media). Then all
// documents are published in one transaction that moves the master ref once.
// It returns the number of documents imported.
func (s *Service) ImportDir(ctx context.Context, dir string) (int, error) {
	docs, err := readDocumentDir(dir)
	if err != nil {
		return 0, err
	}
	if media := findMediaDir(dir); media != "" {
		if s.opts.DataDir == "" && s.opts.Blobs == nil {
			return 0, fmt.Errorf("content: import %s: media found in %s but no data directory is configured", dir, media)
		}
		if err := s.putMediaTree(ctx, media); err != nil {
			return 0, fmt.Errorf("content: import media from %s: %w", media, err)
		}
	}
	if _, err := s.Import(ctx, docs); err != nil {
		return 0, err
	}
	return len(docs), nil
}

// ImportDraftsDir saves every document of dir as a draft instead of publishing it:
// only preview refs see the result, and the master ref does not move. Files are checked
// first as in ImportDir, so one bad file means nothing is saved. Media are copied as in
// ImportDir.
func (s *Service) ImportDraftsDir(ctx context.Context, dir string) (int, error) {
	docs, err := readDocumentDir(dir)
	if err != nil {
		return 0, err
	}
	for i := range docs {
		if err := docs[i].normalize(); err != nil {
			return 0, &Error{Kind: KindInvalid, Message: fmt.Sprintf("content: draft %s: %v", docName(docs[i]), err)}
		}
	}
	if media := findMediaDir(dir); media != "" && (s.opts.DataDir != "" || s.opts.Blobs != nil) {
		if err := s.putMediaTree(ctx, media); err != nil {
			return 0, fmt.Errorf("content: import media from %s: %w", media, err)
		}
	}
	for _, d := range docs {
		if _, err := s.SaveDraft(ctx, d); err != nil {
			return 0, err
		}
	}
	return len(docs), nil
}

// readDocumentDir reads and checks the documents of an import's directory; a directory
// with none is an error.
func readDocumentDir(dir string) ([]Document, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("content: import: %s is not a directory", dir)
	}
	var docs []Document
	files := map[string]string{} // id → file, to name both files of a duplicate
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("content: import: %w", err)
		}
		if e.IsDir() {
			if p != dir && (e.Name() == "media" || strings.HasPrefix(e.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.EqualFold(filepath.Ext(p), ".json") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("content: import %s: %w", rel, err)
		}
		var d Document
		if err := json.Unmarshal(b, &d); err != nil {
			return fmt.Errorf("content: import %s: %s", rel, describeJSONError(b, err))
		}
		if err := d.normalize(); err != nil {
			return fmt.Errorf("content: import %s: %w", rel, err)
		}
		if other, dup := files[d.ID]; dup {
			return fmt.Errorf("content: import %s: id %s is also used by %s", rel, d.ID, other)
		}
		files[d.ID] = rel
		docs = append(docs, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("content: import %s: no .json documents found", dir)
	}
	return docs, nil
}

// describeJSONError adds the line and column to a JSON syntax error.
func describeJSONError(b []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(b)) {
		return "invalid JSON: " + err.Error()
	}
	line, col := 1, 1
	for _, c := range b[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, err)
}

func findMediaDir(dir string) string {
	for _, m := range []string{filepath.Join(dir, "media"), filepath.Join(dir, "..", "media")} {
		if st, err := os.Stat(m); err == nil && st.IsDir() {
			return filepath.Clean(m)
		}
	}
	return ""
}

// putMediaTree stores the regular files under src as media (PutMedia), skipping hidden
// files and folders. Each replaces the one of its name whole, so a running server never
// serves a half-written file.
func (s *Service) putMediaTree(ctx context.Context, src string) error {
	return filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(e.Name(), ".") && p != src {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = s.PutMedia(ctx, filepath.ToSlash(rel), f)
		return err
	})
}

// getMediaTree writes every medium to a file under dst.
func (s *Service) getMediaTree(ctx context.Context, dst string) error {
	st := s.blobs()
	return st.List(ctx, mediaPrefix, func(i blob.Info) error {
		rc, _, err := st.Get(ctx, i.Key, blob.Range{})
		if err != nil {
			return err
		}
		defer rc.Close()
		target := filepath.Join(dst, filepath.FromSlash(strings.TrimPrefix(i.Key, mediaPrefix)))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return wholefile.Write(target, 0o644, func(w io.Writer) error {
			_, err := io.Copy(w, rc)
			return err
		})
	})
}

// ExportDir writes every published document to dir/<id>.json (export shape, indented)
// and copies the media to dir/media, so that ImportDir(dir) restores the same documents.
// Files already in dir with other names are left alone. It returns the number of
// documents written.
func (s *Service) ExportDir(ctx context.Context, dir string) (int, error) {
	docs, err := s.Export(ctx)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("content: export: %w", err)
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].ID < docs[j].ID })
	for _, d := range docs {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return 0, fmt.Errorf("content: export %s: %w", d.ID, err)
		}
		if err := os.WriteFile(filepath.Join(dir, d.ID+".json"), append(b, '\n'), 0o644); err != nil {
			return 0, fmt.Errorf("content: export: %w", err)
		}
	}
	if s.opts.DataDir != "" || s.opts.Blobs != nil {
		if err := s.getMediaTree(ctx, filepath.Join(dir, "media")); err != nil {
			return 0, fmt.Errorf("content: export media: %w", err)
		}
	}
	return len(docs), nil
}

// LoadDemo imports the demo content in dir when the store has no documents yet, so
// `serve --demo` fills an empty site and never overwrites an editor's work. It reports
// whether it imported.
func LoadDemo(ctx context.Context, svc *Service, dir string) (bool, error) {
	n, err := countDocuments(ctx, svc.db)
	if err != nil {
		return false, fmt.Errorf("content: count documents: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	if _, err := svc.ImportDir(ctx, dir); err != nil {
		return false, err
	}
	return true, nil
}
