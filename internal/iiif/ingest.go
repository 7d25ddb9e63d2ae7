package iiif

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/jpeg" // and the decoders for imports
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "golang.org/x/image/tiff"

	"lineage/internal/access"
	"lineage/internal/blob"
	"lineage/internal/store"
	"lineage/internal/trees"
)

// maxSourcePixels bounds what an import decodes (about 2 GB of RGBA).
const maxSourcePixels = 500_000_000

// ItemSpec says what a scan is attached to. Exactly one of TargetKey (a record key, a
// library key or an archive reference, looked up in that order), RecordID and Person
// is set.
type ItemSpec struct {
	Collection  string // research collection slug
	TargetKey   string
	RecordID    int64
	Person      string // TREE-SLUG:XREF of a person in a published family tree
	Slug        string // default: collection and key
	Label       string // default: from the record or catalogue entry
	Access      string // an access.Level's text; "" is public
	Rights      string
	Attribution string
}

// target is an ItemSpec resolved against the research tables.
type target struct {
	collectionID int64
	kind         string // TargetRecord, TargetLibrary, TargetArchive, TargetPerson
	id           int64
	ref          string // a person's xref
	key          string
	label        string
}

func (s *Service) resolveTarget(ctx context.Context, spec ItemSpec) (*target, error) {
	t := &target{}
	var kind string
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT id, kind FROM collections WHERE slug = ?`), spec.Collection).Scan(&t.collectionID, &kind)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("there is no collection %q: import its records or catalogue first", spec.Collection)
	}
	if err != nil {
		return nil, err
	}
	if spec.Person != "" {
		return s.resolvePerson(ctx, t, spec.Person)
	}
	if spec.RecordID != 0 || (kind != "library" && kind != "archive") {
		var typ, date, persons string
		q := `SELECT r.id, r.key, t.label, r.date_text, r.persons FROM records r JOIN record_types t ON t.id = r.type_id WHERE r.collection_id = ? AND `
		arg := any(spec.TargetKey)
		if spec.RecordID != 0 {
			q += `r.id = ?`
			arg = spec.RecordID
		} else {
			q += `r.key = ?`
		}
		err := s.db.QueryRowContext(ctx, s.db.Rebind(q), t.collectionID, arg).Scan(&t.id, &t.key, &typ, &date, &persons)
		if err == nil {
			t.kind = TargetRecord
			t.label = typ
			if name := firstPersonName(persons); name != "" {
				t.label += ": " + name
			}
			if date != "" {
				t.label += ", " + date
			}
			return t, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		if spec.RecordID != 0 {
			return nil, fmt.Errorf("collection %q has no record with id %d", spec.Collection, spec.RecordID)
		}
	}
	var title string
	err = s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT id, key, title FROM library_items WHERE collection_id = ? AND key = ?`), t.collectionID, spec.TargetKey).Scan(&t.id, &t.key, &title)
	if err == nil {
		t.kind, t.label = TargetLibrary, title
		return t, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	err = s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT id, reference, title FROM archive_items WHERE collection_id = ? AND reference = ?`), t.collectionID, spec.TargetKey).Scan(&t.id, &t.key, &title)
	if err == nil {
		t.kind, t.label = TargetArchive, t.key+": "+title
		return t, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	return nil, fmt.Errorf("collection %q has no record, library entry or archive reference %q", spec.Collection, spec.TargetKey)
}

// resolvePerson finds TREE-SLUG:XREF. Only the dead of published trees take scans:
// the living and unpublished trees are private to their owners and editors, which the
// image server does not model.
func (s *Service) resolvePerson(ctx context.Context, t *target, ref string) (*target, error) {
	slug, xref, ok := strings.Cut(ref, ":")
	if !ok || slug == "" || xref == "" {
		return nil, fmt.Errorf("person %q: want TREE-SLUG:XREF, e.g. ashworth:@I12@", ref)
	}
	bare := strings.Trim(xref, "@")
	var published, public bool
	var name, birth, death string
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT tr.id, tr.published = 1, `+trees.PublicPerson("tr", "tp")+`, tp.xref, tp.name, tp.birth_text, tp.death_text
		FROM trees tr JOIN tree_people tp ON tp.tree_id = tr.id WHERE tr.slug = ? AND tp.xref IN (?, ?)`), slug, bare, "@"+bare+"@").
		Scan(&t.id, &published, &public, &t.ref, &name, &birth, &death)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("there is no person %q in a family tree %q", xref, slug)
	}
	if err != nil {
		return nil, err
	}
	if !published {
		return nil, fmt.Errorf("family tree %q is not published: scans can be attached only to people of published trees", slug)
	}
	if !public {
		return nil, fmt.Errorf("%s in family tree %q is counted among the living: scans can be attached only to the dead", xref, slug)
	}
	t.kind, t.key = TargetPerson, slug+":"+t.ref
	t.label = name
	if birth != "" || death != "" {
		t.label += " (" + strings.TrimSpace(birth+" – "+death) + ")"
	}
	return t, nil
}

var slugJunk = regexp.MustCompile(`[^a-z0-9]+`)

// Slugify lower-cases s and turns every run of other characters into one '-'.
func Slugify(s string) string {
	return strings.Trim(slugJunk.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

// ensureItem creates or updates the item a spec names and returns its id and slug.
func (s *Service) ensureItem(ctx context.Context, spec ItemSpec) (int64, string, error) {
	t, err := s.resolveTarget(ctx, spec)
	if err != nil {
		return 0, "", err
	}
	slug := Slugify(spec.Slug)
	if slug == "" {
		slug = Slugify(spec.Collection + "-" + t.key)
	}
	if !validID(slug) || slug == "manifests" || slug == "collections" {
		return 0, "", fmt.Errorf("cannot make an item name from %q", spec.Collection+" "+t.key)
	}
	label := spec.Label
	if label == "" {
		label = t.label
	}
	level, err := access.Parse(spec.Access)
	if err != nil {
		return 0, "", err
	}
	code, text := 0, ""
	if !level.IsPublic() {
		code, text = 1, level.String()
	}
	now := time.Now().Unix()
	var id int64
	err = s.db.QueryRowContext(ctx, s.db.Rebind(`INSERT INTO iiif_items (slug, collection_id, target, target_id, target_ref, label, access, access_level, rights, attribution, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (slug) DO UPDATE SET collection_id = excluded.collection_id, target = excluded.target, target_id = excluded.target_id,
			target_ref = excluded.target_ref, label = excluded.label, access = excluded.access, access_level = excluded.access_level, rights = excluded.rights, attribution = excluded.attribution
		RETURNING id`), slug, t.collectionID, t.kind, t.id, t.ref, label, code, text, spec.Rights, spec.Attribution, now, now).Scan(&id)
	return id, slug, err
}

// putPage stores page n of an item: when the version differs from what is stored it
// cuts the pyramid (cut writes into a fresh folder), then records the scan. It
// returns the IIIF id and whether anything changed.
func (s *Service) putPage(ctx context.Context, itemID int64, slug string, page int, label, source, version string, cut func(dir string) (Pyramid, error)) (string, bool, error) {
	id := fmt.Sprintf("%s-p%03d", slug, page)
	var oldVersion string
	var old Pyramid
	err := s.db.QueryRowContext(ctx, s.db.Rebind(`SELECT version, width, height, levels FROM iiif_images WHERE id = ?`), id).Scan(&oldVersion, &old.Width, &old.Height, &old.Levels)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", false, err
	}
	final := tilesKey(id, version)
	if oldVersion == version {
		if _, err := s.blobs.Stat(ctx, final+tileName(0, 0, 0)); err == nil {
			// Scans cut before the import made these sizes get them now.
			if err := s.makeStoredSizes(ctx, final, old); err != nil {
				return "", false, err
			}
			_, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE iiif_images SET label = ?, source = ? WHERE id = ? AND (label <> ? OR source <> ?)`), label, source, id, label, source)
			return id, false, err
		}
	}
	tmp, err := s.stagingDir(id)
	if err != nil {
		return "", false, err
	}
	pyr, err := cut(tmp)
	if err == nil {
		err = s.makeImportSizes(tmp, pyr)
	}
	if err == nil {
		// Nothing reads the new version's keys before the row below names it.
		err = blob.MoveDir(ctx, s.blobs, tmp, final)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return "", false, err
	}
	now := time.Now().Unix()
	err = s.db.InTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`DELETE FROM iiif_images WHERE item_id = ? AND page = ? AND id <> ?`), itemID, page, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.db.Rebind(`INSERT INTO iiif_images (id, item_id, page, label, width, height, levels, version, source, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET item_id = excluded.item_id, page = excluded.page, label = excluded.label, width = excluded.width,
				height = excluded.height, levels = excluded.levels, version = excluded.version, source = excluded.source, updated_at = excluded.updated_at`),
			id, itemID, page, label, pyr.Width, pyr.Height, pyr.Levels, version, source, now, now); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.db.Rebind(`UPDATE iiif_items SET updated_at = ? WHERE id = ?`), now, itemID)
		return err
	})
	if err != nil {
		return "", false, err
	}
	// Old versions go once the new one is recorded.
	var replaced []string
	err = s.blobs.List(ctx, "iiif/tiles/"+id+"/", func(i blob.Info) error {
		if !strings.HasPrefix(i.Key, final) {
			replaced = append(replaced, i.Key)
		}
		return nil
	})
	for _, k := range replaced {
		if err == nil {
			err = s.blobs.Delete(ctx, k)
		}
	}
	if err != nil {
		s.opts.Log.Warn("iiif: remove the replaced version's tiles", "id", id, "err", err)
	}
	s.forget(id)
	return id, true, nil
}

// importSizes are made when a scan is cut and kept beside its tiles: the manifests'
// thumbnails and the web page's preview without JavaScript (docs/iiif.md). They are
// served from those files and never wait in the render queue.
var importSizes = []string{"!400,400", "!1200,1200"}

// importSizePlans are the plans of importSizes for a scan, but for those that are
// pre-cut tiles already or beyond the limits.
func (s *Service) importSizePlans(pyr Pyramid) []Plan {
	var out []Plan
	for _, size := range importSizes {
		req, err := ParseRequest("full", size, "0", "default.jpg")
		if err != nil {
			panic(err) // a constant above
		}
		p, err := req.Resolve(pyr.Width, pyr.Height, s.opts.Limits)
		if err != nil {
			continue
		}
		if _, _, _, ok := tileFor(p, pyr); ok {
			continue
		}
		out = append(out, p)
	}
	return out
}

// isImportSize reports whether a canonical request is one of the import's sizes.
func (s *Service) isImportSize(pyr Pyramid, canonical string) bool {
	if !strings.HasPrefix(canonical, "full/") || !strings.HasSuffix(canonical, "/0/default.jpg") {
		return false
	}
	for _, p := range s.importSizePlans(pyr) {
		if p.Canonical(pyr.Width, pyr.Height) == canonical {
			return true
		}
	}
	return false
}

// sizePath is where an import-made size lives in a scan's tile folder.
func sizePath(dir, canonical string) string {
	return filepath.Join(dir, "sizes", strings.ReplaceAll(canonical, "/", "_"))
}

// sizeKey is sizePath in the store, under the scan's tilesKey.
func sizeKey(prefix, canonical string) string {
	return prefix + "sizes/" + strings.ReplaceAll(canonical, "/", "_")
}

// stagingDir is a new local folder to cut a scan of id into: beside the pyramids when
// the store is the local folder (so that moving it there is a rename), in the data
// folder's tmp otherwise.
func (s *Service) stagingDir(id string) (string, error) {
	parent := s.staging
	if l, ok := s.blobs.(*blob.Local); ok {
		parent = filepath.Join(l.Root(), "iiif", "tiles", id)
	}
	if parent != "" {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return "", err
		}
	}
	return os.MkdirTemp(parent, ".tmp-")
}

// sweepStaging removes what imports and renders left in the staging folder longer ago
// than a day: a process stopped half-way (an import and a server may share the folder,
// so what is recent may be in use).
func sweepStaging(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".tmp-") && !strings.HasPrefix(e.Name(), "derivative-") {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > 24*time.Hour {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// makeStoredSizes writes the import's sizes missing from the pyramid under prefix in
// the store.
func (s *Service) makeStoredSizes(ctx context.Context, prefix string, pyr Pyramid) error {
	for _, p := range s.importSizePlans(pyr) {
		key := sizeKey(prefix, p.Canonical(pyr.Width, pyr.Height))
		if _, err := s.blobs.Stat(ctx, key); err == nil {
			continue
		}
		img, err := renderFrom(storeTiles{ctx, s, prefix}, pyr, p, nil)
		if err != nil {
			return fmt.Errorf("make the %d × %d size: %w", p.Width, p.Height, err)
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: tileQuality}); err != nil {
			return err
		}
		if _, err := s.blobs.Put(ctx, key, &buf, blob.PutOptions{ContentType: "image/jpeg"}); err != nil {
			return err
		}
	}
	return nil
}

// makeImportSizes writes the import's sizes missing from the tile folder dir.
func (s *Service) makeImportSizes(dir string, pyr Pyramid) error {
	for _, p := range s.importSizePlans(pyr) {
		path := sizePath(dir, p.Canonical(pyr.Width, pyr.Height))
		if _, err := os.Stat(path); err == nil {
			continue
		}
		img, err := render(dir, pyr, p, nil)
		if err != nil {
			return fmt.Errorf("make the %d × %d size: %w", p.Width, p.Height, err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		// A server filling in missing sizes and an import may write the same one.
		var rnd [6]byte
		rand.Read(rnd[:])
		tmp := path + ".tmp-" + hex.EncodeToString(rnd[:])
		if err := writeJPEG(tmp, img); err != nil {
			os.Remove(tmp)
			return err
		}
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	return nil
}

// MakeMissingSizes makes the import's sizes of scans cut before imports made them,
// one scan at a time, so that they too are served from files. Until it reaches a scan,
// its thumbnail is made on demand like any other derivative. It returns how many
// scans it completed.
func (s *Service) MakeMissingSizes(ctx context.Context) (int, error) {
	done, after := 0, ""
	for {
		rows, err := s.db.QueryContext(ctx, s.db.Rebind(`SELECT id, version, width, height, levels FROM iiif_images WHERE id > ? ORDER BY id LIMIT 500`), after)
		type scan struct {
			id, version string
			pyr         Pyramid
		}
		page, err := store.Collect(rows, err, func(row store.Row) (sc scan, err error) {
			err = row.Scan(&sc.id, &sc.version, &sc.pyr.Width, &sc.pyr.Height, &sc.pyr.Levels)
			return sc, err
		})
		if err != nil {
			return done, err
		}
		if len(page) == 0 {
			return done, nil
		}
		for _, sc := range page {
			if err := ctx.Err(); err != nil {
				return done, err
			}
			prefix := tilesKey(sc.id, sc.version)
			missing := false
			for _, p := range s.importSizePlans(sc.pyr) {
				if _, err := s.blobs.Stat(ctx, sizeKey(prefix, p.Canonical(sc.pyr.Width, sc.pyr.Height))); err != nil {
					missing = true
				}
			}
			if !missing {
				continue
			}
			if _, err := s.blobs.Stat(ctx, prefix+tileName(0, 0, 0)); err != nil {
				continue // being replaced, or its tiles are gone
			}
			if err := s.makeStoredSizes(ctx, prefix, sc.pyr); err != nil {
				s.opts.Log.Warn("iiif: make the import's sizes", "id", sc.id, "err", err)
				continue
			}
			done++
		}
		after = page[len(page)-1].id
	}
}

// AddScan attaches one image (already decoded, or to be made by make) as page n of the
// item spec names. version identifies the pixels: the same version is not cut again.
func (s *Service) AddScan(ctx context.Context, spec ItemSpec, page int, pageLabel, source, version string, img func() (image.Image, error)) (string, bool, error) {
	itemID, slug, err := s.ensureItem(ctx, spec)
	if err != nil {
		return "", false, err
	}
	return s.putPage(ctx, itemID, slug, page, pageLabel, source, version, func(dir string) (Pyramid, error) {
		m, err := img()
		if err != nil {
			return Pyramid{}, err
		}
		return CutTiles(m, dir)
	})
}

// ImportOptions are the arguments of `lineage import images`.
type ImportOptions struct {
	Collection string
	Manifest   string   // a CSV file attaching files to records; "" → by file name
	Paths      []string // files and folders
	Access     string   // default access.Level of new items ("" public)
	// Out is called once per scan with its IIIF id and file.
	Out func(id, file string)
}

// ImportReport counts what an import did.
type ImportReport struct {
	Scans, Cut, Unchanged int
	Elapsed               time.Duration
}

var imageExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".tif": true, ".tiff": true}

// expand lists the image files of paths (folders recursively), sorted.
func expand(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && imageExts[strings.ToLower(filepath.Ext(path))] {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// pageSuffix splits "KEY_2", "KEY-p2" or "KEY_p002" into KEY and 2.
var pageSuffix = regexp.MustCompile(`^(.+?)[_-][pP]?(\d{1,4})$`)

// scanJob is one file to import with where it goes.
type scanJob struct {
	file      string
	spec      ItemSpec
	page      int
	pageLabel string
}

// Import reads image files and attaches each to a record or catalogue entry.
func (s *Service) Import(ctx context.Context, opts ImportOptions) (*ImportReport, error) {
	start := time.Now()
	if opts.Collection == "" {
		return nil, errors.New("--collection is required")
	}
	if _, err := access.Parse(opts.Access); err != nil {
		return nil, err
	}
	var jobs []scanJob
	var err error
	if opts.Manifest != "" {
		jobs, err = s.manifestJobs(opts)
	} else {
		jobs, err = s.nameJobs(ctx, opts)
	}
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, errors.New("no JPEG, PNG or TIFF files to import")
	}
	rep := &ImportReport{}
	for _, j := range jobs {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		id, changed, err := s.importFile(ctx, j)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", j.file, err)
		}
		rep.Scans++
		if changed {
			rep.Cut++
		} else {
			rep.Unchanged++
		}
		if opts.Out != nil {
			opts.Out(id, j.file)
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func (s *Service) importFile(ctx context.Context, j scanJob) (string, bool, error) {
	data, err := os.ReadFile(j.file)
	if err != nil {
		return "", false, err
	}
	sum := sha256.Sum256(data)
	version := hex.EncodeToString(sum[:8])
	return s.AddScan(ctx, j.spec, j.page, j.pageLabel, filepath.Base(j.file), version, func() (image.Image, error) {
		return decodeScan(data)
	})
}

// decodeScan decodes a JPEG, PNG or TIFF within the size bound.
func decodeScan(data []byte) (image.Image, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not a JPEG, PNG or TIFF image: %w", err)
	}
	if int64(cfg.Width)*int64(cfg.Height) > maxSourcePixels {
		return nil, fmt.Errorf("the %s image is %d × %d pixels, more than this server cuts (%d megapixels)", format, cfg.Width, cfg.Height, maxSourcePixels/1_000_000)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", format, err)
	}
	return img, nil
}

// nameJobs attaches files by name: KEY.jpg, KEY_2.jpg, KEY-p2.jpg.
func (s *Service) nameJobs(ctx context.Context, opts ImportOptions) ([]scanJob, error) {
	files, err := expand(opts.Paths)
	if err != nil {
		return nil, err
	}
	var jobs []scanJob
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		spec := ItemSpec{Collection: opts.Collection, TargetKey: name, Access: opts.Access}
		page := 1
		if _, err := s.resolveTarget(ctx, spec); err != nil {
			m := pageSuffix.FindStringSubmatch(name)
			if m == nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			spec.TargetKey = m[1]
			page, _ = strconv.Atoi(m[2])
			if _, err2 := s.resolveTarget(ctx, spec); err2 != nil || page < 1 {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
		}
		jobs = append(jobs, scanJob{file: f, spec: spec, page: page})
	}
	return jobs, nil
}

// manifestJobs reads the manifest CSV (docs/iiif.md).
func (s *Service) manifestJobs(opts ImportOptions) ([]scanJob, error) {
	f, err := os.Open(opts.Manifest)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := ParseManifestCSV(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Manifest, err)
	}
	given, err := expand(opts.Paths)
	if err != nil {
		return nil, err
	}
	byBase := map[string]string{}
	for _, g := range given {
		byBase[filepath.Base(g)] = g
	}
	var dirs []string
	for _, p := range opts.Paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			dirs = append(dirs, p)
		}
	}
	dirs = append(dirs, filepath.Dir(opts.Manifest))
	pages := map[string]int{}
	firsts := map[string]ItemSpec{}
	var jobs []scanJob
	for _, r := range rows {
		file := ""
		if filepath.IsAbs(r.File) {
			file = r.File
		} else if g, ok := byBase[filepath.Base(r.File)]; ok {
			file = g
		} else {
			for _, d := range dirs {
				if _, err := os.Stat(filepath.Join(d, r.File)); err == nil {
					file = filepath.Join(d, r.File)
					break
				}
			}
		}
		if file == "" {
			return nil, fmt.Errorf("%s line %d: cannot find %q", opts.Manifest, r.Line, r.File)
		}
		spec := ItemSpec{Collection: opts.Collection, TargetKey: r.Ref, RecordID: r.RecordID, Person: r.Person, Slug: r.Item, Label: r.Label,
			Access: r.Access, Rights: r.Rights, Attribution: r.Attribution}
		if spec.Access == "" {
			spec.Access = opts.Access
		}
		group := r.Item
		if group == "" {
			group = r.Ref + "\x00" + strconv.FormatInt(r.RecordID, 10) + "\x00" + r.Person
		}
		// The first row of an item gives its label, access, rights and attribution;
		// later rows may leave them empty.
		if first, ok := firsts[group]; ok {
			spec.Label = cmp.Or(spec.Label, first.Label)
			spec.Access = cmp.Or(r.Access, first.Access)
			spec.Rights = cmp.Or(spec.Rights, first.Rights)
			spec.Attribution = cmp.Or(spec.Attribution, first.Attribution)
		} else {
			firsts[group] = spec
		}
		page := r.Page
		if page == 0 {
			page = pages[group] + 1
		}
		pages[group] = max(pages[group], page)
		jobs = append(jobs, scanJob{file: file, spec: spec, page: page, pageLabel: r.PageLabel})
	}
	return jobs, nil
}

// ManifestRow is one row of an import's manifest CSV.
type ManifestRow struct {
	Line        int
	File        string
	Ref         string // record key, library key or archive reference
	RecordID    int64
	Person      string // TREE-SLUG:XREF
	Item        string
	Label       string
	Page        int
	PageLabel   string
	Access      string
	Rights      string
	Attribution string
}

var manifestColumns = []string{"file", "record", "record_id", "item_ref", "person", "item", "label", "page", "page_label", "access", "rights", "attribution"}

// ParseManifestCSV reads the manifest CSV: a header naming columns (any order), then
// one row per file.
func ParseManifestCSV(r io.Reader) ([]ManifestRow, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("the manifest is empty")
	}
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		known := false
		for _, c := range manifestColumns {
			known = known || c == h
		}
		if !known {
			return nil, fmt.Errorf("unknown column %q (known: %s)", h, strings.Join(manifestColumns, ", "))
		}
		if _, dup := col[h]; dup {
			return nil, fmt.Errorf("column %q appears twice", h)
		}
		col[h] = i
	}
	if _, ok := col["file"]; !ok {
		return nil, errors.New("the manifest needs a file column")
	}
	var out []ManifestRow
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		row := ManifestRow{Line: line, File: get("file"), Item: get("item"), Label: get("label"), PageLabel: get("page_label"),
			Access: get("access"), Rights: get("rights"), Attribution: get("attribution")}
		if row.File == "" {
			if strings.Join(rec, "") == "" {
				continue
			}
			return nil, fmt.Errorf("line %d: the file is empty", line)
		}
		refs := 0
		if v := get("record"); v != "" {
			row.Ref = v
			refs++
		}
		if v := get("item_ref"); v != "" {
			row.Ref = v
			refs++
		}
		if v := get("record_id"); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("line %d: record_id %q is not a positive whole number", line, v)
			}
			row.RecordID = n
			refs++
		}
		if v := get("person"); v != "" {
			if slug, xref, ok := strings.Cut(v, ":"); !ok || slug == "" || xref == "" {
				return nil, fmt.Errorf("line %d: person %q: want TREE-SLUG:XREF", line, v)
			}
			row.Person = v
			refs++
		}
		if refs != 1 {
			return nil, fmt.Errorf("line %d: give exactly one of record, record_id, item_ref and person", line)
		}
		if v := get("page"); v != "" {
			n, ok := positiveInt(v)
			if !ok || n > 9999 {
				return nil, fmt.Errorf("line %d: page %q is not a whole number from 1 to 9999", line, v)
			}
			row.Page = n
		}
		if _, err := access.Parse(row.Access); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if row.Rights != "" && !strings.HasPrefix(row.Rights, "http://") && !strings.HasPrefix(row.Rights, "https://") {
			return nil, fmt.Errorf("line %d: rights must be a URI (e.g. http://rightsstatements.org/vocab/InC/1.0/)", line)
		}
		if row.Item != "" && !validID(Slugify(row.Item)) {
			return nil, fmt.Errorf("line %d: item %q has no letters or digits", line, row.Item)
		}
		out = append(out, row)
	}
	return out, nil
}
